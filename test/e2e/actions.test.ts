/** Every deterministic method against fixture pages, checking the page's state afterwards. */
import { describe, expect, it } from 'vitest';
import { DeckhandError, type Page } from '../../src/index';
import { expectError, useBrowser } from './harness';

const h = useBrowser();
const log = (page: Page) => page.evaluate(() => (window as unknown as { __log: string[] }).__log);
const value = (page: Page, sel: string) => page.evaluate((s) => (document.querySelector(s) as HTMLInputElement).value, sel);
const text = (page: Page, sel: string) => page.evaluate((s) => document.querySelector(s)?.textContent ?? null, sel);

describe('deterministic act on the form page', () => {
  it('click, doubleClick and rightClick send trusted mouse events', async () => {
    const page = await h.open('/form.html');
    const r = await h.dh.act({ selector: '#multi', description: 'the multi button', method: 'click' });
    expect(r.data.success).toBe(true);
    expect(r.data.actionDescription).toBe('the multi button');
    expect(r.data.actions).toEqual([{ selector: '#multi', description: 'the multi button', method: 'click', arguments: [] }]);
    expect(r.metadata.cache.status).toBe('DISABLED');
    expect(r.metadata.usage).toEqual({ inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 0 });
    expect(r.metadata.actionId).toMatch(/^[0-9a-f-]{36}$/);
    await h.dh.act({ selector: '#multi', description: 'x', method: 'doubleClick' });
    await h.dh.act({ selector: '#multi', description: 'x', method: 'rightClick' });
    expect(await log(page)).toEqual(['click:multi', 'click:multi', 'click:multi', 'dblclick:multi', 'contextmenu:multi']);

    // Trusted input: the events the page saw were not synthetic.
    await page.evaluate(() => {
      document.getElementById('multi')!.addEventListener('click', (e) => ((window as unknown as { trusted: boolean }).trusted = e.isTrusted), { once: true });
    });
    await h.dh.act({ selector: '#multi', description: 'x', method: 'click' });
    expect(await page.evaluate(() => (window as unknown as { trusted: boolean }).trusted)).toBe(true);
  });

  it("fill gives a one-time code's boxes a character each when the field starts a run that long; otherwise the box's own value", async () => {
    const page = await h.open('/tasks/otp.html');
    const boxes = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('input'))
          .map((b) => b.value)
          .join('|'),
      );
    await h.dh.act({ selector: 'input', description: 'the code', method: 'fill', arguments: ['482913'] });
    expect(await boxes()).toBe('4|8|2|9|1|3');
    // Typed, not set: the page's own listeners moved the focus on to the box after the last one it had.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).getAttribute('aria-label'))).toBe('Digit 6');
    // A value of another length is not spread: the one box takes what fits in it.
    await h.dh.act({ selector: 'input', description: 'the first box', method: 'fill', arguments: ['75'] });
    expect(await boxes()).toBe('7|8|2|9|1|3');
  });

  it('a click moves the mouse there first: the page sees the pointer arrive before the press', async () => {
    const page = await h.open('/form.html');
    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { seen: string[] }).seen = []);
      const b = document.getElementById('submit')!;
      for (const t of ['mouseover', 'mousemove', 'mousedown', 'mouseup', 'click'])
        b.addEventListener(t, (e) => {
          e.preventDefault();
          if (seen[seen.length - 1] !== t) seen.push(t);
        });
    });
    await h.dh.act({ selector: '#submit', description: 'submit', method: 'click' });
    expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(['mouseover', 'mousemove', 'mousedown', 'mouseup', 'click']);
  });

  it('hover moves the mouse over the element', async () => {
    const page = await h.open('/form.html');
    await h.dh.act({ selector: '#hover-target', description: 'hover', method: 'hover' });
    expect(await text(page, '#hover-target')).toBe('Hovered');
  });

  it('variables fill %name% placeholders: a number or a boolean as its text, strings as given', async () => {
    const page = await h.open('/form.html');
    const r = await h.dh.act({ selector: '#age', description: 'age', method: 'fill', arguments: ['%age%'] }, { variables: { age: 42 } });
    expect(await value(page, '#age')).toBe('42');
    expect(r.data.actions[0]!.arguments).toEqual(['%age%']); // the result names the variable, never its value
    await h.dh.act(
      { selector: '#name', description: 'name', method: 'fill', arguments: ['%who% (%vip%, %score%)'] },
      {
        variables: { who: 'Ada', vip: true, score: { value: 2.5, description: 'the score' } },
      },
    );
    expect(await value(page, '#name')).toBe('Ada (true, 2.5)');
    // Anything else is refused by name before the page is touched.
    for (const bad of [{ x: null }, { x: [1] }, { x: { value: {} } }, { x: Number.NaN }]) {
      await expectError(
        h.dh.act({ selector: '#name', description: 'name', method: 'fill', arguments: ['%x%'] }, { variables: bad as never }),
        'INVALID_ARGUMENT',
        /variables/,
      );
    }
    expect(await value(page, '#name')).toBe('Ada (true, 2.5)');
  });

  it('fill clears then sets; type goes key by key; press sends keys and chords', async () => {
    const page = await h.open('/form.html');
    await h.dh.act({ selector: '#name', description: 'name', method: 'fill', arguments: ['Grace'] });
    await h.dh.act({ selector: '#name', description: 'name', method: 'fill', arguments: ['Ada Lovelace'] });
    expect(await value(page, '#name')).toBe('Ada Lovelace');
    await h.dh.act({ selector: '#bio', description: 'bio', method: 'type', arguments: ['Hi!'] });
    expect(await value(page, '#bio')).toBe('Hi!');
    expect((await log(page)).filter((l) => l.startsWith('keydown'))).toEqual(['keydown:Shift+H', 'keydown:i', 'keydown:Shift+!']);
    await h.dh.act({ selector: '#bio', description: 'select all', method: 'press', arguments: ['Control+A'] });
    await h.dh.act({ selector: '#bio', description: 'delete', method: 'press', arguments: ['Backspace'] });
    expect(await value(page, '#bio')).toBe('');
    expect(await log(page)).toContain('keydown:Control+a');
    await h.dh.act({ selector: '#notes', description: 'notes', method: 'fill', arguments: ['rich text'] });
    expect(await text(page, '#notes')).toBe('rich text');
    await h.dh.act({ selector: '#dob', description: 'date', method: 'fill', arguments: ['1815-12-10'] });
    expect(await value(page, '#dob')).toBe('1815-12-10');
    await h.dh.act({ selector: '#name', description: 'clear', method: 'fill', arguments: [''] });
    expect(await value(page, '#name')).toBe('');
  });

  it('selectOption picks by label or value and fires change', async () => {
    const page = await h.open('/form.html');
    await h.dh.act({ selector: '#country', description: 'country', method: 'selectOption', arguments: ['France'] });
    expect(await value(page, '#country')).toBe('fr');
    await h.dh.act({ selector: '#country', description: 'country', method: 'selectOption', arguments: ['de'] });
    expect(await value(page, '#country')).toBe('de');
    expect(await log(page)).toEqual(expect.arrayContaining(['change:country=fr', 'change:country=de']));
    await expectError(
      h.dh.act({ selector: '#country', description: 'x', method: 'selectOption', arguments: ['Mars'] }),
      'ACTION_FAILED',
      /no option 'Mars'.*United States/,
    );
    expect(await value(page, '#country')).toBe('de');
  });

  it('check and uncheck set the state and leave it when already set', async () => {
    const page = await h.open('/form.html');
    const checked = (s: string) => page.evaluate((sel) => (document.querySelector(sel) as HTMLInputElement).checked, s);
    await h.dh.act({ selector: '#terms', description: 'terms', method: 'check' });
    await h.dh.act({ selector: '#terms', description: 'terms again', method: 'check' });
    expect(await checked('#terms')).toBe(true);
    await h.dh.act({ selector: '#news', description: 'news', method: 'uncheck' });
    expect(await checked('#news')).toBe(false);
    await h.dh.act({ selector: '#plan-pro', description: 'pro', method: 'check' });
    expect(await checked('#plan-pro')).toBe(true);
    expect(await checked('#plan-free')).toBe(false);
  });

  it('a submit click runs the form', async () => {
    const page = await h.open('/form.html');
    await h.dh.act({
      selector: "//label[normalize-space(.)='Email']/following::input[1]",
      description: 'email',
      method: 'fill',
      arguments: ['ada@example.com'],
    });
    await h.dh.act({ selector: 'xpath=//button[@id="submit"]', description: 'submit', method: 'click' });
    const result = JSON.parse((await text(page, '#result')) ?? '{}');
    expect(result.email).toBe('ada@example.com');
  });
});

