/**
 * Page snapshot across frames: child frames are captured first (deepest first)
 * with a share of the budget, then spliced under their iframe lines by the
 * parent frame, which renders the whole within the budget.
 */
import { actedSinceLastLook } from './activity';
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import type { OutlineLine } from '../../protocol/model';
import { DEFAULTS, type LocatorSpec, type SnapshotResult } from '../../protocol/schemas';
import { clickTargets } from './listeners';
import type { BrowserPort, FrameInfo } from '../ports';
import type { PageTool } from '../../protocol/page-tools';

/** The listener lookup is an aid to the snapshot, never a reason for it to wait long. */
const LISTENER_LOOKUP_MS = 2000;

interface Rendered {
  text: string;
  tokens: number;
  folded: boolean;
  /** The printed lines as data, when asked for. */
  lines?: OutlineLine[];
  /** The top frame's own tools, which its text lists first. */
  tools?: PageTool[];
  /** Iframe elements the frame found (their content needs the frame tree). */
  iframes: number;
  url: string;
}

type FrameReply = Rendered | { error: { code: string; message: string } };

export const idPrefixFor = (frameId: number): string => (frameId === 0 ? '' : `f${frameId}`);

/** Split a snapshot element id ("e12", "f3e7") into frame and local id. */
export function parseElementId(id: string): { frameId: number; local: number } | null {
  const m = /^(?:f(\d+))?e(\d+)$/.exec(id.trim());
  return m ? { frameId: m[1] ? Number(m[1]) : 0, local: Number(m[2]) } : null;
}

/**
 * A snapshot with, when asked for, its lines as data (for model requests; never part of page.snapshot's answer),
 * and the page's own tools its text lists first (core/page-tools.ts).
 */
export type CapturedSnapshot = SnapshotResult & { lines?: OutlineLine[]; tools?: PageTool[] };

const lookUpTargets = (port: BrowserPort, page: number, timeoutMs: number) =>
  clickTargets(port, page, Math.min(timeoutMs, LISTENER_LOOKUP_MS)).catch(() => [] as string[]);

export async function captureSnapshot(
  port: BrowserPort,
  page: number,
  opts: {
    locator?: LocatorSpec;
    ignoreLocators?: LocatorSpec[];
    budget?: number;
    timeoutMs?: number;
    frames?: boolean;
    /** Return the printed lines as data too. */
    lines?: boolean;
    /** The instruction the snapshot is for: folded lists keep the items it names. */
    focus?: string;
    /** An act's first, narrow view (see inference.ts, NARROW_ACT_BUDGET). */
    narrow?: boolean;
  },
): Promise<CapturedSnapshot> {
  const budget = opts.budget ?? DEFAULTS.snapshotBudgetTokens;
  const timeoutMs = opts.timeoutMs ?? DEFAULTS.actionTimeoutMs;
  // The frame tree is read first (alongside the top frame's first answer when there is one):
  // with iframes, each frame (the top one too) is walked once, children first, instead of
  // walking the top frame again once they are known.
  const frameTree = opts.frames === false ? Promise.resolve(null) : port.frames(page).catch(() => null);
  // Listener targets of the top frame (spans and divs with click handlers) get lines of their
  // own. Looking them up walks the whole page in the renderer, so the top frame is first asked
  // to reuse the ones it was last given, which it does when nothing in it has changed since.
  // After the engine's own input or navigation the frame has surely changed: no point asking.
  let targets: string[] | null = actedSinceLastLook(page) ? await lookUpTargets(port, page, timeoutMs) : null;
  const askTop = async (message: Record<string, unknown>): Promise<FrameReply> => {
    if (targets === null) {
      const r = await port.frameRequest<FrameReply | { stale: true }>(page, 0, { ...message, reuseTargets: true }, timeoutMs);
      if (!('stale' in r)) return r;
      targets = await lookUpTargets(port, page, timeoutMs);
    }
    return port.frameRequest<FrameReply>(page, 0, { ...message, clickTargets: targets }, timeoutMs);
  };
  const asked = {
    ...(opts.lines ? { lines: true } : {}),
    ...(opts.focus ? { focus: opts.focus.slice(0, 5000) } : {}),
    ...(opts.narrow ? { narrow: true } : {}),
  };
  const result = (r: Rendered): CapturedSnapshot => {
    const out: CapturedSnapshot = { text: r.text, tokens: r.tokens, folded: r.folded, url: r.url };
    if (opts.lines) out.lines = r.lines ?? [];
    if (r.tools?.length) out.tools = r.tools;
    return out;
  };
  // The page's own tools are listed by the top frame, first (a snapshot scoped to an element lists none).
  const tools = opts.locator ? {} : { tools: true };
  const mainRequest = (frameTexts: Record<string, string>) =>
    askTop({
      type: 'dh:snapshot',
      idPrefix: '',
      scope: opts.locator ?? null,
      ignore: opts.ignoreLocators ?? [],
      budget,
      frames: frameTexts,
      ...asked,
      ...tools,
    });
  // Most pages have no iframes: one request to the top frame is the whole snapshot. So it is
  // when the frame tree could not be read (the top frame's reply then says whether it found
  // iframes), and with iframes: false, which leaves their content out (their lines stay,
  // marked as not captured). A snapshot scoped by a locator asks first too: the iframes of
  // the page are rarely inside its scope.
  const frameList = await frameTree;
  let frames: FrameInfo[] = frameList ?? [];
  if (opts.frames === false || opts.locator || frameList === null || frameList.length <= 1) {
    const first = await mainRequest({});
    if ('error' in first) throw new DeckhandError(first.error.code as ErrorCode, first.error.message);
    if (first.iframes === 0 || opts.frames === false) return result(first);
    frames = await port.frames(page).catch(() => [] as FrameInfo[]);
  }
  const children = new Map<number, number[]>();
  for (const f of frames) if (f.frameId !== 0) (children.get(f.parentFrameId) ?? children.set(f.parentFrameId, []).get(f.parentFrameId)!).push(f.frameId);
  const childCount = Math.max(1, frames.length - 1);
  const childBudget = Math.max(300, Math.floor(budget / (2 * childCount)));

  const rendered = new Map<number, Rendered>();
  const renderFrame = async (frameId: number): Promise<FrameReply> => {
    const kids = children.get(frameId) ?? [];
    await Promise.all(
      kids.map(async (k) => {
        try {
          const r = await renderFrame(k);
          if (!('error' in r)) rendered.set(k, r);
        } catch {
          // A frame that cannot answer (still loading, error page) keeps its placeholder line.
        }
      }),
    );
    const frameTexts: Record<string, string> = {};
    const frameLines: Record<string, OutlineLine[]> = {};
    for (const k of kids) {
      const r = rendered.get(k);
      if (!r) continue;
      frameTexts[String(k)] = r.text;
      if (r.lines) frameLines[String(k)] = r.lines;
    }
    const top = frameId === 0;
    const message = {
      type: 'dh:snapshot',
      idPrefix: idPrefixFor(frameId),
      scope: top ? (opts.locator ?? null) : null,
      ignore: top ? (opts.ignoreLocators ?? []) : [],
      budget: top ? budget : childBudget,
      frames: frameTexts,
      ...asked,
      ...(opts.lines ? { frameLines } : {}),
      ...(top ? tools : {}),
    };
    return top ? askTop(message) : port.frameRequest<FrameReply>(page, frameId, { ...message, clickTargets: [] }, timeoutMs);
  };
  const r = await renderFrame(0);
  if ('error' in r) throw new DeckhandError(r.error.code as ErrorCode, r.error.message);
  return result(r);
}

