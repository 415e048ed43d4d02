/** Exporters for the side panel's QA recording: selector mapping, Playwright tests, Deckhand scripts. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { jsString, parseXPathLiteral, playwrightKeys, playwrightLocator, recordingFileName, toDeckhandScript, toPlaywrightTest } from '../../src/panel/export';
import { QaRecordingSchema, type QaRecording, type QaStep } from '../../src/protocol/panel';
import type { Action } from '../../src/protocol/schemas';
import { xpathLiteral } from '../../src/snapshot/xpath';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START = 'https://shop.test/';

const rec = (steps: QaStep[], title = 'Checkout'): QaRecording => QaRecordingSchema.parse({ version: 1, title, startUrl: START, steps });
const act = (actions: Action[], urlAfter = START, description = 'do it'): QaStep => ({ kind: 'act', id: 's', description, actions, urlAfter });
const one = (selector: string, method?: string, args?: string[]): Action => ({
  selector,
  description: 'the element',
  ...(method ? { method } : {}),
  ...(args ? { arguments: args } : {}),
});
/** The test body's code lines for one action (trimmed, without comments). */
const pwLines = (a: Action): string[] =>
  toPlaywrightTest(rec([act([a])]))
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('await') || l.startsWith('const') || l.startsWith('throw') || l === '{' || l === '}')
    .filter((l) => !l.startsWith(`await page.goto(`));
const code = (selector: string) => playwrightLocator(selector).code;

/** The values of the string literals in a piece of code, as the JavaScript engine reads them. */
function literals(src: string): string[] {
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) out.push(n.text);
    ts.forEachChild(n, visit);
  };
  visit(ts.createSourceFile('x.ts', src, ts.ScriptTarget.ES2022, true));
  return out;
}

