/**
 * The built-in local model's suite: instructions on fixture pages with the effect
 * that must follow (the element acted on, the value set, the data returned), or a
 * refusal where the honest answer is "not found". Reports accuracy and refusals;
 * the bar is 95% correct and no wrong action at all.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, localBrowser, type Page } from '../../src/index';
import { useLocalModel } from './corpus';

type Check =
  | { acts: string; on?: 'click' | 'dblclick' | 'contextmenu' | 'mouseover' | 'focusin'; value?: string; checked?: boolean; key?: string }
  | { value: { sel: string; is: string | boolean } }
  | { scrolled: 'down' | 'bottom' }
  | { refuse: true };

interface ActCase {
  page: string;
  say: string;
  expect: Check;
}

const S = '/store.html';
const F = '/form.html';
const T = '/table?rows=5';
const HO = '/holders.html';

const ACT: ActCase[] = [
  // A control counted by what holds it: rows of a table, items of a list, cards; a dialog answered.
  { page: HO, say: 'Click the Delete button in the third row', expect: { acts: 'del-3' } },
  { page: HO, say: 'click Delete on the last row', expect: { acts: 'del-4' } },
  { page: HO, say: 'click Remove in the second item', expect: { acts: 'rm-2' } },
  { page: HO, say: 'Click the Share button on the first card', expect: { acts: 'share-1' } },
  { page: HO, say: 'click share in the 3rd card', expect: { acts: 'share-3' } },
  // The first invoice has no Edit: "the second row" may mean INV-2 or the second that has an Edit.
  { page: HO, say: 'click the Edit button in the second row', expect: { refuse: true } },
  { page: HO, say: 'Answer the dialog with yes', expect: { acts: 'dlg-yes' } },
  { page: HO, say: 'respond to the prompt by clicking No', expect: { acts: 'dlg-no' } },
  // Buttons and links by visible text, with and without role words and quotes.
  { page: S, say: 'click the sign in button', expect: { acts: 'signin' } },
  { page: S, say: 'press the "Sign in" button', expect: { acts: 'signin' } },
  { page: S, say: 'Click on Sign In.', expect: { acts: 'signin' } },
  { page: S, say: 'click the login link', expect: { acts: 'nav-login' } },
  { page: S, say: 'click log in', expect: { acts: 'nav-login' } },
  { page: S, say: 'hit the Forgot password button', expect: { acts: 'forgot' } },
  { page: S, say: 'click "Forgot password?"', expect: { acts: 'forgot' } },
  { page: S, say: 'click the Pricing link', expect: { acts: 'nav-pricing' } },
  { page: S, say: 'go to products', expect: { acts: 'nav-products' } },
  { page: S, say: 'click the Help link', expect: { acts: 'nav-help' } },
  { page: S, say: 'click the help button', expect: { acts: 'help-btn' } },
  { page: S, say: 'click OK', expect: { acts: 'ok' } },
  { page: S, say: 'click okay', expect: { acts: 'ok' } },
  { page: S, say: 'press cancel', expect: { acts: 'cancel' } },
  { page: S, say: 'tap the Go button', expect: { acts: 'search-go' } },
  { page: S, say: 'click the company logo', expect: { acts: 'logo' } },
  { page: S, say: "click 'Privacy policy'", expect: { acts: 'privacy' } },
  { page: S, say: 'follow the terms of service link', expect: { acts: 'terms' } },
  { page: S, say: 'open the home link', expect: { acts: 'nav-home' } },
  // Tabs.
  { page: S, say: 'click the Billing tab', expect: { acts: 'tab-billing' } },
  { page: S, say: 'open the notifications tab', expect: { acts: 'tab-notif' } },
  { page: S, say: 'select the Profile tab', expect: { acts: 'tab-profile' } },
  { page: S, say: 'click the second tab', expect: { acts: 'tab-billing' } },
  // Nearby text and ordinals.
  { page: S, say: 'click the Edit button in the row for Bob', expect: { acts: 'edit-bob' } },
  { page: S, say: 'click Delete for Carol', expect: { acts: 'del-carol' } },
  { page: S, say: 'press the delete button next to alice', expect: { acts: 'del-alice' } },
  { page: S, say: 'click the first Edit button', expect: { acts: 'edit-alice' } },
  { page: S, say: 'click the last delete button', expect: { acts: 'del-carol' } },
  { page: S, say: 'click the second Add to cart button', expect: { acts: 'add-2' } },
  { page: S, say: 'click Add to cart for the Watering Can', expect: { acts: 'add-3' } },
  { page: S, say: 'click the Details link in the Trowel card', expect: { acts: 'details-2' } },
  { page: S, say: 'open the details of the garden hose', expect: { acts: 'details-1' } },
  { page: S, say: 'click the 3rd add to cart button', expect: { acts: 'add-3' } },
  { page: S, say: 'click the bottom Edit button', expect: { acts: 'edit-carol' } },
  { page: S, say: 'click the top delete button', expect: { acts: 'del-alice' } },
  // Text entry: verbs, quotes, labels and placeholders.
  { page: S, say: 'type "jane" into the username field', expect: { acts: 'username', value: 'jane' } },
  { page: S, say: 'enter "s3cret!" in the password field', expect: { acts: 'pw', value: 's3cret!' } },
  { page: S, say: 'fill the username with bob', expect: { acts: 'username', value: 'bob' } },
  { page: S, say: 'write "garden" in the search box', expect: { acts: 'search', value: 'garden' } },
  { page: S, say: 'type "hose" into the field labeled "Search products"', expect: { acts: 'search', value: 'hose' } },
  { page: S, say: 'type shovel into search products', expect: { acts: 'search', value: 'shovel' } },
  { page: S, say: 'put 4 in quantity', expect: { acts: 'qty', value: '4' } },
  { page: S, say: 'set quantity to 3', expect: { acts: 'qty', value: '3' } },
  { page: S, say: 'clear the about you field', expect: { acts: 'bio', value: '' } },
  { page: S, say: 'fill "About you" with "Gardener"', expect: { acts: 'bio', value: 'Gardener' } },
  { page: S, say: 'Type "jane.doe@acme.test" into jane.doe', expect: { acts: 'username', value: 'jane.doe@acme.test' } },
  { page: F, say: 'type "Ada Lovelace" into full name', expect: { value: { sel: '#name', is: 'Ada Lovelace' } } },
  { page: F, say: 'enter a@b.co in the email field', expect: { value: { sel: '#email', is: 'a@b.co' } } },
  { page: F, say: 'fill the phone with 555-1234', expect: { value: { sel: '#phone', is: '555-1234' } } },
  { page: F, say: 'set the date of birth to 1990-01-02', expect: { value: { sel: '#dob', is: '1990-01-02' } } },
  { page: F, say: 'write "Hello there" into the bio', expect: { value: { sel: '#bio', is: 'Hello there' } } },
  { page: F, say: 'input 42 into age', expect: { value: { sel: '#age', is: '42' } } },
  { page: F, say: 'type "example.com" in website', expect: { value: { sel: '#website', is: 'example.com' } } },
  // Selects.
  { page: S, say: 'select "Newest" from the sort by dropdown', expect: { acts: 'sort', value: 'newest' } },
  { page: S, say: 'pick Price: high to low in Sort by', expect: { acts: 'sort', value: 'price-desc' } },
  { page: S, say: 'choose Books from the category select', expect: { acts: 'cat', value: 'Books' } },
  { page: S, say: 'select Toys in category', expect: { acts: 'cat', value: 'Toys' } },
  { page: S, say: 'choose "Garden"', expect: { acts: 'cat', value: 'Garden' } },
  { page: F, say: 'select Germany', expect: { value: { sel: '#country', is: 'de' } } },
  { page: F, say: 'choose France from the country list', expect: { value: { sel: '#country', is: 'fr' } } },
  // Checkboxes, radios, switches.
  { page: S, say: 'check remember me', expect: { acts: 'remember', checked: true } },
  { page: S, say: 'tick the "Free shipping" box', expect: { acts: 'freeship', checked: true } },
  { page: S, say: 'uncheck in stock only', expect: { acts: 'instock', checked: false } },
  { page: S, say: 'untick "In stock only"', expect: { acts: 'instock', checked: false } },
  { page: S, say: 'enable dark mode', expect: { acts: 'dark', checked: true } },
  { page: S, say: 'turn on dark mode', expect: { acts: 'dark', checked: true } },
  { page: S, say: 'select the Express delivery option', expect: { acts: 'speed-exp', checked: true } },
  { page: S, say: 'choose next day delivery', expect: { acts: 'speed-next', checked: true } },
  { page: S, say: 'check the Express radio button', expect: { acts: 'speed-exp', checked: true } },
  { page: F, say: 'check I accept the terms', expect: { value: { sel: '#terms', is: true } } },
  { page: F, say: 'untick newsletter', expect: { value: { sel: '#news', is: false } } },
  { page: F, say: 'choose the Pro plan', expect: { value: { sel: '#plan-pro', is: true } } },
  // Hover, focus, double and right click.
  { page: S, say: 'hover over the Pricing link', expect: { acts: 'nav-pricing', on: 'mouseover' } },
  { page: S, say: 'hover over Add to cart in the Garden Hose card', expect: { acts: 'add-1', on: 'mouseover' } },
  { page: S, say: 'mouse over the Cancel button', expect: { acts: 'cancel', on: 'mouseover' } },
  { page: S, say: 'focus the username field', expect: { acts: 'username', on: 'focusin' } },
  { page: S, say: 'focus on the search box', expect: { acts: 'search', on: 'focusin' } },
  { page: S, say: 'double click the OK button', expect: { acts: 'ok', on: 'dblclick' } },
  { page: S, say: 'right click the company logo', expect: { acts: 'logo', on: 'contextmenu' } },
  // Keys and scrolling.
  { page: S, say: 'press Enter in the search box', expect: { acts: 'search', key: 'Enter' } },
  { page: S, say: 'hit ctrl+a in the about you field', expect: { acts: 'bio', key: 'a' } },
  { page: S, say: 'press Escape', expect: { acts: 'document', key: 'Escape' } },
  { page: S, say: 'press tab', expect: { acts: 'document', key: 'Tab' } },
  { page: S, say: 'scroll down', expect: { scrolled: 'down' } },
  { page: S, say: 'scroll to the bottom', expect: { scrolled: 'bottom' } },
  { page: S, say: 'scroll down to the bottom of the page', expect: { scrolled: 'bottom' } },
  // The table page.
  { page: T, say: 'click the Edit button in the row for User 4', expect: { acts: 'row-4' } },
  { page: T, say: 'click the users link', expect: { acts: 'nav-users' } },
  // Beyond it, or not on the page: refusals, never a guess.
  { page: S, say: 'click the delete account button', expect: { refuse: true } },
  { page: S, say: 'click the purchase button', expect: { refuse: true } },
  { page: S, say: 'click the button', expect: { refuse: true } },
  { page: S, say: 'click on Edit', expect: { refuse: true } },
  { page: S, say: 'log in with username jane and password x', expect: { refuse: true } },
  { page: S, say: 'click sign in and then click OK', expect: { refuse: true } },
  { page: S, say: 'if the cart is empty click add to cart', expect: { refuse: true } },
  { page: S, say: 'type hello', expect: { refuse: true } },
  { page: S, say: 'select Purple from the category dropdown', expect: { refuse: true } },
  { page: S, say: 'click the Garden link', expect: { refuse: true } },
  { page: S, say: 'buy the cheapest product', expect: { refuse: true } },
  { page: F, say: 'click the Edit button for Alice', expect: { refuse: true } },
];

interface ExtractCase {
  page: string;
  say: string;
  schema?: Record<string, unknown>;
  equals: unknown;
}

const num = { type: 'number' };
const str = { type: 'string' };
const EXTRACT: ExtractCase[] = [
  { page: S, say: 'the plan', schema: { type: 'object', properties: { plan: str } }, equals: { plan: 'Pro' } },
  { page: S, say: 'member since', schema: { type: 'object', properties: { memberSince: num } }, equals: { memberSince: 2021 } },
  { page: S, say: 'the balance', schema: { type: 'object', properties: { balance: num } }, equals: { balance: 1234.5 } },
  { page: S, say: 'is two-factor on', schema: { type: 'object', properties: { twoFactor: { type: 'boolean' } } }, equals: { twoFactor: true } },
  { page: S, say: 'the order number', schema: { type: 'object', properties: { orderNumber: str } }, equals: { orderNumber: 'A-1042' } },
  {
    page: S,
    say: 'the products with prices',
    schema: { type: 'object', properties: { products: { type: 'array', items: { type: 'object', properties: { name: str, price: num } } } } },
    equals: {
      products: [
        { name: 'Garden Hose', price: 24.99 },
        { name: 'Trowel', price: 9.5 },
        { name: 'Watering Can', price: 1234.5 },
      ],
    },
  },
  {
    page: S,
    say: 'the team members',
    schema: { type: 'array', items: { type: 'object', properties: { name: str, role: str, email: str } } },
    equals: [
      { name: 'Alice', role: 'Admin', email: 'alice@acme.test' },
      { name: 'Bob', role: 'Editor', email: 'bob@acme.test' },
      { name: 'Carol', role: 'Viewer', email: 'carol@acme.test' },
    ],
  },
  { page: S, say: 'the page heading', equals: { extraction: 'Acme Store' } },
  { page: S, say: 'what is the order number', equals: { extraction: 'A-1042' } },
  {
    page: F,
    say: 'form state',
    schema: { type: 'object', properties: { country: str, newsletter: { type: 'boolean' }, volume: num } },
    equals: { country: 'United States', newsletter: true, volume: 50 },
  },
  {
    page: T,
    say: 'the users',
    schema: { type: 'array', items: { type: 'object', properties: { name: str, email: str, role: str } } },
    equals: [1, 2, 3, 4, 5].map((i) => ({ name: `User ${i}`, email: `user${i}@example.com`, role: ['Viewer', 'Admin', 'Editor'][i % 3] })),
  },
  { page: S, say: 'the main navigation links', schema: { type: 'array', items: str }, equals: ['Home', 'Products', 'Pricing', 'Help', 'Log in'] },
];

const h = useLocalModel();
let servers: { origin: string };
let dh: Deckhand;
let page: Page;
beforeAll(() => {
  servers = { origin: h.origin };
  dh = h.dh;
  page = h.page;
});

/** The store page records its own events; other pages get the same recorder, keyed by id or data-row. */
const RECORDER = () => {
  const w = window as unknown as { __events?: string[] };
  if (w.__events) return;
  w.__events = [];
  for (const type of ['click', 'dblclick', 'contextmenu', 'input', 'change', 'focusin', 'mouseover', 'keydown']) {
    document.addEventListener(
      type,
      (e) => {
        const el = e.target instanceof Element ? e.target.closest('[id],[data-row]') : null;
        const id = el ? el.id || `row-${el.getAttribute('data-row')}` : 'document';
        w.__events!.push(`${type}:${id}${type === 'keydown' ? ':' + (e as KeyboardEvent).key : ''}`);
      },
      true,
    );
  }
  document.addEventListener(
    'click',
    (e) => {
      if ((e.target as Element).closest('a')) e.preventDefault();
    },
    true,
  );
};

