/**
 * The local model's reading of one-step instructions: a verb that picks the method,
 * a value, and a target described by text, role words, ordinals and nearby text.
 * Candidates are scored against the outline; too little confidence is a refusal.
 */
import { optionsOf, textOf, type OutlineNode } from './outline';
import { canonical, coverage, exactMatch, normalize, similarity, words } from './text';

export type Method =
  | 'click' | 'doubleClick' | 'rightClick' | 'hover' | 'fill' | 'type' | 'press' | 'selectOption' | 'check' | 'uncheck'
  | 'scrollTo' | 'scrollIntoView' | 'nextChunk' | 'prevChunk' | 'focus';

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
  /** "a checkbox", "any link": every match will do, the first is as good as another. */
  any?: boolean;
  /** Text fields only ("text" widget) or multi-line ones only ("textarea"). */
  multiline?: boolean;
  /** "the small circle", "a large digit": the extreme size among equal matches. */
  size?: 'small' | 'large';
  /** "a digit", "a letter": names that are one. */
  glyph?: 'digit' | 'letter';
}

export interface Pick {
  node: OutlineNode | null; // null: the page itself
  method: Method;
  args: string[];
  confidence: number;
  description: string;
}

const KEY_NAMES = /^(enter|return|tab|escape|esc|space|spacebar|backspace|delete|del|home|end|pageup|page up|pagedown|page down|arrowup|arrowdown|arrowleft|arrowright|up|down|left|right|up arrow|down arrow|left arrow|right arrow|f\d{1,2}|insert)$/;
const MODIFIER = /^(ctrl|control|alt|option|shift|cmd|command|meta)$/;

const FIELD_WORDS = /\b(text ?fields?|input ?fields?|input ?box(es)?|text ?box(es)?|text ?areas?|inputs?|fields?|box(es)?|bar|areas?)\b/;
/** Field words that mean a text field whatever the verb. */
const FIELD_WORDS_STRICT = /\b(text ?fields?|input ?fields?|input ?box(es)?|text ?box(es)?|text ?areas?|inputs?|fields?|search ?(box|bar)|text ?entry)\b/;
/** Words for a field that holds free text (a select is a field, not a text box). */
const TEXT_FIELD_WORDS = /\b(text ?fields?|text ?inputs?|input ?text ?box(es)?|input ?box(es)?|text ?box(es)?|text ?areas?|text ?entry)\b/;
const ROLE_WORDS: [RegExp, string[]][] = [
  [TEXT_FIELD_WORDS, ['textbox', 'searchbox']],
  [/\b(check ?box(es)?|tick ?box(es)?)\b/, ['checkbox', 'menuitemcheckbox']],
  [/\bradio( button)?s?\b/, ['radio', 'menuitemradio']],
  [/\b(drop ?-?down|select ?box|select|combo ?box|picker|list)\b/, ['combobox', 'listbox']],
  [/\bmenu ?items?\b/, ['menuitem', 'menuitemcheckbox', 'menuitemradio', 'clickable']],
  [/\btabs?\b/, ['tab', 'clickable']],
  [/\b(switch|toggle)\b/, ['switch', 'checkbox']],
  [/\b(links?|hyperlinks?|anchors?)\b/, ['link', 'clickable']],
  [/\b(buttons?|btn)\b/, ['button', 'clickable']],
  [FIELD_WORDS, ['textbox', 'searchbox', 'spinbutton', 'combobox', 'slider']],
  [/\b(options?)\b/, ['option', 'radio']],
  [/\b(images?|icons?|pictures?|logos?)\b/, ['img', 'link', 'button', 'clickable']],
  [/\b(cells?|squares?|slots?)\b/, ['cell', 'gridcell', 'clickable']],
  [/\b(headings?|titles?)\b/, ['heading']],
  [/\brows?\b/, ['row']],
];

