/**
 * Sets of targets chosen on the page when the step runs (eachOf): numbers in order, the greatest or the odd one, cards
 * turned over, all the links that mention X; orders of a menu's items; goals of several steps in one phrase.
 */
import { Refusal } from '../act';
import { either, oneOf } from '../words/grammar';
import { DISH_NOUNS } from '../words/controls';
import { EACH_ITEM_VERBS, ITEMS, ITEMS_BY, MENTION_KINDS, ALL_KINDS, EVERYTHING, MENTIONS } from '../words/messages';
import {
  BY_MEANING,
  CARRYING,
  DOWNWARD,
  LARGEST,
  NUMBER_NOUNS,
  ORDERINGS,
  PARITIES,
  SHOWN_ORDER,
  SMALLEST,
  SUPERLATIVES,
  TURN_VERBS,
  TURNED_THINGS,
  UPWARD,
} from '../words/orders';
import { SHADES } from '../words/references';
import { CLICK_ALL_VERBS, CLICK_EVERY_VERBS } from '../words/verbs';
import { COUNT_PHRASE, COUNT_WORDS } from '../words/numbers';
import type { Each, PlanStep } from './types';
import { bare } from './clauses';

/** Phrases that make one clause a goal of several steps: superlatives, orderings, "all the X that ...", trips. */
export const WHOLE_GOAL = new RegExp(
  [
    `\\b(?:${either(SUPERLATIVES)})\\b`,
    `\\bin\\s+(?:${either(ORDERINGS)})\\s+order\\b`,
    `\\b(?:${either(SHOWN_ORDER)})\\b`,
    `\\b(?:${either(BY_MEANING)})\\b`,
    '\\b(?:all|every|each)\\s+(?:of\\s+)?(?:the\\s+)?(?:[\\w-]+\\s+){0,2}(?:that|which|who|whose|containing|mentioning|matching|with)\\b',
    '^(?:book|buy|order|reserve|purchase|schedule)\\b.*\\bfrom\\s+\\S+.*\\bto\\s+\\S+',
  ].join('|'),
  'i',
);

/** "Click the moving target": (1) what the target is called. Clicked where it is at that moment. */
const DISH = either(DISH_NOUNS);
/** "Order one of each item: Garlic bread, Cheese wheel": (1) the items, listed. */
const ORDER_EACH = new RegExp(`^order one of each(?: ${DISH})?(?: of (?:these|the following))?\\s*:\\s*(.+)$`, 'i');
/** "Order 3 items that are vegan": (1) how many, (2) the kind, as the page marks its items. */
const ORDER_KIND = new RegExp(`^order (${COUNT_PHRASE}) (?:${DISH}) that (?:are|is) ([a-z][\\w-]*)$`, 'i');

