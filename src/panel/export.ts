/**
 * Exporters for the side panel's manual QA recording: a Playwright test that
 * performs the same steps with ordinary Playwright locators, and a Node script
 * that replays the recorded Actions with Deckhand's client library (no model,
 * except for extract steps).
 *
 * Pure string generation: this module is bundled into the side panel page, so
 * it uses neither chrome.* nor node: APIs.
 */
import { keyDef } from '../engine/core/keys';
import type { Flow } from '../protocol/flows';
import type { QaRecording, QaStep } from '../protocol/panel';
import type { Action } from '../protocol/schemas';
import { joinXPath, parseSelector, splitXPath, type XPathStep } from '../snapshot/xpath';

// ---------------------------------------------------------------------------
// Quoting

/**
 * A JavaScript string literal for any text: single-quoted, or double-quoted when
 * that avoids escaping (XPath literals are full of single quotes).
 */
export function jsString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  // JSON escaping covers backslashes and control characters; then swap the quote kind.
  const body = JSON.stringify(s)
    .slice(1, -1)
    .replace(/\\(.)|'/g, (m, c: string | undefined) => (c === '"' ? (quote === '"' ? m : '"') : c !== undefined ? m : quote === "'" ? "\\'" : "'"));
  return quote + escapeLineSeparators(body) + quote;
}

/** U+2028/U+2029 are line terminators in comments and older engines; JSON leaves them raw. */
const escapeLineSeparators = (s: string): string => s.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

const VARIABLE = /%([A-Za-z0-9_-]+)%/g;

/**
 * A string expression for a recorded argument: a plain literal, or, when it holds
 * %name% placeholders, a template that reads each from the environment.
 */
function argExpr(s: string): string {
  if (!new RegExp(VARIABLE.source).test(s)) return jsString(s);
  let out = '';
  let last = 0;
  for (const m of s.matchAll(VARIABLE)) {
    out += templateText(s.slice(last, m.index)) + '${process.env[' + jsString(m[1]) + "] ?? ''}";
    last = m.index + m[0].length;
  }
  return '`' + out + templateText(s.slice(last)) + '`';
}

function templateText(s: string): string {
  const body = JSON.stringify(s)
    .slice(1, -1)
    .replace(/\\(.)|[`$]/g, (m, c: string | undefined) => (c === '"' ? '"' : c !== undefined ? m : '\\' + m));
  return escapeLineSeparators(body);
}

/** Text for a // comment: one line, whatever it holds. */
const oneLine = (s: string): string => s.replace(/[\r\n\u2028\u2029]+/g, ' ');
const commentText = (s: string): string => oneLine(s).trim();

/** A JSON value as a JavaScript expression (JSON.parse when a key would be read as a prototype). */
function jsonExpr(v: unknown, indent: string): string {
  const text = JSON.stringify(v, null, 2) ?? 'undefined';
  if (text.includes('"__proto__"')) return `JSON.parse(${jsString(JSON.stringify(v))})`;
  return escapeLineSeparators(text).replace(/\n/g, '\n' + indent);
}

/** A CSS string (double-quoted) for an attribute value. */
function cssString(s: string): string {
  return '"' + s.replace(/["\\]/g, '\\$&').replace(/[\0-\x1f\x7f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `) + '"';
}

// ---------------------------------------------------------------------------
// Selectors → Playwright locators

/** The value of an XPath string literal: '…', "…" or concat('…', "'", …); null for anything else. */
export function parseXPathLiteral(expr: string): string | null {
  const t = expr.trim();
  const simple = /^'([^']*)'$|^"([^"]*)"$/.exec(t);
  if (simple) return simple[1] ?? simple[2];
  const concat = /^concat\s*\((.*)\)$/s.exec(t);
  if (!concat) return null;
  const body = concat[1];
  const piece = /\s*(?:'([^']*)'|"([^"]*)")\s*/y;
  let out = '';
  let pos = 0;
  for (;;) {
    piece.lastIndex = pos;
    const p = piece.exec(body);
    if (!p) return null;
    out += p[1] ?? p[2];
    pos = piece.lastIndex;
    if (pos === body.length) return out;
    if (body[pos] !== ',') return null;
    pos++;
  }
}

const TEXT_ROLES: Record<string, string> = { button: 'button', a: 'link' };

/**
 * A Playwright locator call (".locator(…)", ".getByRole(…)") for one of Deckhand's
 * candidate XPaths (a single `//tag[predicate]` step); null when it is not one.
 */