const CLICKABLE = new Set(['clickable', 'cell', 'button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'checkbox', 'radio', 'switch', 'option', 'treeitem', 'combobox', 'img', 'row', 'listitem', 'heading', 'gridcell', 'searchbox', 'textbox', 'slider', 'spinbutton', 'listbox']);
const FILLABLE = new Set(['textbox', 'searchbox', 'spinbutton', 'combobox', 'slider']);
const PASSIVE = new Set(['heading', 'row', 'listitem', 'img', 'gridcell']);
const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
const SELECTABLE = new Set(['combobox', 'listbox']);
const ORDINALS: Record<string, number | 'last'> = {
  first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, fifth: 5, '5th': 5, sixth: 6, '6th': 6,
  seventh: 7, '7th': 7, eighth: 8, '8th': 8, ninth: 9, '9th': 9, tenth: 10, '10th': 10, last: 'last', final: 'last', top: 1,
  topmost: 1, bottom: 'last', bottommost: 'last',
};
const VERBS = /^(click|press|tap|hit|choose|open|follow|push|activate|select|pick|type|enter|fill|write|input|put|set|check|tick|uncheck|untick|mark|unmark|hover|scroll|focus|clear|double|right|go|visit|navigate|toggle|turn|switch|enable|disable|expand|collapse|submit|empty|erase)\b/;

export class Refusal extends Error {}

/** Pull out quoted strings, replacing each with a marker. */
function takeQuotes(s: string): { text: string; quotes: string[] } {
  const quotes: string[] = [];
  const text = s.replace(/"([^"]*)"|“([^”]*)”|'([^']+)'(?=\s|$|[.,;:!?])|‘([^’]*)’/g, (_m, a, b, c, d) => {
    quotes.push(a ?? b ?? c ?? d ?? '');
    return ` QQ${quotes.length - 1} `;
  });
  return { text: text.replace(/\s+/g, ' ').trim(), quotes };
}

const unq = (s: string, quotes: string[]) => s.replace(/QQ(\d+)/g, (_m, i) => quotes[Number(i)]);

