/**
 * Finding what the page does not show yet: hidden sections and tabs opened one at a time, the page or a scroll area
 * scrolled, a carousel turned, until the target shows.
 */
import { quote } from '../../../protocol/text';
import type { OutlineNode } from '../outline';
import type { PlanStep } from '../plan';
import { coverage, exactMatch, normalize } from '../text';
import { either, oneOf } from '../words/grammar';
import { NEXT_SLIDE_NAMES, SECTION_WORDS } from '../words/menus';
import { TEXT_ROLES, type View, type Grounding, look, ground, describeStep, type Outcome, actOnNode, type Run, pause } from './run';
import { menuLike } from './menus';
import { WATCH_EVERY_MS } from './watch';

/**
 * Controls that reveal hidden content: tabs not selected and collapsed disclosures first, in
 * page order, then headings that take clicks (accordions built without ARIA).
 */
export function revealers(nodes: OutlineNode[], tried: Set<string>, looseToo = true): OutlineNode[] {
  const fresh = (n: OutlineNode) => !!n.id && n.states.disabled !== true && !tried.has(`${n.role}|${n.name}`);
  const folded = (n: OutlineNode) => n.states.collapsed === true && !TEXT_ROLES.has(n.role) && n.role !== 'listbox';
  const marked = nodes.filter((n) => fresh(n) && ((n.role === 'tab' && n.states.selected !== true) || folded(n)));
  if (!looseToo) return marked;
  // Accordions built without ARIA: headings that take clicks, and controls named like a section or "more".
  const sectionLike = (n: OutlineNode) =>
    (n.role === 'heading' && n.states.clickable === true) || (LOOSE_ROLES.has(n.role) && SECTION_NAME.test(n.name) && !menuLike(n));
  const loose = nodes.filter((n) => fresh(n) && !marked.includes(n) && sectionLike(n));
  return [...marked, ...loose];
}

const LOOSE_ROLES = new Set(['clickable', 'button', 'heading']);
/** A control named like a section: "Section 2", "Panel #3", "More options", "+ Details". */
const SECTION_NAME = new RegExp(`^(?:section|panel|part|chapter)\\b|\\b(?:section|panel)\\s*#?\\d+$|^(?:${either(SECTION_WORDS)})$|^[+▸▶►]\\s*\\w`, 'i');

/**
 * Open tabs and collapsed sections one at a time until `step` grounds; each click is a step of
 * the run. Gives up after 12 reveals.
 */
export async function reveal(r: Run, step: PlanStep, current: () => View, set: (v: View) => void, looseToo = true): Promise<Grounding> {
  const tried = new Set<string>();
  let last = ground(step, current().nodes, r.clock);
  // What the words name is shown more than once already: one found behind a tab would be a guess among three.
  if ('why' in last && last.tied) return last;
  for (let k = 0; k < 12 && 'why' in last; k++) {
    const next = revealers(current().nodes, tried, looseToo)[0];
    if (!next) break;
    tried.add(`${next.role}|${next.name}`);
    const why = `looking for ${quote(step.say)}: open ${next.role} ${quote(next.name)}`;
    if (!(await actOnNode(r, next, 'click', [], `click ${quote(next.name || next.role)}`, why, current().url))) break;
    await r.settle();
    set(await look(r, r.instruction));
    last = ground(step, current().nodes, r.clock);
  }
  const s = tried.size === 1 ? '' : 's';
  return 'why' in last ? { why: `${last.why} (looked in ${tried.size} hidden section${s} or tab${s})` } : last;
}

/**
 * "Expand the section below": the one collapsed section or disclosure is opened; with several,
 * the step after it looks through them (for "the section", one, it refuses when its target shows
 * without opening any); with none, a section already open is fine and no section at all is a refusal.
 */
export async function expandSection(
  r: Run,
  step: PlanStep,
  i: number,
  n: number,
  current: () => View,
): Promise<{ did?: string; why?: string; several?: number }> {
  const nodes = current().nodes;
  // A header that holds a control of its own (a Submit button read as an accordion's header) is no section to open.
  const holdsControl = (x: OutlineNode): boolean => x.children.some((c) => (!!c.id && !TEXT_ROLES.has(c.role)) || holdsControl(c));
  const folded = nodes.filter(
    (x) => x.id && x.states.collapsed === true && !TEXT_ROLES.has(x.role) && x.role !== 'listbox' && x.states.disabled !== true && !holdsControl(x),
  );
  if (folded.length === 1) {
    const target = folded[0];
    const did = await actOnNode(r, target, 'click', [], step.say, describeStep(i, n, `open ${target.role} ${quote(target.name)}`), current().url);
    return did ? { did: `opened ${did}` } : { why: 'the section went away before it could be opened' };
  }
  // "The section" (one) with several collapsed: the next step must find its target in one of them, not beside them.
  const one = !/\b(?:sections|panels|parts|all|every|each)\b/i.test(step.say);
  const did = `${folded.length} sections are collapsed: the next steps look through them`;
  if (folded.length > 1) return { did, ...(one ? { several: folded.length } : {}) };
  if (nodes.some((x) => x.id && x.states.expanded === true)) return { did: 'the section is already open' };
  // Sections that do not say they are collapsed (a clickable header): the one there is, or the next steps look through several.
  const loose = revealers(nodes, new Set());
  if (loose.length === 1) {
    const did = await actOnNode(r, loose[0], 'click', [], step.say, describeStep(i, n, `open ${loose[0].role} ${quote(loose[0].name)}`), current().url);
    return did ? { did: `opened ${did}` } : { why: 'the section went away before it could be opened' };
  }
  if (loose.length > 1) return { did: `${loose.length} sections may be folded: the next steps look through them` };
  return { did: 'nothing on the page shows as collapsed' };
}

