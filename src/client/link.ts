/**
 * What a browser handle needs from its transport to the extension's worker,
 * whichever it is: CDP to the worker target (ExtensionLink) or the WebSocket
 * bridge the worker dials out to (BridgeLink).
 */
import type { DeckhandError } from '../protocol/errors';
import { isModelOperation, type ClientMethods, type CommandClient, type MethodName, type Params } from '../protocol/methods';
import type { z } from 'zod';
import { checkMs, DEFAULTS, MAX_CALL_MS } from '../protocol/schemas';

export interface WorkerLink extends CommandClient {
  readonly extensionId: string;
  /** False once the link is closed for good (the browser closed, the pairing ended, close() was called). */
  readonly isConnected: boolean;
  /** Answer a call the worker makes to this client (callback models, tools, the cache, log lines); params arrive checked. */
  serve<M extends ClientMethodName>(method: M, handler: ClientHandler<M>): void;
  /** Stop the deadlines of the calls in flight while `p` runs (the worker waits on a person's approval). */
  hold<T>(p: Promise<T>): Promise<T>;
  close(reason?: DeckhandError): Promise<void>;
}

export type ClientMethodName = keyof typeof ClientMethods;
export type ClientHandler<M extends ClientMethodName> = (
  params: z.output<(typeof ClientMethods)[M]['params']>,
) => Promise<z.input<(typeof ClientMethods)[M]['result']>> | z.input<(typeof ClientMethods)[M]['result']>;

/** The RPC deadline of a call: the operation's own timeout (or the default) plus a grace for the trip. */
export function rpcDeadline<M extends MethodName>(method: M, params: Params<M>, opts: { timeoutMs?: number }): number {
  const p = params as { timeout?: number; options?: { timeout?: number } } | undefined;
  const given = p?.timeout ?? p?.options?.timeout;
  // Checked here too, before anything is sent: past 2^31 ms Node's timers fire at once.
  if (given !== undefined) checkMs(`${method}: timeout`, given);
  // A model operation without a timeout may take the engine's model default (120 s), not a navigation's.
  const opTimeout = opts.timeoutMs ?? given ?? (isModelOperation(method, params) ? DEFAULTS.modelOperationTimeoutMs : DEFAULTS.navigationTimeoutMs);
  return Math.min(opTimeout, MAX_CALL_MS) + DEFAULTS.rpcGraceMs;
}