export function parseIntent(instruction: string): Intent {
  const { text, quotes } = takeQuotes(instruction.trim().replace(/[.!]+$/, ''));
  let s = text.replace(/^(please |now |then |kindly |can you |could you |go ahead and |i want to |i'd like to )+/i, '').trim();
  const lower = s.toLowerCase();
  // Several steps in one instruction are for a larger model.
  if (/\b(and then|then|after that|afterwards|followed by)\b/.test(lower.replace(/^then /, '')) || /,\s*(then\s+)?(click|type|press|select|check|fill|open|enter)\b/.test(lower) || / and (click|type|press|select|check|uncheck|fill|open|enter|submit|hover|scroll)\b/.test(lower)) {
    throw new Refusal('it has several steps');
  }
  if (/\b(if|unless|until|while|each|every|all of|wait)\b/.test(lower)) throw new Refusal('it has conditions or repetition');
  s = rephrase(s);

  let m: RegExpExecArray | null;
  const target = (t: string, method: Method, value?: string): Intent => ({ method, value, ...describeTarget(t, quotes, method) });

  // Scrolling.
  if ((m = /^scroll(?: the page| page)?(?: (up|down))?(?: (?:to|until) (?:the )?(top|bottom|end|start|beginning)(?: of the page)?)?(?: (?:to|until you see|until) (.+))?$/i.exec(s))) {
    const [, dir, edge, to] = m;
    if (edge) return { method: 'scrollTo', value: /top|start|beginning/i.test(edge) ? '0' : '100', target: '', roles: null, pageLevel: true };
    if (to) return target(to, 'scrollIntoView');
    if (dir) return { method: dir.toLowerCase() === 'up' ? 'prevChunk' : 'nextChunk', target: '', roles: null, pageLevel: true };
  }
  if ((m = /^scroll (?:to )?(?:the )?(top|bottom)(?: of the page)?$/i.exec(s))) {
    return { method: 'scrollTo', value: m[1].toLowerCase() === 'top' ? '0' : '100', target: '', roles: null, pageLevel: true };
  }
  // Keys: "press Enter", "hit ctrl+a in the search box".
  if ((m = /^(?:press|hit|tap|type|send)(?: the)? (.+?)(?: key| keys)?(?: (?:in|on|into|inside) (.+))?$/i.exec(s))) {
    const key = keyName(unq(m[1], quotes));
    if (key) {
      if (m[2]) return { ...target(m[2], 'press', key) };
      return { method: 'press', value: key, target: '', roles: null, pageLevel: true };
    }
  }
  // Text entry: "type Q into X", "enter Q in X", "fill X with Q", "set X to Q".
  if ((m = /^(type|enter|write|input|put|key in|fill in|fill|insert|paste) (QQ\d+|.+?) (?:into|in|inside|to|onto|on|as) (?:the )?(.+)$/i.exec(s))) {
    return target(m[3], /^type$/i.test(m[1]) ? 'type' : 'fill', unq(m[2], quotes));
  }
  if ((m = /^(?:fill(?: in| out)?|complete|set|change|update) (?:the )?(.+?) (?:with|to|as|using) (QQ\d+|.+)$/i.exec(s))) {
    return target(m[1], 'fill', unq(m[2], quotes));
  }
  // Options: "select Q from X", "pick X in the Y dropdown".
  if ((m = /^(?:select|pick|choose|set) (QQ\d+|.+?) (?:in|from|on|for|as)(?: the)? (.+)$/i.exec(s))) {
    return { ...target(m[2], 'selectOption', unq(m[1], quotes)) };
  }
  // Clearing a field (or a checkbox).
  if ((m = /^(?:clear|empty|erase|delete the text in|remove the text (?:from|in)) (?:out )?(?:the )?(.+)$/i.exec(s))) return target(m[1], 'fill', '');
  if ((m = /^(?:uncheck|untick|unmark|unselect|deselect|disable|turn off|switch off|opt out of) (.+)$/i.exec(s))) return target(m[1], 'uncheck');
  if ((m = /^(?:check|tick|mark|enable|turn on|switch on|opt in to|opt into) (.+)$/i.exec(s))) return target(m[1], 'check');
  if ((m = /^(?:hover(?: over| on)?|mouse over|mouseover|point (?:at|to)|move (?:the )?(?:mouse|pointer|cursor) (?:over|to|onto)) (.+)$/i.exec(s))) return target(m[1], 'hover');
  if ((m = /^(?:focus(?: on| into| in| to)?|put (?:the )?focus (?:on|in|into)|give focus to|tab to|place (?:the )?cursor in(?:to)?) (.+)$/i.exec(s))) return target(m[1], 'focus');
  if ((m = /^double[- ]?click(?: on)? (.+)$/i.exec(s))) return target(m[1], 'doubleClick');
  if ((m = /^right[- ]?click(?: on)? (.+)$/i.exec(s))) return target(m[1], 'rightClick');
  if ((m = /^(?:select|choose|pick) (.+)$/i.exec(s))) return target(m[1], 'click'); // resolved to an option, radio or click later
  if ((m = /^(?:click(?: on)?|press|tap(?: on)?|hit|open|follow|push|activate|go to|visit|navigate to|toggle|expand|collapse|submit)(?: on)? (.+)$/i.exec(s))) {
    return target(m[1], 'click');
  }
  if (/^(submit|go)$/i.test(s)) return target('submit', 'click');
  // A target with no verb ("the button labeled Submit", "a checkbox widget") is one to click.
  if (/^(?:the|a|an|any) /i.test(s) || /^QQ\d+$/.test(s)) return target(s, 'click');
  // No verb, a kind at the end: "Next button", "Terms link".
  if (!VERBS.test(lower) && /\b(button|link|tab|checkbox|radio|icon|menu item)$/i.test(s)) return target(s, 'click');
  if (!VERBS.test(lower)) throw new Refusal('it does not start with an action it knows (click, type, select, check, hover, scroll, press, focus, clear)');
  throw new Refusal('its wording is beyond the local model');
}

/** Container words that scope a target to an element of that kind ("in the dialog"). */
const SCOPES: [RegExp, string[]][] = [
  [/^(?:dialog|modal|pop-?up|popup|dialog box|modal (?:dialog|window)|alert|lightbox|overlay)$/i, ['dialog', 'alertdialog']],
  [/^(?:form)$/i, ['form']],
  [/^(?:nav|navigation|nav ?bar|navigation bar|top menu|main menu)$/i, ['navigation', 'menubar']],
  [/^(?:toolbar|tool bar)$/i, ['toolbar']],
  [/^(?:menu)$/i, ['menu', 'menubar']],
  [/^(?:side ?bar)$/i, ['complementary', 'navigation']],
  [/^(?:table|grid)$/i, ['table', 'grid', 'treegrid']],
];

function scopeOf(words: string): Set<string> | undefined {
  const w = words.trim().replace(/^(?:the|this|that) /i, '');
  for (const [re, roles] of SCOPES) if (re.test(w)) return new Set(roles);
  return undefined;
}

/**
 * Instructions that put the purpose first or the verb last, rewritten verb first:
 * "Close the dialog by clicking the x" → "click the x in the dialog";
 * "Submit button, please click it" → "click Submit button".
 */
function rephrase(s: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^(.+?),? by (?:clicking|pressing|tapping|hitting|selecting|choosing|using)(?: on)? (.+)$/i.exec(s))) {
    const purpose = / (?:the |this |that )?((?:dialog|modal|pop-?up|popup|form|menu|toolbar|alert)(?: box| window)?)$/i.exec(` ${m[1]}`);
    return `click ${m[2]}${purpose ? ` in the ${purpose[1]}` : ''}`;
  }
  if ((m = /^(.+?),? (?:please |now |then )?(?:click|press|tap|hit|select|choose)(?: on)? (?:it|that|this|that one|this one)$/i.exec(s))) return `click ${m[1]}`;
  // "click into the comment box": into a field.
  if ((m = /^click (?:into|inside|in) (?:the |a |an )?(.+?)(?: (?:box|area|field))?$/i.exec(s))) return `click ${m[1]} text field`;
  // "close the dialog", "dismiss the cookie banner": the close control of that thing.
  if ((m = /^(?:close|dismiss|hide|exit|shut)(?: the| this| that)? (.+)$/i.exec(s)) && !/\b(button|link|icon|x)\b|QQ\d/i.test(m[1])) {
    return scopeOf(m[1]) ? `click close in the ${m[1]}` : `click close for ${m[1]}`;
  }
  if ((m = /^switch (?:to|over to) (.+)$/i.exec(s))) return `click ${m[1]}`;
  return s;
}

