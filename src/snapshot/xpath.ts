/**
 * XPath helpers. Deckhand's selectors may cross into iframes and shadow roots: the
 * step after an iframe element continues in that frame's document, and the step
 * after a shadow host continues in its shadow root. The browser's XPath engine
 * cannot do either, so such paths are evaluated one location step at a time.
 */

export interface XPathStep {
  /** True for `//step` (descendant), false for `/step` (child). */
  descendant: boolean;
  expr: string;
}

/** Split an absolute location path into steps; null when it is not a plain path (unions, parentheses, functions). */
export function splitXPath(xpath: string): XPathStep[] | null {
  const s = xpath.trim();
  if (!s.startsWith('/')) return null;
  const steps: XPathStep[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] !== '/') return null;
    let descendant = false;
    i++;
    if (s[i] === '/') {
      descendant = true;
      i++;
    }
    let depth = 0;
    let quote: string | null = null;
    const start = i;
    for (; i < s.length; i++) {
      const ch = s[i];
      if (quote) {
        if (ch === quote) quote = null;
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '[' || ch === '(') depth++;
      else if (ch === ']' || ch === ')') depth--;
      else if (ch === '/' && depth === 0) break;
      else if (ch === '|' && depth === 0) return null;
    }
    if (quote || depth !== 0) return null;
    const expr = s.slice(start, i).trim();
    if (!expr) return null;
    steps.push({ descendant, expr });
  }
  return steps.length ? steps : null;
}

export function joinXPath(steps: XPathStep[]): string {
  return steps.map((st) => (st.descendant ? '//' : '/') + st.expr).join('');
}

/** An XPath string literal for any value (concat() when it holds both quote kinds). */
export function xpathLiteral(v: string): string {
  if (!v.includes("'")) return `'${v}'`;
  if (!v.includes('"')) return `"${v}"`;
  return `concat(${v
    .split("'")
    .map((p) => `'${p}'`)
    .join(`, "'", `)})`;
}

/** `tag[n]` or `tag`: the only step shapes that need manual evaluation at a shadow root's top level. */
export function parseSimpleStep(expr: string): { name: string; index: number | null } | null {
  const m = /^([A-Za-z*][\w.-]*)(?:\[(\d+)\])?$/.exec(expr);
  return m ? { name: m[1].toLowerCase(), index: m[2] ? Number(m[2]) : null } : null;
}

/** Selector syntax: `xpath=` prefix, or a leading `/` or `(`, means XPath; anything else is CSS. */
export function parseSelector(selector: string): { kind: 'xpath' | 'css'; value: string } {
  const s = selector.trim();
  if (s.startsWith('xpath=')) return { kind: 'xpath', value: s.slice(6).trim() };
  if (s.startsWith('css=')) return { kind: 'css', value: s.slice(4).trim() };
  if (s.startsWith('/') || s.startsWith('(')) return { kind: 'xpath', value: s };
  return { kind: 'css', value: s };
}
