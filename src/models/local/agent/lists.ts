/**
 * Steps over a list's items: the targets of an "each" step (numbers, mentions, each item's own control, shades, odd and
 * even), the one item to open, and an order of items added and sent.
 */
import { clip, quote } from '../../../protocol/text';
import { allFlatItems, flatItemsBy, isBy, ITEM_CONTROL_ROLES, type ItemBlock } from '../items';
import { isInside, type OutlineNode } from '../outline';
import type { Each, PlanStep } from '../plan';
import { ADD_ONE, ORDER_SENDERS } from '../words/controls';
import { COLOUR_WORDS, NEUTRAL_SHADES, SHADE_MARGIN_DEGREES, SHADES } from '../words/references';
import { exactMatch, glyphWords, normalize } from '../text';
import { anyOf, oneOf } from '../words/grammar';
import { MORE_NAMES } from '../words/menus';
import { type View, look, type Outcome, actOnNode, type Run } from './run';
import { OPENER_ROLES } from './menus';

const ADD_CONTROL = oneOf(ADD_ONE);
const ORDER_SENDER = oneOf(ORDER_SENDERS);
/** The most clicks of add controls one order makes. */
const ORDER_CLICKS_MAX = 20;

/**
 * What an order clicks: each item's one add control and how many times, and the page's one control that sends the order.
 * Items are the page's blocks of a list (a name, what it is, its controls); one named is the one block whose words
 * begin with the name (else the one that holds all its words); items of a kind are the first blocks that name the kind
 * (an icon's alt text counts), one each, around again when there are fewer than asked.
 */
export function orderLines(
  o: NonNullable<PlanStep['order']>,
  nodes: OutlineNode[],
): { lines: { add: OutlineNode; item: string; times: number }[]; send: OutlineNode } | string {
  const senders = nodes.filter(
    (n) => n.id && OPENER_ROLES.has(n.role) && n.states.disabled !== true && ORDER_SENDER.test(n.name.replace(/^[\s\W]+|[\s\W]+$/gu, '')),
  );
  if (senders.length !== 1) return `the page shows ${senders.length || 'no'} controls that send an order, not one`;
  const blocks = allFlatItems(nodes).filter((b) => b.controls.some((c) => ADD_CONTROL.test(c.name.trim())));
  if (!blocks.length) return 'the page shows no list of items, each with its own control that adds one';
  const addOf = (b: ItemBlock) => {
    const adds = b.controls.filter((c) => ADD_CONTROL.test(c.name.trim()));
    return adds.length === 1 ? adds[0]! : null;
  };
  const picked: ItemBlock[] = [];
  if (o.items) {
    const starting = (name: string) => blocks.filter((b) => `${normalize(b.text)} `.startsWith(`${normalize(name)} `));
    for (let i = 0; i < o.items.length; i++) {
      let name = o.items[i]!;
      // "Spaghetti and Meatballs" is one dish, though the list was read apart at its "and".
      const joined = i + 1 < o.items.length ? `${name} and ${o.items[i + 1]}` : '';
      if (joined && starting(joined).length === 1) ((name = joined), i++);
      const starts = starting(name);
      const holds = starts.length ? starts : blocks.filter((b) => isBy(name, b.text));
      if (holds.length !== 1) return `${holds.length || 'no'} items on the page are ${quote(name)}`;
      // One of each: two names that come to one item were not two items.
      if (picked.includes(holds[0]!)) return `${quote(name)} and another name said both come to ${quote(holds[0]!.text)}`;
      picked.push(holds[0]!);
    }
  } else {
    const kind = new RegExp(`(?:^|[^\\w-])${o.kind!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[^\\w-])`, 'i');
    // What an item is may be said by its pictures only (an icon whose alt text is "vegan").
    const ofKind = blocks.filter((b) => kind.test([b.text, ...b.lines.filter((n) => n.role === 'img').map((n) => n.name)].join(' ')));
    if (!ofKind.length) return `no item on the page says it is ${o.kind}`;
    for (let i = 0; i < o.count!; i++) picked.push(ofKind[i % ofKind.length]!);
  }
  if (picked.length > ORDER_CLICKS_MAX) return `it orders ${picked.length} items, more than ${ORDER_CLICKS_MAX}`;
  const lines: { add: OutlineNode; item: string; times: number }[] = [];
  for (const b of picked) {
    const add = addOf(b);
    if (!add) return `${quote(b.text)} has ${b.controls.length ? 'no one' : 'no'} control that adds one`;
    const had = lines.find((l) => l.add === add);
    if (had) had.times++;
    else lines.push({ add, item: b.text, times: 1 });
  }
  return { lines, send: senders[0]! };
}