/** How many scrolls a search may take before it gives up. */
export const SCROLLS_MAX = 25;

/** What is scrolled: the scroll area the words name, the page's only one, or (null) the page itself. */
export function scrollerOf(within: string | undefined, nodes: OutlineNode[]): OutlineNode | null | string {
  const areas = nodes.filter((n) => n.id && (n.role === 'scrollable' || n.states.scrollable === true));
  if (!within) return areas.length === 1 ? areas[0]! : null;
  const text = (d: OutlineNode): string => [d.name, ...d.children.slice(0, 3).map(text)].join(' ');
  const named = areas.filter((a) => coverage(within, text(a)) === 1);
  if (named.length === 1) return named[0]!;
  return areas.length === 1 ? areas[0]! : `the page shows ${areas.length} scroll areas, and none is the ${within} alone`;
}

/** The one control named exactly `target` ("the Accept button" is Accept). */
function shownTarget(target: string, nodes: OutlineNode[]): OutlineNode[] {
  const t = target.replace(/^the\s+/i, '').replace(/\s+(?:button|link)$/i, '');
  return nodes.filter((n) => n.id && n.role !== 'scrollable' && (exactMatch(n.name, t) || normalize(n.name) === normalize(t)));
}

/** One move that may bring a target into view (a scroll, the next slide): null once made, or why it could not be. */
type Advance = () => Promise<string | null>;

/**
 * Move (`advance`) until a control named `target` shows, then click it. Stops when a move shows
 * nothing the run has not seen (a feed's end, a carousel gone round) or after `max` moves; two
 * targets of that name are a refusal, never a guess.
 */
async function advanceUntil(r: Run, target: string, reasoning: string, v: ViewAccess, advance: Advance, move: string, max: number): Promise<Outcome> {
  const moves = `${move}s`;
  const seen = new Set([v.current().text]);
  for (let k = 0; k <= max; k++) {
    if (r.signal.aborted) return { why: `cancelled after ${k} ${moves}` };
    const hits = shownTarget(target, v.current().nodes);
    if (hits.length > 1) return { why: `${hits.length} controls are named ${quote(target)}` };
    if (hits.length === 1) {
      const hit = hits[0]!;
      if (!(await actOnNode(r, hit, 'click', [], `click ${quote(hit.name)}`, `${reasoning}: it shows after ${k} ${moves}`, v.current().url)))
        return { why: `${quote(target)} went away` };
      return { did: k ? `clicked ${quote(hit.name)}, which showed after ${k} ${k === 1 ? move : moves}` : `clicked ${quote(hit.name)}` };
    }
    if (k === max) break;
    const why = await advance();
    if (why) return { why };
    await r.settle();
    v.set(await look(r, r.instruction));
    // What comes next may load a moment after the move.
    if (seen.has(v.current().text)) {
      await pause(WATCH_EVERY_MS * 3, r.signal);
      v.set(await look(r, r.instruction));
      if (seen.has(v.current().text)) return { why: `after ${k + 1} ${moves} nothing new showed, and ${quote(target)} never did` };
    }
    seen.add(v.current().text);
  }
  return { why: `${quote(target)} did not show after ${max} ${moves}` };
}

interface ViewAccess {
  current: () => View;
  set: (v: View) => void;
}

/** Scroll the page (or its scroll area) to its end until the target shows, then click it. */
export async function scrollFindStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const { target, within } = step.scrollFind!;
  const advance: Advance = async () => {
    const area = scrollerOf(within, current().nodes);
    if (typeof area === 'string') return area;
    // To the end: what is above it is in the page's outline already, and a feed loads more only when its end shows.
    const said = area ? 'scroll to the end of the scroll area' : 'scroll to the bottom of the page';
    if (!area) {
      const out = await r.act(said, reasoning, current().text, current().url);
      return out.startsWith('error:') ? `scrolling failed: ${out.slice(6).trim()}` : null;
    }
    const [selector] = await r.selectors([area.id!]);
    if (!selector) return 'the scroll area went away';
    await r.perform(selector, 'scrollTo', ['100%']);
    r.note(said, reasoning, 'scrolled the area to its end', current().url, { selector, description: 'scroll area', method: 'scrollTo', arguments: ['100%'] });
    return null;
  };
  return advanceUntil(r, target, reasoning, { current, set }, advance, 'scroll', SCROLLS_MAX);
}

/** The most slides a carousel is gone through. */
const SLIDES_MAX = 12;
const NEXT_SLIDE = oneOf(NEXT_SLIDE_NAMES);

/** The carousel's one control to the next slide, or why there is not one. */
export function nextSlideOf(nodes: OutlineNode[]): OutlineNode | string {
  const next = nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'clickable' || n.role === 'link') && NEXT_SLIDE.test(n.name.trim()));
  return next.length === 1 ? next[0]! : next.length ? `the page shows ${next.length} controls to a next slide` : 'the page shows no control to a next slide';
}

/** Go through a carousel by its Next control until the target shows, then click it. */
export async function slideFindStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const advance: Advance = async () => {
    const next = nextSlideOf(current().nodes);
    if (typeof next === 'string') return next;
    return (await actOnNode(r, next, 'click', [], `click ${quote(next.name)}`, `${reasoning}: the next slide`, current().url)) ? null : 'the control went away';
  };
  return advanceUntil(r, step.slideFind!.target, reasoning, { current, set }, advance, 'slide', SLIDES_MAX);
}
