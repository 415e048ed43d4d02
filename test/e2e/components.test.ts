/**
 * Real web-component libraries, installed from npm and served as published (test/fixtures/server.ts
 * /npm/): a settings form of each library's controls, twelve everyday actions said in words to
 * the built-in model, then the same Actions replayed on a fresh page. Every result is read from
 * the components themselves (their value and checked properties, their events), never from the
 * snapshot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, localBrowser, type Action, type BrowserHandle, type Page } from '../../src/index';
import { startFixtureServers, type FixtureServers } from '../fixtures/server';

type Want = { value: [string, string | boolean] } | { logged: string };
const STEPS: { say: string; want: Want }[] = [
  { say: 'type Ada Lovelace into Display name', want: { value: ['name', 'Ada Lovelace'] } },
  { say: 'type Likes engines into Bio', want: { value: ['bio', 'Likes engines'] } },
  { say: 'select Pro from the Plan dropdown', want: { value: ['plan', 'pro'] } },
  { say: 'choose Weekly', want: { value: ['frequency', 'weekly'] } },
  { say: 'check I accept the terms', want: { value: ['terms', true] } },
  { say: 'uncheck Send me the newsletter', want: { value: ['newsletter', false] } },
  { say: 'turn on Email notifications', want: { value: ['notify', true] } },
  { say: 'turn off Dark mode', want: { value: ['dark', false] } },
  { say: 'click Save', want: { logged: 'saved' } },
  { say: 'click Delete account', want: { logged: 'delete asked' } },
  { say: 'click Confirm', want: { logged: 'account deleted' } },
  { say: 'click the Billing tab', want: { logged: 'tab billing' } },
];

/** Web Awesome was held out: its page was written after the rest worked, and run as it came. */
const LIBRARIES = ['shoelace', 'material', 'ionic', 'webawesome'];

// The default settle, as a user gets it: a dialog that animates in is waited for, as a person waits for it.
const h = {} as { origin: string; dh: Deckhand; page: Page };
let servers: FixtureServers;
let browser: BrowserHandle;
beforeAll(async () => {
  servers = await startFixtureServers();
  browser = await localBrowser.launch();
  h.origin = servers.origin;
  h.dh = await Deckhand.create({ browser, model: 'deckhand/local' });
  h.page = await browser.context.activePage();
});
afterAll(async () => {
  await h.dh?.close();
  await browser?.close();
  await servers?.close();
});