describe('focus in a headless tab', () => {
  it("focus fires the page's focus and blur events, :focus matches, and keys go to the focused field", async () => {
    const page = await h.open('/focus.html');
    const focusLog = () => page.evaluate(() => (window as unknown as { __focus: string[] }).__focus);
    await h.dh.act({ selector: '#tt', description: 'answer field', method: 'focus' });
    expect(await focusLog()).toEqual(['focus:tt:true']);
    await h.dh.act('focus into the Other textbox');
    await h.dh.act({ selector: '#other', description: 'other field', method: 'press', arguments: ['a'] });
    expect(await focusLog()).toEqual(['focus:tt:true', 'blur:tt', 'focus:other:true', 'key:other:a']);
    expect(await page.evaluate(() => document.hasFocus())).toBe(true);
  });
});

describe('scrolling', () => {
  it('scrollTo a percentage, nextChunk, prevChunk and scrollIntoView', async () => {
    const page = await h.open('/long.html');
    const y = () => page.evaluate(() => Math.round(window.scrollY));
    const max = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    await h.dh.act({ selector: 'html', description: 'half way', method: 'scrollTo', arguments: ['50%'] });
    expect(Math.abs((await y()) - max / 2)).toBeLessThan(2);
    const before = await y();
    await h.dh.act({ selector: 'html', description: 'down', method: 'nextChunk' });
    const vh = await page.evaluate(() => window.innerHeight);
    expect((await y()) - before).toBe(vh);
    await h.dh.act({ selector: 'html', description: 'up', method: 'prevChunk' });
    expect(await y()).toBe(before);
    await h.dh.act({ selector: '#bottom-btn', description: 'bottom', method: 'scrollIntoView' });
    expect(
      await page.evaluate(() => {
        const r = document.getElementById('bottom-btn')!.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      }),
    ).toBe(true);
    await h.dh.act({ selector: '#scroller', description: 'inner list', method: 'scrollTo', arguments: ['100'] });
    expect(
      await page.evaluate(() => {
        const s = document.getElementById('scroller')!;
        return Math.abs(s.scrollTop - (s.scrollHeight - s.clientHeight)) < 2;
      }),
    ).toBe(true);
  });

  it('scrollTo along an axis: horizontal leaves the vertical scroll, both goes to the corner', async () => {
    const page = await h.open('/long.html');
    await page.evaluate(() => {
      document.body.style.width = '5000px';
    });
    const at = () => page.evaluate(() => ({ x: Math.round(window.scrollX), y: Math.round(window.scrollY) }));
    const max = () => {
      const r = document.documentElement;
      return { x: r.scrollWidth - r.clientWidth, y: r.scrollHeight - r.clientHeight };
    };
    const end = await page.evaluate(max);
    await h.dh.act({ selector: 'html', description: 'right end', method: 'scrollTo', arguments: ['100%', 'horizontal'] });
    expect(await at()).toEqual({ x: end.x, y: 0 });
    await h.dh.act({ selector: 'html', description: 'corner', method: 'scrollTo', arguments: ['100', 'both'] });
    expect(await at()).toEqual(end);
    await expectError(
      h.dh.act({ selector: 'html', description: 'x', method: 'scrollTo', arguments: ['50%', 'sideways'] }),
      'INVALID_ARGUMENT',
      /the axis, one of vertical, horizontal, both; got 'sideways'/,
    );
  });

  it('clicking an element below the fold scrolls it into view first', async () => {
    const page = await h.open('/long.html');
    await h.dh.act({ selector: '#bottom-btn', description: 'bottom', method: 'click' });
    expect(await text(page, '#bottom-btn')).toBe('bottom clicked');
  });
});

