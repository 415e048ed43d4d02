/**
 * Names against Chrome's own accessibility tree, over every fixture page and the generated
 * markup of test/fixtures/pages/names/: every control whose snapshot name differs from Chrome's
 * fails unless a rule of the snapshot guide ("Names and Chrome") explains it.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { compareNames, CONTROL_ROLES, type Compared } from './names-oracle';

const h = useBrowser();

const DIR = 'test/fixtures/pages';
function pagesUnder(d: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(d).sort()) {
    const p = join(d, f);
    if (statSync(p).isDirectory()) out.push(...pagesUnder(p));
    else if (f.endsWith('.html')) out.push(p.slice(DIR.length));
  }
  return out;
}

/** Pages made to hide text from the eye: there a name may keep only its part on screen, and a control no one can see has no line. */
const HIDES_TEXT = /^\/(hidden-text|wild\/hidden-[a-z]+|names\/generated|names\/labelledby-hidden)\.html$/;

const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
/** `part`'s words appear in `whole`'s, in order, and some are missing. */
function fewerWordsOf(part: string, whole: string): boolean {
  const a = words(part);
  const b = words(whole);
  let i = 0;
  for (const w of b) if (w === a[i]) i++;
  return i === a.length && a.length < b.length;
}

/** The rule of the snapshot guide that explains a difference from Chrome, or null. */
function rule(page: string, c: Compared): string | null {
  const { line, chrome } = c;
  if (!line) {
    if (c.tag === 'option') return 'options';
    if (c.tag === 'svg') return 'picture-in-control';
    if (HIDES_TEXT.test(page)) return 'not-on-screen';
    // Two identical frames in shadow roots: the snapshot says they cannot be told apart, and gives their content no ids to act on.
    if (page === '/hostile-frame.html') return 'twin-frames';
    return null;
  }
  if (line.nameFrom?.endsWith(':instructions-withheld')) return 'withheld';
  if (line.nameFrom && line.name.endsWith('…') && chrome.name.startsWith(line.name.slice(0, -1).trimEnd())) return 'unseen-cut';
  if (line.name.endsWith('…') && chrome.name.startsWith(line.name.slice(0, -1).trimEnd())) return 'long-cut';
  if (HIDES_TEXT.test(page) && fewerWordsOf(line.name, chrome.name)) return 'on-screen-part';
  // Decided per role: a heading is the text it shows, a live region its text, a row its cells.
  if (['heading', 'alert', 'status', 'row'].includes(chrome.role)) return `shown-${chrome.role}`;
  return null;
}

describe('accessible names as Chrome computes them', () => {
  it('every control on every fixture page, and the generated cases, is named as Chrome names it or by a documented rule', async () => {
    const page = await h.browser.context.activePage();
    const unexplained: string[] = [];
    const nameless: string[] = [];
    let controls = 0;
    let controlsSame = 0;
    let all = 0;
    let allSame = 0;
    for (const p of pagesUnder(DIR)) {
      const { compared } = await compareNames(h.browser, page, h.origin + p);
      for (const c of compared) {
        if (!c.chrome.name) continue;
        const control = CONTROL_ROLES.has(c.chrome.role);
        const same = c.line?.name === c.chrome.name;
        all++;
        if (same) allSame++;
        if (control) {
          controls++;
          if (same) controlsSame++;
        }
        if (same || !(control || c.line)) continue;
        const why = rule(p, c);
        const ours = c.line ? `${c.line.role} ${JSON.stringify(c.line.name)}` : 'no line';
        const report = `${p} <${c.tag}> ${c.chrome.role} ${JSON.stringify(c.chrome.name)}: ${ours}`;
        if (!why) unexplained.push(report);
        if (control && c.line && !c.line.name) nameless.push(report);
      }
    }
    console.log(`names as Chrome's: controls ${controlsSame}/${controls}, all named elements ${allSame}/${all}`);
    expect(unexplained, unexplained.join('\n')).toEqual([]);
    expect(nameless, nameless.join('\n')).toEqual([]);
    expect(controls).toBeGreaterThan(1000);
  }, 240_000);
});
