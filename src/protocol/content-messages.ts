/**
 * Worker → content script messages, one zod schema each. Only the extension's own
 * worker can send these (chrome.runtime messages from web pages never reach a
 * content script), and the handler checks the sender anyway.
 */
import { z } from 'zod';
import { OutlineLineSchema } from './model';
import { ActionSchema, LocatorSpecSchema } from './schemas';

export const FrameRequestSchema = z.discriminatedUnion('type', [
  z.object({
    selfFrameId: z.number().int().optional(),
    type: z.literal('dh:snapshot'),
    idPrefix: z.string(),
    scope: LocatorSpecSchema.nullable(),
    ignore: z.array(LocatorSpecSchema),
    budget: z.number().int(),
    /** Rendered snapshots of child frames, spliced under their iframe lines. */
    frames: z.record(z.string()),
    /** Also answer the printed lines as data (for the model request); child frames' lines, by frame id, spliced like their text. */
    lines: z.boolean().optional(),
    frameLines: z.record(z.array(OutlineLineSchema)).optional(),
    /** List the frame's own tools (WebMCP) before its outline, within a share of the budget (snapshot/page-tools.ts). */
    tools: z.boolean().optional(),
    /** The instruction the snapshot is for: folding keeps the list items it names. */
    focus: z.string().max(5000).optional(),
    /** An act's first, narrow view: on a page far over the budget, far blocks without the instruction's words go unread (walker.ts). */
    narrow: z.boolean().optional(),
    /** Elements with click-type listeners, as child-index paths from <html> ("s" enters a shadow root): see engine/core/listeners.ts. */
    clickTargets: z.array(z.string().max(2000)).max(5000).optional(),
    /**
     * Instead of clickTargets: use the ones this frame was last given, if nothing in it has
     * changed since (see snapshot-cache.ts); otherwise answer `{ stale: true }` and the worker
     * looks them up again.
     */
    reuseTargets: z.boolean().optional(),
  }),
  z.object({
    selfFrameId: z.number().int().optional(),
    type: z.literal('dh:prepare'),
    selector: z.string(),
    nth: z.number().int().nonnegative().nullable(),
    method: z.string(),
    timeoutMs: z.number().int().nonnegative(),
    /** Require a hit-test at the action point (mouse actions). */
    pointer: z.boolean(),
    requireEnabled: z.boolean(),
    /** Scroll the element into view first (not for scroll methods: they choose the position). */
    reveal: z.boolean(),
    /** Names this wait, so dh:cancelWait can end it early (its caller gave up). */
    waitId: z.string().max(100).optional(),
    /** The element moves by design (a moving target): where it is now, without waiting for it to keep still. */
    moving: z.boolean().optional(),
  }),
  /** End the dh:prepare wait of that waitId now; it answers CANCELLED. */
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:cancelWait'), waitId: z.string().max(100) }),
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:count'), selector: z.string() }),
  /** Outline the first match (the side panel's hover); a null selector clears the outline. Routed like dh:count. */
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:highlight'), selector: z.string().nullable() }),
  z.object({
    selfFrameId: z.number().int().optional(),
    type: z.literal('dh:op'),
    handle: z.number().int(),
    op: z.enum([
      'focus',
      'focusEnd',
      'focusSelect',
      'selectOption',
      'state',
      'risk',
      'scrollTo',
      'scrollIntoView',
      'scrollChunk',
      'blur',
      'choices',
      'selectText',
      'box',
      'shapes',
      'focusRunBox',
      'hitsAt',
      'watchPress',
      'pressSeen',
    ]),
    args: z.array(z.string()).default([]),
  }),
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:describe'), ids: z.array(z.number().int()), context: z.boolean().optional() }),
  /** Only the surroundings of elements (to tell alike ones apart): no selector is built, which on a big page costs a search each. */
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:surroundings'), ids: z.array(z.number().int()) }),
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:ping') }),
  /** The page's local date (YYYY-MM-DD), in its own time zone: where "today" and "next Monday" are counted from. */
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:today') }),
  /**
   * The words of the menu an item opens, shown or not yet (its list item's nested lists, or what
   * it controls): a path's next item is looked for there before anything is hovered.
   */
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:menuTexts'), selector: z.string() }),
  /** What the frame shows, in a few numbers and digests: read before and after an agent's step (engine/agent/effect.ts). */
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:mark') }),
  /** The visible text of the part of the page holding these values (snapshot/region.ts): what a cached extraction read. */
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:region'), values: z.array(z.string().max(2000)).max(200) }),
  z.object({
    selfFrameId: z.number().int().optional(),
    type: z.literal('dh:settle'),
    timeoutMs: z.number().int().nonnegative(),
    quietMs: z.number().int().nonnegative(),
  }),
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:frameSelector'), frameId: z.number().int() }),
  /** Where this frame's window sits in its parent's window.frames (the worker matching iframes to frame ids). */
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:frameIndex') }),
  /** The frame's own tools (WebMCP): snapshot/page-tools.ts. */
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:tools') }),
  /** Call one of the frame's tools; dh:cancelWait with its waitId stops it. */
  z.object({
    selfFrameId: z.number().int().optional(),
    type: z.literal('dh:callTool'),
    name: z.string().max(128),
    input: z.record(z.unknown()),
    timeoutMs: z.number().int().nonnegative(),
    waitId: z.string().max(100).optional(),
  }),
  /** Take over: record the person's own clicks, typing and choices in this frame (while programs are paused), or stop. */
  z.object({ selfFrameId: z.number().int().optional(), type: z.literal('dh:record'), on: z.boolean() }),
]);
export type FrameRequest = z.infer<typeof FrameRequestSchema>;