function candidateCall(step: XPathStep): string | null {
  if (!step.descendant) return null;
  const m = /^(\*|[A-Za-z][\w.-]*)\[(.+)\]$/s.exec(step.expr);
  if (!m) return null;
  const [, tag, pred] = m;
  const cssTag = tag !== '*' && /^[A-Za-z][\w-]*$/.test(tag) ? tag.toLowerCase() : '';
  const exact = (fn: string, v: string) => `.${fn}(${jsString(v)}, { exact: true })`;

  const label = /^@id\s*=\s*\/\/label\[normalize-space\(\.\)\s*=\s*(.+)\]\/@for$/s.exec(pred);
  if (label) {
    const v = parseXPathLiteral(label[1]);
    return v === null ? null : exact('getByLabel', v);
  }
  const text = /^normalize-space\(\.\)\s*=\s*(.+)$/s.exec(pred);
  if (text) {
    const v = parseXPathLiteral(text[1]);
    if (v === null) return null;
    const heading = /^h([1-6])$/i.exec(tag);
    if (heading) return `.getByRole('heading', { name: ${jsString(v)}, exact: true, level: ${heading[1]} })`;
    const role = TEXT_ROLES[tag.toLowerCase()];
    if (role) return `.getByRole('${role}', { name: ${jsString(v)}, exact: true })`;
    return exact('getByText', v);
  }
  const attr = /^@([A-Za-z_][\w-]*)\s*=\s*(.+)$/s.exec(pred);
  if (!attr) return null;
  const name = attr[1].toLowerCase();
  const v = parseXPathLiteral(attr[2]);
  if (v === null) return null;
  switch (name) {
    case 'id':
      // #ident reads best; ids that are not plain CSS identifiers use the attribute form.
      return `.locator(${jsString(/^[A-Za-z_][\w-]*$/.test(v) ? `${cssTag}#${v}` : `${cssTag}[id=${cssString(v)}]`)})`;
    case 'data-testid':
      return `.getByTestId(${jsString(v)})`;
    case 'aria-label':
      return exact('getByLabel', v);
    case 'placeholder':
      return exact('getByPlaceholder', v);
    case 'title':
      return exact('getByTitle', v);
    case 'alt':
      return exact('getByAltText', v);
    default:
      // name, the other test attributes, anything else: an attribute selector.
      return `.locator(${jsString(`${cssTag}[${name}=${cssString(v)}]`)})`;
  }
}