async function judge(c: ActCase): Promise<'correct' | 'refused' | 'wrong'> {
  await page.goto(servers.origin + c.page);
  await page.evaluate(RECORDER);
  if (c.page === T) await page.evaluate(() => document.querySelector('nav a[href^="/table"]')?.setAttribute('id', 'nav-users'));
  const r = await dh.act(c.say).catch((e: Error) => ({ error: e.message }));
  if ('error' in r) return 'wrong';
  const events = await page.evaluate(() => (window as unknown as { __events: string[] }).__events);
  const e = c.expect;
  if (!r.data.success) return 'refuse' in e ? 'correct' : 'refused';
  if ('refuse' in e) return 'wrong';
  if ('scrolled' in e) {
    const [y, max] = await page.evaluate(() => [window.scrollY, document.documentElement.scrollHeight - window.innerHeight]);
    return (e.scrolled === 'down' ? y > 100 : Math.abs(y - max) < 2) ? 'correct' : 'wrong';
  }
  if ('value' in e && typeof e.value === 'object') {
    const v = await page.evaluate((sel) => {
      const el = document.querySelector(sel) as HTMLInputElement;
      return el.type === 'checkbox' || el.type === 'radio' ? el.checked : el.value;
    }, e.value.sel);
    return v === e.value.is ? 'correct' : 'wrong';
  }
  if (!('acts' in e)) return 'wrong';
  // Touching anything else (a click, an input, a change) is a wrong action.
  const touched = new Set(events.filter((x) => /^(click|dblclick|contextmenu|input|change):/.test(x)).map((x) => x.split(':')[1]));
  const others = [...touched].filter((id) => id !== e.acts && !(e.acts === 'document' && id === 'document'));
  if (others.length) return 'wrong';
  if (e.key !== undefined) return events.some((x) => x.startsWith(`keydown:${e.acts}:`) && x.endsWith(`:${e.key}`)) ? 'correct' : 'wrong';
  const on = e.on ?? (e.value !== undefined ? 'input' : e.checked !== undefined ? null : 'click');
  if (on && !events.includes(`${on}:${e.acts}`) && !(on === 'input' && e.value === '' && events.some((x) => x.endsWith(`:${e.acts}`)))) return 'wrong';
  if (e.value !== undefined || e.checked !== undefined) {
    const state = await page.evaluate((id) => {
      const el = document.getElementById(id) as HTMLInputElement;
      return { value: el.value, checked: el.checked };
    }, e.acts);
    if (e.value !== undefined && state.value !== e.value) return 'wrong';
    if (e.checked !== undefined && state.checked !== e.checked) return 'wrong';
  }
  return 'correct';
}

