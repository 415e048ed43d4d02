/** Snapshot lines for the fixtures, id → element resolution, scoping, budgets. */
import { describe, expect, it } from 'vitest';
import type { Page } from '../../src/index';
import { useBrowser } from './harness';

const h = useBrowser();
const ID_LINE = /^\s*\[((?:f\d+)?e\d+)\] (\S+)(?: "((?:[^"\\]|\\.)*)")?/;

/** Every id in a snapshot resolves, through its selector, to exactly one element with the role and name printed. */
async function expectIdsResolve(page: Page, text: string): Promise<number> {
  const lines = text
    .split('\n')
    .map((l) => ID_LINE.exec(l))
    .filter((m): m is RegExpExecArray => !!m);
  const refs = await page.selectorsFor(lines.map((m) => m[1]));
  for (const [i, m] of lines.entries()) {
    const ref = refs[i];
    expect(ref, `id ${m[1]} resolves`).not.toBeNull();
    expect(await page.locator(ref!.selector).count(), `selector ${ref!.selector} for ${m[1]} is unique`).toBe(1);
    // A name the snapshot infers from the look (namefrom=inferred) is no name of the element's own.
    const inferred = m.input.slice(m[0].length).startsWith(' namefrom=inferred');
    const name = m[3] && !inferred ? JSON.parse(`"${m[3]}"`) : '';
    if (name && !['row', 'listitem', 'group', 'iframe', 'scrollable', 'option'].includes(m[2])) {
      expect(ref!.name.replace(/\s+/g, ' ').trim(), `name of ${m[1]}`).toBe(name);
    }
  }
  return lines.length;
}

