/**
 * Numbers the page keeps out of sight: cards dealt face down, each turned up by a click to be read before one is picked
 * (turnPick), and numbers taken away once the first is clicked, the rest clicked on the covers put where they were
 * (coversFor). Only what a sighted person could have read counts: a name from text drawn too small to see is no number.
 */
import { clip, quote } from '../../../protocol/text';
import type { OutlineNode } from '../outline';
import { normalize } from '../text';
import type { Each } from '../plan';
import type { Point } from '../step-runner';
import { actOnNode, look, type Outcome, type Run, type View } from './run';
import { EACH_MAX, eachTargets, NUMBERED, shownNumber } from './lists';

/** How far (px) a cover's centre may lie from where the number it covers was. */
const COVER_REACH = 24;

/** A card face down: no digit a sighted person can read in its name. */
const faceDown = (n: OutlineNode) => n.nameFrom === 'hidden-text' || !/\d/.test(n.name);

/**
 * The cards a pick turns up: the one set of at least two siblings of one role that take clicks and look the same face
 * down (blank, "?", their number hidden), with any of that role beside them showing one number (turned up already). A
 * string says why there is not one such set.
 */
export function faceDownCards(nodes: OutlineNode[]): OutlineNode[] | string {
  const usable = (n: OutlineNode) => !!n.id && NUMBERED.has(n.role) && n.states.disabled !== true;
  const place = (n: OutlineNode) => `${n.parent?.index ?? -1} ${n.role}`;
  const backs = new Map<string, OutlineNode[]>();
  for (const n of nodes) {
    if (!usable(n) || !faceDown(n)) continue;
    const key = `${place(n)} ${n.nameFrom === 'hidden-text' ? '' : normalize(n.name)}`;
    backs.set(key, [...(backs.get(key) ?? []), n]);
  }
  const decks = [...backs.values()]
    .filter((down) => down.length >= 2)
    .map((down) => nodes.filter((n) => usable(n) && place(n) === place(down[0]) && (down.includes(n) || shownNumber(n) !== null)));
  if (decks.length !== 1) return decks.length ? `the page shows ${decks.length} sets of cards face down` : 'the page shows no cards face down';
  const [deck] = decks;
  return deck.length > EACH_MAX ? `the page shows ${deck.length} cards, more than ${EACH_MAX}` : deck;
}

/**
 * "Pick the card with the greatest number" where the cards lie face down: each is turned up by a click and read, then
 * the one asked for is left face up (clicked again when another was turned after it). Two cards with that number are a
 * refusal, and so is a card that shows no number once turned.
 */
export async function turnPick(r: Run, each: Each, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  let view = current();
  const deck = faceDownCards(view.nodes);
  if (typeof deck === 'string') return { why: deck };
  const read: number[] = [];
  for (const [k, card] of deck.entries()) {
    if (r.signal.aborted) return { why: 'cancelled' };
    const now = view.nodes.find((n) => n.id === card.id);
    const shown = now ? shownNumber(now) : null;
    if (shown === null) {
      if (!(await actOnNode(r, card, 'click', [], 'turn the card up', `${reasoning}: card ${k + 1} of ${deck.length}`, view.url))) {
        return { why: `card ${k + 1} of ${deck.length} went away` };
      }
      await r.settle();
      view = await look(r, r.instruction);
      set(view);
    }
    const turned = view.nodes.find((n) => n.id === card.id);
    const value = turned ? shownNumber(turned) : null;
    if (value === null)
      return { why: `card ${k + 1} of ${deck.length}, turned up, shows no number${turned?.name ? ` (${quote(clip(turned.name, 30))})` : ''}` };
    read.push(value);
  }
  const best = each.pick === 'min' ? Math.min(...read) : Math.max(...read);
  const which = each.pick === 'min' ? 'smallest' : 'greatest';
  const at = read.flatMap((v, k) => (v === best ? [k] : []));
  if (at.length !== 1) return { why: `${at.length} cards show the ${which} number, ${best} (the cards read ${read.join(', ')})` };
  const card = deck[at[0]];
  const up = view.nodes.find((n) => n.id === card.id);
  if (!up || shownNumber(up) !== best) {
    if (!(await actOnNode(r, card, 'click', [], `pick the card showing ${best}`, `${reasoning}: the ${which} of ${read.join(', ')}`, view.url))) {
      return { why: `the card showing ${best} went away` };
    }
    await r.settle();
    view = await look(r, r.instruction);
    set(view);
    const picked = view.nodes.find((n) => n.id === card.id);
    if (!picked || shownNumber(picked) !== best) return { why: `the card showing ${best}, clicked again, no longer shows it` };
  }
  return { did: `turned up ${deck.length} cards (${read.join(', ')}) and left the one showing ${best} face up` };
}

/** Where each target is on the page now, to be found again by place once its number is taken away. */
export async function spotsOf(r: Run, targets: OutlineNode[]): Promise<(Point | null)[]> {
  const selectors = await r.selectors(targets.map((n) => n.id!));
  return Promise.all(selectors.map((s) => (s ? r.pointOf(s).catch(() => null) : null)));
}

/**
 * The covers to click for `rest`, the targets still to click, when the page took their numbers away and put a cover
 * where each was (a game of memory): no number of theirs still shows, as many new controls of one role came as
 * there are targets left, none showing a number, and each target's place has one of them within COVER_REACH. A string says why not.
 */
export async function coversFor(r: Run, rest: OutlineNode[], spots: (Point | null)[], before: View, now: View): Promise<OutlineNode[] | string> {
  const left = new Set(rest.map((n) => n.name.trim()));
  if (now.nodes.some((n) => shownNumber(n) !== null && left.has(n.name.trim()))) return 'the numbers left still show';
  const old = new Set(before.nodes.map((n) => n.id).filter(Boolean));
  const fresh = now.nodes.filter((n) => n.id && !old.has(n.id) && NUMBERED.has(n.role) && n.states.disabled !== true);
  if (fresh.length !== rest.length || new Set(fresh.map((n) => n.role)).size !== 1 || fresh.some((n) => shownNumber(n) !== null))
    return `the page shows ${fresh.length} new controls where ${rest.length} numbers were`;
  const selectors = await r.selectors(fresh.map((n) => n.id!));
  const centres = await Promise.all(selectors.map((s) => (s ? r.pointOf(s).catch(() => null) : null)));
  const out: OutlineNode[] = [];
  for (const spot of spots) {
    if (!spot) return 'a number left had no place on the page';
    const near = centres.flatMap((c, k) => (c && Math.hypot(c.x - spot.x, c.y - spot.y) <= COVER_REACH ? [k] : []));
    if (near.length !== 1 || out.includes(fresh[near[0]])) return `the place of a number left has ${near.length || 'no'} cover near it`;
    out.push(fresh[near[0]]);
  }
  return out;
}

/** What an "each" step acts on, where the cards it picks among may lie face down: the deck, else eachTargets'. */
export function eachOrDeck(each: Each, nodes: OutlineNode[]): OutlineNode[] | string {
  const deck = each.turn ? faceDownCards(nodes) : null;
  return Array.isArray(deck) ? deck : eachTargets(each, nodes);
}
