/**
 * The local model's reading of one-step instructions: a verb that picks the method,
 * a value, and a target described by text, role words, ordinals and nearby text.
 * Candidates are scored against the outline; too little confidence is a refusal.
 */
import { clip, quote } from '../../protocol/text';
import { isInside, labelBefore, optionsOf, textOf, type OutlineNode } from './outline';
import { Ambiguity, Refusal } from './refusal';
import { appendOf, dateValueFor, datesNamedIn, dayOf, namedDate, type DateField, type NamedDate } from './values';
import { EMAIL_SHAPE } from './input-values';
import { ENDS, ORDINAL_LABEL_NOUNS, ORDINALS, ordinalOf } from './words/numbers';
import { MONTH_STEMS, MONTHS } from './words/dates';
import { anyOf, either, leading, oneOf } from './words/grammar';
import { GO_ON_BUTTONS, PURPOSE_SYNONYMS, SIGN_IN_WORDS } from './words/purposes';
import { CONTAINER_NOUNS, HOLDERS, HOLDING, NEAR_WORDS, NOISE_WORDS, SAYING } from './words/references';
import { KEY_NAMES, KEY_WORDS, MODIFIERS } from './words/keys';
import {
  EDGES,
  GRID_MIDDLE,
  GRID_PARTS,
  GRID_ROWS,
  GRID_THINGS,
  GRID_TOP,
  GRID_WORDS,
  LARGE_WORDS,
  PLACE_WORDS,
  RELATIVE_PLACES,
  SMALL_WORDS,
  START_EDGES,
  WHOLE_PAGE,
} from './words/places';
import {
  CODE_BOXES,
  FIELD_PHRASES,
  HOLDER_ROLES,
  KINDS,
  QUOTE_KINDS,
  SCOPES,
  SLIDER_ONLY,
  SLIDER_WORDS,
  STRICT_FIELD_PHRASES,
  TEXT_FIELD_PHRASES,
  TYPE_WORDS,
  WIDGET_NOUNS,
} from './words/controls';
import {
  AND_STEP_VERBS,
  BY_DRAGGING,
  BY_POINTER,
  COURTESY,
  HIGHLIGHT_VERBS,
  METHOD_VERBS,
  NEXT_STEP_VERBS,
  NOT_VERBS,
  PLACING_VERBS,
  READ_THROUGH,
  SLIDER_VERBS,
  STEP_VERBS,
  TEXT_PIECES,
  TEXT_PLACES,
} from './words/verbs';
import { CONDITION_WORDS, REPETITION_WORDS, THEN_WORDS } from './words/conditions';
import { canonical, coverage, DIRECTION_LINE, exactMatch, glyphWords, isReference, normalize, similarity, words } from './text';
import { SOFT_NOUNS } from './words/synonyms';

export type Method =
  | 'click'
  | 'doubleClick'
  | 'rightClick'
  | 'hover'
  | 'fill'
  | 'type'
  | 'press'
  | 'selectOption'
  | 'check'
  | 'uncheck'
  | 'scrollTo'
  | 'scrollIntoView'
  | 'nextChunk'
  | 'prevChunk'
  | 'focus'
  | 'dragAndDrop'
  | 'selectText'
  | 'callTool';

export interface Intent {
  method: Method;
  /** Text to type, option to select, key to press, or scroll percentage. */
  value?: string;
  /** What the instruction says about the element; empty for page-level actions. */
  target: string;
  /** Exactly quoted target text, matched before loose text. */
  quoted?: string;
  roles: Set<string> | null;
  ordinal?: number | 'last';
  context?: string;
  /** The same target read without splitting off nearby text ("sign in button" is not "sign" near "button"). */
  whole?: { target: string; quoted?: string };
  pageLevel?: boolean;
  /** Roles of a container the element must sit in ("in the dialog": dialog, alertdialog). */
  within?: Set<string>;
  /** "the Delete button in the third row": the nth of the rows (cards, items) that hold such an element. */
  holder?: { nth: number | 'last'; kind: string };
  /** "a checkbox", "any link": every match will do, the first is as good as another. */
  any?: boolean;
  /** Text fields only ("text" widget) or multi-line ones only ("textarea"). */
  multiline?: boolean;
  /** "the text input", "the text field": of equal fields, one of one line rather than a text area. */
  oneLine?: boolean;
  /** Words read as filler or as the kind ("Color" of "the Color field"), which may still be a nameless field's label. */
  labelSaid?: string;
  /** "the small circle", "a large digit": the extreme size among equal matches. */
  size?: 'small' | 'large';
  /** "a digit", "a letter": names that are one. */
  glyph?: 'digit' | 'letter';
  /** "the top-left cell", "the center square": a place in a grid of like elements (0, 1 or 2; 2 is the last). */
  grid?: { row?: number; col?: number };
  /** "highlight the text in the 2nd paragraph": the whole of that block of text (0: the only one). */
  paragraph?: number | 'last';
  /** "... the paragraph below": counted among the blocks after the page's own direction line. */
  below?: boolean;
  /** "March 22": the day is the target, and the month must be the one the page shows. */
  month?: string;
  /** Other readings of the same words, tried when this one is not confident; the best wins. */
  alternatives?: Intent[];
  /** Confidence taken off a pick made through this reading (a looser reading of the words). */
  penalty?: number;
  /** dragAndDrop: where the element is dropped ("onto the box"). */
  drop?: Intent;
  /** The value is a date named by description: written as the chosen field takes it (values.ts). */
  date?: NamedDate;
  /** "Enter today's date": no field named, so the one field that takes a date. */
  dateField?: boolean;
  /**
   * The words read as "VERB OBJECT" with a verb that is the purpose of a control ("delete
   * report.pdf", "upload any file"): the control clicked must carry that purpose (see agent/run.ts).
   */
  purpose?: { verb: string; object: string };
}

/** What the reading needs from outside the page outline. */
export interface Facts {
  /** The page's local date, YYYY-MM-DD: where a date named by description is counted from. */
  today?: string;
}

export interface Pick {
  node: OutlineNode | null; // null: the page itself
  method: Method;
  args: string[];
  confidence: number;
  description: string;
}

/** A key as people name it ("page up", "up arrow", "F5"), and a modifier before it. */
const KEY = oneOf(KEY_WORDS, '');
const MODIFIER = oneOf(Object.keys(MODIFIERS), '');

const CLICKABLE = new Set([
  'clickable',
  'cell',
  'button',
  'link',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'checkbox',
  'radio',
  'switch',
  'option',
  'treeitem',
  'combobox',
  'img',
  'row',
  'listitem',
  'heading',
  'gridcell',
  'searchbox',
  'textbox',
  'slider',
  'spinbutton',
  'listbox',
]);
const FILLABLE = new Set(['textbox', 'searchbox', 'spinbutton', 'combobox', 'slider']);
const PASSIVE = new Set(['heading', 'row', 'listitem', 'img', 'gridcell']);
const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
const SELECTABLE = new Set(['combobox', 'listbox']);
const VERBS = new RegExp(`^(${either(STEP_VERBS)})\\b`);

const EDGE = either(EDGES);
const AT_START = oneOf(START_EDGES);
/** "scroll down", "scroll to the bottom of the page", "scroll until you see X": (1) the direction, (2) the edge, (3) the target. */
const SCROLL_PAGE = new RegExp(
  `^scroll(?: the page| page)?(?: (up|down))?(?: (?:to|until) (?:the )?(${EDGE})(?: of the page)?)?(?: (?:to|until you see|until) (.+))?$`,
  'i',
);
/** "scroll the terms box to the bottom", "scroll the text area all the way down": (1) the box, (2) the edge, (3) the way. */
const SCROLL_BOX = new RegExp(
  '^scroll(?: down| up)?(?: through| in| inside)? (?:the )?(.+?) ' +
    `(?:(?:all the way )?(?:to|until) (?:the |its )?(${EDGE})(?: of (?:it|the (?:box|list|text|area)))?|all the way (down|up))$`,
  'i',
);
/** "scroll to the top of the text box": (1) the edge, (2) the box. */
const SCROLL_TO_EDGE_OF = new RegExp(`^scroll (?:down |up )?(?:all the way )?to (?:the )?(${EDGE}) of (?:the )?(.+)$`, 'i');
/** "Move the volume slider to 80": (1) the slider, (2) the value. */
const SLIDER_TO = new RegExp(`^(?:${either(SLIDER_VERBS)})(?: the)? (.*?(?:${either(SLIDER_WORDS)}))(?: (?:to|at))? (QQ\\d+|[-+]?\\d+(?:\\.\\d+)?%?)$`, 'i');

export { Refusal };

/** "highlight the text in the 2nd paragraph below": (1) the ordinal, (2) below or after. */
const WHOLE_PARAGRAPH = new RegExp(
  `^(?:${either(HIGHLIGHT_VERBS)})(?: all(?: of)?)? the (?:whole |entire )?(?:(?:text|words|contents?) (?:in|of) the )?(?:(\\w+) )?paragraph` +
    `(?: (below|that follows|shown))?(?: (?:with|using) (?:the |your )?(?:${either(BY_POINTER)}))?$`,
  'i',
);
/** "highlight the text X in the paragraph with the mouse": (1) the verb, (2) a noun for text, (3) the text, (4) where. */
const HIGHLIGHT = new RegExp(
  `^(${either(HIGHLIGHT_VERBS)})(?: the| these| this)?(?: (${either(TEXT_PIECES)}))? (QQ\\d+|.+?)` +
    `(?: (?:in|from|within|of|inside) (?:the |this )?(.+?))?(?: (?:with|using) (?:the |your )?(?:${either(BY_POINTER)}))?$`,
  'i',
);

/** Each kind of control with its words compiled: whole words, or the target's last word. */
const KIND_WORDS = KINDS.map((k) => ({ ...k, re: new RegExp(`\\b(?:${either(k.words)})${k.last ? '(?= *$| +QQ\\d)' : '\\b'}`) }));
const STRICT_FIELD = anyOf(STRICT_FIELD_PHRASES, '');
/** The nouns of a kind's words ("field" of "color field"), left out when the rest may be a label. */
const KIND_NOUNS = new RegExp(`\\b(?:${either([...FIELD_PHRASES, 'picker', 'wheel', 'chooser', 'selector', 'palette'])})\\b`, 'gi');

/** An instruction that types text: its "'s" is part of the text ("type Tom's"). */
const TYPES = new RegExp(`^(?:${either(METHOD_VERBS.type)})\\b`, 'i');
/** Courtesy before the verb, any number of times ("please now click"). */
const POLITE = new RegExp(`^((?:${either(COURTESY)}) )+`, 'i');

/** A condition or a repetition, which one step does not follow ("once" only before a clause: not "click once more"). */
const CONDITIONAL = new RegExp(`\\b(?:${either([...CONDITION_WORDS, ...REPETITION_WORDS])})\\b|\\bonce\\s+(?!(?:more|again)\\b)(?=\\S+\\s+\\S)`);

/** A month's name anywhere in a text (a calendar's caption). */
const MONTH_NAME = new RegExp(`\\b(?:${either(MONTH_STEMS)})[a-z]*\\b`, 'i');

/** Pull out quoted strings, replacing each with a marker. */
function takeQuotes(s: string): { text: string; quotes: string[] } {
  const quotes: string[] = [];
  const text = s
    .replace(/"([^"]*)"|“([^”]*)”|'([^']+)'(?=\s|$|[.,;:!?])|‘([^’]*)’/g, (_m, a, b, c, d) => {
      quotes.push(a ?? b ?? c ?? d ?? '');
      return ` QQ${quotes.length - 1} `;
    })
    // A coordinate or a bracketed number ("(-2,0)", "(3, 4)") is a name as written: "(3, 4)" is not "(4, 3)".
    .replace(/\(\s*[-+]?\d+(?:\.\d+)?\s*(?:,\s*[-+]?\d+(?:\.\d+)?\s*)*\)/g, (m) => {
      quotes.push(m);
      return ` QQ${quotes.length - 1} `;
    });
  return { text: text.replace(/\s+/g, ' ').trim(), quotes };
}

const unq = (s: string, quotes: string[]) => s.replace(/QQ(\d+)/g, (_m, i) => quotes[Number(i)]);

