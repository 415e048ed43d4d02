/** Chromium's stderr, kept for launch errors: the last few KB, and the lines that say why it failed. */

const KEEP_BYTES = 8192;

/** A bounded tail of a child process's stderr. */
export class OutputTail {
  private text = '';
  push(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-KEEP_BYTES);
  }
  toString(): string {
    return this.text;
  }
}

// `[pid:tid:date:LEVEL:source.cc:line] message` (pid and tid are missing in some builds).
const LOG_LINE = /^\[[^\]]*?:(VERBOSE\d*|INFO|WARNING|ERROR|FATAL):([^\]:]+)(?::\d+)?\]\s*(.*)$/;

/** Noise every run prints, never the reason for a failure. */
function isNoise(line: string, source?: string): boolean {
  if (/unexpected operator$/.test(line)) return true; // the Debian wrapper script's harmless test
  if (/^#\d+ 0x[0-9a-f]+/i.test(line) || /^(Received signal|Task trace:|Crash keys:|\[end of stack trace\])/.test(line)) return true;
  if (/^DevTools listening on/.test(line)) return true;
  if (source && /^(dbus|gpu|components\/viz|chrome\/browser\/(ui|updater|component_updater))\//.test(source)) return true;
  return false;
}

/**
 * The last few meaningful lines of Chromium's stderr, joined with ' | ' ('' when there are
 * none): errors first if there are any, with the log prefix dropped.
 */
export function chromiumReason(stderr: string, max = 3): string {
  const errors: string[] = [];
  const other: string[] = [];
  for (const raw of stderr.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const m = LOG_LINE.exec(line);
    if (m) {
      const [, level, source, message] = m;
      if (isNoise(line, source) || /^(VERBOSE|INFO)/.test(level!)) continue;
      (level === 'ERROR' || level === 'FATAL' ? errors : other).push(`${level === 'FATAL' ? 'FATAL: ' : ''}${message!.trim()}`.slice(0, 300));
    } else if (!isNoise(line)) other.push(line.slice(0, 300));
  }
  const pick = (errors.length ? errors : other).filter((l, i, all) => all.indexOf(l) === i);
  return pick.slice(-max).join(' | ');
}