function keyName(raw: string): string | null {
  const t = raw.trim().toLowerCase().replace(/\s*\+\s*/g, '+');
  const parts = t.split('+');
  const last = parts[parts.length - 1];
  const mods = parts.slice(0, -1);
  if (!mods.every((p) => MODIFIER.test(p))) return null;
  const isKey = KEY_NAMES.test(last) || (mods.length > 0 && /^[a-z0-9]$/.test(last));
  if (!isKey) return null;
  const name: Record<string, string> = {
    return: 'Enter', esc: 'Escape', del: 'Delete', spacebar: 'Space', 'page up': 'PageUp', 'page down': 'PageDown', pageup: 'PageUp', pagedown: 'PageDown',
    up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight', 'up arrow': 'ArrowUp', 'down arrow': 'ArrowDown', 'left arrow': 'ArrowLeft', 'right arrow': 'ArrowRight',
    arrowup: 'ArrowUp', arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight',
  };
  const keyOut = name[last] ?? (last.length === 1 ? (mods.length ? last.toUpperCase() : last) : last.replace(/^./, (c) => c.toUpperCase()));
  const modOut = mods.map((p) => ({ ctrl: 'Control', control: 'Control', alt: 'Alt', option: 'Alt', shift: 'Shift', cmd: 'Meta', command: 'Meta', meta: 'Meta' })[p]!);
  return [...modOut, keyOut].join('+');
}