describe('scroll boxes inside the page', () => {
  const out = (page: Page) => text(page, '#out');

  it('clicking a button scrolled out of view inside a box scrolls the box first, not clicking what lies under it', async () => {
    const page = await h.open('/inner-scroll.html');
    // The button's rectangle lies in the viewport, over the box below; the box shows its top part only.
    await h.dh.act({ selector: '#v-btn', description: 'accept', method: 'click' });
    expect(await out(page)).toBe('clicked v-btn;');
    expect(await page.evaluate(() => document.getElementById('vbox')!.scrollTop)).toBeGreaterThan(0);
  });

  it('clicking a button in a horizontally scrolled box scrolls the box sideways', async () => {
    const page = await h.open('/inner-scroll.html');
    await h.dh.act({ selector: '#h-btn', description: 'far right', method: 'click' });
    expect(await out(page)).toBe('clicked h-btn;');
    expect(await page.evaluate(() => document.getElementById('hbox')!.scrollLeft)).toBeGreaterThan(0);
  });

  it('clicking a button in a box inside a box scrolls both', async () => {
    const page = await h.open('/inner-scroll.html');
    await h.dh.act({ selector: '#nested-btn', description: 'deep inside', method: 'click' });
    expect(await out(page)).toBe('clicked nested-btn;');
  });

  it('a fixed button inside a scroll box is not clipped by it: clicked where it is, the box left alone', async () => {
    const page = await h.open('/inner-scroll.html');
    await h.dh.act({ selector: '#fixed-btn', description: 'chat', method: 'click' });
    expect(await out(page)).toBe('clicked fixed-btn;');
    expect(await page.evaluate(() => document.getElementById('vbox')!.scrollTop)).toBe(0);
  });

  it('the local model clicks "I agree" at the bottom of a terms box', async () => {
    const page = await h.open('/wild/scroll-box.html');
    await page.evaluate(() => {
      const w = window as unknown as { hits: string[] };
      w.hits = [];
      document.addEventListener('click', (e) => w.hits.push((e.target as Element).id), true);
    });
    const r = await h.dh.act('click I agree');
    expect(r.data.success).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { hits: string[] }).hits)).toEqual(['agree']);
    expect(await page.evaluate(() => document.querySelector('.terms')!.scrollTop)).toBeGreaterThan(0);
  });
});

