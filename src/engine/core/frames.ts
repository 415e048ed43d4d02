/**
 * Walks a selector across frames: each frame's content script resolves what it
 * can and hands the rest of an XPath to the child frame it crosses into, with the
 * child's offset so points add up to tab viewport coordinates.
 */
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import type { PrepareResult } from '../../protocol/content-messages';
import type { BrowserPort } from '../ports';
import { raceCancel, throwIfCancelled } from './cancel';

export interface Prepared {
  frameId: number;
  handle: number;
  /** Point in the tab's viewport. */
  x: number;
  y: number;
  count: number;
  description: string;
  /** The document the element was found in (see PingResult); absent from older content scripts. */
  doc?: string;
  /** Its trusted input count when the element was found. */
  inputs?: number;
  /** The point in its own frame's viewport. */
  local: { x: number; y: number };
}

let waitSeq = 0;

/**
 * Kept back from the page's own wait for the element (at most half of it), so that the page's answer, the more telling
 * error (ELEMENT_COVERED, ELEMENT_NOT_FOUND after waiting), comes back before the operation's deadline on a loaded machine
 * rather than racing it.
 */
const PAGE_ANSWER_MS = 300;

export async function prepareTarget(
  port: BrowserPort,
  page: number,
  target: { selector: string; nth?: number; frameId?: number },
  method: string,
  opts: { timeoutMs: number; pointer: boolean; requireEnabled: boolean; reveal?: boolean; moving?: boolean; signal?: AbortSignal },
): Promise<Prepared> {
  const deadline = Date.now() + opts.timeoutMs;
  let frameId = target.frameId ?? 0;
  let selector = target.selector;
  let ox = 0;
  let oy = 0;
  for (let depth = 0; depth < 16; depth++) {
    throwIfCancelled(opts.signal);
    const remaining = Math.max(0, deadline - Date.now());
    const pageWait = Math.round(Math.max(remaining / 2, remaining - PAGE_ANSWER_MS));
    const waitId = `w${++waitSeq}-${Date.now().toString(36)}`;
    const inFrame = frameId;
    const res = await raceCancel(
      port.frameRequest<PrepareResult>(
        page,
        frameId,
        {
          type: 'dh:prepare',
          selector,
          nth: target.nth ?? null,
          method,
          timeoutMs: pageWait,
          pointer: opts.pointer,
          requireEnabled: opts.requireEnabled,
          reveal: opts.reveal ?? true,
          waitId,
          ...(opts.moving ? { moving: true } : {}),
        },
        remaining + 3000,
      ),
      opts.signal,
      // The caller gave up: end the wait in the page too, so it stops polling for the element.
      () => void port.frameRequest(page, inFrame, { type: 'dh:cancelWait', waitId }, 2000).catch(() => undefined),
    );
    if (res.kind === 'ready') {
      const local = { x: res.x, y: res.y };
      return {
        frameId,
        handle: res.handle,
        x: res.x + ox,
        y: res.y + oy,
        local,
        count: res.count,
        description: res.description,
        doc: res.doc,
        inputs: res.inputs,
      };
    }
    if (res.kind === 'frame') {
      frameId = res.frameId;
      selector = res.rest;
      ox += res.offsetX;
      oy += res.offsetY;
      continue;
    }
    throw new DeckhandError(res.code as ErrorCode, res.message, { selector: target.selector, ...(res.data ?? {}) });
  }
  throw new DeckhandError(ErrorCode.InvalidSelector, `'${target.selector}' nests more than 16 frames deep`);
}

/** Count a selector's matches, following it into the frame it crosses into. */
export async function countTarget(port: BrowserPort, page: number, selector: string, timeoutMs: number): Promise<number> {
  return (await routeSelector(port, page, selector, timeoutMs, 'dh:count')).count;
}

/** Outline a selector's first match on the page (in whichever frame it is); returns that frame and the match count. */
export async function highlightTarget(port: BrowserPort, page: number, selector: string, timeoutMs: number): Promise<{ frameId: number; count: number }> {
  return routeSelector(port, page, selector, timeoutMs, 'dh:highlight');
}

async function routeSelector(
  port: BrowserPort,
  page: number,
  selector: string,
  timeoutMs: number,
  type: 'dh:count' | 'dh:highlight',
): Promise<{ frameId: number; count: number }> {
  let frameId = 0;
  let sel = selector;
  for (let depth = 0; depth < 16; depth++) {
    const r = await port.frameRequest<{ count?: number; frameId?: number; rest?: string; error?: { code: ErrorCode; message: string } }>(
      page,
      frameId,
      { type, selector: sel },
      timeoutMs,
    );
    if (r.error) throw new DeckhandError(r.error.code, r.error.message);
    if (r.frameId === undefined) return { frameId, count: r.count ?? 0 };
    frameId = r.frameId;
    sel = r.rest!;
  }
  return { frameId, count: 0 };
}
