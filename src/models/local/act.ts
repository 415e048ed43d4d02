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

const ROLE_WORDS: [RegExp, string[]][] = [
  [/\b(check ?box(es)?|tick ?box(es)?)\b/, ['checkbox', 'menuitemcheckbox']],
  [/\bradio( button)?s?\b/, ['radio', 'menuitemradio']],
  [/\b(drop ?-?down|select ?box|select|combo ?box|picker|list)\b/, ['combobox', 'listbox']],
  [/\bmenu ?items?\b/, ['menuitem', 'menuitemcheckbox', 'menuitemradio']],
  [/\btabs?\b/, ['tab']],
  [/\b(switch|toggle)\b/, ['switch', 'checkbox']],
  [/\b(links?|hyperlinks?|anchors?)\b/, ['link']],
  [/\b(buttons?|btn)\b/, ['button']],
  [/\b(text ?fields?|input ?fields?|input ?box(es)?|text ?box(es)?|text ?areas?|inputs?|fields?|box(es)?|bar|areas?)\b/, ['textbox', 'searchbox', 'spinbutton', 'combobox', 'slider']],
  [/\b(options?)\b/, ['option', 'radio']],
  [/\b(images?|icons?|pictures?|logos?)\b/, ['img', 'link', 'button']],
  [/\b(headings?|titles?)\b/, ['heading']],
  [/\brows?\b/, ['row']],
];

const CLICKABLE = new Set(['button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'checkbox', 'radio', 'switch', 'option', 'treeitem', 'combobox', 'img', 'row', 'listitem', 'heading', 'gridcell', 'searchbox', 'textbox', 'slider', 'spinbutton', 'listbox']);
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

  let m: RegExpExecArray | null;
  const target = (t: string, method: Method, value?: string): Intent => ({ method, value, ...describeTarget(t, quotes) });

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
  if ((m = /^(?:focus(?: on)?|put (?:the )?focus (?:on|in)|give focus to|tab to) (.+)$/i.exec(s))) return target(m[1], 'focus');
  if ((m = /^double[- ]?click(?: on)? (.+)$/i.exec(s))) return target(m[1], 'doubleClick');
  if ((m = /^right[- ]?click(?: on)? (.+)$/i.exec(s))) return target(m[1], 'rightClick');
  if ((m = /^(?:select|choose|pick) (.+)$/i.exec(s))) return target(m[1], 'click'); // resolved to an option, radio or click later
  if ((m = /^(?:click(?: on)?|press|tap(?: on)?|hit|open|follow|push|activate|go to|visit|navigate to|toggle|expand|collapse|submit)(?: on)? (.+)$/i.exec(s))) {
    return target(m[1], 'click');
  }
  if (/^(submit|go)$/i.test(s)) return target('submit', 'click');
  if (!VERBS.test(lower)) throw new Refusal('it does not start with an action it knows (click, type, select, check, hover, scroll, press, focus, clear)');
  throw new Refusal('its wording is beyond the local model');
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

function describeTarget(raw: string, quotes: string[]): Omit<Intent, 'method' | 'value'> {
  const split = describeOnce(raw, quotes, true);
  if (!split.context) return split;
  const whole = describeOnce(raw, quotes, false);
  return { ...split, whole: { target: whole.target, quoted: whole.quoted }, roles: split.roles ?? whole.roles };
}

function describeOnce(raw: string, quotes: string[], splitContext: boolean): Omit<Intent, 'method' | 'value'> {
  let t = ` ${raw.trim()} `;
  let context: string | undefined;
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
  const qm = /QQ(\d+)/.exec(t);
  const quoted = qm ? quotes[Number(qm[1])] : undefined;
  if (qm) t = t.replace(qm[0], ' ');
  let roles: Set<string> | null = null;
  const lower = t.toLowerCase();
  for (const [re, rs] of ROLE_WORDS) {
    if (re.test(lower)) {
      roles ??= new Set();
      rs.forEach((r) => roles!.add(r));
      t = t.replace(new RegExp(re.source, 'i'), ' ');
      break;
    }
  }
  const rest = unq(t, quotes).replace(/\b(the|a|an|on|labeled|labelled|named|called|that says|saying|with the text|with text)\b/gi, ' ').replace(/\s+/g, ' ').trim();
  return { target: rest, quoted, roles, ordinal, context };
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
  const alt = typeof node.states.placeholder === 'string' ? node.states.placeholder : typeof node.states.title === 'string' ? node.states.title : '';
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
  let candidates = nodes.filter((n) => n.id && roles.has(n.role));
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
  let pick = intent.whole ? bestOf({ ...intent, ...intent.whole, context: undefined }, candidates) : null;
  if (!pick || pick.confidence < 0.85) {
    const split = bestOf(intent, candidates);
    if (split && (!pick || split.confidence > pick.confidence)) pick = split;
  }
  if (!pick) throw new Refusal('no element matches it well enough');
  if (method === 'click' && pick.node && CHECKABLE.has(pick.node.role) && pick.node.role === 'radio') method = 'click';
  if (method === 'selectOption' && pick.node) value = optionsOf(pick.node).find((o) => exactMatch(o, value ?? '') || normalize(o) === normalize(value ?? '')) ?? value;
  return { ...pick, method, args: value !== undefined ? [value] : [] };
}

function bestOf(intent: Intent, candidates: OutlineNode[]): Pick | null {
  let scored = candidates.map((n) => ({ n, s: nameScore(n, intent) }));
  if (intent.context) {
    const inCtx = scored.filter((c) => inContext(c.n, intent.context!));
    if (!inCtx.length) return null;
    scored = inCtx;
  }
  if (intent.roles) scored = scored.map((c) => ({ ...c, s: intent.roles!.has(c.n.role) ? Math.min(1, c.s + 0.05) : c.s - 0.3 }));
  // Without a role word, controls beat text-like lines (a "Products" link over a "Products" heading).
  else scored = scored.map((c) => ({ ...c, s: PASSIVE.has(c.n.role) ? c.s - 0.15 : c.s }));
  scored = scored.filter((c) => c.s > 0.3).sort((a, b) => b.s - a.s || a.n.index - b.n.index);
  if (!scored.length) return null;
  const top = scored[0].s;
  const tied = scored.filter((c) => c.s >= top - 0.02).sort((a, b) => a.n.index - b.n.index);
  let chosen = scored[0];
  let confidence = top;
  if (intent.ordinal !== undefined) {
    const k = intent.ordinal === 'last' ? tied.length - 1 : intent.ordinal - 1;
    if (!tied[k]) return null;
    chosen = tied[k];
  } else if (tied.length > 1) {
    // Equally good matches and nothing to tell them apart: not confident.
    confidence = top * 0.5;
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
