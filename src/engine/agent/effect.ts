/**
 * Whether an agent's step had an effect that shows on the page. Each frame's content script
 * keeps a mark (snapshot/marks.ts): its address and document, DOM mutations counted by kind,
 * digests of field values, focus and selection, trusted clicks that landed on something made to
 * take clicks, and whether the element last pressed on has moved since. A mark is read before a
 * step and after it (once the page has settled); what differs is what the step did. What the page
 * changes on its own (a clock, a ticker, an animation) is told apart by a mark taken when the page
 * was left alone before the step: a kind of change seen then is not credited to the step.
 *
 * What counts depends on what the step meant: a value typed shows as a value (or text in an
 * editable element), a drag as its item moving or the page's elements changing, a click as any
 * change or as the click being taken by a control or link. A download starting shows nothing on
 * the page.
 */
import type { FrameMark } from '../../protocol/content-messages';
import type { BrowserPort } from '../ports';

export interface PageMark {
  frames: Map<number, FrameMark>;
}

export type EffectKind =
  'navigated' | 'values' | 'elements' | 'attributes' | 'text' | 'style' | 'focus' | 'selection' | 'scrolled' | 'moved' | 'taken' | 'download';

/** What a step meant to do, which decides the changes that show it done. */
export type StepKind = 'click' | 'fill' | 'drag' | 'press' | 'navigate' | 'scroll';

const SHOWS: Record<StepKind, ReadonlySet<EffectKind>> = {
  click: new Set(['navigated', 'values', 'elements', 'attributes', 'text', 'style', 'focus', 'selection', 'scrolled', 'moved', 'taken']),
  fill: new Set(['navigated', 'values', 'elements', 'text']),
  drag: new Set(['navigated', 'values', 'elements', 'moved']),
  press: new Set(['navigated', 'values', 'elements', 'attributes', 'text', 'style', 'focus', 'selection', 'scrolled', 'moved']),
  navigate: new Set(['navigated', 'values', 'elements', 'attributes', 'text', 'style']),
  // The view moved, or more of the page loaded (an endless list).
  scroll: new Set(['navigated', 'scrolled', 'elements']),
};

/**
 * Kinds a page changes by itself (clocks, tickers, animations rewrite the DOM), and so are not
 * credited to a step when they changed while the page was left alone. Values, focus and the
 * selection are not among them: what changes those late is a step's own doing (a mask formatting
 * what was typed).
 */
const NOISY: ReadonlySet<EffectKind> = new Set(['elements', 'attributes', 'text', 'style']);

const MARK_MS = 1500;

/** The page's mark now: one per frame that answers (a frame with no content script, a PDF say, is left out). */
export async function markPage(port: BrowserPort, page: number): Promise<PageMark> {
  const frames = await port.frames(page).catch(() => [{ frameId: 0, parentFrameId: -1, url: '' }]);
  const marks = await Promise.all(
    frames.map((f) =>
      port.frameRequest<FrameMark>(page, f.frameId, { type: 'dh:mark' }, MARK_MS).then(
        (m) => [f.frameId, m] as const,
        () => null,
      ),
    ),
  );
  return { frames: new Map(marks.filter((m): m is readonly [number, FrameMark] => !!m)) };
}

/** The kinds of change from mark `a` to mark `b`. */
export function changesBetween(a: PageMark, b: PageMark): Set<EffectKind> {
  const out = new Set<EffectKind>();
  for (const [id, x] of a.frames) {
    const y = b.frames.get(id);
    if (!y) {
      // A frame gone: its iframe was removed, or the main document went away.
      out.add(id === 0 ? 'navigated' : 'elements');
      continue;
    }
    if (x.doc !== y.doc || x.url !== y.url) {
      out.add('navigated');
      continue;
    }
    if (y.elements > x.elements) out.add('elements');
    if (y.attributes > x.attributes) out.add('attributes');
    if (y.text > x.text) out.add('text');
    if (y.style > x.style) out.add('style');
    if (y.values !== x.values) out.add('values');
    if (y.focus !== x.focus) out.add('focus');
    if (y.selection !== x.selection) out.add('selection');
    if (y.scrolls > x.scrolls) out.add('scrolled');
    if (y.taken > x.taken) out.add('taken');
    if (y.downloads > x.downloads) out.add('download');
    if (y.presses > x.presses && y.moved) out.add('moved');
  }
  for (const id of b.frames.keys()) if (!a.frames.has(id)) out.add('elements');
  return out;
}

