/** XPath helpers: step splitting, joining, literals and selector syntax. */
import { describe, expect, it } from 'vitest';
import { joinXPath, parseSelector, parseSimpleStep, splitXPath, xpathLiteral } from '../../src/snapshot/xpath';

describe('splitXPath', () => {
  it('splits child and descendant steps', () => {
    expect(splitXPath('/html/body/div[2]')).toEqual([
      { descendant: false, expr: 'html' },
      { descendant: false, expr: 'body' },
      { descendant: false, expr: 'div[2]' },
    ]);
    expect(splitXPath('//main//iframe[1]/button')).toEqual([
      { descendant: true, expr: 'main' },
      { descendant: true, expr: 'iframe[1]' },
      { descendant: false, expr: 'button' },
    ]);
  });

  it('keeps a slash inside a quoted predicate in its step', () => {
    expect(splitXPath("//a[@href='/docs/intro']/span")).toEqual([
      { descendant: true, expr: "a[@href='/docs/intro']" },
      { descendant: false, expr: 'span' },
    ]);
    expect(splitXPath('//a[contains(@href, "a//b")]')).toEqual([{ descendant: true, expr: 'a[contains(@href, "a//b")]' }]);
  });

  it('keeps a slash inside brackets or parentheses in its step', () => {
    expect(splitXPath('//div[span/b]/i')).toEqual([
      { descendant: true, expr: 'div[span/b]' },
      { descendant: false, expr: 'i' },
    ]);
    expect(splitXPath('//ul[.//li[@class="x"]]//a')).toEqual([
      { descendant: true, expr: 'ul[.//li[@class="x"]]' },
      { descendant: true, expr: 'a' },
    ]);
    expect(splitXPath('//*[@id=//label[normalize-space(.)="Email"]/@for]')).toEqual([
      { descendant: true, expr: '*[@id=//label[normalize-space(.)="Email"]/@for]' },
    ]);
  });

  it('treats the other quote kind inside a string as plain text', () => {
    expect(splitXPath(`//a[@title="it's/here"]/b`)).toEqual([
      { descendant: true, expr: `a[@title="it's/here"]` },
      { descendant: false, expr: 'b' },
    ]);
  });

  it('returns null for unions at the top level', () => {
    expect(splitXPath('//a|//b')).toBeNull();
    expect(splitXPath('//a | //b')).toBeNull();
    expect(splitXPath('/html/body/a|/html/body/b')).toBeNull();
  });

  it('allows a | inside a predicate or string', () => {
    expect(splitXPath('//a[@x="a|b"]')).toEqual([{ descendant: true, expr: 'a[@x="a|b"]' }]);
    expect(splitXPath('//div[a|b]')).toEqual([{ descendant: true, expr: 'div[a|b]' }]);
  });

  it('returns null for parenthesised expressions and relative paths', () => {
    expect(splitXPath('(//a)[2]')).toBeNull();
    expect(splitXPath('div/span')).toBeNull();
    expect(splitXPath('./div')).toBeNull();
    expect(splitXPath('count(//a)')).toBeNull();
  });

  it('returns null for empty steps and unbalanced input', () => {
    expect(splitXPath('/')).toBeNull();
    expect(splitXPath('//')).toBeNull();
    expect(splitXPath('//a/')).toBeNull();
    expect(splitXPath('//a///b')).toBeNull();
    expect(splitXPath('//a[@x="unterminated]')).toBeNull();
    expect(splitXPath('//a[1')).toBeNull();
    expect(splitXPath('')).toBeNull();
  });

  it('ignores surrounding whitespace', () => {
    expect(splitXPath('  //a/b  ')).toEqual([
      { descendant: true, expr: 'a' },
      { descendant: false, expr: 'b' },
    ]);
  });
});

describe('joinXPath', () => {
  it.each([
    '/html/body/div[2]',
    '//main//iframe[1]/button',
    "//a[@href='/docs/intro']/span",
    '//ul[.//li[@class="x"]]//a[last()]',
    '//*[@id="root"]/div[3]//input[@name="q"]',
  ])('round-trips %s', (xp) => {
    const steps = splitXPath(xp);
    expect(steps).not.toBeNull();
    expect(joinXPath(steps!)).toBe(xp);
  });

  it('joins a tail of steps into a path that starts where the tail starts', () => {
    const steps = splitXPath('//iframe[@id="f"]//button[2]/span')!;
    expect(joinXPath(steps.slice(1))).toBe('//button[2]/span');
    expect(joinXPath([])).toBe('');
  });
});