describe('frames and shadow roots', () => {
  it('acts inside same-origin and cross-origin iframes through iframe-crossing XPath', async () => {
    const page = await h.open('/frames.html');
    await h.dh.act({ selector: "//iframe[@id='same']//*[@id='inner-btn']", description: 'same', method: 'click' });
    await h.dh.act({ selector: "//iframe[@id='cross']/html/body//button", description: 'cross', method: 'click' });
    await h.dh.act({
      selector: "//iframe[@id='cross']//*[@id='inner-input']",
      description: 'cross field',
      method: 'fill',
      arguments: ['typed across origins'],
    });
    const same = await page.evaluate(() => (document.getElementById('same') as HTMLIFrameElement).contentDocument!.getElementById('inner-out')!.textContent);
    expect(same).toBe('inner clicked');
    // The cross-origin frame cannot be read from the page; read it through a snapshot instead.
    const snap = await page.snapshot();
    const cross = snap.text.split('iframe "Cross frame"')[1];
    expect(cross).toContain('"inner clicked"');
    expect(cross).toContain('textbox "Inner field" value="typed across origins"');
  });

  it('acts inside open and closed shadow roots', async () => {
    const page = await h.open('/shadow.html');
    await h.dh.act({ selector: '#open-btn', description: 'open (CSS pierces shadow roots)', method: 'click' });
    expect(await text(page, '#shadow-out')).toBe('open clicked');
    await h.dh.act({ selector: "//*[@id='closed-host']//button", description: 'closed', method: 'click' });
    expect(await text(page, '#shadow-out')).toBe('closed clicked');
    await h.dh.act({ selector: "//*[@id='open-host']//*[@id='open-input']", description: 'field', method: 'fill', arguments: ['in shadow'] });
    expect(await page.evaluate(() => (document.getElementById('open-host')!.shadowRoot!.getElementById('open-input') as HTMLInputElement).value)).toBe(
      'in shadow',
    );
  });

  it('drags an HTML5 draggable onto a drop zone', async () => {
    const page = await h.open('/drag.html');
    await h.dh.act({ selector: '#drag-src', description: 'drag', method: 'dragAndDrop', arguments: ['#drop-zone'] });
    expect(await text(page, '#drop-zone')).toMatch(/^dropped: /);
  });
});

