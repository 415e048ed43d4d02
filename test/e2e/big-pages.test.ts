/**
 * The default snapshot of large pages built as real ones are (a React-style app, documentation,
 * a news article, a shop listing, a web mail list), each with a click listener on a container of
 * the whole page: the container's line carries no copy of the page, no line takes more than its
 * share of the budget, and the main content and its links are printed, using the budget.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';

const h = useBrowser();
const BUDGET_TOKENS = 12_000;
/** render.ts: a line takes at most 1/16 of the budget's characters (3 per token). */
const SHARE = (BUDGET_TOKENS * 3) / 16;

const PAGES: { path: string; shows: RegExp[] }[] = [
  { path: '/big/react-app.html', shows: [/\] link "returns policy"/, /"Paragraph 0\. /, /\] button "Sign in"/] },
  { path: '/big/docs.html', shows: [/\] link "Truth Value Testing"/, /\] heading "Section 0" level=2/, /\] link "see section 1"/] },
  { path: '/big/news.html', shows: [/\] link "the budget report"/, /\(cut: [\d,]+ more characters/, /\] link "note 0"/] },
  { path: '/big/shop.html', shows: [/\] link "Lamp model 0"/, /\] button "Add to basket"/, /"\$20\.00"/] },
  { path: '/big/mail.html', shows: [/Sender 0/, /Subject line 0/, /\] button "Compose"/] },
];

describe('large pages with a click listener on the whole page', () => {
  for (const p of PAGES) {
    it(`${p.path}: main content up to the budget, no line over its share`, async () => {
      const page = await h.open(p.path);
      const snap = await page.snapshot();
      const lines = snap.text.split('\n');
      for (const l of lines) expect(l.trim().length, `line ${l.slice(0, 80)}…`).toBeLessThanOrEqual(SHARE);
      // No name is a copy of the page: a container that takes clicks is named by its own label only.
      for (const l of lines) {
        const name = /^\s*\[[^\]]+\] \S+ "((?:[^"\\]|\\.)*)"/.exec(l)?.[1] ?? '';
        expect(name.length, `name on ${l.slice(0, 80)}`).toBeLessThanOrEqual(200);
      }
      for (const re of p.shows) expect(snap.text).toMatch(re);
      // The budget is used, not spent on one line and then given up.
      expect(snap.tokens).toBeGreaterThan(BUDGET_TOKENS * 0.5);
      expect(snap.tokens).toBeLessThanOrEqual(BUDGET_TOKENS);
    });
  }
});
