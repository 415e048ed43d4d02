/**
 * What a browser handle needs from its transport to the extension's worker,
 * whichever it is: CDP to the worker target (ExtensionLink) or the WebSocket
 * bridge the worker dials out to (BridgeLink).
 */
import type { DeckhandError } from '../protocol/errors';
import type { CommandClient, MethodName, Params } from '../protocol/methods';
import { DEFAULTS } from '../protocol/schemas';

export interface WorkerLink extends CommandClient {
  readonly extensionId: string;
  /** False once the link is closed for good (the browser closed, the pairing ended, close() was called). */
  readonly isConnected: boolean;
  /** Answer a call the worker makes to this client (callback models, tools, log lines). */
  handle(method: string, handler: (params: unknown) => Promise<unknown> | unknown): void;
  close(reason?: DeckhandError): Promise<void>;
}

/** The RPC deadline of a call: the operation's own timeout (or the default) plus a grace for the trip. */
export function rpcDeadline<M extends MethodName>(params: Params<M>, opts: { timeoutMs?: number }): number {
  const p = params as { timeout?: number; options?: { timeout?: number } } | undefined;
  const opTimeout = opts.timeoutMs ?? p?.timeout ?? p?.options?.timeout ?? DEFAULTS.navigationTimeoutMs;
  return opTimeout + DEFAULTS.rpcGraceMs;
}