/** An order: each item's add control clicked as many times as it is ordered, then the order sent. */
export async function orderStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const plan = orderLines(step.order!, current().nodes);
  if (typeof plan === 'string') return { why: plan };
  const done: string[] = [];
  for (const { add, item, times } of plan.lines) {
    for (let k = 0; k < times; k++) {
      const why = `${reasoning}: ${quote(item)}, ${k + 1} of ${times}`;
      if (!(await actOnNode(r, add, 'click', [], `click ${quote(add.name)} for ${quote(item)}`, why, current().url))) {
        return { why: `${quote(item)}'s ${quote(add.name)} went away after ${done.join(', ') || 'nothing was added'}` };
      }
    }
    done.push(`${times} × ${quote(item)}`);
  }
  set(await look(r, r.instruction));
  if (!(await actOnNode(r, plan.send, 'click', [], `click ${quote(plan.send.name)}`, `${reasoning}: send the order`, current().url))) {
    return { why: `${quote(plan.send.name)} went away after adding ${done.join(', ')}` };
  }
  return { did: `added ${done.join(', ')}, then clicked ${quote(plan.send.name)}` };
}

/** The most targets one "each" step clicks. */
export const EACH_MAX = 30;
/** Roles a target named by a number may have. */
export const NUMBERED = new Set(['button', 'clickable', 'link', 'cell', 'gridcell', 'option', 'listitem', 'menuitem', 'tab']);
/** The number a node shows as a sighted person reads it; null when it shows none, or only in text too small to see. */
export function shownNumber(n: OutlineNode): number | null {
  if (n.nameFrom === 'hidden-text' || !/^\s*[-+]?\d+(?:\.\d+)?\s*$/.test(n.name)) return null;
  return Number(n.name);
}
const ITEMS = new Set(['article', 'listitem', 'row', 'group', 'region', 'figure', 'treeitem']);

/** A word and its plural or singular ("cats" finds "cat's guide" and "Cats and houseplants"). */
function mentions(text: string, what: string): boolean {
  const ws = normalize(what).split(' ').filter(Boolean);
  const word = (w: string) => new RegExp(`\\b${w.replace(/(?:es|s)$/i, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:s|es)?\\b`, 'i');
  return ws.length > 0 && ws.every((w) => word(w).test(normalize(text)));
}