const CONTAINER_WORDS = /\b(card|row|item|section|entry|box|panel|tile|list|table|column|line|product|record|area|block)s?\b/gi;

function describeTarget(raw: string, quotes: string[], method: Method): Omit<Intent, 'method' | 'value'> {
  const split = describeOnce(raw, quotes, true, method);
  if (!split.context) return split;
  const whole = describeOnce(raw, quotes, false, method);
  // A kind named in the nearby text ("in the row for Bob") is where the target is, not what it is.
  return { ...split, whole: { target: whole.target, quoted: whole.quoted } };
}

/** A quoted word that names a kind of widget ('click on a "text" widget'), with what it means. */
const QUOTE_KINDS: Record<string, { roles: string[]; multiline?: boolean }> = {
  text: { roles: ['textbox'], multiline: false }, textbox: { roles: ['textbox'], multiline: false }, input: { roles: ['textbox', 'searchbox'] },
  textarea: { roles: ['textbox'], multiline: true }, checkbox: { roles: ['checkbox'] }, radio: { roles: ['radio'] },
  button: { roles: ['button'] }, link: { roles: ['link'] }, select: { roles: ['combobox', 'listbox'] }, dropdown: { roles: ['combobox', 'listbox'] },
  slider: { roles: ['slider'] }, search: { roles: ['searchbox'] }, tab: { roles: ['tab'] },
};
/** Words that say what kind of thing a target is without helping to find it. */
const NOISE = /\b(widgets?|elements?|controls?|things?|objects?|ones?|colou?red|colou?rs?|shaped|digits?|letters?|characters?|symbols?|numbers?|box(es)?|swatch(es)?|items?|tiles?|shapes?|entries|entry)\b/gi;
const SAID = / (?:labeled|labelled|named|called|titled|that says|which says|saying|that reads|reading|with the (?:text|label|caption|title|word)|with text|marked|captioned) (.+?) $/i;

function describeOnce(raw: string, quotes: string[], splitContext: boolean, method: Method): Omit<Intent, 'method' | 'value'> {
  let t = ` ${raw.trim()} `;
  let context: string | undefined;
  let within: Set<string> | undefined;
  // A container kind: "in the dialog", "inside the modal box".
  const scope = / (?:in|inside|within|on|of|from) (?:the |this |that )?([a-z -]+?) $/i.exec(t);
  if (scope && scopeOf(scope[1])) {
    within = scopeOf(scope[1]);
    t = t.slice(0, scope.index) + ' ';
  }
  // Nearby text: "in the row for Alice", "next to Bob", "for the Pro plan".
  const ctx = / (?:in|inside|within|under|on|of|from|for|next to|beside|near|by|belonging to|that belongs to) (?:the )?(?:(?:row|item|card|entry|line|section|list item|record|user|product|column) )?(?:for|of|with|containing|about|labeled|labelled|named|called|that says|saying)? ?(.+?) $/i.exec(t);
  if (splitContext && ctx && !/^(page|form|screen|top|bottom|header|footer)$/i.test(ctx[1].trim())) {
    context = unq(ctx[1], quotes).replace(CONTAINER_WORDS, ' ').replace(/\s+/g, ' ').trim() || undefined;
    if (context) t = t.slice(0, ctx.index) + ' ';
  }
  let ordinal: number | 'last' | undefined;
  t = t.replace(/ (?:the )?(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|sixth|6th|seventh|7th|eighth|8th|ninth|9th|tenth|10th|last|final|top|topmost|bottom|bottommost)(?: one)? /i, (_m, w: string) => {
    ordinal = ORDINALS[w.toLowerCase()];
    return ' ';
  });
  // "a checkbox", "any link": one of several is fine. "A" alone may be a name ("click A").
  let any = false;
  let size: 'small' | 'large' | undefined;
  t = t.replace(/ (small|smaller|smallest|tiny|little|large|larger|largest|big|bigger|biggest|huge) /i, (_m, w: string) => {
    size = /^(small|smaller|smallest|tiny|little)$/i.test(w) ? 'small' : 'large';
    return ' ';
  });
  const glyph = /\b(digits?|numbers?|numerals?)\b/i.test(t) && !/\d/.test(t) ? 'digit' : /\bletters?\b/i.test(t) ? 'letter' : undefined;
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
    const pointing = method === 'click' || method === 'hover' || method === 'doubleClick' || method === 'rightClick';
    for (const [re, rs] of ROLE_WORDS) {
      if (pointing && re === FIELD_WORDS && !FIELD_WORDS_STRICT.test(lower)) continue;
      if (re === TEXT_FIELD_WORDS && /\b(text ?areas?)\b/.test(lower)) multiline = true;
      if (re.test(lower)) {
        roles = new Set(rs);
        t = t.replace(new RegExp(re.source, 'gi'), ' ');
        if (/text ?areas?/i.test(lower)) multiline = true;
        break;
      }
    }
  }
  let rest = unq(t, quotes).replace(/\b(the|a|an|on|labeled|labelled|named|called|that says|saying|with the text|with text)\b/gi, ' ').replace(/\s+/g, ' ').trim();
  const plain = rest.replace(NOISE, ' ').replace(/\s+/g, ' ').trim();
  if (plain || quoted !== undefined || roles) rest = plain;
  return { target: rest, quoted, roles, ordinal, context, within, any, multiline, size, glyph };
}