describe('waiting and refusing', () => {
  it('waits for an element that appears later, one enabled later, and one that stops moving', async () => {
    const page = await h.open('/delayed.html');
    await h.dh.act({ selector: '#late', description: 'late', method: 'click' });
    expect(await text(page, '#out')).toBe('late clicked');
    await h.dh.act({ selector: '#enable-later', description: 'enable later', method: 'click' });
    expect(await text(page, '#out')).toBe('enabled clicked');
    await h.dh.act({ selector: '#moving', description: 'moving', method: 'click' });
    expect(await text(page, '#out')).toBe('moving clicked');
  });

  it('waits for an element a script is moving (jQuery animate, no CSS animation) before it clicks', async () => {
    const page = await h.open('/script-motion.html');
    // The panel above the links slides shut over 700 ms; the link moves up under the pointer.
    await h.dh.act({ selector: '#collapse', description: 'collapse', method: 'click' });
    await h.dh.act({ selector: '#target', description: 'target', method: 'click' });
    expect(await text(page, '#out')).toBe('target clicked');
    expect(await page.evaluate(() => document.getElementById('panel')!.getBoundingClientRect().height)).toBe(0);
  });

  it('stops a press the page moved onto another control: nothing but the element asked for is clicked', async () => {
    const page = await h.open('/press-swap.html');
    // The press is stopped; found again, Save draft is under Delete everything, covered until the deadline.
    const e = await h.dh.act({ selector: '#target', description: 'Save draft', method: 'click' }, { timeout: 3000 }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(DeckhandError);
    expect(['TIMEOUT', 'ELEMENT_COVERED']).toContain((e as DeckhandError).code);
    expect(await text(page, '#out')).not.toContain('decoy');
  });

  it('refuses to click a covered button and names the cover', async () => {
    const page = await h.open('/overlay.html');
    const e = await expectError(
      h.dh.act({ selector: '#covered', description: 'covered', method: 'click' }, { timeout: 700 }),
      'ELEMENT_COVERED',
      /covered by <div#overlay/,
    );
    expect(e.message).toContain('Cookie banner');
    expect(await text(page, '#out')).toBe('');
    await h.dh.act({ selector: '#free', description: 'free', method: 'click' });
    expect(await text(page, '#out')).toBe('free clicked');
  });

  it('clicks the part of a button that shows when its centre is under another box', async () => {
    const page = await h.open('/overlay.html');
    await h.dh.act({ selector: '#half', description: 'half-covered', method: 'click' });
    expect(await text(page, '#out')).toBe('half clicked');
  });

  it('follows a link that navigates', async () => {
    const page = await h.open('/links.html');
    await h.dh.act({ selector: '#to-target', description: 'link', method: 'click' });
    // The click returns once the new document has loaded.
    expect(await page.url()).toBe(`${h.origin}/target.html`);
    expect(await page.title()).toBe('Target');
  });
});

describe('the settle wait before a model reads the page', () => {
  it('waits for requests in flight: a button that a click fetches is there when the next act reads the page', async () => {
    const page = await h.open('/form.html');
    await page.evaluate(() => {
      document.body.insertAdjacentHTML('beforeend', '<button id="load" type="button">Load the report</button>');
      document.getElementById('load')!.addEventListener('click', () => {
        // Nothing in the page changes until the response is in, 900 ms later.
        void fetch('/slow?ms=900&to=/target.html')
          .then((r) => r.text())
          .then(() =>
            document.body.insertAdjacentHTML(
              'beforeend',
              '<button id="fetched" type="button" onclick="window.__fetched = true">Open the fetched report</button>',
            ),
          );
      });
    });
    await h.dh.act({ selector: '#load', description: 'Load the report', method: 'click' });
    const r = await h.dh.act('click the Open the fetched report button');
    expect(r.data.success).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __fetched?: boolean }).__fetched)).toBe(true);
  });

  it('a page still adding elements is read once they stop; a ticking clock does not hold it', async () => {
    const page = await h.open('/form.html');
    // Rows arrive every 40 ms for 600 ms, then the button that the instruction names.
    await page.evaluate(() => {
      const clock = document.createElement('p');
      document.body.append(clock);
      setInterval(() => (clock.textContent = `It is ${new Date().toISOString()}`), 30);
      let n = 0;
      const t = setInterval(() => {
        document.body.insertAdjacentHTML('beforeend', `<p>Row ${++n}</p>`);
        if (n < 15) return;
        clearInterval(t);
        document.body.insertAdjacentHTML('beforeend', '<button type="button" onclick="window.__late = true">Show the late report</button>');
      }, 40);
    });
    const r = await h.dh.act('click the Show the late report button');
    expect(r.data.success).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __late?: boolean }).__late)).toBe(true);
    // The clock still ticks: were text changes part of the wait, this act would wait out the
    // whole settle time (20 s) and then miss its own 5 s deadline.
    const clocked = await h.dh.act('click the Show the late report button', { domSettleTimeoutMs: 20_000, timeout: 5000 });
    expect(clocked.data.success).toBe(true);
  });
});

