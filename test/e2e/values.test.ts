/**
 * Values as the person means them, in real Chromium with the built-in local model: the shared
 * vectors (test/vectors/values.json, also run by python/tests/test_values.py and
 * go/values_e2e_test.go) through act and the agent, then what the fields hold. "Today" is the
 * page's own: a page in another time zone gets its own date.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from '../../src/index';
import { useLocalModel } from './corpus';

type Expected = string | boolean | { days: number; format: string };
interface ValueCase {
  name: string;
  page: string;
  run: 'act' | 'agent';
  say: string;
  success: boolean;
  expect: Record<string, Expected>;
  clicked?: string[];
}

const vectors = JSON.parse(readFileSync(fileURLToPath(new URL('../vectors/values.json', import.meta.url)), 'utf8')) as { cases: ValueCase[] };

/** The page's date plus `days`, written in `format` (YYYY, MM, DD): what every client computes the same way. */
function dateIn(today: [number, number, number], days: number, format: string): string {
  const d = new Date(Date.UTC(today[0], today[1] - 1, today[2]) + days * 86_400_000);
  const two = (n: number) => String(n).padStart(2, '0');
  const parts: Record<string, string> = { YYYY: String(d.getUTCFullYear()).padStart(4, '0'), MM: two(d.getUTCMonth() + 1), DD: two(d.getUTCDate()) };
  return format.replace(/YYYY|MM|DD/g, (t) => parts[t]);
}

/** The page's own date, as year, month and day. */
function pageDay(page: Page): Promise<[number, number, number]> {
  return page.evaluate(() => {
    const d = new Date();
    return [d.getFullYear(), d.getMonth() + 1, d.getDate()] as [number, number, number];
  });
}

async function held(page: Page, selector: string): Promise<string | boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel) as HTMLInputElement;
    return el.type === 'checkbox' || el.type === 'radio' ? el.checked : el.value;
  }, selector);
}

const h = useLocalModel();

describe('values as the person means them (test/vectors/values.json)', () => {
  for (const c of vectors.cases) {
    it(`${c.run}: ${c.name}`, { timeout: 60_000 }, async () => {
      await h.page.goto(h.origin + c.page);
      const today = await pageDay(h.page);
      let success: boolean;
      let message: string;
      if (c.run === 'act') {
        const r = await h.dh.act(c.say);
        [success, message] = [r.data.success, r.data.message];
      } else {
        const r = await h.dh.agent({}).execute(c.say);
        [success, message] = [r.success, r.message];
      }
      expect(success, message).toBe(c.success);
      for (const [sel, want] of Object.entries(c.expect)) {
        const value = typeof want === 'object' ? dateIn(today, want.days, want.format) : want;
        expect(await held(h.page, sel), `${sel} after "${c.say}" (${message})`).toBe(value);
      }
      if (c.clicked) expect(await h.page.evaluate(() => (window as unknown as { __clicked: string[] }).__clicked)).toEqual(c.clicked);
    });
  }

  it("reads today in the page's own time zone", { timeout: 60_000 }, async () => {
    await h.page.goto(`${h.origin}/values/order.html`);
    // Of UTC-12 and UTC+14, one is always on another day than this machine's clock (in UTC or near it).
    const here = dateIn(await pageDay(h.page), 0, 'YYYY-MM-DD');
    const cdp = h.dh.browser.cdp;
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>('Target.getTargets', {});
    const target = targetInfos.find((t) => t.type === 'page' && t.url.endsWith('/values/order.html'))!;
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: target.targetId, flatten: true });
    try {
      let zone = '';
      let there = here;
      for (const z of ['Etc/GMT+12', 'Pacific/Kiritimati']) {
        await cdp.send('Emulation.setTimezoneOverride', { timezoneId: z }, sessionId);
        there = dateIn(await pageDay(h.page), 0, 'YYYY-MM-DD');
        zone = z;
        if (there !== here) break;
      }
      expect(there, `no zone on another day than ${here}`).not.toBe(here);
      const r = await h.dh.act("enter today's date into the Delivery date field");
      expect(r.data.success, r.data.message).toBe(true);
      expect(await held(h.page, '#delivery'), `in ${zone}`).toBe(there);
    } finally {
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: '' }, sessionId).catch(() => undefined);
      await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    }
  });
});