describe('snapshot lines', () => {
  it('form: roles, names from labels, states and values', async () => {
    const page = await h.open('/form.html');
    await h.dh.act({ selector: '#name', description: 'x', method: 'fill', arguments: ['Ada'] });
    await h.dh.act({ selector: '#password', description: 'x', method: 'fill', arguments: ['hunter2'] });
    const { text, folded } = await page.snapshot();
    expect(folded).toBe(false);
    const lines = text.split('\n').map((l) => l.replace(/\[(f\d+)?e\d+\] /, ''));
    for (const expected of [
      'heading "Sign up" level=1',
      '  textbox "Full name" value="Ada"',
      '  textbox "Email" required type=email value="" placeholder="you@example.com"',
      '  textbox "Password" type=password value="••••"',
      '  spinbutton "Age" type=number value=""',
      '  checkbox "I accept the terms"',
      '  checkbox "Newsletter" checked',
      '  group "Plan"',
      '    radio "Free" checked',
      '  combobox "Country" value="United States" options=["United States","France","Germany"]',
      '  textbox "Locked" disabled value="fixed"',
      // Named only by aria-label (no label on screen): kept, and marked as such.
      // A contenteditable box takes lines like a text area.
      '  textbox "Notes" namefrom=aria-label multiline value=""',
      // The control that submits the form says so: "the submit button" is it, whatever its name.
      '  button "Create account" submit',
    ])
      expect(lines).toContain(expected);
    // A type=button button submits nothing.
    expect(lines.find((l) => l.includes('button "Multi"'))).toMatch(/button "Multi"$/);
    // The password itself never reaches the text a model reads.
    expect(text).not.toContain('hunter2');
    // Label text is the field's name, not a line of its own.
    expect(lines).not.toContain('  "Full name"');
    expect(await expectIdsResolve(page, text)).toBeGreaterThan(20);
  });

  it('hidden, inert and aria-hidden content is left out; wrappers collapse; repeated text goes', async () => {
    const page = await h.open('/hidden.html');
    const { text } = await page.snapshot();
    for (const gone of ['Display none', 'Visibility hidden', 'Aria hidden', 'Inert button', 'In details']) expect(text).not.toContain(gone);
    const lines = text.split('\n').map((l) => l.replace(/\[e\d+\] /, ''));
    expect(lines).toContain('button "Visible button"');
    expect(lines).toContain('"Deep text"');
    expect(lines).toContain('button "Repeat"');
    expect(lines).not.toContain('  "Repeat"');
    expect(lines).toContain('button "Menu" collapsed');
    expect(lines).toContain('  tab "One" selected');
    expect(lines).toContain('link "Docs" href=/docs');
    expect(lines).toContain('navigation');
    await expectIdsResolve(page, text);
  });

  it('same-origin and cross-origin iframes nest under their iframe line, with resolvable ids', async () => {
    const page = await h.open('/frames.html');
    const { text } = await page.snapshot();
    const lines = text.split('\n');
    const same = lines.findIndex((l) => l.includes('iframe "Same frame"'));
    const cross = lines.findIndex((l) => l.includes('iframe "Cross frame"'));
    expect(same).toBeGreaterThan(0);
    expect(lines[same + 1]).toMatch(/^ {2}\[f\d+e\d+\] heading "Inner page" level=1$/);
    expect(lines[cross + 2]).toMatch(/^ {2}\[f\d+e\d+\] button "Inner button"$/);
    const crossButton = ID_LINE.exec(lines[cross + 2])![1];
    const [ref] = await page.selectorsFor([crossButton]);
    // The selector crosses into the frame: the step after the iframe continues in its document.
    expect(ref!.selector).toMatch(/^\/\/\*\[@id='cross'\]\/\//);
    await h.dh.act({ selector: ref!.selector, description: 'cross-frame button from a snapshot id', method: 'click' });
    expect((await page.snapshot()).text.split('iframe "Cross frame"')[1]).toContain('"inner clicked"');
    await expectIdsResolve(page, text);
  });

  it('open and closed shadow roots are walked; slotted content appears', async () => {
    const page = await h.open('/shadow.html');
    const { text } = await page.snapshot();
    expect(text).toMatch(/\[e\d+\] button "Open shadow button"/);
    expect(text).toMatch(/\[e\d+\] button "Closed shadow button"/);
    expect(text).toMatch(/\[e\d+\] textbox "Open input"/);
    expect(text).toContain('"Slotted text"');
    const closed = ID_LINE.exec(text.split('\n').find((l) => l.includes('Closed shadow button'))!)![1];
    const [ref] = await page.selectorsFor([closed]);
    await h.dh.act({ selector: ref!.selector, description: 'closed shadow button by its snapshot selector', method: 'click' });
    expect(await page.evaluate(() => document.getElementById('shadow-out')!.textContent)).toBe('closed clicked');
    await expectIdsResolve(page, text);
  });

  it('a React app: its root container (which listens for every event) is no control; handlers given as props make one', async () => {
    const page = await h.open('/react/challenges.html?m=rightmenu');
    const text = (await page.snapshot()).text;
    // onContextMenu leaves no listener on the element: React's props say it takes the pointer.
    expect(text).toMatch(/^\[e\d+\] clickable "Right-click here"$/m);
    expect(text).toMatch(/^"Nothing to see here"$/m);
    // No line wraps the whole app as one control.
    expect(text).not.toMatch(/^\[e\d+\] clickable$/m);
    const cards = (await (await h.open('/react/challenges.html')).snapshot()).text;
    expect(cards.match(/^\[e\d+\] clickable "(?:Apples|Pears|Plums)"$/gm)).toHaveLength(3);
  });

  it('marks scrollable containers', async () => {
    const page = await h.open('/long.html');
    const { text } = await page.snapshot();
    expect(text).toMatch(/\[e\d+\] scrollable "Scrollable list"/);
  });

  it('names take generated content from every kind of rule: added by script, nested, in @media, on escaped class names, in a shadow root', async () => {
    const page = await h.open('/form.html');
    const before = (await page.snapshot()).text;
    expect(before).not.toContain('(external)');
    await page.evaluate(() => {
      document.body.insertAdjacentHTML(
        'beforeend',
        '<a class="ext" href="/x">Docs</a><button class="nest">Item</button><button class="m">One</button>' +
          '<button class="before:x">Two</button><div id="gen-host"></div>',
      );
      const style = document.head.appendChild(document.createElement('style'));
      style.sheet!.insertRule('a.ext::after { content: " (external)" }');
      style.sheet!.insertRule('@media all { .m::before { content: "Media " } }');
      style.sheet!.insertRule('.before\\:x::before { content: "Esc " }');
      const root = document.getElementById('gen-host')!.attachShadow({ mode: 'open' });
      root.innerHTML = '<style>b::before { content: "Inner " }</style><button><b>Three</b></button>';
    });
    const lines = async () => (await page.snapshot()).text.split('\n').map((l) => l.trim().replace(/\[(f\d+)?e\d+\] /, ''));
    const first = await lines();
    expect(first).toContain('link "Docs (external)" href=/x');
    for (const name of ['Item', 'Media One', 'Esc Two', 'Inner Three']) expect(first).toContain(`button "${name}"`);
    // A nested rule's selector is not worked out: every element is read again, as before there was a check at all.
    await page.evaluate(() => {
      const style = document.head.appendChild(document.createElement('style'));
      style.sheet!.insertRule('.nest { color: black; &::before { content: "New " } }');
      document.body.append(' '); // a change, so the snapshot is not answered from its cache
    });
    const second = await lines();
    for (const name of ['New Item', 'Media One', 'Esc Two']) expect(second).toContain(`button "${name}"`);
  });

  it('ids stay the same across snapshots of an unchanged page', async () => {
    const page = await h.open('/form.html');
    const a = (await page.snapshot()).text;
    const b = (await page.snapshot()).text;
    expect(b).toBe(a);
  });
});

describe('a snapshot of an unchanged page is answered again, and any change shows at once', () => {
  it('changes made by script with no event: a field value, a checkbox, text in open and closed shadow roots, a class', async () => {
    const page = await h.open('/form.html');
    await page.evaluate(() => {
      const w = window as unknown as { __open: ShadowRoot; __closed: ShadowRoot };
      for (const mode of ['open', 'closed'] as const) {
        const host = document.createElement(`x-${mode}-box`);
        const root = host.attachShadow({ mode });
        root.innerHTML = `<button type="button">Before ${mode}</button>`;
        if (mode === 'open') w.__open = root;
        else w.__closed = root;
        document.body.append(host);
      }
      document.body.insertAdjacentHTML('beforeend', '<style>.gone { display: none }</style><p id="note">A short note</p>');
    });
    const first = (await page.snapshot()).text;
    expect(first).toContain('button "Before open"');
    expect(first).toContain('button "Before closed"');
    expect(first).toContain('A short note');
    expect(first).toMatch(/checkbox "I accept the terms"\n/);
    expect((await page.snapshot()).text).toBe(first);

    await page.evaluate(() => void ((document.getElementById('name') as HTMLInputElement).value = 'Set by script'));
    expect((await page.snapshot()).text).toContain('textbox "Full name" value="Set by script"');
    await page.evaluate(() => void ((document.querySelector('input[type=checkbox]') as HTMLInputElement).checked = true));
    expect((await page.snapshot()).text).toMatch(/checkbox "I accept the terms" checked/);
    await page.evaluate(() => void ((window as unknown as { __open: ShadowRoot }).__open.querySelector('button')!.textContent = 'After open'));
    expect((await page.snapshot()).text).toContain('button "After open"');
    await page.evaluate(() => void ((window as unknown as { __closed: ShadowRoot }).__closed.querySelector('button')!.textContent = 'After closed'));
    const t = (await page.snapshot()).text;
    expect(t).toContain('button "After closed"');
    expect(t).not.toContain('Before closed');
    await page.evaluate(() => document.getElementById('note')!.classList.add('gone'));
    expect((await page.snapshot()).text).not.toContain('A short note');
    await page.evaluate(() => history.pushState({}, '', '/form.html?step=2'));
    expect((await page.snapshot()).url).toMatch(/\/form\.html\?step=2$/);
  });

  it('spans with click listeners: found by the listener lookup, kept while nothing changes, looked up again after a change', async () => {
    const page = await h.open('/form.html');
    const addSpan = (text: string) =>
      page.evaluate((t) => {
        const span = document.createElement('span');
        span.textContent = t;
        span.addEventListener('click', () => undefined);
        document.body.append(span);
      }, text);
    const clickableLine = (text: string, name: string) => new RegExp(`\\[e\\d+\\] clickable "${name}"`).test(text);
    await addSpan('Open the archive');
    const first = (await page.snapshot()).text;
    expect(clickableLine(first, 'Open the archive')).toBe(true);
    expect((await page.snapshot()).text).toBe(first);
    await addSpan('Show older posts');
    const after = (await page.snapshot()).text;
    expect(clickableLine(after, 'Show older posts')).toBe(true);
    expect(clickableLine(after, 'Open the archive')).toBe(true);
    // A text or attribute change moves no element: the kept targets still mark the same spans.
    await page.evaluate(() => {
      document.querySelector('h1')!.textContent = 'Renamed';
      document.body.setAttribute('data-state', 'x');
    });
    const renamed = (await page.snapshot()).text;
    expect(renamed).toContain('Renamed');
    expect(clickableLine(renamed, 'Show older posts')).toBe(true);
    expect(clickableLine(renamed, 'Open the archive')).toBe(true);
    // Removing an element moves the paths after it: looked up again, the right span keeps its line.
    await page.evaluate(() => document.querySelector('h1')!.remove());
    const removed = (await page.snapshot()).text;
    expect(removed).not.toContain('Renamed');
    expect(clickableLine(removed, 'Show older posts')).toBe(true);
    expect(clickableLine(removed, 'Open the archive')).toBe(true);
  });

  it('scrolling the page changes what the next snapshot folds', async () => {
    const page = await h.open('/docs?sections=80');
    const top = (await page.snapshot({ budget: 3000 })).text;
    expect(top).toContain('heading "Section 1');
    expect(top).not.toMatch(/heading "Section 80/);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const bottom = (await page.snapshot({ budget: 3000 })).text;
    expect(bottom).toMatch(/heading "Section 80/);
  });
});

describe('snapshot options', () => {
  it('scopes to a locator and leaves out ignored subtrees (nth leaves out one match only)', async () => {
    const page = await h.open('/table?rows=5');
    const scoped = await page.snapshot({ locator: page.locator('table') });
    expect(scoped.text.split('\n')[0]).toMatch(/^\[e\d+\] table/);
    expect(scoped.text).not.toContain('navigation');
    const ignored = await page.snapshot({ ignoreLocators: [page.locator('nav'), page.locator('tbody tr').nth(1)] });
    expect(ignored.text).not.toContain('navigation');
    expect(ignored.text).toContain('"1 | User 1 |');
    expect(ignored.text).not.toContain('"2 | User 2 |');
    expect(ignored.text).toContain('"3 | User 3 |');
    const allRows = await page.snapshot({ ignoreLocators: ['tbody tr'] });
    expect(allRows.text).not.toContain('User 1');
  });

  it('folds a 5000-row table into a summary that says what went and how to see it, within the budget', async () => {
    const page = await h.open('/table?rows=5000');
    const snap = await page.snapshot({ budget: 4000 });
    expect(snap.folded).toBe(true);
    expect(snap.tokens).toBeLessThanOrEqual(4000);
    const summary = snap.text.split('\n').find((l) => l.includes('omitted'))!;
    const m = /rows ([\d,]+) to ([\d,]+) of ([\d,]+) omitted.*scope a snapshot/.exec(summary)!;
    expect(m).not.toBeNull();
    const [from, to, of] = m.slice(1).map((n) => Number(n.replace(/,/g, '')));
    expect(of).toBe(5001); // header row + 5000
    const keptRows = snap.text.split('\n').filter((l) => / row "/.test(l)).length;
    // Every row is either shown or counted in the summary.
    expect(keptRows + (to - from + 1)).toBe(of);
    expect(snap.text).toContain('"5000 | User 5000 | user5000@example.com');
  });

  it('folds a long document by distance from the viewport, naming the headings it folds', async () => {
    const page = await h.open('/docs?sections=80');
    const snap = await page.snapshot({ budget: 3000 });
    expect(snap.folded).toBe(true);
    expect(snap.tokens).toBeLessThanOrEqual(3000);
    expect(snap.text).toMatch(/lines below the viewport omitted \(headings "Section \d+/);
    expect(snap.text).toContain('heading "Section 1');
  });

  it('rejects bad options clearly', async () => {
    const page = await h.open('/form.html');
    await expect(page.snapshot({ budget: 10 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/budget/) });
    await expect(page.snapshot({ locator: '#nothing-here' })).rejects.toMatchObject({ code: 'ELEMENT_NOT_FOUND' });
    await expect(page.snapshot({ locator: 'div[[' })).rejects.toMatchObject({ code: 'INVALID_SELECTOR' });
  });
});

describe('snapshot text across boxes, editable content, ties and glyphs', () => {
  const lineOf = (text: string, re: RegExp) => text.split('\n').find((l) => re.test(l));

  it('separates the text of children laid out as separate boxes; inline runs stay joined', async () => {
    const page = await h.open('/boxes-text.html');
    const { text } = await page.snapshot();
    const lines = text.split('\n').map((l) => l.replace(/\[e\d+\] /, ''));
    // Flex and grid items, inline-blocks, blocks, table cells and <br> are separate boxes.
    expect(lines).toContain('clickable "Linus Re: patch review Yesterday"');
    expect(lines).toContain('clickable "Basic $5"');
    expect(lines).toContain('button "New Report"');
    expect(lines).toContain('heading "Orders 3" level=2');
    expect(lines).toContain('heading "Chapter one The beginning" level=3');
    expect(lines).toContain('"Ada Lovelace 3 days ago"');
    expect(lines).toContain('"Line one line two"');
    expect(lines).toContain('  listitem "First Second"');
    expect(lines).toContain('button "Cell A Cell B"');
    // An inline run is one word.
    expect(lines).toContain('link "Hello world" href=/boxes-text.html#x');
    expect(text).not.toMatch(/LinusRe|Basic\$5|NewReport|Orders3|oneThe|Lovelace3/);
    // The line acts on the element it names.
    const id = /\[(e\d+)\] clickable "Linus/.exec(text)![1];
    await h.dh.act({ selector: (await page.selectorsFor([id]))[0]!.selector, description: 'mail', method: 'click' });
    expect(await page.evaluate(() => document.getElementById('out')!.textContent)).toBe('opened mail');
  });

  it('a drawing of wordless pieces is one line that counts them; pieces that take clicks, fields and icons are not', async () => {
    const lineOf = async (path: string) => {
      const page = await h.open(path);
      const { text } = await page.snapshot();
      await expectIdsResolve(page, text);
      return text.split('\n').map((l) => l.replace(/\[e\d+\] /, ''));
    };
    expect(await lineOf('/tasks/blocks-count.html')).toContain('figure "7 shapes: 3 red squares, 4 blue squares" namefrom=inferred');
    const svg = await lineOf('/tasks/shape-count.html');
    expect(svg).toContain('figure "6 shapes: 2 red circles, 1 green square, 1 red triangle, 1 green circle, 1 red square" namefrom=inferred');
    expect(await lineOf('/tasks/shape-quiz.html')).toContain('figure "1 shape: 1 red triangle" namefrom=inferred');
    // Two clear sizes are said; drawn letters and digits are pieces; one size, or sizes in between, get no size word.
    expect(await lineOf('/tasks/count-sizes.html')).toContain(
      'figure "9 shapes: 1 large red circle, 1 small blue circle, 1 large blue square, 1 small red square, 1 large green triangle, ' +
        '1 small red triangle, 1 large red digit, 1 small blue letter, 1 small green digit" namefrom=inferred',
    );
    expect((await lineOf('/tasks/count-sizes.html?one')).join('\n')).not.toMatch(/large|small/);
    expect((await lineOf('/tasks/count-buttons.html')).join('\n')).not.toMatch(/large|small/);
    // Shapes that take clicks keep a line each; a row of fields stays fields; a toolbar's icons name their buttons.
    const clickable = await lineOf('/tasks/shapes.html');
    expect(clickable.filter((l) => l.startsWith('clickable '))).toHaveLength(6);
    expect(clickable.join('\n')).not.toContain('figure');
    const inputs = await lineOf('/wild/ordinal-inputs.html');
    expect(inputs.filter((l) => l.startsWith('textbox'))).toHaveLength(5);
    const editor = await lineOf('/tasks/text-editor.html');
    expect(editor.slice(0, 3)).toEqual(['button "bold" namefrom=inferred', 'button "italic" namefrom=inferred', 'button "underline" namefrom=inferred']);
    expect(editor.join('\n')).not.toContain('figure');
  });

  it('a swatch of a colour that is no keyword carries its hue; a keyword colour and a gray carry none', async () => {
    const page = await h.open('/tasks/shades.html?set=pastel&set=keyword');
    await page.evaluate(() => {
      const gray = document.createElement('div');
      gray.className = 'tile';
      gray.style.backgroundColor = 'rgb(200, 201, 203)';
      gray.addEventListener('click', () => undefined);
      document.getElementById('area')!.appendChild(gray);
    });
    const { text } = await page.snapshot();
    const tiles = text.split('\n').filter((l) => /namefrom=inferred/.test(l) && /^\s*\[e\d+\] clickable/.test(l));
    expect(tiles).toHaveLength(12);
    const hues = tiles.map((l) => /\bhue=(\d+)/.exec(l)?.[1] ?? null);
    // b1 r1 g1 b2 g2 r2 b3 g3, the pink (250, 200, 205), the faint pink near gray, the keyword pink, the gray.
    expect(hues).toEqual(['227', '358', '130', '232', '131', '0', '216', '120', '354', '0', null, null]);
    expect(tiles[10]).toMatch(/"pink\b/);
  });

  it('a state class a page toggles on a bare button ("push", "selected") names nothing', async () => {
    const page = await h.open('/tasks/lit-sequence.html?stay');
    expect(await page.evaluate(() => document.getElementById('b3')!.className)).toBe('push');
    const { text } = await page.snapshot();
    expect(
      text
        .split('\n')
        .filter((l) => /\bbutton\b/.test(l))
        .map((l) => l.replace(/\[e\d+\] /, '').trim()),
    ).toEqual(['button', 'button', 'button', 'button']);
  });

  it('editable content: an editable heading stays a heading; an editable box is a textbox with its placeholder', async () => {
    const page = await h.open('/editable.html');
    const { text } = await page.snapshot();
    const lines = text.split('\n').map((l) => l.replace(/\[e\d+\] /, ''));
    expect(lines).toContain('heading "Quarterly report" level=1 editable');
    expect(lines).toContain('heading "Draft" level=2 editable');
    // The heading's text is its name, not a second line.
    expect(lines).not.toContain('  "Quarterly report"');
    expect(text).not.toMatch(/textbox value="Quarterly report"/);
    expect(lines).toContain('textbox multiline value="" placeholder="Leave a comment"');
    // aria-placeholder names the box, as Chrome does; the others are only shown.
    expect(lines).toContain('textbox "Add notes" namefrom=placeholder multiline value=""');
    expect(lines).toContain('textbox multiline value="" placeholder="Tell us about you"');
    // Its content is its value: no duplicate text line under it, and no placeholder once filled.
    const filled = lines.findIndex((l) => l.startsWith('textbox multiline value="Some bold text"'));
    expect(filled).toBeGreaterThanOrEqual(0);
    expect(lines[filled]).not.toContain('placeholder');
    expect(lines[filled + 1] ?? '').not.toContain('Some bold text');
    // An inline editable span is one line; aria-multiline=false says so.
    expect(lines).toContain('textbox value="urgent"');
    expect(lines).toContain('textbox "Subject" namefrom=aria-label value=""');
    await expectIdsResolve(page, text);
    // The heading's id acts on the heading.
    const id = /\[(e\d+)\] heading "Quarterly report"/.exec(text)![1];
    await h.dh.act({ selector: (await page.selectorsFor([id]))[0]!.selector, description: 'title', method: 'click' });
    expect(await page.evaluate(() => document.getElementById('out')!.textContent)).toBe('focused title');
  });

  it('interactive lines that tie on role and name say where each lies when outside the viewport; others do not', async () => {
    const page = await h.open('/ties.html');
    let { text } = await page.snapshot();
    expect(lineOf(text, /button "Subscribe"/)).toMatch(/\] button "Subscribe"$/);
    expect(lineOf(text, /\] button "Subscribe" offscreen=below$/)).toBeTruthy();
    expect(lineOf(text, /textbox "Email"/)).not.toContain('offscreen');
    expect(lineOf(text, /textbox "Email".* offscreen=below$/)).toBeTruthy();
    // Not a tie: no position, even though it is below the viewport.
    expect(lineOf(text, /button "Contact us"/)).toMatch(/\] button "Contact us"$/);
    expect(text.match(/offscreen=/g)).toHaveLength(2);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    ({ text } = await page.snapshot());
    expect(lineOf(text, /\] button "Subscribe" offscreen=above$/)).toBeTruthy();
    expect(text.match(/button "Subscribe"$/m)).toBeTruthy();
    // The visible one is the one a model can pick.
    const id = /\[(e\d+)\] button "Subscribe"$/m.exec(text)![1];
    await h.dh.act({ selector: (await page.selectorsFor([id]))[0]!.selector, description: 'subscribe', method: 'click' });
    expect(await page.evaluate(() => document.getElementById('out')!.textContent)).toBe('clicked sub-bottom');
  });

  it('a glyph-only control says what it is for when its row holds one short text', async () => {
    const page = await h.open('/glyphs.html');
    const { text } = await page.snapshot();
    const lines = text.split('\n').map((l) => l.replace(/\[e\d+\] /, ''));
    expect(lines).toContain('clickable "▸" for="Documents"');
    expect(lines).toContain('clickable "▸" for="Pictures"');
    expect(lines).toContain('clickable "×" for="Berlin"');
    expect(lines).toContain('clickable "×" for="Lisbon"');
    // Two controls share the row: neither claims its text.
    expect(lines).toContain('clickable "−"');
    expect(lines).toContain('clickable "+"');
    const id = /\[(e\d+)\] clickable "▸" for="Pictures"/.exec(text)![1];
    await h.dh.act({ selector: (await page.selectorsFor([id]))[0]!.selector, description: 'expand', method: 'click' });
    expect(await page.evaluate(() => document.getElementById('tw-pics')!.textContent)).toBe('▾');
    const after = (await page.snapshot()).text;
    expect(after).toContain('clickable "▾" for="Pictures"');
    expect(after).toContain('"cat.jpg"');
  });
});
