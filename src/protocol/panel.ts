/**
 * Wire shapes of the side panel and the WebSocket bridge: the panel-only RPC
 * methods (over a chrome.runtime port), the bridge's control frames, and the
 * manual QA recording the panel keeps and exports.
 */
import { z } from 'zod';
import { CallerInfoSchema, ClientMethods } from './methods';
import { ApprovalClientMethods } from './approval';
import { ScheduleMethods } from './schedule';
import { FlowNameSchema } from './flows';
import { ActionSchema } from './schemas';

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
export const PairingTokenSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{6,128}$/, 'the pairing token is 6 to 128 letters, digits, - or _');

/**
 * Take over: whether programs' runs are paused, and what the person has done on the page since
 * the latest Pause (the steps "Save my fix as this step" would store).
 */
export const TakeoverStateSchema = z
  .object({
    paused: z.boolean(),
    /** When the pause began (ms since epoch). */
    since: z.number().optional(),
    /** Programs' calls waiting for Resume now. */
    waiting: z.number().int().nonnegative(),
    /** The person's steps recorded since the latest Pause (kept after Resume until the next Pause). */
    recorded: z.array(ActionSchema),
    /** Why the last resume happened when it was not the person's Resume (every panel was closed). */
    resumedBecause: z.string().optional(),
  })
  .strict();
export type TakeoverState = z.infer<typeof TakeoverStateSchema>;

/** A failed act run of another program, named as the Live tab shows it. */
const FailedRunRefSchema = z.object({ runId: z.string().min(1).max(200), callerId: z.string().min(1).max(200) }).strict();

/** What "Save my fix as this step" would store, shown before the person confirms. */
export const FixPreviewSchema = z
  .object({
    runId: z.string(),
    /** The act's instruction, variables shown as %name%. */
    instruction: z.string(),
    /** The page the act ran on (its cache key's URL). */
    url: z.string(),
    actions: z.array(ActionSchema),
    /** Whose store it goes to: the program's own (its cache), or the extension's (`cache.store: 'extension'`). */
    store: z.enum(['caller', 'extension']),
  })
  .strict();
export type FixPreview = z.infer<typeof FixPreviewSchema>;

/** Methods only the side panel may call (the engine's Methods are available to it as well). */
export const PanelMethods = {
  'bridge.connect': { params: z.object({ port: BridgePortSchema, token: PairingTokenSchema }).strict(), result: BridgeStatusSchema },
  'bridge.disconnect': { params: z.object({}).strict(), result: BridgeStatusSchema },
  'bridge.status': { params: z.object({}).strict(), result: BridgeStatusSchema },
  ...ScheduleMethods,
  /** Take over: programs' new operations wait (or fail with PAUSED after their timeout); the person's steps are recorded. */
  'control.pause': { params: z.object({}).strict(), result: TakeoverStateSchema },
  'control.resume': { params: z.object({}).strict(), result: TakeoverStateSchema },
  'control.status': { params: z.object({}).strict(), result: TakeoverStateSchema },
  /** What saving the person's steps as that failed act's cached result would store. */
  'takeover.preview': { params: FailedRunRefSchema, result: FixPreviewSchema },
  /** Store them: the program's next identical act replays them with no model. */
  'takeover.save': { params: FailedRunRefSchema, result: FixPreviewSchema.extend({ key: z.string() }) },
} as const;
export type PanelMethodName = keyof typeof PanelMethods;

/** Who drives a run the panel watches: the transport the caller came over, and what it said of itself. */
export const WatchCallerSchema = z
  .object({
    /** Stable for one connection, so the runs of one caller group together. */
    id: z.string(),
    /** cdp: a client attached to the worker (a launched or connected browser); bridge: the local client the worker dialled. */
    transport: z.enum(['cdp', 'bridge']),
    /** What the caller said in engine.ping (kind node/python/go/http/mcp, session, name); absent when it said nothing. */
    info: CallerInfoSchema.optional(),
    /** The bridge client's name from its pairing. */
    bridgeClient: z.string().optional(),
  })
  .strict();
export type WatchCaller = z.infer<typeof WatchCallerSchema>;

/** The operations a panel watches. */
export const WatchOpSchema = z.enum(['act', 'act.replay', 'observe', 'extract', 'agent', 'batch', 'flow']);
export type WatchOp = z.infer<typeof WatchOpSchema>;

/**
 * One moment of another caller's run, for the side panel: it started, a step happened, a
 * thumbnail of the page was taken, it finished. Text is what the engine prints, with every
 * variable's value shown as its %name%; a value never travels here.
 */
export const WatchEventSchema = z
  .object({
    /** The run: the operation's opId when the caller gave one, else an id the worker made. */
    runId: z.string(),
    caller: WatchCallerSchema,
    op: WatchOpSchema,
    /** The instruction, or the Action's description (act with an Action), variables masked. */
    description: z.string(),
    /** act only: true when it was given an instruction (a failed one can take the person's fix), false for an Action. */
    byInstruction: z.boolean().optional(),
    phase: z.enum(['started', 'step', 'thumbnail', 'finished']),
    /** When it happened in the worker (ms since epoch). */
    at: z.number(),
    /** Order within the run, from 0 at `started`. */
    seq: z.number().int().nonnegative(),
    /** With phase step: an agent step (its tool and why) or an operation's log line. */
    step: z
      .object({
        /** The agent's tool (click, type, goto, done, ...); absent for a log line. */
        type: z.string().optional(),
        message: z.string(),
        reasoning: z.string().optional(),
        result: z.string().optional(),
        /** failure: the step reported an error (the run may go on). */
        outcome: z.enum(['success', 'failure', 'info']),
      })
      .strict()
      .optional(),
    /** With phase finished. */
    outcome: z
      .object({
        success: z.boolean(),
        message: z.string().optional(),
        error: z.object({ code: z.string(), message: z.string() }).strict().optional(),
        durationMs: z.number().nonnegative(),
      })
      .strict()
      .optional(),
    /** A small JPEG of the page after the step or at the end (phase thumbnail). */
    thumbnail: z.string().startsWith('data:image/jpeg;base64,').optional(),
  })
  .strict();
export type WatchEvent = z.infer<typeof WatchEventSchema>;

/** Calls the worker makes to a side panel: the log lines of its operations, bridge changes, and other callers' runs. */
export const PanelClientMethods = {
  log: ClientMethods.log,
  'bridge.changed': { params: BridgeStatusSchema, result: z.null() },
  /** Sent only while a panel is connected; never for the panel's own calls. */
  watch: { params: WatchEventSchema, result: z.null() },
  /** A step of any caller waits for approval: the panel shows it with Approve / Skip / Stop. */
  ...ApprovalClientMethods,
  /** A flow's schedule or history changed (set, removed, a run ended): the panel reads them again. */
  'schedule.changed': { params: z.object({ flow: FlowNameSchema }).strict(), result: z.null() },
  /** Take over: paused or resumed, a call started or stopped waiting, a step of the person's was recorded. */
  'control.changed': { params: TakeoverStateSchema, result: z.null() },
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
