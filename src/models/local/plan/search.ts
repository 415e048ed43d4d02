/**
 * Looking for targets: directions to look (tabs, sections, menus), scrolling or a carousel until a target shows, menu paths,
 * a person's record in a contact book, and trips searched for and booked.
 */
import { either, oneOf } from '../words/grammar';
import {
  BOOK_IT,
  BOOK_VERBS,
  DATE_LEADS,
  FIND_VERBS,
  ONE_WAY,
  PICK_VERBS,
  RESULT_MEASURES,
  RESULT_NOUNS,
  RESULT_ORDERS,
  ROUND_TRIP,
  TRIP_NOUNS,
} from '../words/trips';
import {
  CAROUSELS,
  SEARCH_THROUGH_VERBS,
  FOUND_ACTS,
  SCROLL_VERBS,
  UNTIL_FOUND,
  UNTIL_SHOWN,
  FOLDED_PARTS,
  MENU_KINDS,
  MENU_OPEN_VERBS,
  FOLDS,
  HIDDEN_IN,
  LOOK_THROUGH_VERBS,
  LOOK_THROUGH_WAYS,
  MENU_SEARCHES,
} from '../words/menus';
import { PERSON_NAME, RECORD_BOOKS, RECORD_FIELDS } from '../words/search';
import { bare, CLAUSE_END, quoteValue } from './clauses';

/** "switch between", "browse through": moving among the places a target may be folded away in. */
const LOOK_THROUGH = `(?:${either(LOOK_THROUGH_VERBS)})\\s+(?:${either(LOOK_THROUGH_WAYS)})`;
const FOLD = `(?:file\\s+)?(?:${either(FOLDS)})`;
/** Directions to look around rather than steps: "switch between the tabs", "expand the sections below". */
export const SEARCH_DIRECTION = new RegExp(
  `^(?:${LOOK_THROUGH}\\s+(?:the\\s+|all\\s+(?:the\\s+)?)?${FOLD}` +
    '|(?:expand|open|browse)\\s+(?:the\\s+|all\\s+(?:the\\s+)?)?(?:sections?|panels?|tabs?|items?|headings?)(?:\\s+(?:below|above|on the page|here))?' +
    '|(?:look|search)\\s+(?:around|through the page))$',
  'i',
);

/** "Expand the pie menu below", "open the menu": the menu the page opens from one control, as a step. */
export const MENU_OPEN = new RegExp(
  `^(?:${either(MENU_OPEN_VERBS)})\\s+(?:the\\s+|this\\s+|that\\s+)?(?:(${either(MENU_KINDS)})\\s+)?menu(?:\\s+(?:below|above|on the page|here))?$`,
  'i',
);

export const MENU_KIND = oneOf(MENU_KINDS);

/** "Expand the section below", "open the collapsed panel": open what is folded, as a step. */
export const EXPAND_DIRECTION = new RegExp(
  '^(?:expand|open|unfold|show)\\s+(?:the\\s+|this\\s+|that\\s+)?(?:collapsed\\s+|hidden\\s+|folded\\s+)?' +
    `(?:${either(FOLDED_PARTS)})(?:\\s+(?:below|above|on the page|here))?$`,
  'i',
);

/**
 * "Scroll down the feed until you find Like post 13 and click it", "scroll until Load report appears, then click it":
 * (1) where to scroll, (2)/(3) the target, (4) what is done to it.
 */
export const SCROLL_UNTIL = new RegExp(
  `^(?:${either(SCROLL_VERBS)})(?:\\s+(?:the|this)\\s+((?:[\\w'-]+\\s+){0,2}?[\\w'-]+))?\\s+until\\s+` +
    `(?:(?:${either(UNTIL_FOUND)})\\s+(.+?)|(.+?)\\s+(?:${either(UNTIL_SHOWN)}))` +
    `\\s*,?\\s+(?:and\\s+|then\\s+)+(${either(FOUND_ACTS)})(?:\\s+on)?\\s+(?:it|that|them|this)$`,
  'i',
);

/**
 * "Go through the carousel to find the Lighthouse tour and click it", "find Fish market in the slideshow and click it",
 * "click Fish market in the carousel": (1)/(2)/(3) the target. Only a carousel named: a form's Next is never walked.
 */