/** Open a component page and wait until every custom element on it is defined and has rendered. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(h.origin + path);
  await page.evaluate(async () => {
    const tags = new Set(Array.from(document.querySelectorAll('*'), (e) => e.localName).filter((t) => t.includes('-')));
    await Promise.all(Array.from(tags, (t) => customElements.whenDefined(t)));
    await new Promise((r) => setTimeout(r, 300));
  });
}

async function holds(page: Page, want: Want): Promise<boolean> {
  return page.evaluate((w: Want) => {
    const win = window as unknown as { __value(id: string): unknown; __log: string[] };
    return 'value' in w ? win.__value(w.value[0]) === w.value[1] : win.__log.includes(w.logged);
  }, want);
}

/** Until `check` holds or 3 s pass: a component may show its change a frame or an animation later. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 30; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('web components from npm, with the built-in model', () => {
  for (const lib of LIBRARIES) {
    it(`${lib}: twelve everyday actions in words, then the same Actions replayed`, { timeout: 180_000 }, async () => {
      const page = h.page;
      await open(page, `/components/${lib}.html`);
      const actions: Action[][] = [];
      const wrong: string[] = [];
      for (const step of STEPS) {
        const r = await h.dh.act(step.say);
        expect(r.data.success, `${lib}: "${step.say}": ${r.data.message}`).toBe(true);
        if (!(await eventually(() => holds(page, step.want)))) wrong.push(`${step.say} → ${r.data.message}`);
        actions.push(r.data.actions);
      }
      expect(wrong, `${lib}: acted, but the component does not show it`).toEqual([]);

      // The Actions alone, on a fresh page: the selectors reach the same controls through shadow roots and slots.
      await open(page, `/components/${lib}.html`);
      for (const [i, step] of STEPS.entries()) {
        for (const a of actions[i]) await h.dh.act(a);
        expect(await eventually(() => holds(page, step.want)), `${lib}: replayed "${step.say}"`).toBe(true);
      }
    });
  }

  /** Other ways people say the same things: a select and a radio group "set to" a value, a switch enabled, a tab opened. */
  const WORDINGS: { say: string; want: Want }[] = [
    { say: 'set Plan to Team', want: { value: ['plan', 'team'] } },
    { say: 'set Email frequency to Never', want: { value: ['frequency', 'never'] } },
    { say: 'enable Email notifications', want: { value: ['notify', true] } },
    { say: 'open the Billing tab', want: { logged: 'tab billing' } },
  ];
  for (const lib of LIBRARIES) {
    it(`${lib}: other wordings`, { timeout: 120_000 }, async () => {
      for (const w of WORDINGS) {
        await open(h.page, `/components/${lib}.html`);
        const r = await h.dh.act(w.say);
        expect(r.data.success, `${lib}: "${w.say}": ${r.data.message}`).toBe(true);
        expect(await eventually(() => holds(h.page, w.want)), `${lib}: "${w.say}" → ${r.data.message}`).toBe(true);
      }
    });
  }

  it('a closed custom select refuses an option it does not offer, and chooses nothing', { timeout: 60_000 }, async () => {
    await open(h.page, '/components/shoelace.html');
    await expect(h.dh.act('select Enterprise from the Plan dropdown')).rejects.toThrow(
      /shows no option 'Enterprise' when opened \(options: "Free", "Pro", "Team"\)/,
    );
    expect(await holds(h.page, { value: ['plan', 'free'] })).toBe(true);
  });

  it('an open modal dialog hides what is behind it, as in Chrome', { timeout: 60_000 }, async () => {
    await open(h.page, '/components/material.html');
    const before = (await h.page.snapshot()).text;
    expect(before).toContain('button "Save"');
    await h.dh.act('click Delete account');
    let text = '';
    await eventually(async () => (text = (await h.page.snapshot()).text).includes('button "Confirm"'));
    expect(text).toContain('button "Confirm"');
    expect(text).toContain('button "Cancel"');
    expect(text).not.toContain('Save');
    expect(text).not.toContain('Display name');
  });

  it("a hit inside the target's label counts, but not one on a link in that label", { timeout: 60_000 }, async () => {
    await open(h.page, '/components/boxless.html');
    await h.dh.act({ selector: '#styled', method: 'check', description: 'Remember me' });
    expect(await h.page.evaluate(() => (document.getElementById('styled') as HTMLInputElement).checked)).toBe(true);
    const err = await h.dh.act({ selector: '#trap', method: 'check', description: 'I accept the terms' }, { timeout: 1000 }).catch((e: Error) => e);
    expect(String(err)).toMatch(/covered by <a#terms-link>/);
    expect(await h.page.evaluate(() => [(document.getElementById('trap') as HTMLInputElement).checked, location.hash])).toEqual([false, '']);
  });

  it('a group laid out with display: contents keeps its role and name; a field slotted through two roots is found', { timeout: 60_000 }, async () => {
    await open(h.page, '/components/boxless.html');
    expect((await h.page.snapshot()).text).toContain('radiogroup "Email frequency"');
    const r = await h.dh.act('choose Weekly');
    expect(r.data.success, r.data.message).toBe(true);
    expect(await h.page.evaluate(() => document.getElementById('status')!.textContent)).toBe('frequency weekly');
    const typed = await h.dh.act('type Lisbon into City');
    expect(typed.data.success, typed.data.message).toBe(true);
    expect(await h.page.evaluate(() => (document.getElementById('city-input') as HTMLInputElement).value)).toBe('Lisbon');
  });
});