/** Snapshot ids parsed, and their local ids grouped by frame. */
function byFrameOf(ids: string[]) {
  const parsed = ids.map((id) => ({ id, ref: parseElementId(id) }));
  const byFrame = new Map<number, number[]>();
  for (const { ref } of parsed) if (ref) (byFrame.get(ref.frameId) ?? byFrame.set(ref.frameId, []).get(ref.frameId)!).push(ref.local);
  return { parsed, byFrame };
}

/**
 * The surroundings of snapshot ids (snapshot/surroundings.ts), to tell alike elements apart;
 * ids that are not on the page, or not ids, are left out. No selector is built: on a big page
 * each costs a search, and telling 300 "Edit" buttons apart needs none.
 */
export async function surroundingsOf(port: BrowserPort, page: number, ids: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await Promise.all(
    [...byFrameOf(ids).byFrame].map(async ([frameId, locals]) => {
      const res = await port.frameRequest<(string | null)[]>(page, frameId, { type: 'dh:surroundings', ids: locals }, 5000);
      res.forEach((context, i) => {
        if (context !== null) out.set(`${idPrefixFor(frameId)}e${locals[i]}`, context);
      });
    }),
  );
  return out;
}

/** Selectors for snapshot ids; ids in child frames get their iframe path prepended. */
export async function selectorsForIds(
  port: BrowserPort,
  page: number,
  ids: string[],
  /** Also each element's surroundings (snapshot/surroundings.ts). */
  withContext = false,
): Promise<({ id: string; selector: string; role: string; name: string; context?: string } | null)[]> {
  const frames = await port.frames(page).catch(() => [] as FrameInfo[]);
  const parentOf = new Map(frames.map((f) => [f.frameId, f.parentFrameId]));
  const prefixes = new Map<number, Promise<string | null>>();
  const prefixFor = (frameId: number): Promise<string | null> => {
    if (frameId === 0) return Promise.resolve('');
    let p = prefixes.get(frameId);
    if (!p) {
      p = (async () => {
        const parent = parentOf.get(frameId);
        if (parent === undefined) return null;
        const [up, own] = await Promise.all([
          prefixFor(parent),
          port.frameRequest<{ selector: string | null }>(page, parent, { type: 'dh:frameSelector', frameId }, 5000),
        ]);
        return up === null || !own.selector ? null : up + own.selector;
      })();
      prefixes.set(frameId, p);
    }
    return p;
  };
  const { parsed, byFrame } = byFrameOf(ids);
  const answers = new Map<string, { selector: string; role: string; name: string; context?: string } | null>();
  await Promise.all(
    [...byFrame].map(async ([frameId, locals]) => {
      const prefix = await prefixFor(frameId);
      type Described = { id: number; selector: string; role: string; name: string; context?: string } | null;
      const ask = { type: 'dh:describe', ids: locals, ...(withContext ? { context: true } : {}) };
      const res = await port.frameRequest<Described[]>(page, frameId, ask, 5000);
      res.forEach((r, i) => {
        const key = `${idPrefixFor(frameId)}e${locals[i]}`;
        const context = r?.context !== undefined ? { context: r.context } : {};
        answers.set(key, r && prefix !== null ? { selector: prefix + r.selector, role: r.role, name: r.name, ...context } : null);
      });
    }),
  );
  return parsed.map(({ id, ref }) => {
    if (!ref) throw new DeckhandError(ErrorCode.InvalidArgument, `'${id}' is not a snapshot element id (like e12 or f3e7)`);
    const a = answers.get(`${idPrefixFor(ref.frameId)}e${ref.local}`);
    return a ? { id, ...a } : null;
  });
}
