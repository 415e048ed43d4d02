/**
 * Which elements can have generated content (a ::before or ::after given `content` by a rule),
 * so names read a pseudo-element's computed style only where a style sheet could give it words.
 * Asking the browser for a pseudo-element's style costs about what the element's own does, and
 * on a documentation page almost no element has any.
 *
 * Only the document's own style sheets are read, and only for its light-DOM elements: inside a
 * shadow root, and on a shadow host, `:host`, `::slotted` and `::part` rules come from sheets in
 * other scopes, so those elements are always read. Anything the sheets cannot say for sure makes
 * every element a maybe (read as before): a sheet that cannot be read (cross-origin), a nested or
 * `@scope` rule that mentions a pseudo-element, too many rules to match quickly, or a list of
 * selectors that does not parse.
 */

/** A selector list of the elements that may have generated content; null: any element may. */
type Maybe = string | null;

const PSEUDO = /::?(?:before|after)(?![\w-])/i;
/** Past this many rules, one `matches` per element costs more than the reads it saves (icon fonts give thousands). */
const MAX_RULES = 200;

/** `last`: the element last asked about and its answer (its ::before and ::after are asked about in turn). */
let memo: { maybe: Maybe; last: Element | null; answer: boolean } | null = null;

/** Whether `el` may have a ::before or ::after with content; false only when no rule of the document could give it one. */
export function mayHaveGenerated(el: Element): boolean {
  if (!memo) {
    memo = { maybe: generatedSubjects(), last: null, answer: true };
    // Good for the synchronous work under way (one walk): style sheets change without DOM mutations.
    queueMicrotask(() => (memo = null));
  }
  if (memo.maybe === null) return true;
  if (memo.last === el) return memo.answer;
  let answer = true;
  if (!el.shadowRoot && el.getRootNode() === document) {
    try {
      answer = memo.maybe !== '' && el.matches(memo.maybe);
    } catch {
      memo.maybe = null;
    }
  }
  memo.last = el;
  memo.answer = answer;
  return answer;
}

/** The subjects of the document's rules that give a ::before or ::after content, as one selector list ('' for none). */
function generatedSubjects(): Maybe {
  const out: string[] = [];
  try {
    for (const sheet of [...Array.from(document.styleSheets), ...document.adoptedStyleSheets]) {
      if (!collect(sheet.cssRules, out) || out.length > MAX_RULES) return null;
    }
  } catch {
    return null; // a cross-origin sheet: its rules cannot be read
  }
  const list = out.join(', ');
  if (!list) return '';
  try {
    document.documentElement.matches(list);
  } catch {
    return null;
  }
  return list;
}

/** Adds the subjects of `rules` to `out`; false when they cannot be told. */
function collect(rules: CSSRuleList, out: string[]): boolean {
  for (const r of Array.from(rules)) {
    if (r instanceof CSSStyleRule) {
      // A nested rule's selector is relative to its parent's: not worked out.
      if (r.cssRules.length && mentionsPseudo(r.cssRules)) return false;
      if (PSEUDO.test(r.selectorText) && r.style.getPropertyValue('content')) out.push(subject(r.selectorText));
    } else if (r instanceof CSSImportRule) {
      if (r.styleSheet && !collect(r.styleSheet.cssRules, out)) return false;
    } else if (r instanceof CSSKeyframesRule) {
      continue;
    } else if ('cssRules' in r) {
      // @media, @supports, @layer, @container: their rules count whatever the condition (a superset is safe).
      const inner = (r as CSSGroupingRule).cssRules;
      if (r.constructor.name === 'CSSScopeRule' && mentionsPseudo(inner)) return false;
      if (!collect(inner, out)) return false;
    }
  }
  return true;
}

function mentionsPseudo(rules: CSSRuleList): boolean {
  for (const r of Array.from(rules)) {
    if (r instanceof CSSStyleRule && PSEUDO.test(r.selectorText)) return true;
    if ('cssRules' in r && mentionsPseudo((r as CSSGroupingRule).cssRules)) return true;
  }
  return false;
}

/**
 * The element a selector's pseudo-element hangs on: `a.ext::after` is `a.ext:where(*)`, and a bare
 * `::before` is `:where(*)` (any element). Quoted strings are copied as they are.
 */
function subject(selector: string): string {
  let out = '';
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '\\') {
      out += selector.slice(i, i + 2); // an escaped character (Tailwind's `.before\:x`) is part of a name
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < selector.length && selector[j] !== c) j += selector[j] === '\\' ? 2 : 1;
      out += selector.slice(i, j + 1);
      i = j;
      continue;
    }
    const m = c === ':' ? /^::?(?:before|after)(?![\w-])/i.exec(selector.slice(i)) : null;
    if (m) {
      out += ':where(*)';
      i += m[0].length - 1;
      continue;
    }
    out += c;
  }
  return out;
}
