/**
 * Error codes shared by every side of Deckhand. An error crosses the RPC as
 * `{ code, message, data? }` and is rebuilt as a `DeckhandError` on the far side,
 * so callers can branch on `code` whatever transport carried it.
 */
import { z } from 'zod';

export const ErrorCode = {
  /** An argument the call cannot take (a bad value or type, an unknown option). */
  InvalidArgument: 'INVALID_ARGUMENT',
  /** A CSS or XPath selector that does not parse, or an empty one. */
  InvalidSelector: 'INVALID_SELECTOR',
  /** No element matches (the selector, or what the model was asked for). */
  ElementNotFound: 'ELEMENT_NOT_FOUND',
  /** The element is there but cannot take the action (hidden, disabled, detached). */
  ElementNotActionable: 'ELEMENT_NOT_ACTIONABLE',
  /** Another element covers the point a click would land on. */
  ElementCovered: 'ELEMENT_COVERED',
  /** An Action's method is not one the engine performs. */
  UnsupportedMethod: 'UNSUPPORTED_METHOD',
  /** The action ran and failed (a replayed flow's step whose element is gone, say). */
  ActionFailed: 'ACTION_FAILED',
  /** A deadline passed. */
  Timeout: 'TIMEOUT',
  /** The page was closed before or during the call. */
  PageClosed: 'PAGE_CLOSED',
  /** The frame acted in went away. */
  FrameDetached: 'FRAME_DETACHED',
  /** A navigation failed (the address did not answer, the load was aborted). */
  NavigationFailed: 'NAVIGATION_FAILED',
  /** The page (or the frame acted in) shows Chromium's error page for a navigation that failed: there is no document to act on. */
  PageError: 'PAGE_ERROR',
  /** A URL whose scheme the operator has not opened (file:, chrome:, ...). */
  UrlNotAllowed: 'URL_NOT_ALLOWED',
  /** The page declares no tool (WebMCP) by that name now, or the browser offers none. */
  ToolNotFound: 'TOOL_NOT_FOUND',
  /** The page's tool threw, refused its input, or its form would not take the values. */
  ToolFailed: 'TOOL_FAILED',
  /** The page took the tool away or registered it anew while it ran: its answer cannot be trusted to be the tool's asked for. */
  ToolChanged: 'TOOL_CHANGED',
  /** The page's tool answered with more text than a call keeps (PAGE_TOOL_LIMITS.outputChars). */
  ToolOutputTooLarge: 'TOOL_OUTPUT_TOO_LARGE',
  /** JavaScript given to page.evaluate threw or did not compile. */
  EvaluationFailed: 'EVALUATION_FAILED',
  /** The extension's service worker stopped before answering; the next call starts it again. */
  WorkerGone: 'WORKER_GONE',
  /** The browser is closed, or its connection dropped. */
  BrowserClosed: 'BROWSER_CLOSED',
  /** No browser could be had: the Selenium Grid refused the new session, its queue is full, or it is down (its own words in the message). */
  BrowserUnavailable: 'BROWSER_UNAVAILABLE',
  /** The browser has no Deckhand extension, or the extension is not built. */
  ExtensionMissing: 'EXTENSION_MISSING',
  /** Used before it was set up. */
  NotInitialized: 'NOT_INITIALIZED',
  /** The browser handle already backs a Deckhand instance (or a name is taken). */
  AlreadyInUse: 'ALREADY_IN_USE',
  /** This Deckhand instance or connection is closed. */
  Closed: 'CLOSED',
  /** A model operation with no usable model (a provider name without its key, say). */
  NoModelConfigured: 'NO_MODEL_CONFIGURED',
  /** The model provider refused the credentials. */
  ModelAuthFailed: 'MODEL_AUTH_FAILED',
  /** The model provider is rate limiting. */
  ModelRateLimited: 'MODEL_RATE_LIMITED',
  /** The model provider answered with an error. */
  ModelProviderError: 'MODEL_PROVIDER_ERROR',
  /** The model provider could not be reached. */
  ModelUnreachable: 'MODEL_UNREACHABLE',
  /** The model's answer does not fit what was asked (extract's schema, say). */
  ModelOutputInvalid: 'MODEL_OUTPUT_INVALID',
  /** The model declined the request. */
  ModelRefused: 'MODEL_REFUSED',
  /** An experimentalBatch callback threw; `data.stack` has its JavaScript stack when the worker sent it. */
  BatchFailed: 'BATCH_FAILED',
  /** Not available here: a feature this client or platform does not have. */
  Unavailable: 'UNAVAILABLE',
  /** The operation was stopped in the worker before it finished: its caller or another client cancelled it, or a batch stopped its operations. */
  Cancelled: 'CANCELLED',
  /** A step the caller asked to approve was refused: Stop or Skip was chosen, or nobody answered by the approval's deadline. */
  NotApproved: 'NOT_APPROVED',
  /** The person at the browser paused programs' runs in the side panel, and the operation's own timeout ran out before they resumed. */
  Paused: 'PAUSED',
  /** A message that does not follow the protocol (an answer of the wrong shape, say). */
  ProtocolError: 'PROTOCOL_ERROR',
  /** A failure with no more specific code (and any code this client does not know). */
  Internal: 'INTERNAL',
  // Errors of the Node services (HTTP and MCP): who may call, which session, what request.
  /** The Deckhand service refused the API key. */
  Unauthorized: 'UNAUTHORIZED',
  /** The Deckhand service has no such session. */
  SessionNotFound: 'SESSION_NOT_FOUND',
  /** A session id that is not well formed. */
  InvalidSessionId: 'INVALID_SESSION_ID',
  /** The session is running another call. */
  SessionBusy: 'SESSION_BUSY',
  /** The Deckhand service runs as many sessions as it may. */
  TooManySessions: 'TOO_MANY_SESSIONS',
  /** Nothing under that name or path (a saved flow, an HTTP route). */
  NotFound: 'NOT_FOUND',
  /** An HTTP method the route does not take. */
  MethodNotAllowed: 'METHOD_NOT_ALLOWED',
  /** A request body that is not JSON. */
  InvalidJson: 'INVALID_JSON',
  /** A request header that is not well formed. */
  InvalidHeader: 'INVALID_HEADER',
  /** A request body over the service's limit. */
  BodyTooLarge: 'BODY_TOO_LARGE',
  /** A request body of a type the service does not read. */
  UnsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  /** A Host header the service does not answer to. */
  HostNotAllowed: 'HOST_NOT_ALLOWED',
  /** A browser Origin the service does not answer to. */
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
  TOOL_NOT_FOUND: { http: 422, mcp: null },
  TOOL_FAILED: { http: 422, mcp: null },
  TOOL_CHANGED: { http: 422, mcp: null },
  TOOL_OUTPUT_TOO_LARGE: { http: 422, mcp: null },
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