/** Syntax errors of a TypeScript or JavaScript module. */
function syntaxErrors(fileName: string, text: string): string[] {
  const r = ts.transpileModule(text, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, allowJs: true },
  });
  return (r.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** Type errors of a module that is never written to disk (it resolves imports from the repository). */
function typeErrors(name: string, text: string, options: ts.CompilerOptions): string[] {
  const fileName = join(ROOT, 'test/unit', name);
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (f, lang, ...rest) => (f === fileName ? ts.createSourceFile(f, text, lang) : getSourceFile.call(host, f, lang, ...rest));
  host.fileExists = (f) => f === fileName || fileExists.call(host, f);
  host.readFile = (f) => (f === fileName ? text : readFile.call(host, f));
  const program = ts.createProgram([fileName], options, host);
  const sf = program.getSourceFile(fileName)!;
  return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map(
    (d) => `${d.start !== undefined ? sf.getLineAndCharacterOfPosition(d.start).line + 1 : '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
  );
}

const BASE_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  types: ['node'],
  skipLibCheck: true,
  noEmit: true,
};

const NASTY = `it's a "quote" \\ back\\slash\nnew line \`tick\` \${x} \u2028 end`;

describe('jsString and parseXPathLiteral', () => {
  it('quotes any text so the engine reads it back unchanged', () => {
    for (const s of ['plain', "it's", 'say "hi"', `both ' and "`, 'back\\slash', 'line\nbreak\r\ttab', '\u2028\u2029', NASTY, '']) {
      const lit = jsString(s);
      expect(literals(lit)).toEqual([s]);
      expect(lit).not.toMatch(/[\n\r\u2028\u2029]/);
    }
  });

  it('prefers single quotes, and double quotes when the text has only single quotes', () => {
    expect(jsString('a')).toBe("'a'");
    expect(jsString("it's")).toBe('"it\'s"');
    expect(jsString(`it's "x"`)).toBe(`'it\\'s "x"'`);
  });

  it("reads Deckhand's XPath literals, concat() included", () => {
    for (const s of ['x', "it's", 'say "hi"', `both ' and "`, `''"'`, 'a/b]', '']) expect(parseXPathLiteral(xpathLiteral(s))).toBe(s);
    expect(parseXPathLiteral(`concat( 'a' , "'" ,'b')`)).toBe("a'b");
    expect(parseXPathLiteral("'a' or 'b'")).toBeNull();
    expect(parseXPathLiteral("concat('a', @id)")).toBeNull();
    expect(parseXPathLiteral('@id')).toBeNull();
  });
});

describe('playwrightLocator: candidate selectors', () => {
  it('maps an id to #id, and to [id="…"] when it is not a plain CSS identifier', () => {
    expect(code("//*[@id='email']")).toBe("page.locator('#email')");
    expect(code('//*[@id="email"]')).toBe("page.locator('#email')");
    expect(code("xpath=//*[@id='user_name-2']")).toBe("page.locator('#user_name-2')");
    expect(code("//*[@id='a:b.c']")).toBe(`page.locator('[id="a:b.c"]')`);
    expect(code("//*[@id='1st']")).toBe(`page.locator('[id="1st"]')`);
    expect(literals(code(`//*[@id=${xpathLiteral(`it's "x"`)}]`))).toEqual([`[id="it's \\"x\\""]`]);
    expect(literals(code(`//*[@id=${xpathLiteral('a\\b')}]`))).toEqual(['[id="a\\\\b"]']);
  });

  it('maps data-testid to getByTestId and other test attributes and name to attribute CSS', () => {
    expect(code("//*[@data-testid='save']")).toBe("page.getByTestId('save')");
    expect(code("//*[@data-test-id='save']")).toBe(`page.locator('[data-test-id="save"]')`);
    expect(code("//*[@data-test='save']")).toBe(`page.locator('[data-test="save"]')`);
    expect(code("//*[@data-qa='save']")).toBe(`page.locator('[data-qa="save"]')`);
    expect(code("//*[@data-cy='save']")).toBe(`page.locator('[data-cy="save"]')`);
    expect(code("//input[@name='q']")).toBe(`page.locator('input[name="q"]')`);
    expect(code("//select[@name='country']")).toBe(`page.locator('select[name="country"]')`);
    expect(literals(code(`//textarea[@name=${xpathLiteral('a"b')}]`))).toEqual(['textarea[name="a\\"b"]']);
  });

  it('maps aria-label and label[for] to getByLabel, and placeholder, title and alt to their getBy*', () => {
    expect(code("//button[@aria-label='Close dialog']")).toBe("page.getByLabel('Close dialog', { exact: true })");
    expect(code("//input[@id=//label[normalize-space(.)='Email address']/@for]")).toBe("page.getByLabel('Email address', { exact: true })");
    expect(code("//input[@placeholder='Search…']")).toBe("page.getByPlaceholder('Search…', { exact: true })");
    expect(code("//span[@title='Help']")).toBe("page.getByTitle('Help', { exact: true })");
    expect(code("//img[@alt='Logo']")).toBe("page.getByAltText('Logo', { exact: true })");
  });

  it('maps text to a role for buttons, links and headings, and to getByText otherwise', () => {
    expect(code("//button[normalize-space(.)='Save changes']")).toBe("page.getByRole('button', { name: 'Save changes', exact: true })");
    expect(code("//a[normalize-space(.)='Docs']")).toBe("page.getByRole('link', { name: 'Docs', exact: true })");
    expect(code("//h2[normalize-space(.)='Billing']")).toBe("page.getByRole('heading', { name: 'Billing', exact: true, level: 2 })");
    expect(code("//h6[normalize-space(.)='Small']")).toContain('level: 6');
    for (const tag of ['summary', 'option', 'label', 'div', '*']) {
      expect(code(`//${tag}[normalize-space(.)='More']`)).toBe("page.getByText('More', { exact: true })");
    }
  });

  it('keeps quotes, backslashes and newlines intact', () => {
    const value = `Tom's "best"\\deal\nnow`;
    for (const sel of [
      `//button[@aria-label=${xpathLiteral(value)}]`,
      `//button[normalize-space(.)=${xpathLiteral(value)}]`,
      `//*[@data-testid=${xpathLiteral(value)}]`,
    ]) {
      const c = code(sel);
      expect(literals(c)).toContain(value);
      expect(c).not.toContain('\n');
      expect(syntaxErrors('x.ts', c)).toEqual([]);
    }
  });
});

describe('playwrightLocator: everything else', () => {
  it('falls back to XPath for positional and anchored paths and for expressions it cannot split', () => {
    expect(code('/html[1]/body[1]/div[2]/span[1]')).toBe("page.locator('xpath=/html[1]/body[1]/div[2]/span[1]')");
    expect(code("//*[@id='main']/div[1]/a[2]")).toBe(`page.locator("xpath=//*[@id='main']/div[1]/a[2]")`);
    expect(code("//a[@id='x'] | //b")).toBe(`page.locator("xpath=//a[@id='x'] | //b")`);
    expect(code('(//button)[2]')).toBe("page.locator('xpath=(//button)[2]')");
    expect(code("//*[@id='x'][2]")).toBe(`page.locator("xpath=//*[@id='x'][2]")`);
    expect(code("//div[@class='a']/span")).toBe(`page.locator("xpath=//div[@class='a']/span")`);
    expect(playwrightLocator('/html[1]/body[1]').note).toBeUndefined();
  });

  it('passes CSS through, with css= where Playwright would read another engine', () => {
    expect(code('.cart > button.primary')).toBe("page.locator('.cart > button.primary')");
    expect(code('css=#a')).toBe("page.locator('#a')");
    expect(code('input[name="q"]')).toBe(`page.locator('input[name="q"]')`);
    expect(code('text=Save')).toBe("page.locator('css=text=Save')");
  });

  it('chains across a shadow root from the host, with a note', () => {
    const r = playwrightLocator("//*[@id='app']//button[normalize-space(.)='Go']");
    expect(r.code).toBe("page.locator('#app').getByRole('button', { name: 'Go', exact: true })");
    expect(r.note).toMatch(/shadow root/);
    expect(r.note).toContain("//*[@id='app']//button");
    const deep = playwrightLocator("/html[1]/body[1]/my-app[1]//*[@data-testid='inner']/span[2]");
    expect(deep.code).toBe(`page.locator('xpath=/html[1]/body[1]/my-app[1]').locator("xpath=//*[@data-testid='inner']/span[2]")`);
    expect(deep.note).toMatch(/XPath ones do not/);
  });

  it('enters an iframe with contentFrame(), with a note', () => {
    const named = playwrightLocator("//iframe[@name='pay']//*[@id='card']");
    expect(named.code).toBe(`page.locator('iframe[name="pay"]').contentFrame().locator('#card')`);
    expect(named.note).toMatch(/iframe/);
    const positional = playwrightLocator('/html[1]/body[1]/iframe[2]/html[1]/body[1]/button[1]');
    expect(positional.code).toBe("page.locator('xpath=/html[1]/body[1]/iframe[2]').contentFrame().locator('xpath=/html[1]/body[1]/button[1]')");
    // An iframe found by id is only known to be one by what follows: its document.
    const byId = playwrightLocator("//*[@id='frame']/html[1]/body[1]/form[1]");
    expect(byId.code).toBe("page.locator('#frame').contentFrame().locator('xpath=/html[1]/body[1]/form[1]')");
    const nested = playwrightLocator("//iframe[@id='outer']//iframe[@id='inner']//a[normalize-space(.)='Next']");
    expect(nested.code).toBe(
      "page.locator('iframe#outer').contentFrame().locator('iframe#inner').contentFrame().getByRole('link', { name: 'Next', exact: true })",
    );
  });

  it('always produces a valid expression', () => {
    const selectors = [
      "//*[@id='a']",
      "//*[@id='a']//*[@id=concat('x', \"'\", 'y')]",
      '//iframe[1]//span',
      "//x[@y='\n']",
      `//button[normalize-space(.)=${xpathLiteral(NASTY.replace(/\s+/g, ' '))}]`,
      '/html/body',
      'div:has(> a[href^="/"])',
      '//*[',
    ];
    for (const s of selectors) {
      const { code: c, note } = playwrightLocator(s);
      expect(syntaxErrors('x.ts', `${note ? `// note: ${note.replace(/\n/g, ' ')}\n` : ''}${c};`)).toEqual([]);
    }
  });
});

describe('playwrightKeys', () => {
  it("spells Deckhand's key names as Playwright does", () => {
    expect(playwrightKeys('Enter')).toBe('Enter');
    expect(playwrightKeys('enter')).toBe('Enter');
    expect(playwrightKeys('esc')).toBe('Escape');
    expect(playwrightKeys('ctrl+a')).toBe('Control+a');
    expect(playwrightKeys('Control+A')).toBe('Control+A');
    expect(playwrightKeys('cmd+Shift+z')).toBe('Meta+Shift+z');
    expect(playwrightKeys('space')).toBe('Space');
    expect(playwrightKeys('pgdn')).toBe('PageDown');
    expect(playwrightKeys('+')).toBe('+');
    expect(playwrightKeys('Control++')).toBe('Control++');
    expect(playwrightKeys('Banana')).toBe('Banana');
  });
});

describe('toPlaywrightTest: methods', () => {
  const sel = "//*[@id='f']";
  const loc = "page.locator('#f')";
  it.each([
    ['click', undefined, [`await ${loc}.click();`]],
    ['doubleClick', undefined, [`await ${loc}.dblclick();`]],
    ['rightClick', undefined, [`await ${loc}.click({ button: 'right' });`]],
    ['hover', undefined, [`await ${loc}.hover();`]],
    ['focus', undefined, [`await ${loc}.focus();`]],
    ['type', ['abc'], [`await ${loc}.pressSequentially('abc');`]],
    ['press', ['ctrl+Enter'], [`await ${loc}.press('Control+Enter');`]],
    ['scrollIntoView', undefined, [`await ${loc}.scrollIntoViewIfNeeded();`]],
    ['selectOption', ['a', 'b'], [`await ${loc}.selectOption(['a', 'b']);`]],
    ['dragAndDrop', ["//*[@id='bin']"], [`await ${loc}.dragTo(page.locator('#bin'));`]],
  ] as const)('%s', (method, args, expected) => {
    expect(pwLines(one(sel, method, args ? [...args] : undefined))).toEqual(expected);
  });

  it('clicks when the Action has no method', () => {
    expect(pwLines(one(sel))).toEqual([`await ${loc}.click();`]);
  });

  it('scrollTo sets the scroll position by percent on the element (or the page)', () => {
    const file = toPlaywrightTest(rec([act([one(sel, 'scrollTo', ['75%'])])]));
    expect(file).toContain(`  await ${loc}.evaluate((el, percent) => {\n`);
    expect(file).toContain('box.scrollTop = ((box.scrollHeight - box.clientHeight) * percent) / 100;\n  }, 75);\n');
    expect(pwLines(one(sel, 'scrollTo', ['abc']))[0]).toMatch(/^throw new Error/);
  });

  it('nextChunk and prevChunk turn the mouse wheel by a viewport, or by the element once hovered', () => {
    expect(pwLines(one('html', 'nextChunk'))).toEqual(['await page.mouse.wheel(0, await page.evaluate(() => window.innerHeight));']);
    expect(pwLines(one('/html/body', 'prevChunk'))).toEqual(['await page.mouse.wheel(0, -(await page.evaluate(() => window.innerHeight)));']);
    expect(pwLines(one(sel, 'nextChunk'))).toEqual([`await ${loc}.hover();`, `await page.mouse.wheel(0, await ${loc}.evaluate((el) => el.clientHeight));`]);
  });

  it('throws for a method Playwright has no equivalent for', () => {
    expect(pwLines(one(sel, 'teleport'))).toEqual([`throw new Error("the recorded method 'teleport' has no Playwright equivalent");`]);
  });

  it('notes a shadow or iframe selector above the line that uses it, for a drop target too', () => {
    const file = toPlaywrightTest(rec([act([one("//iframe[@name='x']//*[@id='a']", 'dragAndDrop', ["//*[@id='h']//*[@id='b']"])])]));
    // Both notes, one after the other, right before the drag's locator.
    const notes = [
      /\/\/ note: the recorded selector continues inside an iframe[^\n]*\n\s*/,
      /\/\/ note \(drop target\): the recorded selector crosses into a shadow root[^\n]*\n\s*/,
      /await page\.locator/,
    ];
    expect(file).toMatch(new RegExp(notes.map((r) => r.source).join('')));
  });
});

describe('toPlaywrightTest: assertions', () => {
  const sel = "//*[@id='f']";
  const loc = "page.locator('#f')";
  it('asserts the value after fill', () => {
    expect(pwLines(one(sel, 'fill', ['hello']))).toEqual([`await ${loc}.fill('hello');`, `await expect(${loc}).toHaveValue('hello');`]);
  });

  it('asserts the checked state after check and uncheck', () => {
    expect(pwLines(one(sel, 'check'))).toEqual([`await ${loc}.check();`, `await expect(${loc}).toBeChecked();`]);
    expect(pwLines(one(sel, 'uncheck'))).toEqual([`await ${loc}.uncheck();`, `await expect(${loc}).not.toBeChecked();`]);
  });

  it('asserts the selected value after selecting one option (by label or by value)', () => {
    expect(pwLines(one(sel, 'selectOption', ['Canada']))).toEqual([
      '{',
      `const [selected] = await ${loc}.selectOption('Canada');`,
      `await expect(${loc}).toHaveValue(selected);`,
      '}',
    ]);
  });

  it('asserts the URL after a step that changed it, and only then', () => {
    const file = toPlaywrightTest(
      rec([
        act([one(sel)], START),
        act([one(sel)], 'https://shop.test/cart'),
        act([one(sel)], 'https://shop.test/cart'),
        { kind: 'wait', id: 'w', description: 'wait', ms: 250 },
        { kind: 'back', id: 'b', description: 'back', urlAfter: START },
        { kind: 'goto', id: 'g', description: 'open', url: 'https://shop.test/x', urlAfter: 'https://shop.test/x?redirected' },
      ]),
    );
    const urls = [...file.matchAll(/toHaveURL\('([^']*)'\)/g)].map((m) => m[1]);
    expect(urls).toEqual(['https://shop.test/cart', START, 'https://shop.test/x?redirected']);
  });
});

describe('toPlaywrightTest: the file', () => {
  it('is a @playwright/test file that starts at startUrl, with a comment per step', () => {
    const file = toPlaywrightTest(rec([act([one("//*[@id='q']", 'fill', ['shoes'])], START, 'Search for\nshoes')], "Bob's search"));
    expect(file).toContain("import { test, expect } from '@playwright/test';");
    expect(file).toContain(`test("Bob's search", async ({ page }) => {`);
    expect(file).toContain(`  await page.goto('${START}');`);
    expect(file).toContain('  // 1. Search for shoes\n  // the element\n');
    expect(file.trimEnd().endsWith('});')).toBe(true);
  });

  it('maps goto, press, back and wait steps', () => {
    const file = toPlaywrightTest(
      rec([
        { kind: 'goto', id: '1', description: 'open cart', url: 'https://shop.test/cart', urlAfter: 'https://shop.test/cart' },
        { kind: 'press', id: '2', description: 'select all', keys: 'ctrl+a', urlAfter: 'https://shop.test/cart' },
        { kind: 'back', id: '3', description: 'back', urlAfter: START },
        { kind: 'wait', id: '4', description: 'settle', ms: 1200 },
      ]),
    );
    expect(file).toContain("  await page.goto('https://shop.test/cart');");
    expect(file).toContain("  await page.keyboard.press('Control+a');");
    expect(file).toContain('  await page.goBack();');
    expect(file).toContain('  await page.waitForTimeout(1200);');
  });

  it('comments an extract step, with the data when it is an object or an array', () => {
    const withData = toPlaywrightTest(
      rec([{ kind: 'extract', id: 'e', description: 'read the total', data: { total: '$12', items: ['a\nb'] }, urlAfter: START }]),
    );
    expect(withData).toContain('// note: extract steps have no Playwright equivalent');
    expect(withData).toContain('  //   {\n  //     "total": "$12",\n  //     "items": [\n  //       "a\\nb"\n  //     ]\n  //   }');
    const primitive = toPlaywrightTest(rec([{ kind: 'extract', id: 'e', description: 'read', data: 'plain', urlAfter: START }]));
    expect(primitive).not.toContain('Recorded data');
    const big = toPlaywrightTest(rec([{ kind: 'extract', id: 'e', description: 'read', data: Array.from({ length: 100 }, (_, i) => i), urlAfter: START }]));
    expect(big).toContain('more lines)');
  });

  it('reads %name% values from the environment, and says so at the top', () => {
    const file = toPlaywrightTest(
      rec([act([one("//*[@id='pw']", 'fill', ['%password%']), one("//*[@id='n']", 'type', ['`${x}` %first_name%-%last-name% 100%'])])]),
    );
    expect(file).toMatch(/^\/\/ .*\n\/\/ Values written as %name% in the recording are read from the environment variable/);
    expect(file).toContain("await page.locator('#pw').fill(`${process.env['password'] ?? ''}`);");
    expect(file).toContain("toHaveValue(`${process.env['password'] ?? ''}`);");
    expect(file).toContain("pressSequentially(`\\`\\${x}\\` ${process.env['first_name'] ?? ''}-${process.env['last-name'] ?? ''} 100%`);");
    expect(syntaxErrors('x.spec.ts', file)).toEqual([]);
  });

  it('keeps comments on one line whatever the descriptions hold', () => {
    const file = toPlaywrightTest(rec([act([{ ...one("//*[@id='a']"), description: 'x\ny\u2028z */ w' }], START, 'a\r\nb\u2029c')], 't\nu'));
    expect(file).toContain('// 1. a b c');
    expect(file).toContain('// x y z */ w');
    expect(syntaxErrors('x.spec.ts', file)).toEqual([]);
  });
});

/** Every step kind, every method, and hostile strings everywhere. */
const KITCHEN_SINK = rec(
  [
    { kind: 'goto', id: '1', description: `open "${NASTY}"`, url: "https://shop.test/?q=it's%20here", urlAfter: "https://shop.test/?q=it's%20here" },
    act(
      [
        one("//*[@id='email']", 'fill', ['%user%@example.com']),
        one(`//button[normalize-space(.)=${xpathLiteral(`Tom's "deal"`)}]`, 'click'),
        one("//input[@id=//label[normalize-space(.)='Accept']/@for]", 'check'),
        one("//*[@data-testid='news']", 'uncheck'),
        one("//select[@name='country']", 'selectOption', ['Canada']),
        one("//select[@name='tags']", 'selectOption', ['a', '%tag%']),
        one('/html[1]/body[1]/div[3]', 'doubleClick'),
        one("//a[normalize-space(.)='More']", 'rightClick'),
        one("//h1[normalize-space(.)='Title']", 'hover'),
        one("//textarea[@placeholder='Note']", 'type', [NASTY]),
        one("//*[@aria-label='Search']", 'press', ['ctrl+Enter']),
        one("//*[@id='list']", 'scrollTo', ['40%']),
        one('html', 'nextChunk'),
        one("//*[@id='list']", 'prevChunk'),
        one("//img[@alt='Photo']", 'scrollIntoView'),
        one("//span[@title='Tip']", 'focus'),
        one("//*[@data-qa='card']", 'dragAndDrop', ["//*[@id='host']//*[@id='bin']"]),
        one("//iframe[@name='pay']//*[@id='card-number']", 'fill', ['4242']),
        one('(//li)[last()]', 'click'),
        one('div.cart >> nth=0', 'click'),
      ],
      'https://shop.test/checkout',
      NASTY,
    ),
    { kind: 'press', id: '3', description: 'submit', keys: 'Enter', urlAfter: 'https://shop.test/done' },
    { kind: 'back', id: '4', description: 'back', urlAfter: 'https://shop.test/checkout' },
    { kind: 'wait', id: '5', description: 'wait', ms: 100 },
    {
      kind: 'extract',
      id: '6',
      description: `the order's "total"\n`,
      schema: { type: 'object', properties: { total: { type: 'string', description: NASTY } }, required: ['total'] },
      data: { total: NASTY },
      urlAfter: 'https://shop.test/checkout',
    },
    { kind: 'extract', id: '7', description: 'free text', data: { extraction: 'x' }, urlAfter: 'https://shop.test/checkout' },
  ],
  `Checkout: "${NASTY}"`,
);

describe('generated files compile', () => {
  it('the Playwright test parses and type-checks against @playwright/test', () => {
    const file = toPlaywrightTest(KITCHEN_SINK);
    expect(syntaxErrors('checkout.spec.ts', file)).toEqual([]);
    expect(typeErrors('__export_check__.spec.ts', file, { ...BASE_OPTIONS, strict: true })).toEqual([]);
  });

  it('the Deckhand script parses and type-checks against the client library', () => {
    const file = toDeckhandScript(KITCHEN_SINK);
    expect(syntaxErrors('checkout.deckhand.mjs', file)).toEqual([]);
    const options = { ...BASE_OPTIONS, allowJs: true, checkJs: true, paths: { deckhand: [join(ROOT, 'src/index.ts')] } };
    expect(typeErrors('__export_check__.deckhand.mjs', file, options)).toEqual([]);
  });
});

describe('toDeckhandScript', () => {
  const script = toDeckhandScript(KITCHEN_SINK);

  it('imports the client library, launches a browser and opens startUrl', () => {
    expect(script).toContain("import { Deckhand, localBrowser } from 'deckhand';");
    expect(script).toContain("const browser = await localBrowser.launch({ headless: process.env.HEADLESS !== '0' });");
    expect(script).toContain('deckhand = await Deckhand.create({ browser });');
    expect(script).toContain(`await goto('${START}');`);
    expect(script).toContain('await deckhand.context.activePage()');
  });

  it('replays every recorded Action as it was recorded, checking success', () => {
    const acts = [...script.matchAll(/^ {2}await act\((\{ selector: ['"].*\})\);$/gm)].map((m) => m[1]);
    const actions = (KITCHEN_SINK.steps[1] as Extract<QaStep, { kind: 'act' }>).actions;
    expect(acts).toHaveLength(actions.length);
    // Without placeholders the literals are exactly the Action's strings.
    expect(literals(acts[1])).toEqual([actions[1].selector, actions[1].description, 'click']);
    expect(literals(acts[9])).toEqual([actions[9].selector, actions[9].description, 'type', NASTY]);
    expect(acts[0]).toContain("arguments: [`${process.env['user'] ?? ''}@example.com`]");
    // A drag target is a selector, never a %name% template.
    expect(acts[16]).toContain(`arguments: ["//*[@id='host']//*[@id='bin']"]`);
    expect(script).toContain('if (!result.data.success) throw new Error(');
  });

  it('replays press, back, wait and extract steps', () => {
    expect(script).toContain("  await press('Enter');");
    expect(script).toContain('await page.press(keys);');
    expect(script).toContain("  await back('https://shop.test/checkout');");
    expect(script).toContain("await page.evaluate('history.back()')");
    expect(script).toContain('  await sleep(100);');
    expect(script).toContain(`  await extract(${jsString(`the order's "total"\n`)}, {\n    "type": "object",`);
    expect(script).toContain("  await extract('free text');");
    expect(script).toContain('const { data } = await deckhand.extract(instruction, schema);');
  });

  it('logs each step, reports the failing one, always closes, and exits non-zero on failure', () => {
    expect(script).toContain(`step('Open ${START}');`);
    expect(script).toContain("step('3. submit');");
    expect(script).toMatch(/\} catch \(error\) \{\n {2}failed = true;\n {2}console\.error\(`Failed at step \$\{current\}/);
    expect(script).toMatch(/\} finally \{\n {2}await deckhand\?\.close\(\);\n {2}await browser\.close\(\);\n\}\nprocess\.exit\(failed \? 1 : 0\);\n$/);
  });

  it('keeps a __proto__ key in a schema as data', () => {
    const s = toDeckhandScript(
      rec([{ kind: 'extract', id: 'e', description: 'x', schema: JSON.parse('{"properties":{"__proto__":{"type":"string"}}}'), data: null, urlAfter: START }]),
    );
    expect(s).toContain(`await extract('x', JSON.parse('{"properties":{"__proto__":{"type":"string"}}}'));`);
    expect(syntaxErrors('x.mjs', s)).toEqual([]);
  });
});

describe('recordingFileName', () => {
  it('makes a safe slug with the format extension', () => {
    expect(recordingFileName(rec([], 'Checkout: happy path!'), 'playwright')).toBe('checkout-happy-path.spec.ts');
    expect(recordingFileName(rec([], 'Crème brûlée / order #2'), 'deckhand')).toBe('creme-brulee-order-2.deckhand.mjs');
    expect(recordingFileName(rec([], '../../etc/passwd'), 'deckhand')).toBe('etc-passwd.deckhand.mjs');
    expect(recordingFileName(rec([], '   '), 'playwright')).toBe('recording.spec.ts');
    expect(recordingFileName(rec([], '日本語'), 'playwright')).toBe('recording.spec.ts');
    const long = recordingFileName(rec([], 'a'.repeat(59) + ' bcd'), 'playwright');
    expect(long).toBe(`${'a'.repeat(59)}.spec.ts`);
  });
});
