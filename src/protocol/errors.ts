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
  /** The page (or the frame acted in) shows Chromium's error page for a navigation that failed: there is no document to act on. */
  PageError: 'PAGE_ERROR',
  /** A URL whose scheme the operator has not opened (file:, chrome:, ...). */
  UrlNotAllowed: 'URL_NOT_ALLOWED',
  EvaluationFailed: 'EVALUATION_FAILED',
  WorkerGone: 'WORKER_GONE',
  BrowserClosed: 'BROWSER_CLOSED',
  /** No browser could be had: the Selenium Grid refused the new session, its queue is full, or it is down (its own words in the message). */
  BrowserUnavailable: 'BROWSER_UNAVAILABLE',
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
  /** A step the caller asked to approve was refused: Stop or Skip was chosen, or nobody answered by the approval's deadline. */
  NotApproved: 'NOT_APPROVED',
  /** The person at the browser paused programs' runs in the side panel, and the operation's own timeout ran out before they resumed. */
  Paused: 'PAUSED',
  ProtocolError: 'PROTOCOL_ERROR',
  Internal: 'INTERNAL',
  // Errors of the Node services (HTTP and MCP): who may call, which session, what request.
  Unauthorized: 'UNAUTHORIZED',
  SessionNotFound: 'SESSION_NOT_FOUND',
  InvalidSessionId: 'INVALID_SESSION_ID',
  SessionBusy: 'SESSION_BUSY',
  TooManySessions: 'TOO_MANY_SESSIONS',
  NotFound: 'NOT_FOUND',
  MethodNotAllowed: 'METHOD_NOT_ALLOWED',
  InvalidJson: 'INVALID_JSON',
  InvalidHeader: 'INVALID_HEADER',
  BodyTooLarge: 'BODY_TOO_LARGE',
  UnsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  HostNotAllowed: 'HOST_NOT_ALLOWED',
  OriginNotAllowed: 'ORIGIN_NOT_ALLOWED',
  /** A caller's DevTools address (cdpUrl) names a host the operator has not opened (--allow-cdp-hosts). */
  CdpHostNotAllowed: 'CDP_HOST_NOT_ALLOWED',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
export const ErrorCodeSchema = z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]);

/**
 * The one table from an error code to how each transport says it: the HTTP status, and for
 * MCP whether it is a JSON-RPC error of the request itself (its JSON-RPC code) or a tool
 * result with `isError` (null: the tool ran and failed). Every code has a row, so a new code
 * cannot go unmapped. Bad input 400, page-level failures 422, providers 502, deadlines 504.
 */
export const ERROR_MAP: Readonly<Record<ErrorCode, { http: number; mcp: number | null }>> = {
  INVALID_ARGUMENT: { http: 400, mcp: null },
  INVALID_SELECTOR: { http: 400, mcp: null },
  UNSUPPORTED_METHOD: { http: 400, mcp: null },
  NO_MODEL_CONFIGURED: { http: 400, mcp: null },
  ELEMENT_NOT_FOUND: { http: 422, mcp: null },
  ELEMENT_NOT_ACTIONABLE: { http: 422, mcp: null },
  ELEMENT_COVERED: { http: 422, mcp: null },
  ACTION_FAILED: { http: 422, mcp: null },
  MODEL_REFUSED: { http: 422, mcp: null },
  EVALUATION_FAILED: { http: 422, mcp: null },
  NAVIGATION_FAILED: { http: 422, mcp: null },
  PAGE_ERROR: { http: 422, mcp: null },
  BATCH_FAILED: { http: 422, mcp: null },
  URL_NOT_ALLOWED: { http: 403, mcp: null },
  MODEL_AUTH_FAILED: { http: 502, mcp: null },
  MODEL_PROVIDER_ERROR: { http: 502, mcp: null },
  MODEL_UNREACHABLE: { http: 502, mcp: null },
  MODEL_OUTPUT_INVALID: { http: 502, mcp: null },
  EXTENSION_MISSING: { http: 502, mcp: null },
  MODEL_RATE_LIMITED: { http: 503, mcp: null },
  WORKER_GONE: { http: 503, mcp: null },
  BROWSER_CLOSED: { http: 503, mcp: null },
  BROWSER_UNAVAILABLE: { http: 503, mcp: null },
  UNAVAILABLE: { http: 503, mcp: null },
  PAGE_CLOSED: { http: 409, mcp: null },
  FRAME_DETACHED: { http: 409, mcp: null },
  CLOSED: { http: 409, mcp: null },
  CANCELLED: { http: 409, mcp: null },
  NOT_APPROVED: { http: 409, mcp: null },
  PAUSED: { http: 409, mcp: null },
  NOT_INITIALIZED: { http: 409, mcp: null },
  ALREADY_IN_USE: { http: 409, mcp: null },
  TIMEOUT: { http: 504, mcp: null },
  PROTOCOL_ERROR: { http: 400, mcp: -32600 },
  INTERNAL: { http: 500, mcp: -32603 },
  UNAUTHORIZED: { http: 401, mcp: -32001 },
  SESSION_NOT_FOUND: { http: 404, mcp: -32001 },
  INVALID_SESSION_ID: { http: 400, mcp: -32602 },
  SESSION_BUSY: { http: 409, mcp: null },
  TOO_MANY_SESSIONS: { http: 429, mcp: null },
  NOT_FOUND: { http: 404, mcp: -32601 },
  METHOD_NOT_ALLOWED: { http: 405, mcp: -32600 },
  INVALID_JSON: { http: 400, mcp: -32700 },
  INVALID_HEADER: { http: 400, mcp: -32600 },
  BODY_TOO_LARGE: { http: 413, mcp: -32600 },
  UNSUPPORTED_MEDIA_TYPE: { http: 415, mcp: -32600 },
  HOST_NOT_ALLOWED: { http: 403, mcp: -32600 },
  ORIGIN_NOT_ALLOWED: { http: 403, mcp: -32600 },
  CDP_HOST_NOT_ALLOWED: { http: 403, mcp: null },
};

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