/** The targets an "each" step clicks, in order; a string saying why when the page does not settle them. */
export function eachTargets(each: Each, nodes: OutlineNode[]): OutlineNode[] | string {
  if (each.order || each.pick) {
    const nums = nodes
      .filter((n) => n.id && NUMBERED.has(n.role) && n.states.disabled !== true && shownNumber(n) !== null)
      .map((n) => ({ n, v: shownNumber(n)! }));
    if (!nums.length) return 'the page shows no targets named by a number';
    if (each.order) {
      if (nums.length > EACH_MAX) return `the page shows ${nums.length} numbers, more than ${EACH_MAX}`;
      return [...nums].sort((a, b) => (each.order === 'asc' ? a.v - b.v : b.v - a.v) || a.n.index - b.n.index).map((x) => x.n);
    }
    const fit =
      each.pick === 'odd'
        ? nums.filter((x) => Number.isInteger(x.v) && Math.abs(x.v % 2) === 1)
        : each.pick === 'even'
          ? nums.filter((x) => Number.isInteger(x.v) && x.v % 2 === 0)
          : nums.filter((x) => x.v === (each.pick === 'max' ? Math.max(...nums.map((y) => y.v)) : Math.min(...nums.map((y) => y.v))));
    const which = each.pick === 'max' ? 'greatest' : each.pick === 'min' ? 'least' : each.pick;
    const ones = fit.length > 1 ? `s (${fit.map((x) => x.n.name).join(', ')})` : '';
    if (fit.length !== 1) return `${fit.length || 'no'} numbers on the page are the ${which} one${ones}`;
    return [fit[0].n];
  }
  if (each.mention) {
    const roles = new Set(each.roles ?? []);
    const hits = nodes.filter((n) => n.id && roles.has(n.role) && n.states.disabled !== true && mentions(n.name, each.mention!));
    if (!hits.length) return `no ${[...roles][0] ?? 'target'} on the page mentions ${quote(each.mention)}`;
    if (hits.length > EACH_MAX) return `${hits.length} targets mention ${quote(each.mention)}, more than ${EACH_MAX}`;
    // A box already ticked stays ticked.
    return hits.filter((n) => !(n.role === 'checkbox' && n.states.checked === true));
  }
  if (each.all) {
    // Controls of those roles ("everything" takes what only listens for clicks too); never one disabled or ticked.
    const roles = new Set(each.all);
    const hits = nodes.filter(
      (n) => n.id && roles.has(n.role) && n.states.disabled !== true && n.states.checked !== true && n.states.checked !== 'true' && n.states.pressed !== true,
    );
    if (!hits.length) return `the page shows no ${each.all.join(' or ')} to click`;
    return hits.length > EACH_MAX ? `the page shows ${hits.length} of them, more than ${EACH_MAX}` : hits;
  }
  if (each.classify === 'parity') return parityTargets(nodes);
  if (each.shade) return shadeTargets(each.shade, nodes);
  if (each.by && each.verb) {
    const inner = blocksBy(each.by, nodes);
    if (!inner.length) return `no post, message or item on the page is by ${quote(each.by)}`;
    const out: OutlineNode[] = [];
    for (const item of inner) {
      const controls = item.controls.filter((n) => named(n, each.verb!, each.by));
      if (controls.length !== 1) {
        const has = `${controls.length || 'no'} ${quote(each.verb)} control${controls.length === 1 ? '' : 's'}`;
        return `the item by ${quote(each.by)} ${quote(clip(item.text, 40))} has ${has}`;
      }
      out.push(controls[0]);
    }
    if (each.one && out.length !== 1) return `${out.length} items are by ${quote(each.by)}`;
    if (each.count !== undefined) {
      if (out.length < each.count) return `it asks for ${each.count} items by ${quote(each.by)}, and the page shows ${out.length}`;
      return out.slice(0, each.count);
    }
    return out.length > EACH_MAX ? `${out.length} items, more than ${EACH_MAX}` : out;
  }
  return 'it names no set of targets';
}

/**
 * The items by `by`: boxes the outline shows (a box that takes clicks and holds controls of its
 * own is one too, a message row built of divs), else blocks the page draws flat (items.ts).
 */
function blocksBy(by: string, nodes: OutlineNode[]): ItemBlock[] {
  const boxes = itemsBy(by, nodes, (n) => ITEMS.has(n.role) || (n.role === 'clickable' && n.children.some((c) => !!c.id)));
  if (!boxes.length) return flatItemsBy(by, nodes);
  return boxes.map((b) => blockOf(b, nodes));
}

/** A box of the outline as an item: its own words and the controls inside it. */
const blockOf = (box: OutlineNode, nodes: OutlineNode[]): ItemBlock => ({
  text: ownText(box),
  controls: nodes.filter((n) => n.id && isInside(n, box) && ITEM_CONTROL_ROLES.has(n.role)),
  lines: nodes.filter((n) => isInside(n, box)),
});

/**
 * The tiles drawn in a shade of `hue`, named by their colour (namefrom=inferred). A tile whose hue the snapshot gives is
 * told by it: near the family's hue it is one, far from it not, in between unknown. Without one (a keyword colour, a
 * gray), by its name: a colour with a name of its own that may or may not be that hue ("pink" beside reds, a "light
 * gray" that may be a pale blue) makes the set a guess. A guess is refused.
 */
