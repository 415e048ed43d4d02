/**
 * What a browser handle needs from its transport to the extension's worker,
 * whichever it is: CDP to the worker target (ExtensionLink) or the WebSocket
 * bridge the worker dials out to (BridgeLink).
 */
import type { DeckhandError } from '../protocol/errors';
import type { ClientMethods, CommandClient } from '../protocol/methods';
import type { z } from 'zod';

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