/** One location step selected the document root of an iframe's page. */
const isDocumentRoot = (st: XPathStep): boolean => !st.descendant && /^html(\[1\])?$/i.test(st.expr);
const isFrameElement = (st: XPathStep): boolean => /^(iframe|frame)(\[|$)/i.test(st.expr);

/**
 * Split a Deckhand XPath into the parts it was joined from: each part starts with
 * a descendant step (a candidate or an anchored positional path) or, inside an
 * iframe, at the frame document's <html>.
 */
function xpathParts(steps: XPathStep[]): XPathStep[][] {
  const parts: XPathStep[][] = [];
  for (const [i, st] of steps.entries()) {
    if (i === 0 || st.descendant || isDocumentRoot(st)) parts.push([st]);
    else parts[parts.length - 1].push(st);
  }
  return parts;
}

const partCall = (part: XPathStep[]): string => (part.length === 1 ? candidateCall(part[0]) : null) ?? `.locator(${jsString(`xpath=${joinXPath(part)}`)})`;

/** A CSS selector Playwright would read as another selector engine ("text=…", "a >> b") needs the css= prefix. */
const cssForPlaywright = (css: string): string => (/^[\w+:*-]+=/.test(css) || css.includes('>>') ? `css=${css}` : css);

/**
 * The Playwright locator expression (on `page`) for a Deckhand selector, with a
 * note when the mapping is a best effort (shadow roots, iframes).
 */
export function playwrightLocator(selector: string): { code: string; note?: string } {
  const { kind, value } = parseSelector(selector);
  if (kind === 'css') return { code: `page.locator(${jsString(cssForPlaywright(value))})` };
  const steps = splitXPath(value);
  // Unions, parenthesised or function expressions: XPath as recorded.
  if (!steps) return { code: `page.locator(${jsString(`xpath=${value}`)})` };
  const parts = xpathParts(steps);
  if (parts.length === 1) {
    const call = steps.length === 1 ? candidateCall(steps[0]) : null;
    return { code: call ? `page${call}` : `page.locator(${jsString(`xpath=${value}`)})` };
  }
  // Several parts: each later part continues in a shadow root or an iframe of the element before it.
  let code = 'page' + partCall(parts[0]);
  const notes = new Set<string>();
  for (let i = 1; i < parts.length; i++) {
    const prev = parts[i - 1];
    if (isFrameElement(prev[prev.length - 1]) || isDocumentRoot(parts[i][0])) {
      code += '.contentFrame()';
      notes.add('the recorded selector continues inside an iframe, entered here with contentFrame()');
    } else {
      // An element with only an id may be an iframe too: the XPath alone cannot tell.
      notes.add(
        'the recorded selector crosses into a shadow root (or an iframe, which then needs .contentFrame() after its locator); ' +
          "Playwright's CSS and getBy* locators pierce open shadow roots, XPath ones do not",
      );
    }
    code += partCall(parts[i]);
  }
  notes.add(`recorded selector: ${selector}`);
  return { code, note: [...notes].join('; ') };
}

/** Selectors for the page itself: a scroll there is a page scroll. */
function isPageSelector(selector: string): boolean {
  const { kind, value } = parseSelector(selector);
  if (kind === 'css') return /^(html|body|:root)$/i.test(value);
  return /^\/\/?html(\[1\])?(\/body(\[1\])?)?$/i.test(value);
}

/** Deckhand's key names (aliases, any case) as Playwright spells them; "Control+A" passes through. */
export function playwrightKeys(chord: string): string {
  const raw = chord.trim();
  if (!raw) return chord;
  const parts = raw === '+' ? ['+'] : raw.endsWith('++') ? [...raw.slice(0, -2).split('+'), '+'] : raw.split('+');
  return parts
    .map((p) => {
      const name = p.trim() || p;
      if (name.length === 1) return name;
      const def = keyDef(name);
      if (!def) return name;
      return def.key === ' ' ? 'Space' : def.key;
    })
    .join('+');
}

// ---------------------------------------------------------------------------
// Playwright test

const INDENT = '  ';

function playwrightActionLines(a: Action): string[] {
  const { code: loc, note } = playwrightLocator(a.selector);
  const lines = note ? [`// note: ${commentText(note)}`] : [];
  const method = a.method ?? 'click';
  const args = a.arguments ?? [];
  const arg0 = args[0] ?? '';
  switch (method) {
    case 'click':
      lines.push(`await ${loc}.click();`);
      break;
    case 'doubleClick':
      lines.push(`await ${loc}.dblclick();`);
      break;
    case 'rightClick':
      lines.push(`await ${loc}.click({ button: 'right' });`);
      break;
    case 'hover':
      lines.push(`await ${loc}.hover();`);
      break;
    case 'focus':
      lines.push(`await ${loc}.focus();`);
      break;
    case 'fill':
      lines.push(`await ${loc}.fill(${argExpr(arg0)});`, `await expect(${loc}).toHaveValue(${argExpr(arg0)});`);
      break;
    case 'type':
      lines.push(`await ${loc}.pressSequentially(${argExpr(arg0)});`);
      break;
    case 'press':
      lines.push(`await ${loc}.press(${argExpr(playwrightKeys(arg0))});`);
      break;
    case 'check':
      lines.push(`await ${loc}.check();`, `await expect(${loc}).toBeChecked();`);
      break;
    case 'uncheck':
      lines.push(`await ${loc}.uncheck();`, `await expect(${loc}).not.toBeChecked();`);
      break;
    case 'selectOption':
      if (args.length === 1) {
        // The recorded option may be its label or its value (both select it, in Deckhand and
        // Playwright); assert on the value it selected.
        lines.push(
          '{',
          `${INDENT}const [selected] = await ${loc}.selectOption(${argExpr(arg0)});`,
          `${INDENT}await expect(${loc}).toHaveValue(selected);`,
          '}',
        );
      } else lines.push(`await ${loc}.selectOption([${args.map(argExpr).join(', ')}]);`);
      break;
    case 'scrollIntoView':
      lines.push(`await ${loc}.scrollIntoViewIfNeeded();`);
      break;
    case 'scrollTo': {
      const pct = Number(arg0.trim().replace(/%$/, ''));
      if (!arg0.trim() || !Number.isFinite(pct)) {
        lines.push(`throw new Error(${jsString(`scrollTo needs a percentage, the recording has '${arg0}'`)});`);
        break;
      }
      // As Deckhand does: scroll the element when it scrolls itself, else the page.
      lines.push(
        `await ${loc}.evaluate((el, percent) => {`,
        `${INDENT}const box = el !== document.documentElement && el !== document.body && el.scrollHeight > el.clientHeight + 1 ` +
          '? el : document.scrollingElement ?? document.documentElement;',
        `${INDENT}box.scrollTop = ((box.scrollHeight - box.clientHeight) * percent) / 100;`,
        `}, ${pct});`,
      );
      break;
    }
    case 'nextChunk':
    case 'prevChunk': {
      // The wheel scrolls what is under the mouse: the page, or the element once hovered.
      const height = isPageSelector(a.selector) ? 'await page.evaluate(() => window.innerHeight)' : `await ${loc}.evaluate((el) => el.clientHeight)`;
      if (!isPageSelector(a.selector)) lines.push(`await ${loc}.hover();`);
      lines.push(`await page.mouse.wheel(0, ${method === 'nextChunk' ? height : `-(${height})`});`);
      break;
    }
    case 'dragAndDrop': {
      const target = playwrightLocator(arg0 || 'body');
      if (target.note) lines.push(`// note (drop target): ${commentText(target.note)}`);
      lines.push(`await ${loc}.dragTo(${target.code});`);
      break;
    }
    default:
      lines.push(`throw new Error(${jsString(`the recorded method '${method}' has no Playwright equivalent`)});`);
  }
  return lines;
}

function playwrightStepLines(step: QaStep): string[] {
  switch (step.kind) {
    case 'goto':
      return [`await page.goto(${jsString(step.url)});`];
    case 'act':
      return step.actions.flatMap((a) => {
        const head = a.description && a.description.trim() !== step.description.trim() ? [`// ${commentText(a.description)}`] : [];
        return [...head, ...playwrightActionLines(a)];
      });
    case 'press':
      return [`await page.keyboard.press(${jsString(playwrightKeys(step.keys))});`];
    case 'back':
      return ['await page.goBack();'];
    case 'wait':
      return [`await page.waitForTimeout(${step.ms});`];
    case 'extract': {
      const lines = ['// note: extract steps have no Playwright equivalent (Deckhand reads the page with a model).'];
      if (step.data !== null && typeof step.data === 'object') {
        const json = JSON.stringify(step.data, null, 2)?.split('\n') ?? [];
        const MAX = 40;
        lines.push('// Recorded data:', ...json.slice(0, MAX).map((l) => `//   ${oneLine(l)}`));
        if (json.length > MAX) lines.push(`//   … (${json.length - MAX} more lines)`);
      }
      return lines;
    }
  }
}

const VARIABLES_NOTE = [
  '// Values written as %name% in the recording are read from the environment variable',
  '// of that name (empty when it is unset), so secrets stay out of this file.',
];

export function toPlaywrightTest(rec: QaRecording): string {
  const title = rec.title.trim() || 'recorded steps';
  const out = [
    `// Playwright test exported from the Deckhand QA recording "${commentText(title)}".`,
    ...VARIABLES_NOTE,
    "import { test, expect } from '@playwright/test';",
    '',
    `test(${jsString(title)}, async ({ page }) => {`,
    `${INDENT}await page.goto(${jsString(rec.startUrl)});`,
  ];
  let url = rec.startUrl;
  rec.steps.forEach((step, i) => {
    const lines = [`// ${i + 1}. ${commentText(step.description) || step.kind}`, ...playwrightStepLines(step)];
    if ('urlAfter' in step && step.urlAfter && step.urlAfter !== url) {
      lines.push(`await expect(page).toHaveURL(${jsString(step.urlAfter)});`);
      url = step.urlAfter;
    }
    out.push('', ...lines.map((l) => INDENT + l));
  });
  out.push('});', '');
  return out.join('\n');
}

// ---------------------------------------------------------------------------
// Deckhand script

function actionLiteral(a: Action): string {
  const fields = [`selector: ${jsString(a.selector)}`, `description: ${jsString(a.description)}`];
  if (a.method !== undefined) fields.push(`method: ${jsString(a.method)}`);
  if (a.arguments !== undefined) {
    // A drag target is a selector, not text: it takes no %name% values.
    const args = a.method === 'dragAndDrop' ? a.arguments.map((v, i) => (i === 0 ? jsString(v) : argExpr(v))) : a.arguments.map(argExpr);
    fields.push(`arguments: [${args.join(', ')}]`);
  }
  return `{ ${fields.join(', ')} }`;
}

function deckhandStepLines(step: QaStep, indent: string): string[] {
  switch (step.kind) {
    case 'goto':
      return [`await goto(${jsString(step.url)});`];
    case 'act':
      return step.actions.map((a) => `await act(${actionLiteral(a)});`);
    case 'press':
      return [`await press(${jsString(step.keys)});`];
    case 'back':
      return [`await back(${jsString(step.urlAfter)});`];
    case 'wait':
      return [`await sleep(${step.ms});`];
    case 'extract': {
      const schema = step.schema === undefined ? '' : `, ${jsonExpr(step.schema, indent)}`;
      return [`await extract(${jsString(step.description)}${schema});`];
    }
  }
}

const SCRIPT_HELPERS = `const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const browser = await localBrowser.launch({ headless: process.env.HEADLESS !== '0' });
/** @type {Deckhand | undefined} */
let deckhand;
let current = 'setup';

function step(description) {
  current = description;
  console.log(description);
}

/** Run one recorded Action (no model); a failed action stops the script. */
async function act(action) {
  const result = await deckhand.act(action);
  if (!result.data.success) throw new Error(\`\${action.description}: \${result.data.message}\`);
}

async function goto(url) {
  const page = await deckhand.context.activePage();
  await page.goto(url);
}

/** Keys go to whatever has focus, as they did when recorded. */
async function press(keys) {
  const page = await deckhand.context.activePage();
  await page.press(keys);
}

/** history.back(), then wait (up to 10 s) for the URL to change or reach the recorded one. */
async function back(expectedUrl) {
  const page = await deckhand.context.activePage();
  const before = await page.url();
  // The navigation may tear down the page before evaluate answers; the polling below checks it.
  await page.evaluate('history.back()').catch(() => undefined);
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    await sleep(100);
    const now = await page.url().catch(() => before);
    if (now !== before || now === expectedUrl) break;
  }
  await sleep(300); // let the page load before the next step looks for elements
}

/** Extract steps read the page with a model, so they print what they find rather than compare it. */
async function extract(instruction, schema) {
  const { data } = await deckhand.extract(instruction, schema);
  console.log(JSON.stringify(data, null, 2));
}`;

export function toDeckhandScript(rec: QaRecording): string {
  const title = rec.title.trim() || 'recorded steps';
  const inner = INDENT;
  const body: string[] = [`${inner}step(${jsString(`Open ${rec.startUrl}`)});`, `${inner}await goto(${jsString(rec.startUrl)});`];
  rec.steps.forEach((s, i) => {
    const label = `${i + 1}. ${commentText(s.description) || s.kind}`;
    body.push('', `${inner}step(${jsString(label)});`, ...deckhandStepLines(s, inner).map((l) => inner + l));
  });
  const out = [
    `// Deckhand script exported from the QA recording "${commentText(title)}".`,
    '// It replays the recorded Actions with no model: node <this file> (HEADLESS=0 shows the browser).',
    '// Extract steps do need a model: Deckhand picks one from your API key environment variables,',
    '// or uses its built-in local model.',
    ...VARIABLES_NOTE,
    "import { Deckhand, localBrowser } from 'deckhand';",
    '',
    SCRIPT_HELPERS,
    '',
    'let failed = false;',
    'try {',
    `${inner}deckhand = await Deckhand.create({ browser });`,
    ...body,
    '',
    `${inner}console.log('All steps passed.');`,
    '} catch (error) {',
    `${inner}failed = true;`,
    `${inner}console.error(\`Failed at step \${current}: \${error instanceof Error ? error.message : error}\`);`,
    '} finally {',
    `${inner}await deckhand?.close();`,
    `${inner}await browser.close();`,
    '}',
    'process.exit(failed ? 1 : 0);',
    '',
  ];
  return out.join('\n');
}

// ---------------------------------------------------------------------------

/** A saved flow as the file its Export gives: the JSON that PUT /v1/flows/{name}, flows.save and replay take. */
export function toFlowJson(flow: Flow): string {
  return `${JSON.stringify(flow, null, 2)}\n`;
}

/** A file name for an export: the title as a slug, with the format's extension. */
export function recordingFileName(rec: QaRecording, kind: 'playwright' | 'deckhand' | 'flow'): string {
  const slug =
    rec.title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'recording';
  return kind === 'playwright' ? `${slug}.spec.ts` : kind === 'flow' ? `${slug}.flow.json` : `${slug}.deckhand.mjs`;
}