export function parseIntent(instruction: string): Intent {
  const { text, quotes } = takeQuotes(instruction.trim().replace(/[.!]+$/, ''));
  // "Tom's comment" is the comment by Tom.
  // (Not in what is typed: "Maria Lopez's employee ID" is a description, checked as such below.)
  let s = (TYPES.test(text) ? text : text.replace(/\b(\w+)['’]s\b/g, '$1')).replace(POLITE, '').trim();
  const lower = s.toLowerCase();
  // Several steps in one instruction are for a larger model.
  if (
    anyOf(THEN_WORDS).test(lower.replace(/^then /, '')) ||
    new RegExp(`,\\s*(then\\s+)?(${either(NEXT_STEP_VERBS)})\\b`).test(lower) ||
    new RegExp(` and (${either(AND_STEP_VERBS)})\\b`).test(lower)
  ) {
    throw new Refusal('it has several steps');
  }
  if (CONDITIONAL.test(lower)) throw new Refusal('it has conditions or repetition');
  // "..., so that it has focus", "so the form is sent": a purpose, not a step.
  s = s
    .replace(/,?\s+(?:so that|so as to|so|in order to)\s+(?:it|that|the \w+)\s+(?:has|gets|is|are|will)\b.*$/i, '')
    .replace(/,?\s+to (?:give it|put it in|bring it into) focus$/i, '');
  s = rephrase(s);

  let m: RegExpExecArray | null;
  const target = (t: string, method: Method, value?: string): Intent => withSplits({ method, value, ...describeTarget(t, quotes, method) });

  // Scrolling: a box's edge ("scroll to the top of the text box"), else the page.
  if ((m = SCROLL_TO_EDGE_OF.exec(s)) && !/^(?:the )?(?:page|screen|window|document)$/i.test(m[2])) {
    return { ...target(m[2], 'scrollTo', AT_START.test(m[1]) ? '0' : '100'), roles: SCROLLERS };
  }
  if ((m = SCROLL_PAGE.exec(s))) {
    const [, dir, edge, to] = m;
    if (edge) return { method: 'scrollTo', value: AT_START.test(edge) ? '0' : '100', target: '', roles: null, pageLevel: true };
    if (to) return target(to, 'scrollIntoView');
    if (dir) return { method: dir.toLowerCase() === 'up' ? 'prevChunk' : 'nextChunk', target: '', roles: null, pageLevel: true };
  }
  // "scroll the terms box to the bottom", "scroll through the terms to the end": a scrolling box, not the page.
  if ((m = SCROLL_BOX.exec(s)) && !/^page$/i.test(m[1])) {
    const start = m[2] ? AT_START.test(m[2]) : /^up$/i.test(m[3]);
    return { ...target(m[1], 'scrollTo', start ? '0' : '100'), roles: SCROLLERS };
  }
  if ((m = /^scroll (?:to )?(?:the )?(top|bottom)(?: of the page)?$/i.exec(s))) {
    return { method: 'scrollTo', value: m[1].toLowerCase() === 'top' ? '0' : '100', target: '', roles: null, pageLevel: true };
  }
  // Keys: "press Enter", "hit ctrl+a in the search box".
  // 'type "tab" into the notes field' is text: a quoted value after "type" is a key only when called one ("type the "Tab" key").
  m = new RegExp(`^(${either(METHOD_VERBS.press)})(?: the)? (.+?)( key| keys)?(?: (?:in|on|into|inside) (.+))?$`, 'i').exec(s);
  if (m && !(/^type$/i.test(m[1]) && /^QQ\d+$/.test(m[2]) && !m[3])) {
    const key = keyName(unq(m[2], quotes));
    if (key) {
      if (m[4]) return { ...target(m[4], 'press', key) };
      return { method: 'press', value: key, target: '', roles: null, pageLevel: true };
    }
  }
  // "Move the volume slider to 80", "set the slider to 42": the slider's value.
  if ((m = SLIDER_TO.exec(s))) {
    return {
      ...target(m[1], 'fill', unq(m[2], quotes).replace(/%$/, '')),
      roles: new Set(new RegExp(either(SLIDER_ONLY), 'i').test(m[1]) ? ['slider'] : ['slider', 'spinbutton']),
    };
  }
  // A whole block: "highlight the text in the 2nd paragraph", "select all of the paragraph below".
  const para = WHOLE_PARAGRAPH.exec(s);
  if (para) {
    const nth = para[1] ? ordinalOf(para[1], true) : 0;
    if (nth !== null) return { method: 'selectText', value: '', target: '', roles: null, paragraph: nth, below: !!para[2] };
  }
  // Text shown on the page: "highlight the word lanterns", 'select the words "morning fog" with the mouse'.
  // "select" and "mark" mean text only with a word for text and a quote, or a word or phrase named ("select the word
  // lanterns"): 'select "Newest" from the sort menu' is an option, "mark the text field" a field.
  const asText = (m = HIGHLIGHT.exec(s)) && !KIND_WORDS.some((k) => k.re.test(m![3].toLowerCase()));
  const quoted = !!m && /^QQ\d+$/.test(m[3]);
  if (m && asText && (/^highlight$/i.test(m[1]) || (m[2] && (quoted || /^(?:words?|phrase)$/i.test(m[2]))))) {
    const where = m[4]?.replace(/^(?:the|this) /i, '');
    // "in the text area", "in the text editor": in a field, whatever its label.
    const inField = !!where && oneOf([...TEXT_FIELD_PHRASES, 'editor']).test(where);
    const place = where && !inField && !oneOf(TEXT_PLACES).test(where) ? unq(m[4], quotes) : undefined;
    return { method: 'selectText', value: unq(m[3], quotes).trim(), target: '', roles: inField ? new Set(['textbox']) : null, context: place };
  }
  // A drag onto a place ("drag the red block onto the box", "move the card Fix login bug to Done"); by a direction or
  // a distance it is refused. The mouse moved is a hover, a slider moved is set to its value.
  if (
    (m = /^(?:drag(?: and drop)?|move) (?:the )?(.+?) (?:to|onto|into|over|on|in) (?:the )?(.+)$/i.exec(s)) &&
    !/^(?:the )?(?:left|right|top|bottom|up|down|\d+)\b/i.test(m[2]) &&
    !/^(?:mouse|pointer|cursor)\b|\b(?:slider|knob|handle|thumb)$/i.test(m[1])
  ) {
    const drop = target(m[2], 'dragAndDrop');
    return { ...target(m[1], 'dragAndDrop'), drop: { ...drop, alternatives: undefined } };
  }
  if (/^(?:drag|swipe|slide|resize|draw)\b|^move (?!(?:the )?(?:mouse|pointer|cursor)\b)/i.test(s))
    throw new Refusal('it asks for a drag by a direction or a distance, which the built-in model does not do');
  // Text entry: "type Q into X", "enter Q in X", "fill X with Q", "set X to Q".
  // A value described rather than given ("the text below") is read from the page by the agent, never typed.
  const literal = (v: string): string => {
    if (!/^QQ\d+$/.test(v.trim()) && isReference(unq(v, quotes)))
      throw new Refusal(`the value ${quote(clip(unq(v, quotes), 60))} describes something on the page rather than giving the text to type`);
    return unq(v, quotes);
  };
  // A date named by description ("today's date", "next Monday") is a day, written as the field takes it once the
  // field is known (values.ts); it is never typed as words. A quoted value is text as written.
  const entry = (field: string, method: Method, v: string): Intent => {
    // An e-mail typed into "the address field" goes into the e-mail address (which the words read as "email").
    const t = /^address(?: (?:field|box|input))?$/i.test(field.trim()) && EMAIL_SHAPE.test(unq(v, quotes).trim()) ? `email ${field}` : field;
    const when = /^QQ\d+$/.test(v.trim()) ? null : namedDate(unq(v, quotes));
    return when ? dated(target(t, method, unq(v, quotes)), when) : target(t, method, literal(v));
  };
  // Text added to what the field holds, only when the instruction says so ("append X to F", "type X at the end of F"):
  // `type` presses the keys after the field's text.
  const added = appendOf(s);
  if (added) return entry(added.field.replace(/^the /i, ''), 'type', added.value);
  // Any other text entry leaves the field holding exactly the value, whatever the verb: "type 3 into Quantity" on "1" is "3".
  if ((m = new RegExp(`^(${either(METHOD_VERBS.typeInto)}) (QQ\\d+|.+?) (?:into|in|inside|to|onto|on|as) (?:the )?(.+)$`, 'i').exec(s))) {
    return entry(m[3], 'fill', m[2]);
  }
  if ((m = new RegExp(`^(?:${either(METHOD_VERBS.setTo)}) (?:the )?(.+?) (?:with|to|as|using) (QQ\\d+|.+)$`, 'i').exec(s))) {
    return entry(m[1], 'fill', m[2]);
  }
  // "Enter today's date": the field that takes a date.
  if ((m = leading(METHOD_VERBS.enter).exec(s)) && !/QQ\d/.test(m[1]) && namedDate(m[1])) {
    return dated(target('date', 'fill', m[1]), namedDate(m[1])!, true);
  }
  // Options: "select Q from X", "pick X in the Y dropdown".
  if ((m = new RegExp(`^(?:${either(METHOD_VERBS.selectFrom)}) (QQ\\d+|.+?) (?:in|from|on|for|as)(?: the)? (.+)$`, 'i').exec(s))) {
    return { ...target(m[2], 'selectOption', unq(m[1], quotes)) };
  }
  // Clearing a field (or a checkbox).
  if ((m = new RegExp(`^(?:${either(METHOD_VERBS.clear)}) (?:out )?(?:the )?(.+)$`, 'i').exec(s))) return target(m[1], 'fill', '');
  if ((m = leading(METHOD_VERBS.uncheck).exec(s))) return target(m[1], 'uncheck');
  if ((m = leading(METHOD_VERBS.check).exec(s))) return target(m[1], 'check');
  if ((m = leading(METHOD_VERBS.hover).exec(s))) return target(m[1], 'hover');
  if ((m = leading(METHOD_VERBS.focus).exec(s))) return target(m[1], 'focus');
  if ((m = leading(METHOD_VERBS.doubleClick).exec(s))) return target(m[1], 'doubleClick');
  if ((m = leading(METHOD_VERBS.rightClick).exec(s))) return target(m[1], 'rightClick');
  if ((m = leading(METHOD_VERBS.choose).exec(s))) return target(m[1], 'click'); // resolved to an option, radio or click later
  if ((m = new RegExp(`^(?:${either(METHOD_VERBS.click)})(?: on)? (.+)$`, 'i').exec(s))) return target(m[1], 'click');
  // "open X", "expand X": X itself, or the control that opens it ("expand components" is the ▸ by it).
  if ((m = new RegExp(`^(${either(METHOD_VERBS.open)})(?: up)? (.+)$`, 'i').exec(s))) {
    const direct = target(m[2], 'click');
    const purpose = purposeIntent(s, quotes);
    return purpose
      ? {
          ...direct,
          alternatives: [purpose, ...(purpose.alternatives ?? [])].map((a) => ({ ...a, alternatives: undefined, penalty: (a.penalty ?? 0) + 0.02 })),
        }
      : direct;
  }
  if (/^(submit|go)$/i.test(s)) return target('submit', 'click');
  // A target with no verb ("the button labeled Submit", "a checkbox widget") is one to click.
  if (/^(?:the|a|an|any) /i.test(s) || /^QQ\d+$/.test(s)) return target(s, 'click');
  // No verb, a kind at the end: "Next button", "Terms link".
  if (!VERBS.test(lower) && /\b(button|link|tab|checkbox|radio|icon|menu item)$/i.test(s)) return target(s, 'click');
  // A verb that names a purpose ("delete report.pdf", "approve order #1002", "like Priya's comment").
  const purpose = purposeIntent(s, quotes);
  if (purpose) return { ...purpose, purpose: { verb: s.split(' ')[0].toLowerCase(), object: unq(s.slice(s.indexOf(' ') + 1 || s.length), quotes) } };
  if (!VERBS.test(lower)) throw new Refusal('it does not start with an action it knows (click, type, select, check, hover, scroll, press, focus, clear)');
  throw new Refusal('its wording is beyond the local model');
}

/**
 * "size M", "Gold plan": two or three words may be a name and a word that places it ("M" by
 * "Size:"). Tried after the whole reading, at a small cost.
 */
function withSplits(intent: Intent): Intent {
  if (intent.context || intent.quoted !== undefined || intent.pageLevel || intent.grid) return intent;
  const ws = intent.target.split(' ').filter(Boolean);
  if (ws.length < 2 || ws.length > 3) return intent;
  const alternatives: Intent[] = [
    { ...intent, target: ws[ws.length - 1], context: ws.slice(0, -1).join(' '), penalty: 0.05 },
    { ...intent, target: ws[0], context: ws.slice(1).join(' '), penalty: 0.05 },
  ];
  return { ...intent, alternatives: [...(intent.alternatives ?? []), ...alternatives] };
}

/** Every reading of the words carries the date: none may type the description itself. */
const dated = (i: Intent, date: NamedDate, dateField?: boolean): Intent => ({
  ...i,
  date,
  ...(dateField ? { dateField } : {}),
  alternatives: i.alternatives?.map((a) => dated(a, date, dateField)),
});

/** What a whole phrase names when it is a control's name ("start the free trial"). */
const PHRASE_TARGETS = new Set([
  'button',
  'link',
  'clickable',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'option',
  'treeitem',
  'switch',
  'checkbox',
  'radio',
]);
const GENERIC = new Set(['new', 'current', 'page', 'all', 'one', 'another', 'it', 'everything', 'them', 'add']);
const NOT_PURPOSE = oneOf(NOT_VERBS, '');

/**
 * Readings of "VERB OBJECT" where the verb is what the control is called and the object is
 * where it is: "delete report.pdf" is the Delete control next to report.pdf. Also the whole
 * phrase as a name ("start the free trial"), "VERB the X to the Y" as "VERB to Y" near X
 * ("add the lamp to the cart"), and the object itself ("open the email from Linus").
 */
function purposeIntent(s: string, quotes: string[]): Intent | null {
  const m = /^([a-z]+)(?: (.+))?$/i.exec(s);
  if (!m || NOT_PURPOSE.test(m[1].toLowerCase())) return null;
  const verb = m[1].toLowerCase();
  const object = (m[2] ?? '').trim();
  // "Track the order shown on this page": the object is described, not named; which control and
  // which value that takes is beyond a one-step reading.
  if (
    object &&
    /\b(?:shown|displayed|listed|given|written)\b|\bon (?:this|the) page\b|^(?:the\s+)?(?:text|value|number)\s+(?:below|above|of)\b/i.test(unq(object, quotes))
  ) {
    throw new Refusal(`it names what to ${verb} by a description (${quote(clip(unq(object, quotes), 60))}), not by its name`);
  }
  const readings: Intent[] = [];
  if (object) {
    // "the row for Priya Nair" places the control by Priya Nair: the kind of container is not a word to find.
    let ctx: string | undefined = unq(object, quotes)
      .replace(/^(?:the|a|an|this|that) /i, '')
      .replace(/^(?:(?:row|item|card|entry|line|record|message|email|post|comment)s? )?(?:for|of|from|by|about|with) /i, '');
    // "compose a new email", "refresh the page": an object that names no particular thing places nothing.
    if (words(ctx).every((w) => SOFT_NOUNS.has(w) || GENERIC.has(w))) ctx = undefined;
    for (const [i, name] of (PURPOSE_SYNONYMS[verb] ?? [verb]).entries()) {
      readings.push({ method: 'click', ...describeTarget(name, [], 'click'), context: ctx, penalty: i ? 0.03 : 0 });
    }
    const moved = /^(?:the |a |an )?(.+?) (to|into|from|on|onto|off) (?:the |my |your )?(.+)$/i.exec(object);
    if (moved)
      readings.push({ method: 'click', ...describeTarget(`${verb} ${moved[2]} ${moved[3]}`, quotes, 'click'), context: unq(moved[1], quotes), penalty: 0.02 });
    // "open the email from Linus", "view the report": the thing itself (never for "delete X": that would open X).
    if (oneOf(METHOD_VERBS.view, '').test(verb)) readings.push({ method: 'click', ...describeTarget(object, quotes, 'click'), penalty: 0.05 });
  }
  // The whole phrase as a name ("start the free trial"): a control's name, never a row or item
  // that holds the control (a row's name has its Delete button's word in it); not when a quote names the object.
  if (!/QQ\d/.test(s)) {
    const whole = describeTarget(s, quotes, 'click');
    readings.push({ method: 'click', ...whole, roles: whole.roles ?? PHRASE_TARGETS, penalty: 0.02 });
  }
  const [first, ...rest] = readings;
  return { ...first, alternatives: rest };
}

const SCOPE_WORDS = SCOPES.map((k) => ({ ...k, re: oneOf(k.words) }));

function scopeOf(words: string): Set<string> | undefined {
  const w = words.trim().replace(/^(?:the|this|that) /i, '');
  for (const { re, roles } of SCOPE_WORDS) if (re.test(w)) return new Set(roles);
  return undefined;
}

/**
 * Instructions that put the purpose first or the verb last, rewritten verb first:
 * "Close the dialog by clicking the x" → "click the x in the dialog";
 * "Submit button, please click it" → "click Submit button".
 */
function rephrase(s: string): string {
  let m: RegExpExecArray | null;
  if ((m = new RegExp(`^(.+?),? by (?:${either(METHOD_VERBS.byDoing)})(?: on)? (.+)$`, 'i').exec(s))) {
    const purpose = / (?:the |this |that )?((?:dialog|modal|pop-?up|popup|form|menu|toolbar|alert)(?: box| window)?)$/i.exec(` ${m[1]}`);
    return `click ${m[2]}${purpose ? ` in the ${purpose[1]}` : ''}`;
  }
  if ((m = new RegExp(`^(.+?),? (?:please |now |then )?(?:${either(METHOD_VERBS.clickIt)})(?: on)? (?:it|that|this|that one|this one)$`, 'i').exec(s)))
    return `click ${m[1]}`;
  // "click into the comment box": into a field ("the input box" and "the text field" are any text field).
  if ((m = /^click (?:into|inside|in) (?:the |a |an )?(.+?)(?: (?:box|area|field|bar))?$/i.exec(s))) {
    const what = m[1].replace(/\b(input|text|entry|edit)\b/gi, ' ').trim();
    return `click ${what ? `${what} ` : ''}text field`;
  }
  // "place an X in the top right corner": a mark placed by clicking the place.
  if ((m = /^(?:place|put|mark|draw|play|set) (?:an? |the )?(?:x|o|cross|nought|circle|QQ\d+) (?:in|on|at|into) (.+)$/i.exec(s))) return `click ${m[1]}`;
  // 'close the "Unsaved changes" dialog': the close control of the dialog with that title.
  if ((m = new RegExp(`^(?:${either(METHOD_VERBS.close)})(?: the| this| that)? (QQ\\d+) (?:dialog|modal|pop-?up|window|box|panel|banner)$`, 'i').exec(s)))
    return `dismiss ${m[1]}`;
  // "close the dialog": the close control inside one; "close the chat" is read as a purpose (below).
  if ((m = new RegExp(`^(?:${either(METHOD_VERBS.close)})(?: the| this| that)? (.+)$`, 'i').exec(s)) && scopeOf(m[1])) return `click close in the ${m[1]}`;
  if ((m = /^switch (?:to|over to) (.+)$/i.exec(s))) return `click ${m[1]}`;
  // "read the whole agreement", "read through the terms": the box that holds it scrolled to its end.
  if ((m = new RegExp(`^(?:${either(READ_THROUGH)}) (.+?)(?: to the end)?$`, 'i').exec(s))) return `scroll the ${m[1]} to the bottom`;
  // "Put the blue block in the box by dragging it": a drag onto the place.
  m = new RegExp(`^(?:${either(PLACING_VERBS)}) (.+?) (in|into|onto|on|to|over) (.+?),? (?:${either(BY_DRAGGING)})$`, 'i').exec(s);
  if (m) return `drag ${m[1]} ${m[2]} ${m[3]}`;
  // "answer the dialog with yes", "respond to the prompt by clicking OK": the answer's control in the dialog.
  m = new RegExp(`^(?:${either(METHOD_VERBS.answer)})(?: the| this| that)? (.+?) (?:with|by (?:clicking|choosing|saying|pressing)(?: on)?) (.+)$`, 'i').exec(s);
  if (m && scopeOf(m[1])) return `click ${m[2]} in the ${m[1]}`;
  // "go back", "go home": the control named so.
  if ((m = /^go (back|forward|home|up|down|next|previous)$/i.exec(s))) return `click ${m[1]}`;
  return s;
}

function keyName(raw: string): string | null {
  const t = raw
    .trim()
    .toLowerCase()
    .replace(/\s*\+\s*/g, '+');
  const parts = t.split('+');
  const last = parts[parts.length - 1];
  const mods = parts.slice(0, -1);
  if (!mods.every((p) => MODIFIER.test(p))) return null;
  const isKey = KEY.test(last) || (mods.length > 0 && /^[a-z0-9]$/.test(last));
  if (!isKey) return null;
  const keyOut = KEY_NAMES[last] ?? (last.length === 1 ? (mods.length ? last.toUpperCase() : last) : last.replace(/^./, (c) => c.toUpperCase()));
  const modOut = mods.map((p) => MODIFIERS[p]);
  return [...modOut, keyOut].join('+');
}

const CONTAINER_WORDS = new RegExp(`\\b(${either(CONTAINER_NOUNS)})s?\\b`, 'gi');

function describeTarget(raw: string, quotes: string[], method: Method): Omit<Intent, 'method' | 'value'> {
  const split = describeOnce(raw, quotes, true, method);
  if (!split.context) return split;
  const whole = describeOnce(raw, quotes, false, method);
  // A kind named in the nearby text ("in the row for Bob") is where the target is, not what it is.
  return { ...split, whole: { target: whole.target, quoted: whole.quoted } };
}

/** Words that say what kind of thing a target is without helping to find it. */
const NOISE = new RegExp(`\\b(${either(NOISE_WORDS)})\\b`, 'gi');
/** The text a target shows, after "labeled" or "that says": (1) the text. */
const SAID = new RegExp(` (?:${either(SAYING)}) (.+?) $`, 'i');
/** Nearby text made only of place words ("in the top row"): a place, not text to find. */
const ONLY_PLACES = new RegExp(`^(?:(?:${either(PLACE_WORDS)})[- ]?)+$`, 'i');
/** A holder counted by an ordinal: (1) the ordinal, (2) the kind of holder. */
const NTH_HOLDER = new RegExp(
  ` (?:in|on|of|inside|within|from) (?:the )?(${[...Object.keys(ORDINALS), ...Object.keys(ENDS)].join('|')}) (${Object.keys(HOLDER_ROLES).join('|')}) $`,
  'i',
);
/** Nearby text: (1) the text. */
const NEARBY = new RegExp(` (?:${either(NEAR_WORDS)}) (?:the )?(?:(?:${either(HOLDERS)}) )?(?:${either(HOLDING)})? ?(.+?) $`, 'i');
/** An ordinal before the target ("the second link", "the last one"): (1) a word of ORDINALS or ENDS. */
const ORDINAL = new RegExp(` (?:the )?(${[...Object.keys(ORDINALS), ...Object.keys(ENDS)].join('|')})(?: one)? `, 'i');
const ORDINAL_LABEL = new RegExp(`^(?:${either(ORDINAL_LABEL_NOUNS)})\\b`, 'i');

function describeOnce(raw: string, quotes: string[], splitContext: boolean, method: Method): Omit<Intent, 'method' | 'value'> {
  // "the text box below", "the button above": where it sits relative to the instruction, not a name.
  let t = ` ${raw.trim().replace(new RegExp(`\\s+(?:${either(RELATIVE_PLACES)})$`, 'i'), '')} `;
  let context: string | undefined;
  let within: Set<string> | undefined;
  // A container kind: "in the dialog", "inside the modal box".
  const scope = / (?:in|inside|within|on|of|from) (?:the |this |that )?([a-z -]+?) $/i.exec(t);
  if (scope && scopeOf(scope[1])) {
    within = scopeOf(scope[1]);
    t = t.slice(0, scope.index) + ' ';
  }
  // A counted holder: "in the third row", "on the last card".
  let holder: Intent['holder'];
  const nth = NTH_HOLDER.exec(t);
  if (nth) {
    holder = { nth: ordinalOf(nth[1], true)!, kind: nth[2].toLowerCase().replace(/\s+/g, ' ') };
    t = t.slice(0, nth.index) + ' ';
  }
  // Nearby text: "in the row for Alice", "next to Bob", "for the Pro plan".
  const ctx = NEARBY.exec(t);
  if (splitContext && ctx && !oneOf(WHOLE_PAGE).test(ctx[1].trim()) && !ONLY_PLACES.test(ctx[1].trim())) {
    context = unq(ctx[1], quotes).replace(CONTAINER_WORDS, ' ').replace(/\s+/g, ' ').trim() || undefined;
    if (context) t = t.slice(0, ctx.index) + ' ';
  }
  // A place in a grid: "the top-left cell", "the bottom right square", "the cell in the center".
  let grid: { row?: number; col?: number } | undefined;
  if (new RegExp(` (?:${either(GRID_THINGS)})s? `, 'i').test(t)) {
    const row = new RegExp(` (${either(GRID_ROWS)})(?=[- ]|$)`, 'i').exec(t)?.[1]?.toLowerCase();
    const col = /[- ](left|right)(?:[- ]hand)? /i.exec(t)?.[1]?.toLowerCase();
    const mid = new RegExp(` (${either(GRID_MIDDLE)}) `, 'i').test(t);
    if (row || col || mid) {
      // "top middle" is row 0, column 1; "middle left" row 1, column 0; "center" alone both; "the top cell" is an ordinal.
      const rowAt = row ? (GRID_TOP.includes(row) ? 0 : 2) : mid ? 1 : undefined;
      const colAt = col ? (col === 'left' ? 0 : 2) : mid ? 1 : undefined;
      grid = row && !col && !mid ? undefined : { row: rowAt, col: colAt };
      if (grid) {
        t = t.replace(new RegExp(` (?:in|at|on) (?:the )?(?=(?:${either([...GRID_ROWS, ...GRID_MIDDLE, 'left', 'right'])})\\b)`, 'i'), ' ').replace(/-/g, ' ');
        t = t.replace(new RegExp(`\\b(?:${either([...GRID_WORDS, ...GRID_PARTS])})s?\\b`, 'gi'), ' ').replace(/\s+/g, ' ');
        t = ` ${t.trim()} `;
      }
    }
  }
  // A date: "March 22", "22 March", "February 29th".
  let month: string | undefined;
  const MONTH = `(${either(MONTHS)})`;
  const date = new RegExp(` (?:on )?(?:the )?(?:${MONTH} (\\d{1,2})(?:st|nd|rd|th)?|(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH}) `, 'i').exec(t);
  if (date) {
    month = (date[1] ?? date[4]).slice(0, 3).toLowerCase();
    quotes.push(String(Number(date[2] ?? date[3])));
    t = `${t.slice(0, date.index)} QQ${quotes.length - 1} ${t.slice(date.index + date[0].length)} `;
  }
  // "the 22nd" alone is a day of a month, not the twenty-second of something.
  const day = /^ (?:the )?(\d{1,2})(?:st|nd|rd|th) $/i.exec(t);
  if (day && Number(day[1]) > 10 && Number(day[1]) <= 31) {
    quotes.push(day[1]);
    t = ` QQ${quotes.length - 1} `;
  }
  let ordinal: number | 'last' | undefined;
  t = t.replace(ORDINAL, (m, w: string, at: number) => {
    if (ORDINAL_LABEL.test(t.slice(at + m.length))) return m;
    ordinal = ordinalOf(w, true)!;
    return ' ';
  });
  // "a checkbox", "any link": one of several is fine. "A" alone may be a name ("click A").
  let any = false;
  let size: 'small' | 'large' | undefined;
  t = t.replace(new RegExp(` (${either([...SMALL_WORDS, ...LARGE_WORDS])}) `, 'i'), (_m, w: string) => {
    size = SMALL_WORDS.includes(w.toLowerCase()) ? 'small' : 'large';
    return ' ';
  });
  // "click a digit", "the letter": names that are one. Text goes into fields, never into a digit ("the Order number box").
  const typed = method === 'fill' || method === 'type' || method === 'selectOption';
  const glyph = typed ? undefined : /\b(digits?|numbers?|numerals?)\b/i.test(t) && !/\d/.test(t) ? 'digit' : /\bletters?\b/i.test(t) ? 'letter' : undefined;
  // "the only button": a kind that has one element.
  t = t.replace(/ only /i, ' ');
  if (/^ (?:a|an|any) \S/i.test(t)) {
    any = true;
    t = t.replace(/^ (?:a|an|any) /i, ' ');
  }
  // "labeled X", "that says X", "with the text X": X is the text to match, as if quoted.
  const said = SAID.exec(t);
  if (said && !/QQ\d+/.test(said[1])) {
    quotes.push(said[1].trim());
    t = `${t.slice(0, said.index)} QQ${quotes.length - 1} `;
  } else if (said) t = `${t.slice(0, said.index)} ${said[1]} `;
  const qm = /QQ(\d+)/.exec(t);
  let quoted = qm ? quotes[Number(qm[1])] : undefined;
  if (qm) t = t.replace(qm[0], ' ');
  let roles: Set<string> | null = null;
  let kindSaid: string | undefined;
  let multiline: boolean | undefined;
  // 'a "checkbox" widget': the quote names a kind, not a text.
  const kind = quoted !== undefined && /\b(widgets?|elements?|controls?|types?|kinds?)\b/i.test(t) ? QUOTE_KINDS[normalize(quoted)] : undefined;
  if (kind) {
    roles = new Set(kind.roles);
    multiline = kind.multiline;
    quoted = undefined;
  }
  const lower = t.toLowerCase();
  if (!roles) {
    // "box", "bar" and "area" name a text field when text goes in; clicked, a box is any box (a coloured square).
    const pointing = method === 'click' || method === 'hover' || method === 'doubleClick' || method === 'rightClick' || method === 'dragAndDrop';
    for (const { words: kind, roles: rs, re } of KIND_WORDS) {
      if (pointing && kind === FIELD_PHRASES && !STRICT_FIELD.test(lower)) continue;
      if (kind === TEXT_FIELD_PHRASES && /\b(text ?areas?)\b/.test(lower)) multiline = true;
      if (re.test(lower)) {
        roles = new Set(rs);
        kindSaid = re.exec(lower)?.[0];
        t = t.replace(new RegExp(re.source, 'gi'), ' ');
        if (/text ?areas?/i.test(lower)) multiline = true;
        break;
      }
    }
  }
  let rest = unq(t, quotes)
    .replace(/\b(the|a|an|on|labeled|labelled|named|called|that says|saying|with the text|with text)\b/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const plain = rest.replace(NOISE, ' ').replace(/\s+/g, ' ').trim();
  // "the Color field": words taken as filler or kind that may still be a nameless field's label.
  const labelSaid = rest.replace(KIND_NOUNS, ' ').replace(/\s+/g, ' ').trim() || kindSaid?.replace(KIND_NOUNS, ' ').replace(/\s+/g, ' ').trim();
  // "button ONE": a kind word that is all the target has left is its name, not filler ("the red one").
  const named = !plain && /^(?:ones?|[A-Z]{2,})$/.test(rest);
  if (!named && (plain || quoted !== undefined || roles || grid)) rest = plain;
  // "the email from Linus", "the Sent folder" placed by context: nothing but kind nouns is a kind.
  if (context && rest && words(rest).every((w) => SOFT_NOUNS.has(w) || SOFT_NOUNS.has(w.replace(/s$/, '')))) rest = '';
  const oneLine = multiline === undefined && ONE_LINE_FIELD.test(lower) ? true : undefined;
  const label = labelSaid ? { labelSaid } : {};
  return { target: rest, quoted, roles, ordinal, context, within, holder, any, multiline, oneLine, size, glyph, grid, month, ...label };
}

/** Words for a field of one line: "text input", "text field", "textbox", "input". */
const ONE_LINE_FIELD = /\b(?:text ?field|text ?box|text input|input(?: field| box)?)\b/i;

/** Lines whose text a person can select; a control's name is its label, not text on the page. */
const SELECTABLE_TEXT = new Set([
  'text',
  'paragraph',
  'heading',
  'listitem',
  'row',
  'cell',
  'gridcell',
  'columnheader',
  'rowheader',
  'caption',
  'blockquote',
  'code',
  'note',
  'definition',
]);

/**
 * The one line that shows the text to select, and the nearest element with an id that holds it
 * (the page when none does): text shown on several lines, or nowhere, is a refusal. `context`
 * names the section or element it must be in ("in the Terms section").
 */
function textToSelect(intent: Intent, nodes: OutlineNode[]): Pick {
  if (intent.paragraph !== undefined) return wholeParagraph(intent.paragraph, !!intent.below, nodes);
  const want = normalize(intent.value ?? '');
  if (!want) throw new Refusal('it does not say which text to select');
  // A field's text is its value (a text area, a rich-text editor's content), not its label.
  const field = (n: OutlineNode) => (n.role === 'textbox' || n.role === 'searchbox') && typeof n.states.value === 'string';
  const textOf = (n: OutlineNode) => normalize(field(n) ? String(n.states.value) : n.name);
  const shows = (n: OutlineNode) => textOf(n).includes(want);
  let lines = nodes.filter((n) => (intent.roles ? field(n) : SELECTABLE_TEXT.has(n.role) || field(n)) && shows(n) && !n.children.some(shows));
  if (intent.context) {
    const place = normalize(intent.context);
    const placed = (n: OutlineNode) => {
      // A field is the place its own label names ("in the summary").
      if (field(n) && normalize(n.name).includes(place)) return true;
      for (let p: OutlineNode | null = n; p; p = p.parent) if (p !== n && normalize(p.name).includes(place)) return true;
      const h = sectionHeading(n);
      return !!h && normalize(h.name).includes(place);
    };
    lines = lines.filter(placed);
  }
  const said = quote(clip(intent.value ?? '', 60));
  if (!lines.length) throw new Refusal(`no text on the page shows ${said}${intent.context ? ` in ${quote(clip(intent.context, 40))}` : ''}`);
  const times = lines.reduce((k, n) => k + textOf(n).split(want).length - 1, 0);
  if (times > 1) throw new Refusal(`the page shows ${said} ${times} times; say which (the text next to it)`);
  let holder: OutlineNode | null = lines[0];
  while (holder && !holder.id) holder = holder.parent;
  return {
    node: holder && holder.role !== 'root' ? holder : null,
    method: 'selectText',
    args: [intent.value ?? ''],
    confidence: 0.9,
    description: `the text ${said}`,
  };
}

/**
 * The whole text of one paragraph: a block of at least four words outside any control (three, not ending in a colon,
 * on a page with no longer one), counted in page order (after the page's direction line when it says "below"). With no
 * ordinal there must be exactly one.
 */
function wholeParagraph(nth: number | 'last', below: boolean, nodes: OutlineNode[]): Pick {
  const inControl = (n: OutlineNode) => {
    for (let p = n.parent; p; p = p.parent) if (p.id && !['scrollable', 'region', 'article', 'main', 'group', 'generic'].includes(p.role)) return true;
    return false;
  };
  const direction = nodes.find((n) => n.role === 'text' && DIRECTION_LINE.test(n.name.trim()));
  const blocksOf = (least: number) =>
    nodes.filter(
      (n) =>
        (n.role === 'text' || n.role === 'paragraph') &&
        n.name
          .trim()
          .split(/\s+/)
          .filter((w) => /\p{L}/u.test(w)).length >= least &&
        !DIRECTION_LINE.test(n.name.trim()) &&
        !inControl(n) &&
        (!below || !direction || n.index > direction.index),
    );
  // A short one ("In vitae, tortor") when the page has no longer block: three words, and no label ("Last 10 average:").
  let blocks = blocksOf(4);
  if (!blocks.length) blocks = blocksOf(3).filter((n) => !/:\s*$/.test(n.name));
  // A paragraph broken by a link or a word that takes clicks shows as several lines: which lines make one is not known.
  const broken = nodes.find((b) => {
    if ((b.role !== 'text' && b.role !== 'paragraph') || inControl(b)) return false;
    const sib = b.parent?.children ?? [];
    const [before, after] = [sib[sib.indexOf(b) - 1], sib[sib.indexOf(b) + 1]];
    const inline = (n: OutlineNode | undefined) => !!n?.id && (n.role === 'link' || n.role === 'clickable');
    return (inline(after) && !/[.!?:]\s*$/.test(b.name)) || (inline(before) && /^\s*\p{Ll}/u.test(b.name));
  });
  if (broken)
    throw new Refusal(`the page's text runs on around links or controls (${quote(clip(broken.name, 40))}), so which lines make a paragraph is not known`);
  const pick = nth === 0 ? (blocks.length === 1 ? blocks[0] : undefined) : nth === 'last' ? blocks[blocks.length - 1] : blocks[nth - 1];
  if (!pick) throw new Refusal(`the page shows ${blocks.length || 'no'} paragraph${blocks.length === 1 ? '' : 's'}, so which one is meant is not settled`);
  let holder: OutlineNode | null = pick;
  while (holder && !holder.id) holder = holder.parent;
  return {
    node: holder && holder.role !== 'root' ? holder : null,
    method: 'selectText',
    args: [pick.name.trim()],
    confidence: 0.9,
    description: `the paragraph ${quote(clip(pick.name.trim(), 40))}`,
  };
}

/** What scrolls: a box the snapshot marks scrollable, whatever its role. */
const SCROLLERS = new Set([
  'scrollable',
  'list',
  'listbox',
  'region',
  'group',
  'textbox',
  'table',
  'grid',
  'article',
  'main',
  'dialog',
  'tabpanel',
  'tree',
  'complementary',
  'log',
  'document',
]);

/** What can be dragged or dropped onto: anything a person can point at. */
const DRAGGABLE = new Set([...CLICKABLE, 'article', 'figure', 'region', 'group', 'list', 'table', 'dialog', 'tabpanel']);

function allowedRoles(method: Method): Set<string> {
  if (method === 'dragAndDrop') return DRAGGABLE;
  if (method === 'scrollTo') return SCROLLERS;
  if (method === 'fill' || method === 'type') return FILLABLE;
  if (method === 'check' || method === 'uncheck') return CHECKABLE;
  if (method === 'selectOption') return SELECTABLE;
  if (method === 'press' || method === 'focus') return new Set([...FILLABLE, ...CLICKABLE]);
  return CLICKABLE;
}

function nameScore(node: OutlineNode, intent: Intent): number {
  const name = node.name || (typeof node.states.placeholder === 'string' ? node.states.placeholder : '');
  const alt =
    typeof node.states.placeholder === 'string'
      ? node.states.placeholder
      : typeof node.states.title === 'string'
        ? node.states.title
        : typeof node.states.fill === 'string'
          ? `${node.states.fill} ${node.name}`
          : '';
  const href = typeof node.states.href === 'string' ? node.states.href.replace(/[/?=&#._-]+/g, ' ') : '';
  const extra = otherNames(node);
  let best = 0;
  if (intent.quoted !== undefined) {
    const q = intent.quoted;
    for (const cand of [name, alt]) {
      if (!cand) continue;
      if (cand.trim() === q.trim() || (/\d/.test(q) && cand.replace(/\s+/g, '') === q.replace(/\s+/g, ''))) best = Math.max(best, 1);
      else if (exactMatch(cand, q)) best = Math.max(best, 0.97);
      else if (` ${canonical(cand)} `.includes(` ${canonical(q)} `)) best = Math.max(best, 0.85);
      // A quoted name is that text: a look-alike ("Yes" for "yes please") stays below the bar.
      else best = Math.max(best, 0.58 * similarity(q, cand));
    }
    for (const cand of extra) best = Math.max(best, 0.9 * similarity(q, cand));
    if (intent.target) best = Math.min(1, best + 0.05 * similarity(intent.target, `${name} ${node.role}`));
    return best;
  }
  if (!intent.target) return 0.55; // only a role word: fine if unique, else needs an ordinal
  for (const cand of [name, alt]) {
    if (!cand) continue;
    // The same words beat a synonym: "Log in" is a better match for "log in" than "Sign in" is.
    if (normalize(cand) === normalize(intent.target)) best = Math.max(best, 1);
    else if (exactMatch(cand, intent.target)) best = Math.max(best, 0.95);
    else best = Math.max(best, similarity(intent.target, cand));
  }
  // What a glyph stands for, the label before a bare control, the search a "Go" button runs: a little below its own name.
  for (const cand of extra) best = Math.max(best, similarity(intent.target, cand) - 0.05);
  if (href) best = Math.max(best, 0.6 * similarity(intent.target, href));
  // A radio or checkbox is also known by its group: "the Pro plan" is radio "Pro" in group "Plan".
  const group = groupName(node);
  if (group && name) best = Math.max(best, similarity(intent.target, `${name} ${group}`) - 0.05);
  // Target words that name the role ("login form field") do not count against a match.
  return best;
}

/**
 * Names a control goes by besides its own: what its glyph means ("+" adds), the short text
 * right before a control with no label of its own ("Distance to centre" before a knob), its
 * editable state, and "search" for the button beside a search box.
 */
/** Text that reads as a sentence rather than a label: it ends as one, or it tells the reader what to do. */
const sentence = (t: string) => /[.!?]\s*$/.test(t) || (DIRECTION_LINE.test(t.trim()) && /\s/.test(t.trim()));

function otherNames(node: OutlineNode): string[] {
  const out: string[] = [];
  const g = glyphWords(node.name);
  if (g) out.push(g);
  // A control whose label says one thing and whose face another ("Repost" showing "Share"): both are its names.
  if (node.id && PHRASE_TARGETS.has(node.role))
    for (const c of node.children) if (c.role === 'text' && !c.id && c.name.length <= 40 && /\p{L}/u.test(c.name)) out.push(c.name);
  if (typeof node.states.for === 'string') out.push(`${node.states.for} ${g || node.name}`);
  const sibs = node.parent?.children ?? [];
  const i = sibs.indexOf(node);
  const before = sibs[i - 1];
  // A glyph's label follows it (▸ components); a bare control's comes before it (Distance, then the knob). A word that
  // takes clicks in running text ("Dui [nunc,] senectus") has its own name: the text before it is not its label.
  const label = g || !/[a-z0-9]/i.test(normalize(node.name)) ? sibs[i + 1] : node.nameFrom === 'inferred' || !node.name ? before : undefined;
  // A sentence before it (the page's directions, "Drag all squares into the black box.") is no label.
  if (node.role === 'clickable' && label && label.role === 'text' && label.name.length <= 40 && !sentence(label.name)) out.push(`${label.name} ${node.name}`);
  // A field with no label of its own is known by the short text right before it ("Username",
  // then the box) and by what it takes (a password, an email, a date).
  const fieldLabel = FILLABLE.has(node.role) ? labelBefore(node) : '';
  if (fieldLabel) out.push(fieldLabel);
  if (FILLABLE.has(node.role) && typeof node.states.type === 'string' && TYPE_WORDS[node.states.type]) out.push(TYPE_WORDS[node.states.type]);
  // A card that takes clicks is known by its title.
  const title = node.role === 'clickable' || node.states.clickable === true ? node.children.find((c) => c.role === 'heading') : undefined;
  if (title) out.push(title.name);
  if (node.states.editable === true) out.push(`editable ${node.name} ${node.role === 'heading' ? 'title' : ''}`);
  if ((node.role === 'button' || node.role === 'clickable') && (before?.role === 'searchbox' || hasAncestor(node, new Set(['search']))))
    out.push(`search ${node.name}`);
  return out;
}

/** What an input of each type holds, in the words people use for it. */

function groupName(node: OutlineNode): string {
  for (let p = node.parent; p; p = p.parent) {
    if ((p.role === 'group' || p.role === 'radiogroup' || p.role === 'menu' || p.role === 'tablist' || p.role === 'listbox') && p.name) return p.name;
    if (p.role === 'form' || p.role === 'main') break;
  }
  return '';
}

const CONTAINERS = new Set([
  'row',
  'listitem',
  'article',
  'group',
  'region',
  'dialog',
  'alertdialog',
  'figure',
  'treeitem',
  'menu',
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'form',
  'tabpanel',
  'search',
]);

/**
 * How firmly `context` places the element (0: not at all), firmest first: its own words or its
 * row, item or dialog (3); the label the snapshot gives a glyph (`for=`, 2.8); the heading of
 * its section (2.5); the block of text lines on its own side, past the controls beside it (up
 * to 2: a text control follows what it is about, a glyph comes before its label); the block on
 * the other side (up to 1.6); any line up to three away (up to 1); a landmark that holds it (0.5).
 */
function contextStrength(node: OutlineNode, context: string): number {
  // Every word found, a kind noun ("comment", "card", "order") aside.
  const ok = (text: string) => coverage(context, text) >= 0.79;
  if (ok(node.name)) return 3;
  let wide = 0;
  for (let p = node.parent; p && p.role !== 'root'; p = p.parent) {
    if (CONTAINERS.has(p.role)) {
      if (ok(textOf(p, 600))) {
        // A row, item or dialog that mentions it places the element; a landmark that holds many places it loosely.
        if (TIGHT.has(p.role)) return 3;
        wide = 0.5;
        break;
      }
      // A row or item that does not mention it settles the question; a form or region may sit in a larger one.
      if (p.role === 'row' || p.role === 'listitem' || p.role === 'article' || p.role === 'treeitem' || p.role === 'option') break;
    }
  }
  if (typeof node.states.for === 'string' && ok(node.states.for)) return 2.8;
  const heading = sectionHeading(node);
  if (heading && ok(heading.name)) return 2.5;
  const sibs = node.parent?.children ?? [];
  const i = sibs.indexOf(node);
  // A nameless control is no glyph: read like any other control, so that a name alone never places one of equals better.
  const glyph = (!!node.name.trim() && !/[a-z0-9]/i.test(normalize(node.name))) || !!glyphWords(node.name);
  // The text lines next to it, past the controls beside it: a text control belongs to the text
  // before it ("Tom: ..." then Like, Reply; a card's title then Restock, Hide), a glyph to the
  // text after it (▸ components); then the other side; then any line up to three away.
  const block = (dir: -1 | 1) => {
    let j = i + dir;
    while (sibs[j]?.id) j += dir;
    // Nearer lines of the block place it more firmly.
    for (let k = 0; sibs[j] && !sibs[j].id && sibs[j].role === 'text' && k < 6; j += dir, k++) if (ok(sibs[j].name)) return 0.4 - 0.05 * k;
    return 0;
  };
  const [first, second]: (-1 | 1)[] = glyph ? [1, -1] : [-1, 1];
  const b1 = block(first);
  if (b1) return 1.6 + b1;
  const b2 = block(second);
  if (b2) return 1.2 + b2;
  const near = (s: OutlineNode | undefined) => !!s && s.role !== 'heading' && ok(s.name);
  for (let d = 1; d <= 3; d++) if (near(sibs[i - d]) || near(sibs[i + d])) return 1.2 - 0.2 * d;
  return wide;
}

/** How many text lines before a control may name what it is for. */
const LEAD_LINES = 3;

/**
 * Whether one of the few text lines just before `node`, in the order the page shows them, names
 * `context`: controls in between are passed, a heading ends the search (another section).
 */
function ledInBy(node: OutlineNode, context: string): boolean {
  let root = node;
  while (root.parent) root = root.parent;
  const order: OutlineNode[] = [];
  const walk = (n: OutlineNode) => {
    order.push(n);
    n.children.forEach(walk);
  };
  walk(root);
  let seen = 0;
  for (let j = order.indexOf(node) - 1; j > 0 && seen < LEAD_LINES; j--) {
    const n = order[j]!;
    if (n.role === 'heading') return coverage(context, n.name) >= 0.79;
    if (n.role !== 'text') continue;
    seen++;
    if (coverage(context, n.name) >= 0.79) return true;
  }
  return false;
}

const DIALOGS = new Set(['dialog', 'alertdialog']);
/** Words for a whole widget or page: what a control belongs to, not text beside it. */
const TIGHT = new Set(['row', 'listitem', 'article', 'treeitem', 'option', 'dialog', 'alertdialog', 'figure', 'group']);

/** The nearest heading before the element among its and its ancestors' earlier siblings. */
function sectionHeading(node: OutlineNode): OutlineNode | null {
  for (let n: OutlineNode | null = node; n && n.role !== 'root'; n = n.parent) {
    const sibs = n.parent?.children ?? [];
    for (let j = sibs.indexOf(n) - 1; j >= 0; j--) if (sibs[j].role === 'heading') return sibs[j];
  }
  return null;
}

/**
 * The element an instruction means. Each reading of the words is tried; the most confident
 * pick wins (less its reading's penalty), and with none, the first reading's refusal explains.
 */
const CODE_BOX_WORDS = oneOf(CODE_BOXES);

/**
 * "Enter 482913 into the code": a code as long as the page's one run of one-character boxes (a one-time code's boxes,
 * each taking a character) goes into the run's first box, spaces and dashes left out; the engine's fill gives each box
 * its character. The words must name a code's boxes or the group they sit in; two runs of that length are left to the
 * usual reading.
 */
function codeBoxes(intent: Intent, nodes: OutlineNode[]): Pick | null {
  const code = (intent.value ?? '').replace(/[\s-]/g, '');
  if (code.length < 3) return null;
  const runs: OutlineNode[][] = [];
  let run: OutlineNode[] = [];
  for (const n of nodes) {
    if (!n.id) continue;
    if (FILLABLE.has(n.role) && n.states.maxlength === '1' && n.states.disabled !== true) run.push(n);
    else {
      if (run.length) runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  const target = intent.target.replace(/^(?:the|a|an|your)\s+/i, '').trim();
  const groupOf = (r: OutlineNode[]) => (r[0]!.parent && r[0]!.parent.role !== 'root' ? r[0]!.parent.name : '');
  const fits = runs.filter((r) => r.length === code.length);
  // The run its group's name names ("the new PIN"), else the one run, named as a code's boxes.
  const named = fits.filter((r) => groupOf(r) && exactMatch(groupOf(r), target));
  const chosen = named.length === 1 ? named[0]! : fits.length === 1 && (!target || CODE_BOX_WORDS.test(target)) ? fits[0]! : null;
  if (!chosen) return null;
  const first = chosen[0]!;
  const description = `the ${code.length} boxes of one character, from ${first.name || first.role}`;
  return { node: first, method: 'fill', args: [code], confidence: 0.9, description };
}

export function choose(intent: Intent, nodes: OutlineNode[], facts: Facts = {}): Pick {
  const readings = [intent, ...(intent.alternatives ?? [])];
  if (intent.drop) {
    // Both ends of a drag, each a confident pick of its own, and not the same element.
    const from = choose({ ...intent, drop: undefined }, nodes, facts);
    const to = choose({ ...intent.drop, method: 'dragAndDrop' }, nodes, facts);
    if (!from.node || !to.node || from.node === to.node) throw new Refusal('the element to drag and the place to drop it are the same');
    return {
      ...from,
      method: 'dragAndDrop',
      args: [to.node.id!],
      confidence: Math.min(from.confidence, to.confidence),
      description: `${from.description} onto ${to.description}`,
    };
  }
  const boxes = intent.method === 'fill' && intent.value ? codeBoxes(intent, nodes) : null;
  if (boxes) return boxes;
  let best: Pick | null = null;
  let refusal: Refusal | null = null;
  for (const r of readings) {
    try {
      const p = chooseOne(r, nodes, facts);
      const confidence = p.confidence - (r.penalty ?? 0);
      if (!best || confidence > best.confidence) best = { ...p, confidence };
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      // A tie or a check that failed says more than "nothing matched" does.
      if (!refusal || (/no element matches/.test(refusal.message) && !/no element matches/.test(e.message))) refusal = e;
    }
  }
  if (best && best.confidence >= 0.6) return best;
  const chosen = intent.method === 'fill' && intent.value ? radioIn(intent.target, intent.value, nodes) : null;
  if (chosen) return chosen;
  throw (
    refusal ??
    new Refusal(
      `no element matches it well enough${lookedFor(
        intent,
        nodes.filter((n) => n.id),
      )}`,
    )
  );
}

/** Groups whose options are radios, as the outline shows them. */
const RADIO_GROUPS = new Set(['group', 'radiogroup']);

/**
 * "Set the frequency to Daily" where Frequency is a group of radios and no field takes text: the radio named exactly
 * the value in the one group the words name (its name, or its canonical words: "How often?" is a frequency). Null
 * when no group, or more than one, fits.
 */
function radioIn(target: string, value: string, nodes: OutlineNode[]): Pick | null {
  const want = canonical(target.replace(/\b(?:field|box|group|options?|choices?|setting)\b/gi, ' '));
  if (!want.trim()) return null;
  const fits = nodes.filter((g) => RADIO_GROUPS.has(g.role) && g.name && coverage(want, canonical(g.name)) === 1);
  const picks = fits.flatMap((g) => g.children.filter((r) => r.id && r.role === 'radio' && exactMatch(r.name, value)));
  if (picks.length !== 1) return null;
  const r = picks[0]!;
  return { node: r, method: 'click', args: [], confidence: 0.8, description: `${r.name} radio in ${r.parent!.name}` };
}

function chooseOne(intentIn: Intent, nodes: OutlineNode[], facts: Facts): Pick {
  let intent = intentIn;
  if (intent.month) {
    // "March 22" on a calendar that shows March: the day; on one that shows April: not here.
    const shown = nodes.some(
      (n) => !n.id && (n.role === 'text' || n.role === 'heading' || n.role === 'caption') && words(n.name).some((w) => w.slice(0, 3) === intent.month),
    );
    const anyMonth = nodes.some((n) => (n.role === 'text' || n.role === 'heading' || n.role === 'caption') && MONTH_NAME.test(n.name));
    if (!shown && anyMonth) throw new Refusal(`the page shows another month than the one asked for`);
  }
  if (intent.method === 'selectText') return textToSelect(intent, nodes);
  if (intent.pageLevel) {
    return {
      node: null,
      method: intent.method,
      args: intent.value !== undefined ? [intent.value] : [],
      confidence: 0.95,
      description: intent.method === 'press' ? `${intent.value} key` : 'the page',
    };
  }
  let method = intent.method;
  let value = intent.value;
  let roles = allowedRoles(method);
  if (intent.roles) {
    const both = new Set([...intent.roles].filter((r) => roles.has(r) || method === 'click' || method === 'hover'));
    // "tick the Free shipping box": a role word that names no allowed role is just a word.
    if (both.size) roles = both;
    else intent = { ...intent, roles: null };
  }
  // A row's name is its cells joined: it is a target only when it takes clicks itself.
  let candidates = nodes.filter((n) => n.id && roles.has(n.role) && (n.role !== 'row' || n.states.clickable === true || intent.roles?.has('row')));
  if (method === 'scrollTo') candidates = candidates.filter((n) => n.role === 'scrollable' || n.states.scrollable === true);
  if (intent.multiline !== undefined) candidates = candidates.filter((n) => !FILLABLE.has(n.role) || (n.states.multiline === true) === intent.multiline);
  if (intent.glyph) candidates = candidates.filter((n) => (intent.glyph === 'digit' ? /^\d$/ : /^[a-z]$/i).test(n.name.trim()));
  if (intent.within) {
    // "in the dialog": only what sits in one; a page without such a container keeps every candidate.
    const inside = candidates.filter((n) => hasAncestor(n, intent.within!));
    if (inside.length) candidates = inside;
  }
  let closed: Pick | null;
  if (method === 'selectOption') {
    // The option must exist in the select; "select Pro plan" may also mean a radio.
    const withOption = candidates.filter((n) => optionsOf(n).some((o) => exactMatch(o, value ?? '') || normalize(o) === normalize(value ?? '')));
    if (withOption.length) candidates = withOption;
    else if ((closed = closedSelect(intent, nodes))) return { ...closed, method: 'selectOption', args: [value ?? ''] };
    else {
      const radios = nodes.filter((n) => n.id && CHECKABLE.has(n.role));
      const r = bestOf({ ...intent, target: value ?? '', quoted: value, context: intent.target || undefined, roles: null }, radios);
      if (r) return { ...r, method: 'check', args: [] };
      // A list made of items that take clicks ("select Banana in the list").
      const items = nodes.filter(
        (n) =>
          n.id &&
          (n.role === 'option' ||
            n.role === 'listitem' ||
            n.role === 'clickable' ||
            n.role === 'cell' ||
            n.role === 'gridcell' ||
            n.role === 'treeitem' ||
            n.role === 'menuitem'),
      );
      const within = intent.roles?.has('listbox') ? new Set(['list', 'listbox']) : intent.within;
      const pool = within ? items.filter((n) => hasAncestor(n, within)) : items;
      const c = bestOf({ ...intent, target: value ?? '', quoted: value, context: undefined, roles: null, within: undefined }, pool.length ? pool : items);
      if (c) return { ...c, method: 'click', args: [] };
      throw new Refusal(`no select offers the option ${quote(value ?? '')}`);
    }
  }
  if (method === 'click' && !intent.roles) {
    // "choose France" may name an option of a select.
    const t = intent.quoted ?? intent.target;
    const selects = nodes.filter((n) => n.id && SELECTABLE.has(n.role) && optionsOf(n).some((o) => exactMatch(o, t)));
    if (selects.length === 1 && !nodes.some((n) => n.id && n.role !== 'combobox' && exactMatch(n.name, t))) {
      const opt = optionsOf(selects[0]).find((o) => exactMatch(o, t))!;
      return { node: selects[0], method: 'selectOption', args: [opt], confidence: 0.9, description: `${selects[0].name || 'select'}: ${opt}` };
    }
  }
  // "Set Plan to Pro": a select that shows its options only when open is chosen from, not typed into.
  if (method === 'fill' && value) {
    const sel = closedSelect(intent, nodes);
    if (sel?.node && (sel.node.role === 'button' || sel.node.states.readonly === true || sel.node.states.value === undefined)) return { ...sel, args: [value] };
    // "Set Email frequency to Never": the radio of that name in the group of that name.
    const radio = radioInGroup(intent, nodes, value);
    if (radio) return radio;
  }
  // Read the target whole first; fall back to "X near Y" when the whole reading matches nothing well.
  // A tie is explained only when no reading settles it.
  let tie: Refusal | null = null;
  const attempt = (i: Intent): Pick | null => {
    try {
      return bestOf(i, candidates);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      tie ??= e;
      return null;
    }
  };
  // "Enter today's date": "date" belongs to the value, so no field is named; the kind decides (byKind).
  if (intent.dateField) {
    const p = byKind(intent, candidates, nodes);
    if (!p) throw new Refusal('no field on the page says it takes a date (a date input, or a format in its placeholder, label or pattern)');
    return { ...p, method, args: [dateFor(p.node!, intent.date!, facts)] };
  }
  let pick = intent.whole ? attempt({ ...intent, ...intent.whole, context: undefined }) : null;
  if (!pick || pick.confidence < 0.85) {
    const split = attempt(intent);
    if (split && (!pick || split.confidence > pick.confidence)) pick = split;
  }
  if (!pick && !tie) pick = byKind(intent, candidates, nodes);
  if (!pick && tie) throw tie;
  if (!pick) throw new Refusal(`no element matches it well enough${lookedFor(intent, candidates)}`);
  if (method === 'click' && pick.node && CHECKABLE.has(pick.node.role) && pick.node.role === 'radio') method = 'click';
  if (intent.date && pick.node) {
    if (optionsOf(pick.node).length) {
      throw new Refusal(`${quote(pick.node.name || 'the select')} offers options, and the instruction names a date by description`);
    }
    value = dateFor(pick.node, intent.date, facts);
  }
  // "set the language to French" on a native select: the option, not typing.
  if ((method === 'fill' || method === 'type') && pick.node && optionsOf(pick.node).length) {
    const opt = optionsOf(pick.node).find((o) => exactMatch(o, value ?? '') || normalize(o) === normalize(value ?? ''));
    if (!opt) throw new Refusal(`${quote(pick.node.name || 'the select')} offers no option ${quote(value ?? '')}`);
    method = 'selectOption';
    value = opt;
  }
  if (method === 'selectOption' && pick.node)
    value = optionsOf(pick.node).find((o) => exactMatch(o, value ?? '') || normalize(o) === normalize(value ?? '')) ?? value;
  // A value longer than the field takes would be cut short as it is typed: a wrong value, not the one asked for.
  const most = Number(pick.node?.states.maxlength ?? Infinity);
  if (method === 'fill' && value && [...value].length > most)
    throw new Refusal(`${quote(pick.node!.name || 'the field')} takes at most ${most} character${most === 1 ? '' : 's'}, and ${quote(value)} is longer`);
  // "#ff0000" into a text field that keeps a colour as bare hex digits (a colour picker built on a text box): its form.
  const held = pick.node?.states.value;
  if (method === 'fill' && value && /^#[0-9a-f]{6}$/i.test(value) && typeof held === 'string' && /^[0-9a-f]{6}$/i.test(held)) value = value.slice(1);
  return { ...pick, method, args: value !== undefined ? [value] : [] };
}

/** What a field says about the dates it takes, read off the outline: its type, placeholder, pattern, value and the text beside it. */
function dateField(n: OutlineNode): DateField {
  const str = (v: string | true | undefined) => (typeof v === 'string' ? v : undefined);
  const sibs = n.parent?.children ?? [];
  const i = sibs.indexOf(n);
  const beside = [sibs[i - 1], sibs[i + 1]].filter((x) => x && !x.id && x.role === 'text' && x.name.length <= 80).map((x) => x.name);
  const value = str(n.states.value);
  // A value the outline clipped ("…") is no example of anything.
  return {
    type: str(n.states.type) ?? '',
    name: n.name,
    placeholder: str(n.states.placeholder),
    pattern: str(n.states.pattern),
    value: value && !value.endsWith('…') ? value : undefined,
    beside,
  };
}

/** The day a description names, as the chosen field takes it (values.ts), or a Refusal. */
function dateFor(n: OutlineNode, named: NamedDate, facts: Facts): string {
  const field = dateField(n);
  dateValueFor(field, [2000, 1, 31]); // the field's format first: a field that takes no date is refused for that
  const day = dayOf(named, facts.today ?? '');
  // A field that names the day it takes ("the date 32 days ago") and another than the words: which is meant is not known.
  const asked = [field.name, field.placeholder ?? ''].flatMap(datesNamedIn).map((d) => dayOf(d, facts.today ?? ''));
  if (asked.length && !asked.some((d) => d.join('-') === day.join('-'))) {
    throw new Refusal(`${quote(n.name || 'the field')} asks for another day than the one the instruction names`);
  }
  return dateValueFor(field, day);
}

const takesDate = (n: OutlineNode): boolean => {
  try {
    dateValueFor(dateField(n), [2000, 1, 31]);
    return true;
  } catch (e) {
    if (e instanceof Refusal) return false;
    throw e;
  }
};

const SEARCH_LANDMARK = new Set(['search']);

/**
 * The kind of control as part of what it is, tried when no name fits: "the submit button" is
 * the control that submits a form (an `<input type=submit value=Go>`, a `<button>` in a form),
 * "the search box" the search field, "Enter today's date" the field that takes a date, whatever
 * each is called. One of the kind in scope is the one; several are named in a refusal. A page
 * that has anything called "Submit" never gets another submit control pressed in its stead.
 */
function byKind(intent: Intent, candidates: OutlineNode[], nodes: OutlineNode[]): Pick | null {
  const t = intent.quoted === undefined ? normalize(intent.target) : '';
  let kind: string;
  let fits: (n: OutlineNode) => boolean;
  if (t === 'submit' && intent.roles?.has('button')) {
    if (nodes.some((n) => n.id && words(n.name).includes('submit'))) return null;
    kind = 'submit button';
    fits = (n) => n.states.submit === true;
  } else if (t === 'search' && intent.roles?.has('searchbox')) {
    kind = 'search box';
    fits = (n) => FILLABLE.has(n.role) && (n.role === 'searchbox' || n.states.type === 'search' || hasAncestor(n, SEARCH_LANDMARK));
  } else if (intent.method === 'click' && SIGN_IN_WORDS.some((w) => normalize(w) === t) && nodes.some((n) => n.id && n.states.type === 'password')) {
    // "press login" on a login form whose one button says "OK": the button that sends the password. Only a button that
    // sends a form or is named as one that goes on ("Delete account" beside a password is no log-in).
    kind = 'button of a form that takes a password';
    fits = (n) => n.role === 'button' && (n.states.submit === true || oneOf(GO_ON_BUTTONS).test(n.name.trim()));
    // Such a button disabled is the form held by something else (a pop-up asking its own OK or Cancel): not its button.
    if (candidates.some((n) => n.states.disabled === true && fits(n))) throw new Refusal('the form that takes the password has its button disabled');
  } else if (intent.dateField) {
    kind = 'field that takes a date';
    fits = (n) => FILLABLE.has(n.role) && takesDate(n);
  } else return null;
  let pool = candidates.filter((n) => n.states.disabled !== true && fits(n));
  if (intent.context && pool.length) {
    // "the submit button in the login form": of the kind, the ones the words place, the most firmly placed.
    const placed = pool.map((n) => ({ n, k: contextStrength(n, intent.context!) })).filter((c) => c.k > 0);
    const firm = Math.max(0, ...placed.map((c) => c.k));
    pool = placed.filter((c) => c.k === firm).map((c) => c.n);
  }
  if (pool.length > 1) {
    const named = `${pool
      .slice(0, 5)
      .map((n) => shown(n))
      .join(', ')}${pool.length > 5 ? ` and ${pool.length - 5} more` : ''}`;
    throw new Ambiguity(`${pool.length} elements are each a ${kind}: ${named}; say which one`);
  }
  if (!pool.length) return null;
  const n = pool[0];
  return { node: n, method: 'click', args: [], confidence: 0.85, description: `${n.name || n.role} ${n.role} (the only ${kind})` };
}

/**
 * "the Delete button in the third row": of the candidates, those in the nth holder of the kind, counted among
 * the holders beside each other that hold one. A holder beside them with controls but no candidate makes the
 * count unclear (is the third row the third of all, or of those with a Delete?), so that is a refusal.
 */
function inNthHolder(h: NonNullable<Intent['holder']>, candidates: OutlineNode[]): OutlineNode[] {
  const roles = new Set(HOLDER_ROLES[h.kind] ?? []);
  const holderOf = (n: OutlineNode): OutlineNode | null => {
    for (let p = n.parent; p; p = p.parent) if (roles.has(p.role)) return p;
    return null;
  };
  const held = candidates.map((n) => ({ n, at: holderOf(n) })).filter((x): x is { n: OutlineNode; at: OutlineNode } => x.at !== null);
  const word = Object.entries(ORDINALS).find(([, v]) => v === h.nth)?.[0] ?? String(h.nth);
  if (!held.length) throw new Refusal(`nothing it could mean is in a ${h.kind}`);
  const list = held[0].at.parent;
  if (!list || held.some((x) => x.at.parent !== list))
    throw new Refusal(`the ${h.kind}s that hold it are in different lists, so which is the ${word} is unclear`);
  const siblings = list.children.filter((c) => c.role === held[0].at.role);
  const holding = siblings.filter((s) => held.some((x) => x.at === s));
  const hasControls = (s: OutlineNode): boolean => s.children.some((c) => (c.id && CLICKABLE.has(c.role) && c.role !== 'row') || hasControls(c));
  if (siblings.some((s) => !holding.includes(s) && hasControls(s)))
    throw new Refusal(`some ${h.kind}s beside them do not hold one, so which is the ${word} ${h.kind} is unclear`);
  const at = h.nth === 'last' ? holding[holding.length - 1] : holding[h.nth - 1];
  if (!at) throw new Refusal(`there are ${holding.length} such ${h.kind}s, no ${word}`);
  return held.filter((x) => x.at === at).map((x) => x.n);
}

function hasAncestor(n: OutlineNode, roles: Set<string>): boolean {
  for (let p = n.parent; p; p = p.parent) if (roles.has(p.role)) return true;
  return false;
}

/** How a candidate is shown in a refusal: its id, role, name and the text around it. */
function shown(n: OutlineNode, score?: number): string {
  const near = n.parent && n.parent.role !== 'root' ? n.parent.name || n.parent.children.find((c) => c !== n && c.role === 'text')?.name || '' : '';
  const around = near ? ` in ${n.parent!.role} "${near.slice(0, 40)}"` : '';
  return `[${n.id}] ${n.role}${n.name ? ` "${n.name.slice(0, 40)}"` : ''}${around}${score !== undefined ? ` (score ${score.toFixed(2)})` : ''}`;
}

/** What the reading looked for and the best candidates it weighed, for an honest refusal. */
function lookedFor(intent: Intent, candidates: OutlineNode[]): string {
  const what = [intent.roles ? [...intent.roles].join('/') : '', intent.quoted !== undefined ? quote(intent.quoted) : clip(intent.target)]
    .filter(Boolean)
    .join(' ');
  const best = candidates
    .map((n) => ({ n, s: nameScore(n, intent) }))
    .filter((c) => c.s > 0)
    .sort((a, b) => b.s - a.s)
    .slice(0, 3);
  const weighed = best.length ? `; best candidates: ${best.map((c) => shown(c.n, c.s)).join(', ')}` : '; nothing on the page comes close';
  return `; it looked for ${what || 'a target'}${weighed}`;
}

/**
 * "Select Pro from the Plan dropdown" where the Plan combobox lists no options: a select built
 * from elements shows them only when open. The one combobox the words name firmly (never the
 * only one on the page by default) gets selectOption, which opens it, chooses and checks.
 */
function closedSelect(intent: Intent, nodes: OutlineNode[]): Pick | null {
  if (!intent.target) return null;
  const closed = nodes.filter(
    (n) =>
      n.id &&
      (n.role === 'combobox' || (n.role === 'button' && typeof n.states.haspopup === 'string')) &&
      optionsOf(n).length === 0 &&
      n.states.expanded !== true,
  );
  // A button says its value after its name ("Plan, Free"): the name is the part before.
  const score = (n: OutlineNode) => nameScore({ ...n, name: n.role === 'button' ? n.name.split(',')[0] : n.name }, { ...intent, context: undefined });
  const named = closed.filter((n) => score(n) >= 0.85);
  if (named.length !== 1) return null;
  return { node: named[0], method: 'selectOption', args: [], confidence: 0.9, description: `${named[0].name}: ${intent.value ?? ''}` };
}

/** The one radio named `value` exactly, inside the one radio group the words name firmly. */
function radioInGroup(intent: Intent, nodes: OutlineNode[], value: string): Pick | null {
  if (!intent.target) return null;
  const groups = nodes.filter((n) => n.id && n.role === 'radiogroup' && nameScore(n, { ...intent, context: undefined }) >= 0.85);
  if (groups.length !== 1) return null;
  const radios = nodes.filter((n) => n.id && n.role === 'radio' && exactMatch(n.name, value) && isInside(n, groups[0]));
  if (radios.length !== 1) return null;
  return { node: radios[0], method: 'click', args: [], confidence: 0.9, description: `${radios[0].name} radio` };
}

const omissions = new WeakMap<OutlineNode, OutlineNode[]>();
/** Where the outline `n` belongs to says content was left out: its summary lines. */
function omissionsOf(n: OutlineNode): OutlineNode[] {
  let root = n;
  while (root.parent) root = root.parent;
  let found = omissions.get(root);
  if (!found) {
    const list: OutlineNode[] = [];
    const visit = (x: OutlineNode) => {
      if (x.role === 'summary') list.push(x);
      x.children.forEach(visit);
    };
    visit(root);
    omissions.set(root, (found = list));
  }
  return found;
}

function bestOf(intent: Intent, candidates: OutlineNode[]): Pick | null {
  let scored = candidates.map((n) => ({ n, s: nameScore(n, intent) }));
  if (intent.context) {
    // Only what the context places, and of those only the most firmly placed.
    const placed = scored.map((c) => ({ ...c, k: c.s > 0.3 ? contextStrength(c.n, intent.context!) : 0 })).filter((c) => c.k > 0);
    const fits = scored.filter((c) => c.s >= 0.6);
    // "Start the stopwatch", "mute the player": the context names the widget itself, which pages
    // rarely write out. With one control that fits, on a page that does not mention it, that is the one.
    const widget = words(intent.context).length > 0 && words(intent.context).every((w) => WIDGET_NOUNS.has(w) || WIDGET_NOUNS.has(w.replace(/s$/, '')));
    if (!placed.length && fits.length === 1 && widget) placed.push({ ...fits[0], k: 0.5 });
    // "Buy VOP stock" on a quote: the page's one Buy, under the lines that name VOP (a card the outline does not show as one).
    if (!placed.length && fits.length === 1 && ledInBy(fits[0].n, intent.context)) placed.push({ ...fits[0], k: 0.4 });
    if (!placed.length) {
      if (fits.length)
        throw new Refusal(
          `${fits.length === 1 ? `${shown(fits[0].n)} fits` : `${fits.length} elements fit`}, but nothing of that kind is by ${quote(intent.context)}`,
        );
      return null;
    }
    const firm = Math.max(...placed.map((c) => c.k));
    scored = placed.filter((c) => c.k === firm);
  }
  // A span or div that takes clicks is how many pages make their links and buttons: it counts, a little below the real role.
  if (intent.roles)
    scored = scored.map((c) => ({ ...c, s: intent.roles!.has(c.n.role) ? Math.min(1, c.s + (c.n.role === 'clickable' ? 0.02 : 0.05)) : c.s - 0.3 }));
  // Without a role word, controls beat text-like lines (a "Products" link over a "Products" heading).
  else scored = scored.map((c) => ({ ...c, s: PASSIVE.has(c.n.role) && c.n.states.clickable !== true ? c.s - 0.15 : c.s }));
  // A clickable row or item is chosen by its own words, not by one cell's ("Delete" is the button in it).
  scored = scored.map((c) => ({
    ...c,
    s:
      (c.n.role === 'row' || c.n.role === 'listitem') &&
      (intent.target || intent.quoted !== undefined) &&
      !exactMatch(c.n.name, intent.quoted ?? intent.target) &&
      c.n.children.some((k) => k.id)
        ? c.s - 0.3
        : c.s,
  }));
  scored = scored.filter((c) => c.s > 0.3).sort((a, b) => b.s - a.s || a.n.index - b.n.index);
  // A heading or text inside a card that takes clicks is that card, not a rival to it.
  scored = scored.filter(
    (c) => !(PASSIVE.has(c.n.role) && c.n.states.clickable !== true && scored.some((o) => o !== c && o.s >= c.s - 0.05 && isInside(c.n, o.n))),
  );
  if (!scored.length) return null;
  if (intent.holder) {
    // Of the best matches, those in the holder counted ("the third row"); the count is over the holders of these.
    const best = scored.filter((c) => c.s >= scored[0].s - 0.02);
    const kept = new Set(
      inNthHolder(
        intent.holder,
        best.map((c) => c.n),
      ),
    );
    scored = best.filter((c) => kept.has(c.n));
  }
  if (intent.grid)
    return gridPick(
      intent,
      scored.map((c) => c.n),
    );
  const top = scored[0].s;
  let tied = scored.filter((c) => c.s >= top - 0.02).sort((a, b) => a.n.index - b.n.index);
  // Names tie: an enabled element beats a disabled one (hidden ones never reach the outline).
  const enabled = tied.filter((c) => c.n.states.disabled !== true);
  if (enabled.length && enabled.length < tied.length && intent.ordinal === undefined) tied = enabled;
  // Text goes where it can be typed: of equals, a field that takes it beats a read-only one (the text area it is read from).
  const writable = tied.filter((c) => c.n.states.readonly !== true);
  if ((intent.method === 'fill' || intent.method === 'type') && writable.length && writable.length < tied.length && intent.ordinal === undefined)
    tied = writable;
  // A copy goes somewhere else than where it is read: of equals, the field that already holds the text is its source.
  const source = (c: { n: OutlineNode }) => typeof c.n.states.value === 'string' && !!intent.value && normalize(c.n.states.value) === normalize(intent.value);
  if ((intent.method === 'fill' || intent.method === 'type') && intent.ordinal === undefined && tied.some(source) && !tied.every(source))
    tied = tied.filter((c) => !source(c));
  // "The text input", "the text field": of equals, a one-line field rather than a text area.
  const oneLine = tied.filter((c) => FILLABLE.has(c.n.role) && c.n.states.multiline !== true);
  if (intent.method === 'fill' && intent.ordinal === undefined && oneLine.length && oneLine.length < tied.length && intent.oneLine) tied = oneLine;
  // A dialog on top of the page is where a person looks: of equals, the one in the open dialog.
  const inDialog = tied.filter((c) => hasAncestor(c.n, DIALOGS));
  if (inDialog.length === 1 && tied.length > 1 && intent.ordinal === undefined) tied = inDialog;
  // Then one in view beats ones scrolled away (the outline marks the away ones among equals).
  const inView = tied.filter((c) => c.n.states.offscreen === undefined);
  if (inView.length && inView.length < tied.length && intent.ordinal === undefined && !intent.any) tied = inView;
  // A control inside another named by it (a Submit button in an accordion header read as "Submit"): the inner one, whose click reaches both.
  const wraps = (c: { n: OutlineNode }) => tied.some((d) => d !== c && isInside(d.n, c.n) && !!d.n.name && normalize(d.n.name) === normalize(c.n.name));
  const innermost = tied.filter((c) => !wraps(c));
  if (innermost.length && innermost.length < tied.length && intent.ordinal === undefined) tied = innermost;
  // Of equals, the one whose own name is the words ("the Date field") beats one they only describe (a field that takes a date).
  // A nameless field's own words are the label just before it ("Color:" then the box); with only a kind said ("the Color
  // field", "the Email field"), its word may be that label.
  const ownWords = intent.quoted ?? (intent.target || intent.labelSaid || '');
  const own = tied.filter((c) => exactMatch(c.n.name || labelBefore(c.n), ownWords));
  if (own.length === 1 && tied.length > 1 && intent.ordinal === undefined && !intent.any) tied = own;
  // Of equals, one of the kind the words name first: "the 5 button" is a button rather than a drawn 5 that takes clicks.
  const [namedRole] = intent.roles ?? [];
  const ofRole = namedRole ? tied.filter((c) => c.n.role === namedRole) : [];
  if (ofRole.length === 1 && tied.length > 1 && intent.ordinal === undefined && !intent.any) tied = ofRole;
  // Of names that are the quoted words in any case ("Eu" and "eu" for "eu"), the one written as quoted.
  const asQuoted = intent.quoted === undefined ? [] : tied.filter((c) => c.n.name.trim() === intent.quoted!.trim());
  if (asQuoted.length === 1 && tied.length > 1 && intent.ordinal === undefined && !intent.any && tied.every((c) => exactMatch(c.n.name, intent.quoted!)))
    tied = asQuoted;
  // Only a kind was given ("the text field", "the 3rd input", "a checkbox"): the kind decides.
  const kindOnly = !intent.target && intent.quoted === undefined;
  if (intent.size && tied.length > 1) {
    // The smallest or largest of equal matches, when the outline gives sizes and one stands out.
    const area = (n: OutlineNode) => {
      const m = /^(\d+)x(\d+)$/.exec(String(n.states.size ?? ''));
      return m ? Number(m[1]) * Number(m[2]) : NaN;
    };
    const sized = tied.filter((c) => !Number.isNaN(area(c.n))).sort((a, b) => (intent.size === 'small' ? area(a.n) - area(b.n) : area(b.n) - area(a.n)));
    if (sized.length !== tied.length || area(sized[0].n) === area(sized[1].n))
      throw new Refusal(
        `it asks for the ${intent.size === 'small' ? 'smallest' : 'largest'} of ${tied.map((c) => shown(c.n)).join(', ')}, and their sizes do not settle it`,
      );
    tied = [sized[0]];
  }
  if (intent.ordinal === undefined && tied.length > 1 && tied.every((c) => twins(c.n, tied[0].n))) {
    // A twin set inside a sentence ("Click on the ▇ colored box.") illustrates the words; the one standing alone is the control.
    const alone = tied.filter((c) => !inSentence(c.n));
    if (alone.length) tied = alone;
  }
  let chosen = tied[0];
  let confidence = top;
  if (intent.ordinal !== undefined) {
    const k = intent.ordinal === 'last' ? tied.length - 1 : intent.ordinal - 1;
    if (!tied[k]) return null;
    chosen = tied[k];
    // Counting over a page shown in part: what a summary line stands for, before the pick (or after the
    // last), may hold more of them. The whole page may settle it; this view cannot. Lines with the words
    // of a named target are kept from folding (render.ts), so for one only a list folded in place counts,
    // when it is that list's items being counted; for a kind alone ("the third link"), any omission does,
    // a list folded in place when one counted is in it.
    const at = chosen.n.index;
    const counts = (s: OutlineNode) => (s.states.fold !== 'items' ? kindOnly : tied.filter((c) => isInside(c.n, s.parent!)).length >= (kindOnly ? 1 : 2));
    const gap = omissionsOf(chosen.n).find((s) => (intent.ordinal === 'last' ? s.index > at : s.index < at) && counts(s));
    if (gap !== undefined) {
      throw new Refusal(
        `it counts ${intent.ordinal === 'last' ? 'to the last' : `to number ${intent.ordinal}`} of them, and part of the page is left out of this view`,
      );
    }
    if (kindOnly) confidence = 0.9;
  } else if (tied.length > 1) {
    // Twins (two "yes" buttons in one dialog) differ in nothing a person could name: the first
    // in reading order is what anyone would press, and the result says so. Rows that differ by
    // their text ("Delete" in each row) are not twins.
    // Only when the words name them fully: "the button in the middle" left unread is no licence to take the first.
    if (!intent.any && top >= 0.85 && !intent.context && tied.length <= TWINS_MAX && tied.every((c) => twins(c.n, tied[0].n))) {
      return {
        node: tied[0].n,
        method: 'click',
        args: [],
        confidence: top,
        description: `${tied[0].n.name || tied[0].n.role} ${tied[0].n.role} (the first of ${tied.length} identical ones)`,
      };
    }
    if (!intent.any) {
      throw new Ambiguity(
        `${tied.length} elements fit it equally well: ${tied
          .slice(0, 5)
          .map((c) => shown(c.n))
          .join(', ')}${tied.length > 5 ? ` and ${tied.length - 5} more` : ''}; say which one (its position, like "the second", or the text next to it)`,
      );
    }
    if (kindOnly) confidence = 0.85;
  } else if (kindOnly) {
    confidence = 0.9; // the only element of its kind
  } else if (scored[1]) {
    confidence = Math.min(top, 0.5 + (top - scored[1].s));
    confidence = Math.max(confidence, top - 0.15);
  }
  if (confidence < 0.6) return null;
  return { node: chosen.n, method: 'click', args: [], confidence, description: `${chosen.n.name || chosen.n.role} ${chosen.n.role}`.trim() };
}

/** What tells an element apart: its role, name and states, and every container it sits in with its words. */
function signature(n: OutlineNode): string {
  const { offscreen: _o, ...states } = n.states;
  const parts = [`${n.role}|${n.name}|${JSON.stringify(states)}`];
  // The items it sits in, with their words; the landmark it sits in (a header's "Subscribe" is not
  // the footer's), except inside a dialog, whose parts (its body, its footer) are all one question.
  const inDialog = hasAncestor(n, DIALOGS);
  for (let p = n.parent; p && p.role !== 'root'; p = p.parent) {
    if (TIGHT.has(p.role)) parts.push(`${p.role}|${p.name}|${textOf(p, 300)}`);
    else if (!inDialog && LANDMARK_ROLES.has(p.role)) parts.push(`${p.role}|${p.name}`);
  }
  return parts.join('\n');
}

const LANDMARK_ROLES = new Set([
  'banner',
  'contentinfo',
  'navigation',
  'main',
  'complementary',
  'region',
  'form',
  'search',
  'table',
  'list',
  'menu',
  'menubar',
  'toolbar',
  'tablist',
  'tabpanel',
]);

/** More look-alikes than this are a grid or a list, where which one is a position the instruction must give. */
const TWINS_MAX = 3;
const twins = (a: OutlineNode, b: OutlineNode): boolean => a === b || signature(a) === signature(b);

/** Between two pieces of one sentence: the text before runs on into it, and the text after goes on in lower case. */
function inSentence(n: OutlineNode): boolean {
  const sib = n.parent?.children ?? [];
  const i = sib.indexOf(n);
  const before = sib[i - 1];
  const after = sib[i + 1];
  return before?.role === 'text' && after?.role === 'text' && !/[.!?:;]\s*$/.test(before.name) && /^\s*[a-z]/.test(after.name);
}

/**
 * "The top-left cell": rows of a table, or a square run of like siblings (a 3 by 3 board).
 * One place in one grid, or a refusal.
 */
function gridPick(intent: Intent, candidates: OutlineNode[]): Pick | null {
  const want = intent.grid!;
  const at = (i: number, n: number, w: number | undefined) =>
    w === undefined || (w === 0 && i === 0) || (w === 2 && i === n - 1 && n > 1) || (w === 1 && n % 2 === 1 && i === (n - 1) / 2);
  const grids = new Map<OutlineNode, OutlineNode[][]>();
  for (const n of candidates) {
    const p = n.parent;
    if (!p) continue;
    if (p.role === 'row' && p.parent) {
      if (!grids.has(p.parent))
        grids.set(
          p.parent,
          p.parent.children
            .filter((r) => r.role === 'row')
            .map((r) => r.children.filter((c) => c.id))
            .filter((r) => r.length),
        );
    } else if (!grids.has(p)) {
      const run = p.children.filter((c) => c.id && c.role === n.role);
      const k = Math.round(Math.sqrt(run.length));
      if (k >= 2 && k * k === run.length)
        grids.set(
          p,
          Array.from({ length: k }, (_, r) => run.slice(r * k, r * k + k)),
        );
    }
  }
  const hits: OutlineNode[] = [];
  for (const rows of grids.values()) {
    rows.forEach((cells, r) => {
      if (!at(r, rows.length, want.row)) return;
      cells.forEach((c, i) => {
        if (at(i, cells.length, want.col) && candidates.includes(c)) hits.push(c);
      });
    });
  }
  if (hits.length !== 1)
    throw new Refusal(
      hits.length
        ? `${hits.length} elements sit in that place of a grid: ${hits
            .slice(0, 5)
            .map((n) => shown(n))
            .join(', ')}`
        : 'nothing on the page is laid out as a grid with that place',
    );
  const n = hits[0];
  return { node: n, method: 'click', args: [], confidence: 0.85, description: `${n.name || n.role} ${n.role}`.trim() };
}

export function describeIntent(instruction: string): string {
  return words(instruction, true).slice(0, 12).join(' ');
}