const SLIDES = `(?:the\\s+)?(?:${either(CAROUSELS)})`;
export const SLIDE_FIND = [
  new RegExp(
    `^(?:${either(SEARCH_THROUGH_VERBS)})\\s+through\\s+${SLIDES}\\s+(?:to\\s+find|until\\s+you\\s+(?:find|see)|and\\s+find)\\s+(.+?)` +
      `\\s*,?\\s+(?:and\\s+|then\\s+)+(?:click|open|select)(?:\\s+on)?\\s+(?:it|that)$`,
    'i',
  ),
  new RegExp(`^(?:find|locate)\\s+(.+?)\\s+(?:in|on)\\s+${SLIDES}\\s*,?\\s+(?:and\\s+|then\\s+)+(?:click|open|select)(?:\\s+on)?\\s+(?:it|that)$`, 'i'),
  new RegExp(`^(?:click|open|select)(?:\\s+on)?\\s+(.+?)\\s+(?:in|on)\\s+${SLIDES}$`, 'i'),
];

/** "Navigate through a menu bar to find the secret option": (1) or (2) the item, looked for through the page's menus. */
export const MENU_FIND = new RegExp(`^(?:${either(MENU_SEARCHES)})$`, 'i');
/** "Navigate through the menus to find X and click it": (1) X, looked for through the page's menus and clicked. */
export const MENU_FIND_CLICK = new RegExp(
  '\\b(?:navigate|go|look|search|browse|dig) (?:through |in )?(?:the |a |its )?(?:(?:simplified|complex|deeply|nested|top|main)[, ]+)*' +
    '(?:menu ?bar|menus?)(?: and (?:its )?submenus)? to find (.+?)\\s*,?\\s+(?:and\\s+)?(?:then\\s+)?(?:click|select|choose)(?:\\s+on)?\\s+it\\b',
  'i',
);

/** Where a target may be hidden: "in the sections below", "inside one of the tabs". */
const HIDDEN = `(?:file\\s+)?(?:${either(HIDDEN_IN)})`;
/** "Find the link X in the sections below and click it": (1) what to find, (2) the verb. */
export const FIND_AND_CLICK = new RegExp(
  '^(?:find|locate|look for)\\s+(.+?)' +
    `(?:\\s+(?:in|among|inside|under|within|behind)\\s+(?:the\\s+|one of the\\s+)?${HIDDEN}(?:\\s+(?:below|above|on the page))?)?` +
    ',?\\s+and\\s+(click|open|select|press|tap|choose)(?:\\s+on)?\\s+(?:it|that|them)$',
  'i',
);
/**
 * "From the country drop-down, choose Japan, then ...": (1) the list, (2) the verb, (3) the choice, up to the next step
 * ("In the shopping list, select Milk and Eggs" is two choices, left as said).
 */
export const FROM_LIST_CHOOSE = new RegExp(
  '^(?:from|in)\\s+(?:the\\s+)?([^,]+?\\s+(?:drop-?\\s?down|dropdown|list|select|picker)),?\\s+(?:and\\s+)?(?:then\\s+)?' +
    '(choose|select|pick)\\s+((?:(?!\\sand\\s)[^,])+?)(?=\\s*(?:,|\\sthen\\s|\\sand\\s+(?:then\\s+)?(?:click|press|tap|hit|submit|save|continue)\\b|$))',
  'i',
);
/** "In the Shop menu, choose Men": (1) the menu, (2) the rest of the path. */
export const MENU_CHOICE =
  /^(?:in|from|under|open)\s+(?:the\s+)?(.+?)\s+menu,?\s+(?:and\s+)?(?:then\s+)?(?:choose|select|click(?:\s+on)?|pick|go\s+to|open|hover\s+over)\s+(.+)$/i;
/** "..., it is in the hidden section": a direction to look, not a step. */
export const WHERE_HIDDEN =
  /^(?:it(?:'s| is)|that(?:'s| is)|which is|they are)\s+(?:in|inside|under|behind)\s+(?:a|the|one of the)\s+(?:hidden|collapsed|closed|folded)\s+\w+$/i;