function allowedRoles(method: Method): Set<string> {
  if (method === 'fill' || method === 'type') return FILLABLE;
  if (method === 'check' || method === 'uncheck') return CHECKABLE;
  if (method === 'selectOption') return SELECTABLE;
  if (method === 'press' || method === 'focus') return new Set([...FILLABLE, ...CLICKABLE]);
  return CLICKABLE;
}

function nameScore(node: OutlineNode, intent: Intent): number {
  const name = node.name || (typeof node.states.placeholder === 'string' ? node.states.placeholder : '');
  const alt =
    typeof node.states.placeholder === 'string' ? node.states.placeholder
    : typeof node.states.title === 'string' ? node.states.title
    : typeof node.states.fill === 'string' ? `${node.states.fill} ${node.name}` : '';
  const href = typeof node.states.href === 'string' ? node.states.href.replace(/[/?=&#._-]+/g, ' ') : '';
  let best = 0;
  if (intent.quoted !== undefined) {
    const q = intent.quoted;
    for (const cand of [name, alt]) {
      if (!cand) continue;
      if (cand.trim() === q.trim()) best = Math.max(best, 1);
      else if (exactMatch(cand, q)) best = Math.max(best, 0.97);
      else if (` ${canonical(cand)} `.includes(` ${canonical(q)} `)) best = Math.max(best, 0.85);
      else best = Math.max(best, 0.7 * similarity(q, cand));
    }
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
  if (href) best = Math.max(best, 0.6 * similarity(intent.target, href));
  // A radio or checkbox is also known by its group: "the Pro plan" is radio "Pro" in group "Plan".
  const group = groupName(node);
  if (group && name) best = Math.max(best, similarity(intent.target, `${name} ${group}`) - 0.05);
  // Target words that name the role ("login form field") do not count against a match.
  return best;
}

function groupName(node: OutlineNode): string {
  for (let p = node.parent; p; p = p.parent) {
    if ((p.role === 'group' || p.role === 'radiogroup' || p.role === 'menu' || p.role === 'tablist' || p.role === 'listbox') && p.name) return p.name;
    if (p.role === 'form' || p.role === 'main') break;
  }
  return '';
}

const CONTAINERS = new Set(['row', 'listitem', 'article', 'group', 'region', 'dialog', 'alertdialog', 'figure', 'treeitem', 'menu', 'navigation', 'banner', 'contentinfo', 'complementary', 'form', 'tabpanel', 'search']);

/** Whether the element sits in the nearest container (row, item, card, section) that mentions `context`, or right next to such text. */
function inContext(node: OutlineNode, context: string): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (CONTAINERS.has(p.role)) {
      if (coverage(context, textOf(p, 600)) >= 0.99) return true;
      // A row or item that does not mention it settles the question; a form or region may sit in a larger one.
      if (p.role === 'row' || p.role === 'listitem' || p.role === 'article' || p.role === 'treeitem' || p.role === 'option') break;
    }
  }
  // Or a line right before or after it (a label or text next to the element).
  const sibs = node.parent?.children ?? [];
  const i = sibs.indexOf(node);
  for (const s of sibs.slice(Math.max(0, i - 2), i + 2)) if (s !== node && coverage(context, s.name) >= 0.99) return true;
  return false;
}

export function choose(intentIn: Intent, nodes: OutlineNode[]): Pick {
  let intent = intentIn;
  if (intent.pageLevel) {
    return { node: null, method: intent.method, args: intent.value !== undefined ? [intent.value] : [], confidence: 0.95, description: intent.method === 'press' ? `${intent.value} key` : 'the page' };
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
  if (intent.multiline !== undefined) candidates = candidates.filter((n) => !FILLABLE.has(n.role) || (n.states.multiline === true) === intent.multiline);
  if (intent.glyph) candidates = candidates.filter((n) => (intent.glyph === 'digit' ? /^\d$/ : /^[a-z]$/i).test(n.name.trim()));
  if (intent.within) {
    // "in the dialog": only what sits in one; a page without such a container keeps every candidate.
    const inside = candidates.filter((n) => hasAncestor(n, intent.within!));
    if (inside.length) candidates = inside;
  }
  if (method === 'selectOption') {
    // The option must exist in the select; "select Pro plan" may also mean a radio.
    const withOption = candidates.filter((n) => optionsOf(n).some((o) => exactMatch(o, value ?? '') || normalize(o) === normalize(value ?? '')));
    if (withOption.length) candidates = withOption;
    else {
      const radios = nodes.filter((n) => n.id && CHECKABLE.has(n.role));
      const r = bestOf({ ...intent, target: value ?? '', quoted: value, context: intent.target }, radios);
      if (r) return { ...r, method: 'check', args: [] };
      throw new Refusal(`no select offers the option "${value}"`);
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
  let pick = intent.whole ? attempt({ ...intent, ...intent.whole, context: undefined }) : null;
  if (!pick || pick.confidence < 0.85) {
    const split = attempt(intent);
    if (split && (!pick || split.confidence > pick.confidence)) pick = split;
  }
  if (!pick && tie) throw tie;
  if (!pick) throw new Refusal(`no element matches it well enough${lookedFor(intent, candidates)}`);
  if (method === 'click' && pick.node && CHECKABLE.has(pick.node.role) && pick.node.role === 'radio') method = 'click';
  if (method === 'selectOption' && pick.node) value = optionsOf(pick.node).find((o) => exactMatch(o, value ?? '') || normalize(o) === normalize(value ?? '')) ?? value;
  return { ...pick, method, args: value !== undefined ? [value] : [] };
}

function hasAncestor(n: OutlineNode, roles: Set<string>): boolean {
  for (let p = n.parent; p; p = p.parent) if (roles.has(p.role)) return true;
  return false;
}

/** How a candidate is shown in a refusal: its id, role, name and the text around it. */
function shown(n: OutlineNode, score?: number): string {
  const near = n.parent && n.parent.role !== 'root' ? (n.parent.name || n.parent.children.find((c) => c !== n && c.role === 'text')?.name || '') : '';
  const around = near ? ` in ${n.parent!.role} "${near.slice(0, 40)}"` : '';
  return `[${n.id}] ${n.role}${n.name ? ` "${n.name.slice(0, 40)}"` : ''}${around}${score !== undefined ? ` (score ${score.toFixed(2)})` : ''}`;
}

/** What the reading looked for and the best candidates it weighed, for an honest refusal. */
function lookedFor(intent: Intent, candidates: OutlineNode[]): string {
  const what = [intent.roles ? [...intent.roles].join('/') : '', intent.quoted !== undefined ? `"${intent.quoted}"` : intent.target].filter(Boolean).join(' ');
  const best = candidates
    .map((n) => ({ n, s: nameScore(n, intent) }))
    .filter((c) => c.s > 0)
    .sort((a, b) => b.s - a.s)
    .slice(0, 3);
  return `; it looked for ${what || 'a target'}${best.length ? `; best candidates: ${best.map((c) => shown(c.n, c.s)).join(', ')}` : '; nothing on the page comes close'}`;
}

function bestOf(intent: Intent, candidates: OutlineNode[]): Pick | null {
  let scored = candidates.map((n) => ({ n, s: nameScore(n, intent) }));
  if (intent.context) {
    const inCtx = scored.filter((c) => inContext(c.n, intent.context!));
    if (!inCtx.length) return null;
    scored = inCtx;
  }
  // A span or div that takes clicks is how many pages make their links and buttons: it counts, a little below the real role.
  if (intent.roles) scored = scored.map((c) => ({ ...c, s: intent.roles!.has(c.n.role) ? Math.min(1, c.s + (c.n.role === 'clickable' ? 0.02 : 0.05)) : c.s - 0.3 }));
  // Without a role word, controls beat text-like lines (a "Products" link over a "Products" heading).
  else scored = scored.map((c) => ({ ...c, s: PASSIVE.has(c.n.role) && c.n.states.clickable !== true ? c.s - 0.15 : c.s }));
  // A clickable row or item is chosen by its own words, not by one cell's ("Delete" is the button in it).
  scored = scored.map((c) => ({ ...c, s: (c.n.role === 'row' || c.n.role === 'listitem') && !exactMatch(c.n.name, intent.quoted ?? intent.target) && c.n.children.some((k) => k.id) ? c.s - 0.3 : c.s }));
  scored = scored.filter((c) => c.s > 0.3).sort((a, b) => b.s - a.s || a.n.index - b.n.index);
  if (!scored.length) return null;
  const top = scored[0].s;
  let tied = scored.filter((c) => c.s >= top - 0.02).sort((a, b) => a.n.index - b.n.index);
  // Names tie: an enabled element beats a disabled one (hidden ones never reach the outline).
  const enabled = tied.filter((c) => c.n.states.disabled !== true);
  if (enabled.length && enabled.length < tied.length && intent.ordinal === undefined) tied = enabled;
  // Only a kind was given ("the text field", "the 3rd input", "a checkbox"): the kind decides.
  const kindOnly = !intent.target && intent.quoted === undefined;
  if (intent.size && tied.length > 1) {
    // The smallest or largest of equal matches, when the outline gives sizes and one stands out.
    const area = (n: OutlineNode) => {
      const m = /^(\d+)x(\d+)$/.exec(String(n.states.size ?? ''));
      return m ? Number(m[1]) * Number(m[2]) : NaN;
    };
    const sized = tied.filter((c) => !Number.isNaN(area(c.n))).sort((a, b) => (intent.size === 'small' ? area(a.n) - area(b.n) : area(b.n) - area(a.n)));
    if (sized.length !== tied.length || area(sized[0].n) === area(sized[1].n)) throw new Refusal(`it asks for the ${intent.size === 'small' ? 'smallest' : 'largest'} of ${tied.map((c) => shown(c.n)).join(', ')}, and their sizes do not settle it`);
    tied = [sized[0]];
  }
  let chosen = tied[0];
  let confidence = top;
  if (intent.ordinal !== undefined) {
    const k = intent.ordinal === 'last' ? tied.length - 1 : intent.ordinal - 1;
    if (!tied[k]) return null;
    chosen = tied[k];
    if (kindOnly) confidence = 0.9;
  } else if (tied.length > 1) {
    if (!intent.any) {
      throw new Refusal(`${tied.length} elements fit it equally well: ${tied.slice(0, 5).map((c) => shown(c.n)).join(', ')}${tied.length > 5 ? ` and ${tied.length - 5} more` : ''}; say which one (its position, like "the second", or the text next to it)`);
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

export function describeIntent(instruction: string): string {
  return words(instruction, true).slice(0, 12).join(' ');
}