export type PrepareResult =
  /** `doc` and `inputs`: which document of the frame answered and its input count when it did (see PingResult). */
  | { kind: 'ready'; handle: number; x: number; y: number; count: number; description: string; doc?: string; inputs?: number }
  | { kind: 'frame'; frameId: number; rest: string; offsetX: number; offsetY: number }
  | { kind: 'error'; code: string; message: string; data?: Record<string, unknown> };

/** dh:ping's answer. `doc` names the document (a token made when its content script started): it changes when the frame navigates. */
export interface PingResult {
  ok: true;
  url: string;
  doc: string;
  /** Trusted input events that have reached this document so far. */
  inputs?: number;
}

/** dh:mark's answer (snapshot/marks.ts): counters only grow, digests change with what they digest. */
export interface FrameMark {
  url: string;
  /** The document (as PingResult's doc): another one means the frame navigated. */
  doc?: string;
  /** DOM mutations by kind since the document started: elements added or removed, attributes, text, inline styles. */
  elements: number;
  attributes: number;
  text: number;
  style: number;
  /** Digests of the fields' values and checked states, and of the selected text; the focused element's number. */
  values: string;
  selection: string;
  focus: number;
  /** Scroll events seen, the window's and any element's. */
  scrolls: number;
  /** Trusted clicks on something that takes clicks; on download links; pointer presses. */
  taken: number;
  downloads: number;
  presses: number;
  /** Whether the element last pressed on has moved (or gone) since the press. */
  moved?: boolean;
}

export interface DescribeResult {
  id: number;
  selector: string;
  role: string;
  name: string;
  /** With `context`: the element's surroundings (snapshot/surroundings.ts). */
  context?: string;
}

/** Grips a script drew on a box's edges (op `box`), each a point in the frame's viewport. */
export interface ResizeGrips {
  corner?: { x: number; y: number };
  bottom?: { x: number; y: number };
  right?: { x: number; y: number };
}

/** What a watched press did (op `pressSeen`): whether it missed the element (snapshot/press-watch.ts says when). */
export interface PressSeen {
  missed: boolean;
  /** The press or the release reached the element, but no click followed (what was pressed was drawn again). */
  pressedIt?: boolean;
  /** What a press that missed went to instead, described. */
  on?: string;
  /** That was a box holding the element, or no control: the page moved the element, and the press did nothing there. */
  inert?: boolean;
}

/** A custom select's options as a person sees them now (op 'choices'): see snapshot/choices.ts. */
export interface Choices {
  /** A native <select>: its options are chosen directly. */
  native: boolean;
  /** Its aria-expanded, when it says. */
  expanded: boolean | null;
  /** What it shows as its value (value, name and text). */
  shown: string;
  /** Its own selector in its frame. */
  self: string;
  /** It or its options are in an animation that ends (a list opening or closing). */
  busy: boolean;
  options: { label: string; value: string; selected: boolean; near: boolean; disabled: boolean; selector: string }[];
}

export type OpResult =
  | {
      ok: true;
      mode?: 'insertText' | 'done';
      /** The field takes one line: a value's line breaks go in as spaces. */
      oneLine?: boolean;
      state?: { checked?: boolean; value?: string; tag: string; type?: string };
      value?: unknown;
    }
  | { ok: false; code: string; message: string };

/**
 * Content script → worker, while recording (dh:record): one thing the person did on the page,
 * as an Action the engine can replay. `merge`: it continues the previous one (more typing into
 * the same field), which it replaces.
 */
export const ManualActionMessageSchema = z
  .object({
    type: z.literal('dh:manual'),
    action: ActionSchema,
    merge: z.boolean(),
  })
  .strict();
export type ManualActionMessage = z.infer<typeof ManualActionMessageSchema>;

/** A shape a drawing shows (the content script's 'shapes' op): its kind, centre and size relative to the drawing's top-left corner, its fill. */
export interface DrawnShape {
  tag: string;
  x: number;
  y: number;
  w: number;
  h: number;
  fill: string;
  /** Its outline's colour, when it has one (a box drawn as a black frame). */
  stroke?: string;
  /** A line's two ends (x1, y1, x2, y2), where they are drawn, relative to the drawing's corner. */
  ends?: [number, number, number, number];
}

/** The shapes a drawing shows, and its size. */
export interface DrawnShapes {
  width: number;
  height: number;
  shapes: DrawnShape[];
}
