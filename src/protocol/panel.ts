/**
 * Wire shapes of the side panel and the WebSocket bridge: the panel-only RPC
 * methods (over a chrome.runtime port), the bridge's control frames, and the
 * manual QA recording the panel keeps and exports.
 */
import { z } from 'zod';
import { ClientMethods } from './methods';

/** The chrome.runtime port name the side panel connects with. */
export const PANEL_PORT = 'deckhand-panel';

/** Where the worker's dial-out to a local Node client stands. */
export const BridgeStatusSchema = z.object({
  state: z.enum(['off', 'connecting', 'attached', 'reconnecting', 'refused', 'error']),
  port: z.number().int().optional(),
  /** What the person should read: why it was refused, what failed, who is attached. */
  message: z.string().optional(),
  /** When the current state began (ms since epoch). */
  since: z.number(),
});
export type BridgeStatus = z.infer<typeof BridgeStatusSchema>;

export const BridgePortSchema = z.number().int().min(1024, 'port must be 1024 or above').max(65535, 'port must be at most 65535');
export const PairingTokenSchema = z.string().trim().regex(/^[A-Za-z0-9_-]{6,128}$/, 'the pairing token is 6 to 128 letters, digits, - or _');

/** Methods only the side panel may call (the engine's Methods are available to it as well). */
export const PanelMethods = {
  'bridge.connect': { params: z.object({ port: BridgePortSchema, token: PairingTokenSchema }).strict(), result: BridgeStatusSchema },
  'bridge.disconnect': { params: z.object({}).strict(), result: BridgeStatusSchema },
  'bridge.status': { params: z.object({}).strict(), result: BridgeStatusSchema },
} as const;
export type PanelMethodName = keyof typeof PanelMethods;

/** Calls the worker makes to a side panel: the log lines of its operations, and bridge changes. */
export const PanelClientMethods = {
  log: ClientMethods.log,
  'bridge.changed': { params: BridgeStatusSchema, result: z.null() },
} as const;

/**
 * Bridge control frames. After `welcome` the socket carries RPC messages
 * (kinds req/res/err, see rpc.ts) in both directions; control frames never share those kinds.
 */
export const BridgeFrameSchema = z.discriminatedUnion('kind', [
  /** Worker → Node, first frame: the one-time pairing token, or the secret of an earlier pairing. */
  z.object({ kind: z.literal('hello'), token: z.string().optional(), secret: z.string().optional(), extensionId: z.string(), version: z.string() }).strict(),
  /** Node → worker: paired; `secret` lets this worker reconnect after a restart (the token is spent). */
  z.object({ kind: z.literal('welcome'), secret: z.string(), client: z.string() }).strict(),
  /** Either side: keepalive (MV3 idles a worker out 30 s after its last event). */
  z.object({ kind: z.literal('ping') }).strict(),
  z.object({ kind: z.literal('pong') }).strict(),
  /** Either side: a deliberate goodbye; the worker forgets the pairing, the client stops waiting. */
  z.object({ kind: z.literal('bye'), reason: z.string() }).strict(),
]);
export type BridgeFrame = z.infer<typeof BridgeFrameSchema>;
const BRIDGE_CONTROL_KINDS = new Set(['hello', 'welcome', 'ping', 'pong', 'bye']);

/**
 * Read one bridge message, on either end: a control frame, an RPC message (already
 * parsed, for RpcPeer.receiveParsed), or null for anything unusable (dropped).
 */
export function readBridgeMessage(data: unknown): { frame: BridgeFrame } | { rpc: unknown } | null {
  if (typeof data !== 'string') return null;
  let msg: unknown;
  try {
    msg = JSON.parse(data);
  } catch {
    return null;
  }
  const kind = (msg as { kind?: unknown } | null)?.kind;
  if (typeof kind !== 'string' || !BRIDGE_CONTROL_KINDS.has(kind)) return { rpc: msg };
  const frame = BridgeFrameSchema.safeParse(msg);
  return frame.success ? { frame: frame.data } : null;
}

/** A control frame, or null for anything else (where only a control frame may come). */
export function readBridgeFrame(data: unknown): BridgeFrame | null {
  const m = readBridgeMessage(data);
  return m && 'frame' in m ? m.frame : null;
}
/** WebSocket close code for a refused pairing (wrong or spent token, unknown secret). */
export const BRIDGE_REFUSED = 4001;
/**
 * WebSocket close code (1013, "try again later") for a pairing attempt not judged at all:
 * after refused attempts the client judges them one backoff apart, and this one's turn was
 * too far off. Unlike BRIDGE_REFUSED it says nothing about the credentials, so a worker keeps
 * its pairing and retries.
 */
export const BRIDGE_TRY_LATER = 1013;
export const BRIDGE_KEEPALIVE_MS = 20_000;
/** The `bye` reason the worker gives when the person disconnects in the side panel. */
export const BRIDGE_BYE_FROM_PANEL = 'disconnected from the side panel';

export { QaStepSchema, QaRecordingSchema, type QaStep, type QaRecording } from './recording';