function shadeTargets(hue: string, nodes: OutlineNode[]): OutlineNode[] | string {
  const family = SHADES[hue]!;
  const are = anyOf(family.are);
  const maybe = anyOf([...family.maybe, ...NEUTRAL_SHADES]);
  const tiles = nodes.filter((n) => n.id && n.nameFrom === 'inferred' && anyOf(COLOUR_WORDS).test(n.name));
  // Degrees from the family's arc of hues (0 inside it); null for a tile the snapshot gives no hue.
  const away = (n: OutlineNode): number | null => {
    if (typeof n.states.hue !== 'string' || !/^\d{1,3}$/.test(n.states.hue)) return null;
    const [from, to] = family.hues;
    const arc = (to - from + 360) % 360;
    const past = (Number(n.states.hue) - from + 360) % 360;
    return past <= arc ? 0 : Math.min(past - arc, 360 - past);
  };
  const shade = (n: OutlineNode): boolean | null => {
    const d = away(n);
    if (d === null) return are.test(n.name) ? true : maybe.test(n.name) ? null : false;
    return d === 0 ? true : d > SHADE_MARGIN_DEGREES ? false : null;
  };
  const unsure = tiles.find((n) => shade(n) === null);
  if (unsure) {
    const d = away(unsure);
    return d === null
      ? `whether ${quote(unsure.name)} is a shade of ${hue} is not known (its colour has a name of its own)`
      : `whether ${quote(unsure.name)} (hue ${unsure.states.hue}) is a shade of ${hue} is not known (${d} degrees outside its hues)`;
  }
  const hits = tiles.filter((n) => shade(n) === true);
  if (!hits.length) return `nothing on the page is drawn in a shade of ${hue}`;
  return hits.length > EACH_MAX ? `${hits.length} tiles are shades of ${hue}, more than ${EACH_MAX}` : hits;
}

/**
 * Numbers drawn flat, each between its own pair of controls ("[Odd] 7 [Even]"): in reading order, a line that is one
 * number right between an Odd and an Even control. Every Odd and Even control on the page must pair with one number,
 * or the pairing is not known and none is made.
 */
function bracketed(nodes: OutlineNode[]): ItemBlock[] {
  const seq = nodes.filter((n) => n.id || (n.role === 'text' && n.name.trim()));
  const parity = (n: OutlineNode | undefined) => !!n?.id && (named(n, 'odd') || named(n, 'even'));
  const out: ItemBlock[] = [];
  for (let i = 1; i + 1 < seq.length; i++) {
    const [before, line, after] = [seq[i - 1]!, seq[i]!, seq[i + 1]!];
    if (line.id || !/^[-−]?\d+$/.test(line.name.trim()) || !parity(before) || !parity(after)) continue;
    if (named(before, 'odd') === named(after, 'odd')) continue;
    out.push({ text: line.name.trim(), controls: [before, after], lines: [before, line, after] });
  }
  const all = nodes.filter((n) => parity(n));
  return out.length && out.length * 2 === all.length ? out : [];
}

/**
 * "Mark the numbers as odd or even": in each item with an Odd and an Even control, the one its
 * number calls for. Every such item must show exactly one whole number.
 */
function parityTargets(nodes: OutlineNode[]): OutlineNode[] | string {
  const pick = (blocks: ItemBlock[]) => blocks.filter((b) => b.controls.some((c) => named(c, 'odd')) && b.controls.some((c) => named(c, 'even')));
  // Boxes the outline shows (rows, list items), the innermost that hold both controls; else blocks drawn flat.
  const held = nodes.filter((n) => ITEMS.has(n.role) && pick([blockOf(n, nodes)]).length);
  const boxes = held.filter((b) => !held.some((o) => o !== b && isInside(o, b))).map((b) => blockOf(b, nodes));
  const between = boxes.length ? [] : bracketed(nodes);
  const items = boxes.length ? boxes : between.length ? between : pick(allFlatItems(nodes));
  if (!items.length) return 'the page shows no numbers with Odd and Even controls';
  const out: OutlineNode[] = [];
  for (const item of items) {
    const nums = item.text.match(/[-−]?\d+(?:\.\d+)?/g) ?? [];
    if (nums.length !== 1 || /\./.test(nums[0]))
      return `${quote(clip(item.text, 40))} shows ${nums.length === 1 ? 'no whole number' : `${nums.length} numbers`}`;
    const odd = Math.abs(Number(nums[0].replace('−', '-'))) % 2 === 1;
    const controls = item.controls.filter((c) => named(c, odd ? 'odd' : 'even'));
    if (controls.length !== 1) return `${quote(clip(item.text, 40))} has ${controls.length} ${odd ? 'Odd' : 'Even'} controls`;
    out.push(controls[0]);
  }
  return out.length > EACH_MAX ? `${out.length} numbers, more than ${EACH_MAX}` : out;
}

