/**
 * Error codes shared by every side of Deckhand. An error crosses the RPC as
 * `{ code, message, data? }` and is rebuilt as a `DeckhandError` on the far side,
 * so callers can branch on `code` whatever transport carried it.
 */
import { z } from 'zod';

export const ErrorCode = {
  InvalidArgument: 'INVALID_ARGUMENT',
  InvalidSelector: 'INVALID_SELECTOR',
  ElementNotFound: 'ELEMENT_NOT_FOUND',
  ElementNotActionable: 'ELEMENT_NOT_ACTIONABLE',
  ElementCovered: 'ELEMENT_COVERED',
  UnsupportedMethod: 'UNSUPPORTED_METHOD',
  ActionFailed: 'ACTION_FAILED',
  Timeout: 'TIMEOUT',
  PageClosed: 'PAGE_CLOSED',
  FrameDetached: 'FRAME_DETACHED',
  NavigationFailed: 'NAVIGATION_FAILED',
  /** A URL whose scheme the operator has not opened (file:, chrome:, ...). */
  UrlNotAllowed: 'URL_NOT_ALLOWED',
  EvaluationFailed: 'EVALUATION_FAILED',
  WorkerGone: 'WORKER_GONE',
  BrowserClosed: 'BROWSER_CLOSED',
  ExtensionMissing: 'EXTENSION_MISSING',
  NotInitialized: 'NOT_INITIALIZED',
  AlreadyInUse: 'ALREADY_IN_USE',
  Closed: 'CLOSED',
  NoModelConfigured: 'NO_MODEL_CONFIGURED',
  ModelAuthFailed: 'MODEL_AUTH_FAILED',
  ModelRateLimited: 'MODEL_RATE_LIMITED',
  ModelProviderError: 'MODEL_PROVIDER_ERROR',
  ModelUnreachable: 'MODEL_UNREACHABLE',
  ModelOutputInvalid: 'MODEL_OUTPUT_INVALID',
  ModelRefused: 'MODEL_REFUSED',
  BatchFailed: 'BATCH_FAILED',
  Unavailable: 'UNAVAILABLE',
  Cancelled: 'CANCELLED',
  ProtocolError: 'PROTOCOL_ERROR',
  Internal: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
export const ErrorCodeSchema = z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]);

/** An error as Deckhand sends it, whatever the transport. */
export const SerializedErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  data: z.record(z.unknown()).optional(),
});
export type SerializedError = z.infer<typeof SerializedErrorSchema>;

/** An error as Deckhand accepts it: a code it does not know (a newer peer's) is read as INTERNAL by deserializeError. */
export const ReceivedErrorSchema = SerializedErrorSchema.extend({ code: z.string() });

export class DeckhandError extends Error {
  readonly code: ErrorCode;
  readonly data?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, data?: Record<string, unknown>) {
    super(message);
    this.name = 'DeckhandError';
    this.code = code;
    this.data = data;
  }
  toJSON(): SerializedError {
    return { code: this.code, message: this.message, ...(this.data ? { data: this.data } : {}) };
  }
}

export const isDeckhandError = (e: unknown): e is DeckhandError => e instanceof DeckhandError;

/** Turn anything thrown into the wire shape; unknown errors become INTERNAL with their message. */
export function serializeError(e: unknown): SerializedError {
  if (e instanceof DeckhandError) return e.toJSON();
  const message = e instanceof Error ? e.message : String(e);
  return { code: ErrorCode.Internal, message };
}

export function deserializeError(e: SerializedError): DeckhandError {
  const known = Object.values(ErrorCode) as string[];
  const code = known.includes(e.code) ? e.code : ErrorCode.Internal;
  return new DeckhandError(code, e.message, e.data);
}
