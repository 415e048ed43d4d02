/**
 * Page snapshot across frames: child frames are captured first (deepest first)
 * with a share of the budget, then spliced under their iframe lines by the
 * parent frame, which renders the whole within the budget.
 */
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { DEFAULTS, type LocatorSpec, type SnapshotResult } from '../protocol/schemas';
import type { BrowserPort, FrameInfo } from './ports';

interface Rendered {
  text: string;
  tokens: number;
  folded: boolean;
}

type FrameReply = Rendered | { error: { code: string; message: string } };

export const idPrefixFor = (frameId: number): string => (frameId === 0 ? '' : `f${frameId}`);

/** Split a snapshot element id ("e12", "f3e7") into frame and local id. */
export function parseElementId(id: string): { frameId: number; local: number } | null {
  const m = /^(?:f(\d+))?e(\d+)$/.exec(id.trim());
  return m ? { frameId: m[1] ? Number(m[1]) : 0, local: Number(m[2]) } : null;
}

export async function captureSnapshot(
  port: BrowserPort,
  page: number,
  opts: { locator?: LocatorSpec; ignoreLocators?: LocatorSpec[]; budget?: number; timeoutMs?: number },
): Promise<SnapshotResult> {
  const budget = opts.budget ?? DEFAULTS.snapshotBudgetTokens;
  const timeoutMs = opts.timeoutMs ?? DEFAULTS.actionTimeoutMs;
  let frames: FrameInfo[] = [];
  try {
    frames = await port.frames(page);
  } catch {
    frames = [];
  }
  const children = new Map<number, number[]>();
  for (const f of frames) if (f.frameId !== 0) (children.get(f.parentFrameId) ?? children.set(f.parentFrameId, []).get(f.parentFrameId)!).push(f.frameId);
  const childCount = Math.max(1, frames.length - 1);
  const childBudget = Math.max(300, Math.floor(budget / (2 * childCount)));

  const texts = new Map<number, string>();
  const renderFrame = async (frameId: number): Promise<FrameReply> => {
    const kids = children.get(frameId) ?? [];
    await Promise.all(
      kids.map(async (k) => {
        try {
          const r = await renderFrame(k);
          if (!('error' in r)) texts.set(k, r.text);
        } catch {
          // A frame that cannot answer (still loading, error page) keeps its placeholder line.
        }
      }),
    );
    const frameTexts: Record<string, string> = {};
    for (const k of kids) if (texts.has(k)) frameTexts[String(k)] = texts.get(k)!;
    const top = frameId === 0;
    return port.frameRequest<FrameReply>(
      page,
      frameId,
      {
        type: 'dh:snapshot',
        idPrefix: idPrefixFor(frameId),
        scope: top ? (opts.locator ?? null) : null,
        ignore: top ? (opts.ignoreLocators ?? []) : [],
        budget: top ? budget : childBudget,
        frames: frameTexts,
      },
      timeoutMs,
    );
  };
  const r = await renderFrame(0);
  if ('error' in r) throw new DeckhandError(r.error.code as ErrorCode, r.error.message);
  const info = await port.pageInfo(page);
  return { text: r.text, tokens: r.tokens, folded: r.folded, url: info.url };
}