/** An order of a menu's items, by name or by kind, or null when the clause is not one. */
export function orderSaid(clause: string): PlanStep['order'] | null {
  const c = clause.trim().replace(/[.!]+$/, '');
  const each = ORDER_EACH.exec(c);
  if (each) {
    const items = each[1]!
      .split(/\s*,\s*(?:and\s+)?|\s+and\s+/)
      .map((x) => x.trim().replace(/^["“']|["”']$/g, ''))
      .filter(Boolean);
    return items.length ? { items } : null;
  }
  const kind = ORDER_KIND.exec(c);
  if (!kind) return null;
  const count = COUNT_WORDS[kind[1]!.toLowerCase()] ?? Number(kind[1]);
  return count > 0 ? { kind: kind[2]!.toLowerCase(), count } : null;
}

/** Words for numbers as a set of targets. */
const NUMBER_NOUN = `(?:${either(NUMBER_NOUNS)})`;
const CLICK_ALL = `(?:${either(CLICK_ALL_VERBS)})(?:\\s+on)?`;
const ASCENDING = either(['ascending', 'increasing', ...DOWNWARD]);
const LARGE = either(LARGEST);
/** "in ascending order", "from the smallest to the largest", "smallest first": (1), (2) or (3) says which way. */
const NUMBER_ORDER =
  `(?:in\\s+(${ASCENDING}|numerical|numeric)\\s+order` +
  `|from\\s+(?:the\\s+)?(${either(SMALLEST)}|${LARGE})\\s+to\\s+(?:the\\s+)?\\w+` +
  `|(${either(SMALLEST)}|${LARGE})\\s+first)`;
/** The same after "every number", which takes fewer words ("numerical", "least", "to the" are not read). */
const EVERY_NUMBER_ORDER =
  `(?:in\\s+(${ASCENDING})\\s+order` + `|from\\s+(?:the\\s+)?(smallest|lowest|${LARGE})\\s+to\\s+\\w+` + `|(smallest|lowest|${LARGE})\\s+first)`;
const CLICK_EVERY = `(?:${either(CLICK_EVERY_VERBS)})(?:\\s+on)?\\s+(?:all|every|each)`;

const PICK_VERB = `(?:${either(CLICK_ALL_VERBS)}|pick)(?:\\s+on)?`;
const TURNED = either(TURNED_THINGS);
/**
 * "Find and pick the card with the greatest number", "turn over the cards and choose the one with the smallest number",
 * "find the tile with the largest value, (and) select it": (3) the thing, (4) which number; the words up to the clause's end.
 */
export const CARD_PICK = new RegExp(
  `^(?:(${either(TURN_VERBS)})(?:\\s+(?:all\\s+)?the\\s+${TURNED})?\\s+and\\s+)?(${PICK_VERB}|${either(TURN_VERBS)})\\s+the\\s+(${TURNED}|one)` +
    `\\s+(?:${either(CARRYING)})\\s+the\\s+(${either([...LARGEST, ...SMALLEST])})\\s+(?:number|value)` +
    `(?:\\s*,?\\s*(?:and\\s+)?${PICK_VERB}\\s+it)?(?=\\s*(?:[,;]|\\bthen\\b|\\band\\b|$))`,
  'i',
);
/** The clause CARD_PICK leaves: (1) which number. */
const CARD_PICKED = new RegExp(`^pick the (?:card|tile) with the (${either([...LARGEST, ...SMALLEST])}) number$`, 'i');

/** The targets-chosen-on-the-page reading of a clause, or null. */
export function eachOf(clause: string, quotes: string[]): Each | null {
  const c = bare(clause, quotes).replace(/[.!]+$/, '');
  let m: RegExpExecArray | null;
  const rx = (src: string) => new RegExp(src, 'i');
  // "Click on the numbers in ascending order", "from largest to smallest", "smallest first".
  if (
    (m = rx(`^${CLICK_ALL}\\s+(?:all\\s+|each\\s+|every\\s+)?(?:of\\s+)?(?:the\\s+)?${NUMBER_NOUN}\\s*,?\\s+${NUMBER_ORDER}$`).exec(c)) ||
    (m = rx(`^${CLICK_ALL}\\s+(?:every|each)\\s+(?:number|digit)\\s*,?\\s+${EVERY_NUMBER_ORDER}$`).exec(c))
  ) {
    const w = (m[1] ?? m[2] ?? m[3]).toLowerCase();
    return { order: oneOf([...UPWARD, ...SMALLEST], '').test(w) ? 'asc' : 'desc' };
  }
  // The card with the greatest number, turned up first where the cards lie face down.
  if ((m = CARD_PICKED.exec(c))) return { pick: SMALLEST.includes(m[1]!.toLowerCase()) ? 'min' : 'max', turn: true };
  // "Click the greatest number", "the smallest digit", "the odd number", "the even one".
  if ((m = rx(`^${CLICK_ALL}\\s+(?:the\\s+)?(${either([...LARGEST, ...SMALLEST, ...PARITIES])})\\s+(?:number|value|digit|one)$`).exec(c))) {
    const w = m[1].toLowerCase();
    return { pick: w === 'odd' || w === 'even' ? w : SMALLEST.includes(w) ? 'min' : 'max' };
  }
  // "Select all the shades of blue": the tiles drawn in that hue, light or dark.
  if ((m = rx(`^${CLICK_EVERY}\\s+(?:of\\s+)?(?:the\\s+)?shades?\\s+of\\s+(\\w+)(?:\\s+(?:below|shown|in\\s+the\\s+grid))?$`).exec(c))) {
    const hue = m[1]!.toLowerCase();
    if (!SHADES[hue]) throw new Refusal(`it asks for the shades of ${hue}, a hue the built-in model does not tell apart`);
    return { shade: hue };
  }
  // "Click everything on the page", "click all the buttons", "tick every checkbox": each such control once, in page order.
  const ON_PAGE = '(?:\\s+(?:on|in)\\s+(?:the|this)\\s+page)?';
  if ((m = rx(`^${CLICK_ALL}\\s+(?:${either(EVERYTHING)})${ON_PAGE}$`).exec(c))) return { all: [...Object.keys(ALL_KINDS), 'clickable'] };
  for (const [role, said] of Object.entries(ALL_KINDS)) {
    if (rx(`^${CLICK_EVERY}\\s+(?:of\\s+)?(?:the\\s+)?(?:${either(said)})${ON_PAGE}$`).test(c)) return { all: [role] };
  }
  // "Click all the links that mention cats", "open every link about dogs", "check all boxes with Pro".
  if ((m = rx(`^${CLICK_EVERY}\\s+(?:of\\s+)?(?:the\\s+)?(${either(MENTION_KINDS)})\\s+(?:that\\s+|which\\s+)?(?:${either(MENTIONS)})\\s+(.+)$`).exec(c))) {
    const kind = m[1].toLowerCase();
    const roles = kind.startsWith('link')
      ? ['link']
      : kind.startsWith('button')
        ? ['button', 'clickable']
        : /^(?:checkbox|boxes)/.test(kind)
          ? ['checkbox']
          : /^option/.test(kind)
            ? ['option', 'checkbox', 'radio']
            : ['link', 'button', 'clickable', 'listitem', 'option', 'checkbox'];
    return { mention: m[2].replace(/^(?:the\s+)?(?:words?|text)\s+/i, '').trim(), roles };
  }
  // "Like all posts by Kim", "star every message from Bob", "delete all emails from Carol".
  if (
    (m = rx(
      `^(${either(EACH_ITEM_VERBS)})\\s+(?:all|every|each)\\s+(?:of\\s+)?(?:the\\s+)?(?:\\w+\\s+)?(?:${either(ITEMS)})\\s+(?:${either(ITEMS_BY)})\\s+(.+)$`,
    ).exec(c))
  ) {
    return { verb: m[1].toLowerCase().replace(/\s+to$/, ''), by: m[2].trim() };
  }
  return null;
}

/** "Mark the numbers below as odd or even". */
export const MARK_PARITY = new RegExp(
  '^(?:mark|label|classify|tag|flag)\\s+(?:each\\s+of\\s+|all\\s+(?:of\\s+)?|every\\s+one\\s+of\\s+)?the\\s+numbers' +
    '(?:\\s+(?:below|above|shown|on the page))?\\s+as\\s+(?:either\\s+)?(?:odd\\s+or\\s+even|even\\s+or\\s+odd)$',
  'i',
);