export interface Effect {
  /** Whether the step shows done; null when the page could not be read before or after (it is not held against the step). */
  shows: boolean | null;
  /** The changes credited to the step. */
  seen: EffectKind[];
}

/**
 * Marks around the steps of one run. `rest` marks the start of a spell the page is left alone
 * (before a model thinks, say); `begin` the start of a step; `end` reads the step's effect and,
 * with `restsBetween` (nothing else acts on the page between steps), starts the next spell.
 */
export class EffectWatch {
  private idle: PageMark | null = null;
  private before: PageMark | null = null;

  constructor(
    private readonly port: BrowserPort,
    private readonly page: number,
    private readonly restsBetween = false,
  ) {}

  async rest(): Promise<void> {
    this.idle = await markPage(this.port, this.page);
  }

  async begin(): Promise<void> {
    this.before = await markPage(this.port, this.page);
  }

  async end(kind: StepKind): Promise<Effect> {
    const after = await markPage(this.port, this.page);
    const before = this.before;
    const noise = this.idle && before ? changesBetween(this.idle, before) : new Set<EffectKind>();
    this.idle = this.restsBetween ? after : null;
    this.before = null;
    if (!before || !before.frames.has(0) || !after.frames.has(0)) return { shows: null, seen: [] };
    const seen = [...changesBetween(before, after)].filter((k) => !(NOISY.has(k) && noise.has(k)));
    return { shows: seen.some((k) => SHOWS[kind].has(k)), seen };
  }
}

/** A step's effect in words, for the step's result and the run's message. */
export function describeEffect(e: Effect): string {
  if (e.shows === null) return 'the page could not be read to see its effect';
  if (e.shows) return `the page changed (${e.seen.join(', ')})`;
  if (e.seen.includes('download')) return 'a download started, and nothing changed on the page';
  return e.seen.length ? `nothing the step meant changed on the page (only ${e.seen.join(', ')})` : 'nothing changed on the page';
}

/** A question, or a request to find, read or tell: answered from the page, with nothing on it to change. */
const QUESTION = /\?\s*$|^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|can|could|has|have|will|would|should)\b/i;
const TELL_WORDS = [
  'find(?:\\s+out)?',
  'tell',
  'say',
  'read',
  'extract',
  'get',
  'fetch',
  'look\\s+up',
  'lookup',
  'see',
  'list',
  'count',
  'summari[sz]e',
  'describe',
  'report',
  'give',
  'show\\s+me',
  'return',
  'identify',
  'determine',
  'compare',
  'search(?:\\s+for)?',
  'locate',
  'name',
  'check\\s+(?:whether|if|that|how|what|which|who|when|where)',
];
const TELL = new RegExp(`^(?:(?:please|kindly)\\s+)?(?:${TELL_WORDS.join('|')})\\b`, 'i');
/** A later part of the sentence that asks for a change after all ("find the cheapest one and add it to the cart"). */
const ACT_WORDS =
  'click|press|type|enter|fill|select|choose|tick|submit|send|buy|purchase|add|remove|delete|upload|attach|download|drag|move|book|order|sign|log|register|' +
  'subscribe|save|post|reply|like|share|set|change|update|create|apply|pay|place|clear|toggle|turn|enable|disable|open|close|go|navigate|install|rate|' +
  'comment|write|star|follow|accept|agree|reserve|schedule|cancel';
const THEN_ACT = new RegExp(`(?:\\band\\b|\\bthen\\b|[,;:?.!]|\\bto\\b)\\s+(?:then\\s+)?(?:${ACT_WORDS})\\b`, 'i');

/** Whether an instruction asks for something on the page to change (not only for information read off it). */
export function asksForChange(instruction: string): boolean {
  const t = instruction.trim();
  if (!QUESTION.test(t) && !TELL.test(t)) return true;
  return THEN_ACT.test(t.replace(/^\S+\s+/, ''));
}