const ORDER_WORDS = Object.keys(RESULT_ORDERS).join('|');
/**
 * "book the cheapest one-way flight from A to B on D (and book it | and choose the cheapest one)": (1) verb, (2) order,
 * (3) way, (4) from, (5) to, (6) date, (7) book, (8) the order the result is taken by.
 */
export const TRIP = new RegExp(
  `^(${either([...BOOK_VERBS, ...FIND_VERBS])})\\s+(?:me\\s+)?(?:an?\\s+|the\\s+)?(?:(${ORDER_WORDS})\\s+)?` +
    `(?:(${either([...ONE_WAY, ...ROUND_TRIP])})\\s+)?(?:${either(TRIP_NOUNS)})(?:\\s+(?:${either(TRIP_NOUNS)}))?\\s+from:?\\s+(.+?)\\s+to:?\\s+(.+?)` +
    `(?:\\s+(?:${either(DATE_LEADS)})\\s+(.+?))?(?:,?\\s+(?:and|then)\\s+(${either([...BOOK_VERBS, ...PICK_VERBS])})\\s+` +
    `(?:${either(BOOK_IT)}|(?:the\\s+)?(${ORDER_WORDS})\\s+(?:${either(RESULT_NOUNS)})))?$`,
  'i',
);
/**
 * "Buy the ticket with the cheapest cost", "book the shortest flight": one of the results the page
 * shows already (no search), by a superlative: (1) or (2) the superlative.
 */
export const SHOWN_RESULT = new RegExp(
  `^(?:${either([...BOOK_VERBS, ...PICK_VERBS])})\\s+(?:the\\s+|a\\s+)?(?:(${ORDER_WORDS})\\s+(?:${either(TRIP_NOUNS)})` +
    `|(?:${either(TRIP_NOUNS)})\\s+(?:with|that has|having)\\s+the\\s+(${ORDER_WORDS})(?:\\s+(?:${either(RESULT_MEASURES)}))?)` +
    `(?:,?\\s+(?:and|then)\\s+(?:${either(BOOK_VERBS)})\\s+(?:${either(BOOK_IT)}))?$`,
  'i',
);

/** A date is a few words with no second clause in them ("12/03", "March 3rd, 2026", "Friday"). */
export const oneDate = (d: string | undefined) => d === undefined || (!/\b(?:and|then)\b/i.test(d) && d.trim().split(/\s+/).length <= 5);

const BOOKS = `(?:${either(RECORD_BOOKS)})`;
const FIELD_SAID = Object.values(RECORD_FIELDS)
  .flatMap((f) => f.said)
  .join('|');
const WHO = `(\\u0000\\d+\\u0000|${PERSON_NAME})`;
/**
 * "Find Lynne in the contact book and click on her phone number", "Click on Omar Reyes's email in the directory":
 * (1) the person, (2) the field, (3) the rest.
 */
const RECORD_FORMS = [
  new RegExp(
    `^(?:find|look up|search for|look for|locate)\\s+${WHO}\\s+in\\s+(?:the\\s+|your\\s+)?${BOOKS}\\s*,?\\s+(?:(?:and|then)\\s+)+` +
      `(?:click|tap|press|select|open)\\s+(?:on\\s+)?(?:(?:her|his|their|the)\\s+)?(${FIELD_SAID})(?:\\s+(?:link|button))?${CLAUSE_END}`,
    'iu',
  ),
  new RegExp(
    `^(?:click|tap|press|select|open)\\s+(?:on\\s+)?${WHO}(?:'s|’s)\\s+(${FIELD_SAID})(?:\\s+(?:link|button))?\\s+in\\s+(?:the\\s+)?${BOOKS}${CLAUSE_END}`,
    'iu',
  ),
];
/** The step a record's field is clicked by, as the planner writes it. */
export const RECORD_STEP = /^click the (\w+) in the record of (.+)$/;

/** "Find Lynne in the contact book and click on her phone number": the field's control in that person's record. */
export function recordFirst(s: string, quotes: string[]): string | null {
  for (const form of RECORD_FORMS) {
    const m = form.exec(s);
    if (!m) continue;
    const field = Object.entries(RECORD_FIELDS).find(([, f]) => oneOf(f.said).test(m[2]!))?.[0];
    if (!field) return null;
    return `click the ${field} in the record of ${quoteValue(bare(m[1]!, quotes))}${m[3]}`;
  }
  return null;
}
