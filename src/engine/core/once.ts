/**
 * Operations a caller named with an idempotency key (IdempotencyKeySchema): each runs once, and a
 * retry with the same key gets the first run's outcome. A replica of the HTTP service that dies
 * mid-act leaves its act running here, in the browser; the replica that takes the session over
 * retries with the same key and is answered by that run instead of clicking again.
 */
import { DeckhandError, ErrorCode } from '../../protocol/errors';

/** How long a finished run's outcome is kept for a retry. */
const KEEP_MS = 10 * 60_000;
/** The most runs remembered; the oldest finished ones go first. */
const MAX_RUNS = 500;

interface Run {
  /** What was asked (the method and its params without the per-call opId): a retry must ask the same. */
  asked: string;
  outcome: Promise<unknown>;
  /** Cancels the run (op.cancel by a retry's own opId). */
  control: AbortController;
  /** When it finished (0 while it runs). */
  endedAt: number;
}

export class OnceRuns {
  private readonly runs = new Map<string, Run>();

  /** The run under `key`, if one is kept; a retry that asks something else is refused. */
  find(key: string, asked: string): Run | undefined {
    this.prune();
    const run = this.runs.get(key);
    if (run && run.asked !== asked) {
      throw new DeckhandError(
        ErrorCode.InvalidArgument,
        'this idempotency key names an operation with other parameters; a retry must send the same ones (or use a new key)',
        { idempotencyKey: key },
      );
    }
    return run;
  }

  /** Keep `outcome` under `key`; it settles the same for every retry. */
  keep(key: string, asked: string, outcome: Promise<unknown>, control: AbortController): void {
    const run: Run = { asked, outcome, control, endedAt: 0 };
    this.runs.set(key, run);
    const ended = () => void (run.endedAt = Date.now());
    outcome.then(ended, ended);
  }

  private prune(): void {
    const now = Date.now();
    for (const [key, run] of this.runs) {
      const over = this.runs.size > MAX_RUNS;
      if (run.endedAt && (over || now - run.endedAt > KEEP_MS)) this.runs.delete(key);
    }
  }
}