/** The one item's "more" control, when it is the only item by `by` and shows no `verb` control: its menu may hold it. */
export function moreOf(each: Each, nodes: OutlineNode[]): OutlineNode | null {
  if (!each.by || !each.verb || !each.one) return null;
  const inner = blocksBy(each.by, nodes);
  if (inner.length !== 1 || inner[0].controls.some((n) => named(n, each.verb!))) return null;
  const more = inner[0].controls.filter((n) => MORE_NAMES.some((w) => named(n, w)));
  return more.length === 1 ? more[0] : null;
}

/** An item's own words: its name and its text lines, not its controls'. */
const ownText = (box: OutlineNode): string => [box.name, ...box.children.filter((c) => !c.id).map((c) => c.name)].join(' ');

/** The innermost items (of the kinds `kind` admits) whose own words name `by` ("Kim", "@jane"); a list that holds them all is not one. */
function itemsBy(by: string, nodes: OutlineNode[], kind: (n: OutlineNode) => boolean): OutlineNode[] {
  const items = nodes.filter((n) => kind(n) && isBy(by, ownText(n)));
  return items.filter((b) => !items.some((o) => o !== b && isInside(o, b)));
}

/** What opens the one item (message, post, row) by or about `by`: the item when it takes clicks, else its one link. */
export function itemToOpen(by: string, nodes: OutlineNode[]): OutlineNode | string {
  const inner = itemsBy(by, nodes, (n) => ITEMS.has(n.role) || n.role === 'clickable' || n.role === 'link');
  if (inner.length !== 1) return `${inner.length || 'no'} items on the page are by ${quote(by)}`;
  const item = inner[0];
  if (item.id && (item.role === 'clickable' || item.role === 'link' || item.states.clickable === true)) return item;
  const links = nodes.filter((n) => n.id && n.role === 'link' && isInside(n, item));
  return links.length === 1 ? links[0] : `the item by ${quote(by)} has no single control that opens it`;
}

/**
 * Why clicking several links in turn cannot work: one that goes to another page takes the rest
 * away with it. Null when they all stay on this page (a "#" link, a script's link).
 */
export function leavingLinks(set: OutlineNode[], url: string): string | null {
  if (set.length < 2) return null;
  let here: URL;
  try {
    here = new URL(url);
  } catch {
    return null;
  }
  for (const n of set) {
    const href = typeof n.states.href === 'string' ? n.states.href : '';
    if (n.role !== 'link' || !href || href.startsWith('#') || /^javascript:/i.test(href)) continue;
    try {
      const to = new URL(href, here);
      if (to.origin !== here.origin || to.pathname !== here.pathname || to.search !== here.search) {
        return `${quote(n.name)} leads to another page, which would take the other ${set.length - 1} away`;
      }
    } catch {
      /* an unreadable href stays on the page as far as anyone knows */
    }
  }
  return null;
}

/**
 * Whether a control is called `verb`: its name, what its glyph means, or the words on its face. On an item by `by`, its
 * name may go on to say whom it acts on ("Mute @rex" on a post by @rex).
 */
export function named(n: OutlineNode, verb: string, by?: string): boolean {
  if (exactMatch(n.name, verb) || glyphWords(n.name).split(' ').includes(verb.toLowerCase())) return true;
  if (by) {
    const name = n.name.trim();
    const who = by.replace(/^@/, '').toLowerCase();
    for (const tail of [` @${who}`, ` ${who}`]) if (name.toLowerCase().endsWith(tail) && exactMatch(name.slice(0, -tail.length), verb)) return true;
  }
  return n.children.some((c) => !c.id && c.role === 'text' && exactMatch(c.name, verb));
}
