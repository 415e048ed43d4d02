/**
 * Cancellation inside the engine. Each call runs under one AbortSignal (CallContext.signal),
 * aborted when its caller cancels it (op.cancel), when the caller goes away, or at the call's
 * deadline; the reason is the DeckhandError to report (CANCELLED, TIMEOUT). Every wait of a
 * cancellable operation races this signal, so it stops at once instead of at its own timeout.
 */
import { DeckhandError, ErrorCode } from '../../protocol/errors';

/** The error a cancelled signal stands for. */
export function cancelledError(signal: AbortSignal): DeckhandError {
  const r: unknown = signal.reason;
  if (r instanceof DeckhandError) return r;
  return new DeckhandError(ErrorCode.Cancelled, 'the operation was cancelled by its caller');
}

export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError(signal);
}

/**
 * `p`, or its signal's error as soon as the signal aborts (then `onAbort` runs, to stop the
 * work itself where it can: stop a page loading, end a wait in the page). `p` goes on in the
 * background; its outcome is dropped.
 */
export function raceCancel<T>(p: Promise<T>, signal: AbortSignal | undefined, onAbort?: () => void): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) {
    p.catch(() => undefined);
    onAbort?.();
    return Promise.reject(cancelledError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      p.catch(() => undefined);
      try {
        onAbort?.();
      } finally {
        reject(cancelledError(signal));
      }
    };
    signal.addEventListener('abort', abort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** Sleep `ms`, ending early (rejecting) when the signal aborts. */
export function cancellableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return raceCancel(new Promise<void>((r) => setTimeout(r, ms)), signal);
}