describe('the local model', () => {
  it(`acts correctly on at least 95% of ${ACT.length + EXTRACT.length} cases and never acts wrongly`, { timeout: 240_000 }, async () => {
    const results: { say: string; outcome: string }[] = [];
    for (const c of ACT) results.push({ say: c.say, outcome: await judge(c) });
    for (const c of EXTRACT) {
      await page.goto(servers.origin + c.page);
      const r = await dh.extract(c.say, c.schema).catch((e: Error) => ({ error: e }));
      let outcome: string;
      if ('error' in r) outcome = (r.error as { code?: string }).code === 'MODEL_REFUSED' ? 'refused' : 'wrong';
      else outcome = JSON.stringify(r.data) === JSON.stringify(c.equals) ? 'correct' : 'wrong';
      if (outcome === 'wrong' && !('error' in r)) results.push({ say: `${c.say} → ${JSON.stringify(r.data)}`, outcome });
      else results.push({ say: c.say, outcome });
    }
    const count = (o: string) => results.filter((r) => r.outcome === o).length;
    const total = results.length;
    const report =
      `local model: ${count('correct')}/${total} correct (${((100 * count('correct')) / total).toFixed(1)}%), ` +
      `${count('refused')} refused, ${count('wrong')} wrong`;
    console.log(report);
    for (const r of results.filter((x) => x.outcome !== 'correct')) console.log(`  ${r.outcome}: ${r.say}`);
    expect(total).toBeGreaterThanOrEqual(80);
    expect(results.filter((r) => r.outcome === 'wrong')).toEqual([]);
    expect(count('correct') / total).toBeGreaterThanOrEqual(0.95);
  });

  it('reports zero tokens, its real compute time and its confidence', async () => {
    await page.goto(`${servers.origin}${S}`);
    const r = await dh.act('click the Billing tab');
    expect(r.metadata.usage).toMatchObject({ inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0 });
    expect(r.metadata.usage.inferenceTimeMs).toBeGreaterThan(0);
    expect(r.metadata.confidence).toBeGreaterThanOrEqual(0.6);
    const refused = await dh.act('click the launch rocket button');
    expect(refused.data.success).toBe(false);
    expect(refused.data.message).toMatch(/the local model could not find .* configure a model for instructions like this/);
    expect(refused.metadata.confidence).toBe(0);
    const e = await dh.extract('the CEO salary', { type: 'object', properties: { ceoSalary: { type: 'number' } } }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'MODEL_REFUSED', message: expect.stringMatching(/local model could not extract.*ceoSalary.*configure a model/) });
  });

  it("reads child frames from the request's outline lines: acts on a button inside a cross-origin iframe", async () => {
    await page.goto(`${servers.origin}/frames.html`);
    const r = await dh.act('click the second Inner button');
    expect(r.data.actions[0]?.selector).toMatch(/^\/\/\*\[@id='cross'\]\/\//);
    expect((await page.snapshot()).text.split('iframe "Cross frame"')[1]).toContain('"inner clicked"');
  });

  it('reads the same budgeted outline a large model reads: on a 5,000-row table the fold keeps the row the instruction names', async () => {
    await page.goto(`${servers.origin}/table?rows=5000`);
    const r = await dh.act('click the Edit button in the row for User 4321');
    expect(r.data.actions[0]?.selector).toContain('/tr[4321]/');
    // Its own compute is measured (the 100 ms goal lives in bench/local-model.ts, which reports it
    // against Playwright's click); here only a reading of the unfolded page (seconds) would fail.
    expect(r.metadata.usage.inferenceTimeMs).toBeGreaterThan(0);
    expect(r.metadata.usage.inferenceTimeMs).toBeLessThan(1000);
  });

  it('is the default with no model and no key, and observe ranks matching elements', async () => {
    const saved = {
      o: process.env.OPENAI_API_KEY,
      a: process.env.ANTHROPIC_API_KEY,
      g: process.env.GOOGLE_GENERATIVE_AI_API_KEY,
      m: process.env.GEMINI_API_KEY,
    };
    delete process.env.OPENAI_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.GOOGLE_GENERATIVE_AI_API_KEY;
    delete process.env.GEMINI_API_KEY;
    const b = await localBrowser.launch();
    try {
      const d = await Deckhand.create({ browser: b });
      const p = await b.context.activePage();
      await p.goto(`${servers.origin}${S}`);
      const obs = await d.observe('delete buttons');
      expect(obs.data.map((a) => a.selector)).toEqual(["//*[@id='del-alice']", "//*[@id='del-bob']", "//*[@id='del-carol']"]);
      const all = await d.observe();
      expect(all.data.length).toBeGreaterThan(10);
      await d.act(obs.data[1]);
      expect(await p.evaluate(() => (window as unknown as { __events: string[] }).__events)).toContain('click:del-bob');
      await d.close();
    } finally {
      await b.close();
      Object.assign(
        process.env,
        Object.fromEntries(
          Object.entries({ OPENAI_API_KEY: saved.o, ANTHROPIC_API_KEY: saved.a, GOOGLE_GENERATIVE_AI_API_KEY: saved.g, GEMINI_API_KEY: saved.m }).filter(
            ([, v]) => v !== undefined,
          ),
        ),
      );
    }
  });
});
