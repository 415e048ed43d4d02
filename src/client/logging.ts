/**
 * Logging of operations (Node side): level, text or JSON lines, or a callback.
 * Worker log events arrive over the RPC; nothing here ever holds a key.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface LogLine {
  level: Exclude<LogLevel, 'silent'>;
  message: string;
  timestamp: string;
  data?: Record<string, unknown>;
}

export interface LoggingOptions {
  /** Lowest level reported; default 'warn'. */
  level?: LogLevel;
  /** How lines are written to stderr when there is no callback; default 'text'. */
  format?: 'text' | 'json';
  /** Receives every line at or above the level instead of stderr. */
  callback?: (line: LogLine) => void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export class Logger {
  private readonly level: LogLevel;
  constructor(private readonly options: LoggingOptions = {}) {
    const level = options.level ?? 'warn';
    if (!Object.hasOwn(RANK, level)) throw new Error(`logging.level must be one of ${Object.keys(RANK).join(', ')}`);
    if (options.format !== undefined && options.format !== 'text' && options.format !== 'json') throw new Error("logging.format must be 'text' or 'json'");
    this.level = level;
  }

  log(level: Exclude<LogLevel, 'silent'>, message: string, data?: Record<string, unknown>): void {
    if (RANK[level] < RANK[this.level]) return;
    const line: LogLine = { level, message, timestamp: new Date().toISOString(), ...(data ? { data } : {}) };
    if (this.options.callback) {
      try {
        this.options.callback(line);
      } catch {
        // A failing log callback must not fail the operation.
      }
      return;
    }
    process.stderr.write(this.options.format === 'json' ? `${JSON.stringify(line)}\n` : `[deckhand] ${line.timestamp} ${level.toUpperCase()} ${message}\n`);
  }
}
