/**
 * The built-in model's narrow view (an act reads first the lines near the viewport, the items
 * of long lists its words name, and the lines with its telling words): pages where a view of
 * part of the page could miss a second match. A correct refusal must never become a wrong
 * action: each case names the element the model clicks reading the whole page (a person's
 * choice, or null where they could not tell), and the narrow view must do the same.
 */
import { describe, expect, it } from 'vitest';
import { useLocalModel } from './corpus';

const h = useLocalModel();

const CASES: { page: string; say: string; want: string | null }[] = [
  { page: 'far-exact', say: 'click Delete', want: 'del' },
  { page: 'far-exact', say: 'click Delete draft', want: 'draft' },
  { page: 'synonym', say: 'click Create account', want: 'create' },
  { page: 'synonym', say: 'click Sign up', want: 'signup' },
  // Alike buttons in two sections: the model takes the first of twins, and says so, reading the whole page too.
  { page: 'twins-far', say: 'click Subscribe', want: 'weekly' },
  { page: 'twins-far', say: 'click Subscribe under Monthly digest', want: 'monthly' },
  { page: 'twins-far', say: 'click Subscribe in the Weekly digest section', want: 'weekly' },
  { page: 'ordinal', say: 'click the third Download link', want: 'dl3' },
  { page: 'ordinal', say: 'click the last Download link', want: 'dl3' },
  { page: 'plans', say: 'click Details for Plan 17', want: 'details-17' },
  { page: 'plans', say: 'click Details under Plan 2', want: 'details-2' },
  { page: 'links', say: 'click the last link', want: 'topic-12' },
  { page: 'links', say: 'click the first link', want: 'topic-1' },
  { page: 'links', say: 'click the 9th link', want: 'topic-9' },
  // The fixture server's table of 1,000 users: the row named is far down, or not there.
  { page: '/table?rows=1000', say: 'click the Edit button in the row for User 742', want: '742' },
  { page: '/table?rows=1000', say: 'click the Edit button in the row for User 3', want: '3' },
  { page: '/table?rows=1000', say: 'click the Edit button in the row for User 9999', want: null },
];

describe('an act reads part of a big page first, and never acts wrongly for it', () => {
  it(`on ${CASES.length} cases built to hide a second match, each on a page and on one three times longer: no wrong click`, { timeout: 300_000 }, async () => {
    const wrong: string[] = [];
    const refused: string[] = [];
    let right = 0;
    for (const c of CASES) {
      for (const long of c.page.startsWith('/') ? [false] : [false, true]) {
        await h.page.goto(c.page.startsWith('/') ? h.origin + c.page : `${h.origin}/narrow.html?case=${c.page}${long ? '&long=1' : ''}`);
        // The table page logs nothing itself: its Edit buttons are told apart by their row.
        await h.page.evaluate(`window.__clicked = window.__clicked ?? null; document.addEventListener('click', (e) => {
          if (e.target.dataset.row) window.__clicked = e.target.dataset.row;
        }, true)`);
        const r = await h.dh.act(c.say);
        const clicked = (await h.page.evaluate('window.__clicked')) as string | null;
        const what = `${c.page}${long ? ' (long)' : ''}: "${c.say}"`;
        if (clicked === c.want) {
          if (c.want) right++;
        } else if (clicked === null && !r.data.success) refused.push(`${what}: ${r.data.message.slice(0, 200)}`);
        else wrong.push(`${what} clicked ${clicked ?? 'nothing'} (${r.data.message.slice(0, 200)}), want ${c.want ?? 'nothing'}`);
      }
    }
    console.log(`narrow view: ${right} right, ${refused.length} refused, ${wrong.length} wrong\n${refused.map((x) => `  refused ${x}`).join('\n')}`);
    expect(wrong).toEqual([]);
    // Every case on the page as written; on the long one, refusals where the whole view is folded too are allowed.
    expect(right).toBeGreaterThanOrEqual(CASES.filter((c) => c.want).length);
  });
});