describe('bad input leaves the page unchanged', () => {
  it('gives typed errors with clear messages', async () => {
    const page = await h.open('/form.html');
    await expectError(h.dh.act({ selector: '#name', description: 'x', method: 'smash' }), 'UNSUPPORTED_METHOD', /unknown method 'smash'.*click, doubleClick/);
    await expectError(h.dh.act({ selector: '#nope', description: 'x', method: 'click' }, { timeout: 500 }), 'ELEMENT_NOT_FOUND', /no element matches '#nope'/);
    await expectError(h.dh.act({ selector: '', description: 'x' }), 'INVALID_ARGUMENT', /selector/);
    await expectError(h.dh.act({ selector: '#name', description: 'x', colour: 'red' } as never), 'INVALID_ARGUMENT', /unknown property 'colour'/);
    await expectError(h.dh.act({ selector: 'div[[', description: 'x' }), 'INVALID_SELECTOR', /not a valid CSS selector/);
    await expectError(h.dh.act({ selector: '//div[', description: 'x' }), 'INVALID_SELECTOR', /not a valid XPath/);
    await expectError(h.dh.act({ selector: '#name', description: 'x', method: 'fill' }), 'INVALID_ARGUMENT', /fill needs the text/);
    await expectError(
      h.dh.act({ selector: '#name', description: 'x', method: 'press', arguments: ['Control+Banana'] }),
      'INVALID_ARGUMENT',
      /unknown key 'Banana'/,
    );
    await expectError(h.dh.act({ selector: 'html', description: 'x', method: 'scrollTo', arguments: ['lots'] }), 'INVALID_ARGUMENT', /percentage/);
    await expectError(
      h.dh.act({ selector: '#locked', description: 'x', method: 'fill', arguments: ['y'] }, { timeout: 500 }),
      'ELEMENT_NOT_ACTIONABLE',
      /disabled/,
    );
    // With no model configured the built-in local model answers; it refuses what it cannot find.
    const refused = await h.dh.act('click the launch rocket button');
    expect(refused.data.success).toBe(false);
    await expectError(h.dh.extract('the CEO salary', { type: 'object', properties: { ceoSalary: { type: 'number' } } }), 'MODEL_REFUSED', /configure a model/);
    await expectError(h.dh.act('   '), 'INVALID_ARGUMENT', /non-empty instruction/);
    // A schema nested 5,000 levels deep, or with too many values: refused by name, before anything is sent.
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 5000; i++) deep = { type: 'object', properties: { a: deep } };
    await expectError(h.dh.extract('x', deep), 'INVALID_ARGUMENT', /schema is nested more than 64 levels deep/);
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    await expectError(h.dh.extract('x', wide), 'INVALID_ARGUMENT', /more than 10,000 values/);
    expect(await log(page)).toEqual([]);
    expect(await value(page, '#name')).toBe('');
    expect(await value(page, '#locked')).toBe('fixed');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  it('fails clearly on a closed page', async () => {
    const page = await h.browser.context.newPage(`${h.origin}/form.html`);
    await page.close();
    await expectError(h.dh.act({ selector: '#name', description: 'x' }, { page }), 'PAGE_CLOSED');
    await expectError(page.goto(`${h.origin}/form.html`), 'PAGE_CLOSED');
  });

  it('a page closed mid-action fails the call at once instead of waiting out the timeout', async () => {
    const page = await h.browser.context.newPage(`${h.origin}/form.html`);
    const started = Date.now();
    const pending = h.dh.act({ selector: '#never', description: 'x' }, { page, timeout: 20_000 });
    pending.catch(() => undefined); // it may reject before expectError attaches below
    await new Promise((r) => setTimeout(r, 300));
    await page.close();
    await expectError(pending, 'PAGE_CLOSED');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('locators', () => {
  it('an XPath that starts at an id matches that id exactly, duplicates included, in quirks mode too', async () => {
    const page = await h.open('/quirks-ids.html');
    expect(await page.evaluate(() => document.compatMode)).toBe('BackCompat');
    expect(await page.locator("//*[@id='dup']").count()).toBe(2);
    expect(await page.locator('//*[@id="box"]/button').count()).toBe(1);
    expect(await page.locator("//*[@id='nope']/button").count()).toBe(0);
    await h.dh.act({ selector: "//*[@id='box']/button[1]", description: 'B', method: 'click' });
    expect(await page.evaluate(() => (window as unknown as { __hit?: string }).__hit)).toBe('B');
  });

  it('nth picks one match; count counts', async () => {
    const page = await h.open('/form.html');
    const radios = page.locator('input[type=radio]');
    expect(await radios.count()).toBe(2);
    await radios.nth(1).check();
    expect(await page.evaluate(() => (document.getElementById('plan-pro') as HTMLInputElement).checked)).toBe(true);
    await page.locator('#name').fill('via locator');
    expect(await value(page, '#name')).toBe('via locator');
    await expectError(page.locator('input[type=radio]').nth(5).click({ timeout: 300 }), 'ELEMENT_NOT_FOUND', /only 2 matches, asked for index 5/);
  });
});

describe('selectText', () => {
  const selected = (page: Page) => page.evaluate(() => String(getSelection()));
  it('selects text shown once, across inline elements and past hidden copies; refuses text shown twice, missing or empty', async () => {
    const page = await h.open('/tasks/highlight-markup.html');
    // Across <em>: "slow tide" is two text nodes.
    await page.locator('main').selectText('slow  tide');
    expect(await selected(page)).toBe('slow tide');
    // A hidden copy ("the copper kettle spare") is not text a person sees, so the visible one is the only one.
    await page.locator('ul').selectText('copper kettle');
    expect(await selected(page)).toBe('copper kettle');
    // Words whose space is a text node of its own.
    await page.locator('ul').selectText('salt cod');
    expect(await selected(page)).toBe('salt cod');
    // Any case when the case as written is not shown.
    await page.locator('table').selectText('NORTH PIER');
    expect(await selected(page)).toBe('north pier');
    await expectError(page.locator('main').selectText('the'), 'ACTION_FAILED', /shown \d+ times/);
    await expectError(page.locator('main').selectText('anchor chain'), 'ACTION_FAILED', /does not show the text 'anchor chain'/);
    await expectError(page.locator('main').selectText('  '), 'INVALID_ARGUMENT', /selectText needs the text/);
    // Nothing was half-done by the refusals: the last selection stands.
    expect(await selected(page)).toBe('north pier');
  });

  it('the built-in model selects text a person names, and refuses text the page shows twice or not at all', async () => {
    const page = await h.open('/tasks/highlight-markup.html');
    const r = await h.dh.act('Select the phrase "north pier" in the Harbour notes');
    expect(r.data.success).toBe(true);
    expect(await selected(page)).toBe('north pier');
    const twice = await h.dh.act('Highlight the word "the"');
    expect(twice.data.success).toBe(false);
    expect(twice.data.message).toMatch(/shows "the" \d+ times/);
    const nowhere = await h.dh.act('Highlight "anchor chain"');
    expect(nowhere.data.success).toBe(false);
    expect(await selected(page)).toBe('north pier');
  });
});