/** Evaluate an XPath string literal or concat() of literals the way XPath does. */
function evalLiteral(expr: string): string {
  const single = /^'([^']*)'$|^"([^"]*)"$/.exec(expr);
  if (single) return single[1] ?? single[2];
  const m = /^concat\((.*)\)$/s.exec(expr);
  if (!m) throw new Error(`not a literal or concat(): ${expr}`);
  const args: string[] = [];
  let rest = m[1];
  for (;;) {
    const a = /^\s*(?:'([^']*)'|"([^"]*)")\s*/.exec(rest);
    if (!a) throw new Error(`bad concat() argument at: ${rest}`);
    args.push(a[1] ?? a[2]);
    rest = rest.slice(a[0].length);
    if (!rest) break;
    if (rest[0] !== ',') throw new Error(`expected a comma at: ${rest}`);
    rest = rest.slice(1);
  }
  if (args.length < 2) throw new Error('concat() needs at least two arguments');
  return args.join('');
}

describe('xpathLiteral', () => {
  it('uses single quotes by default', () => {
    expect(xpathLiteral('Sign in')).toBe("'Sign in'");
    expect(xpathLiteral('say "hi"')).toBe(`'say "hi"'`);
    expect(xpathLiteral('')).toBe("''");
  });

  it('uses double quotes for a value with an apostrophe', () => {
    expect(xpathLiteral("it's")).toBe(`"it's"`);
  });

  it.each([`it's "fine"`, `'"`, `"'"'`, `'leading and trailing'` + '"', `a''b""c`])(
    'builds a concat() that evaluates back to %s when both quote kinds appear',
    (v) => {
      const lit = xpathLiteral(v);
      expect(lit.startsWith('concat(')).toBe(true);
      expect(evalLiteral(lit)).toBe(v);
    },
  );

  it.each(['plain', "it's", 'say "hi"', 'a/b[1]|c'])('evaluates back to the value for %s', (v) => {
    expect(evalLiteral(xpathLiteral(v))).toBe(v);
  });
});

describe('parseSimpleStep', () => {
  it('parses a tag with an optional position, lowercasing the name', () => {
    expect(parseSimpleStep('div')).toEqual({ name: 'div', index: null });
    expect(parseSimpleStep('DIV[3]')).toEqual({ name: 'div', index: 3 });
    expect(parseSimpleStep('*[2]')).toEqual({ name: '*', index: 2 });
    expect(parseSimpleStep('my-widget[1]')).toEqual({ name: 'my-widget', index: 1 });
  });

  it('rejects anything more complex', () => {
    expect(parseSimpleStep('div[@id="x"]')).toBeNull();
    expect(parseSimpleStep('div[last()]')).toBeNull();
    expect(parseSimpleStep('div[1][2]')).toBeNull();
    expect(parseSimpleStep('text()')).toBeNull();
    expect(parseSimpleStep('descendant::div')).toBeNull();
    expect(parseSimpleStep('1div')).toBeNull();
    expect(parseSimpleStep('')).toBeNull();
  });
});

describe('parseSelector', () => {
  it('honours explicit prefixes and trims the value', () => {
    expect(parseSelector('xpath=//a[1]')).toEqual({ kind: 'xpath', value: '//a[1]' });
    expect(parseSelector('  xpath=  //a  ')).toEqual({ kind: 'xpath', value: '//a' });
    expect(parseSelector('css=div > a')).toEqual({ kind: 'css', value: 'div > a' });
    // The css= prefix wins even if the rest looks like XPath.
    expect(parseSelector('css=/weird')).toEqual({ kind: 'css', value: '/weird' });
  });

  it('treats a leading / or ( as XPath and anything else as CSS', () => {
    expect(parseSelector('/html/body')).toEqual({ kind: 'xpath', value: '/html/body' });
    expect(parseSelector('//button')).toEqual({ kind: 'xpath', value: '//button' });
    expect(parseSelector('(//li)[3]')).toEqual({ kind: 'xpath', value: '(//li)[3]' });
    expect(parseSelector('  //a ')).toEqual({ kind: 'xpath', value: '//a' });
    expect(parseSelector('#submit')).toEqual({ kind: 'css', value: '#submit' });
    expect(parseSelector('button.primary')).toEqual({ kind: 'css', value: 'button.primary' });
    expect(parseSelector('a[href="/x"]')).toEqual({ kind: 'css', value: 'a[href="/x"]' });
  });
});
