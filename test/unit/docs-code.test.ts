/**
 * The docs' code-block rule (see test/docs-code.ts): every page's blocks, one test per page
 * so a failure names its page; then the checker itself, on inline samples and on the
 * fixture pages in test/fixtures/docs-code/.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkMarkdown, docPages, hasRegion, parseMarkdown, runByTests, type Fence } from '../docs-code';
// The program the fixture pages show, run here so it is a file a test runs.
import { greet, shout } from '../fixtures/docs-code/greet';

const root = fileURLToPath(new URL('../..', import.meta.url));
const check = (md: string, file = 'docs/sample.md') => checkMarkdown(md, { root, file });
const fences = (md: string) => parseMarkdown(md).filter((i): i is Fence => i.type === 'fence');
const FIXTURE = 'test/fixtures/docs-code/greet.ts';

describe('code blocks in the docs follow the rule', () => {
  const pages = docPages(root);
  it('covers README.md', () => expect(pages).toContain('README.md'));
  it.each(pages)('%s', (page) => {
    expect(check(readFileSync(root + page, 'utf8'), page)).toEqual([]);
  });
});

describe('the checker', () => {
  it('fails a block without a marker, naming file and line', () => {
    expect(check('# T\n\n```sh\nnpm test\n```\n')).toEqual([
      'docs/sample.md:3: code block (```sh) has no <!-- runs: <path> --> or <!-- not-run: <reason> --> marker before it',
    ]);
  });

  it('passes a marker followed by a blank line, then the fence', () => {
    expect(check('<!-- not-run: shell commands -->\n\n```sh\nnpm test\n```\n')).toEqual([]);
    expect(check(`<!-- runs: ${FIXTURE} -->\n\n\n\`\`\`js\nexport function greet(name: string): string {\n\`\`\`\n`)).toEqual([]);
  });

  it('fails a runs: block whose file lacks a line, naming the line', () => {
    const md = `<!-- runs: ${FIXTURE} -->\n\`\`\`js\nexport function greet(name: string): string {\n  return 'Bye';\n}\n\`\`\`\n`;
    expect(check(md)).toEqual([`docs/sample.md:4: line not in ${FIXTURE}: return 'Bye';`]);
  });

  it('fails a marker that no block follows', () => {
    expect(check('<!-- not-run: x -->\nsome text\n\n```sh\nls\n```\n')).toEqual([
      'docs/sample.md:1: <!-- not-run: --> marker is not followed by a code block',
      'docs/sample.md:4: code block (```sh) has no <!-- runs: <path> --> or <!-- not-run: <reason> --> marker before it',
    ]);
  });

  it('fails an empty reason or path', () => {
    expect(check('<!-- not-run: -->\n```sh\nls\n```\n<!-- runs:  -->\n```sh\nls\n```\n')).toEqual([
      'docs/sample.md:1: <!-- not-run: --> marker without a reason (for the code block (```sh) at line 2)',
      'docs/sample.md:5: <!-- runs: --> marker without a path (for the code block (```sh) at line 6)',
    ]);
  });

  it('finds fences nested in list items', () => {
    const md = '1. first\n\n   ```ts\n   const a = 1;\n   ```\n\n   - nested\n\n     ~~~py\n     b = 2\n     ~~~\n- ```sh\n  ls\n  ```\n';
    expect(fences(md).map((f) => [f.line, f.fence + f.info, f.body.map((l) => l.text)])).toEqual([
      [3, '```ts', ['const a = 1;']],
      [9, '~~~py', ['b = 2']],
      [12, '```sh', ['ls']],
    ]);
  });

  it('keeps ``` inside a 4-backtick fence as text, and a ~~~ fence open past a ``` line', () => {
    const md = '````md\n```ts\nx\n```\n````\n\n~~~\n```\n~~~\n';
    const got = fences(md);
    expect(got.map((f) => [f.line, f.fence, f.body.map((l) => l.text), f.closed])).toEqual([
      [1, '````', ['```ts', 'x', '```'], true],
      [7, '~~~', ['```'], true],
    ]);
  });

  it('finds a fence in a blockquote, ended by the quote', () => {
    const md = '> [!NOTE]\n> <!-- not-run: an alert -->\n> ```sh\n> ls\n> ```\n\n> ```js\n> open\n\nafter\n';
    expect(fences(md).map((f) => [f.line, f.body.map((l) => l.text), f.closed, f.marker?.kind])).toEqual([
      [3, ['ls'], true, 'not-run'],
      [7, ['open'], false, undefined],
    ]);
  });

  it('reports a fence that is never closed', () => {
    expect(check('<!-- not-run: x -->\n````\n```\n')).toEqual(['docs/sample.md:2: code block (````) is never closed']);
  });

  it('does not take inline code or an indented code block for a fence', () => {
    expect(fences('Use ```a``` here.\n\n    ```\n    text\n    ```\n')).toEqual([]);
  });

  it('reads includes: path, region, language, title; relative paths from the page', () => {
    const items = parseMarkdown('<<< @/../examples/node/act.mjs#setup{2,3 js} [act.mjs]\n<<< ./a.py\n');
    expect(items).toEqual([
      { type: 'include', line: 1, raw: '@/../examples/node/act.mjs#setup{2,3 js} [act.mjs]', path: '@/../examples/node/act.mjs', region: 'setup' },
      { type: 'include', line: 2, raw: './a.py', path: './a.py', region: undefined },
    ]);
    expect(check(`<<< ../../${FIXTURE}#greet\n`, 'docs/guides/x.md')).toEqual([]);
  });

  it('checks that an included file exists, is run by tests and holds its region', () => {
    expect(check(`<<< @/../${FIXTURE}#greet{ts}\n<<< @/../${FIXTURE}#farewell\n<<< @/../examples/none.mjs\n<<< @/../src/index.ts\n<<< @/../../x.ts\n`)).toEqual(
      [
        `docs/sample.md:2: include @/../${FIXTURE}: no #region farewell (with an #endregion after it) in ${FIXTURE}`,
        'docs/sample.md:3: include @/../examples/none.mjs: no file examples/none.mjs',
        'docs/sample.md:4: include @/../src/index.ts: src/index.ts is not a file tests run (test/, examples/, python/tests/, go/*_test.go, go/examples/)',
        'docs/sample.md:5: include @/../../x.ts points outside the repository',
      ],
    );
  });

  it('knows which files tests run', () => {
    for (const p of [
      'test/e2e/examples.test.ts',
      'examples/node/act.mjs',
      'python/tests/test_examples.py',
      'go/example_test.go',
      'go/examples/quickstart/main.go',
    ])
      expect(runByTests(p), p).toBe(true);
    for (const p of ['src/index.ts', 'python/deckhand/__init__.py', 'go/deckhand.go', 'README.md']) expect(runByTests(p), p).toBe(false);
  });

  it('finds regions in the usual comment styles', () => {
    expect(hasRegion('a\n# #region s\nb\n# #endregion s\n', 's')).toBe(true);
    expect(hasRegion('<!-- #region s -->\n<!-- #endregion -->', 's')).toBe(true);
    expect(hasRegion('// #region s\nno end', 's')).toBe(false);
    expect(hasRegion('// #region sx\n// #endregion', 's')).toBe(false);
  });

  it('passes the fixture page that uses every allowed form', () => {
    const file = 'test/fixtures/docs-code/pass.md';
    expect(checkMarkdown(readFileSync(root + file, 'utf8'), { root, file })).toEqual([]);
    // The program those blocks show does what they say.
    expect(greet('Ada')).toBe('Hello, Ada!');
    expect(shout('Ada')).toBe('HELLO, ADA!');
  });

  it('fails the fixture page that breaks it, once per mistake', () => {
    const file = 'test/fixtures/docs-code/fail.md';
    expect(checkMarkdown(readFileSync(root + file, 'utf8'), { root, file })).toEqual([
      'test/fixtures/docs-code/fail.md:3: code block (```sh) has no <!-- runs: <path> --> or <!-- not-run: <reason> --> marker before it',
      'test/fixtures/docs-code/fail.md:10: line not in test/fixtures/docs-code/greet.ts: return `Goodbye, ${name}!`;',
      'test/fixtures/docs-code/fail.md:14: <!-- not-run: --> marker without a reason (for the code block (```text) at line 15)',
      'test/fixtures/docs-code/fail.md:19: runs: src/index.ts is not a file tests run (test/, examples/, python/tests/, go/*_test.go, go/examples/)',
      'test/fixtures/docs-code/fail.md:24: runs: no file test/fixtures/docs-code/missing.mjs',
      'test/fixtures/docs-code/fail.md:29: <!-- not-run: --> marker is not followed by a code block',
      'test/fixtures/docs-code/fail.md:33: code block (```ts) has no <!-- runs: <path> --> or <!-- not-run: <reason> --> marker before it',
      'test/fixtures/docs-code/fail.md:37: include @/../test/fixtures/docs-code/greet.ts: no #region farewell ' +
        '(with an #endregion after it) in test/fixtures/docs-code/greet.ts',
      'test/fixtures/docs-code/fail.md:38: include @/../examples/no-such-file.mjs: no file examples/no-such-file.mjs',
      'test/fixtures/docs-code/fail.md:39: include @/../src/index.ts: src/index.ts is not a file tests run ' +
        '(test/, examples/, python/tests/, go/*_test.go, go/examples/)',
      'test/fixtures/docs-code/fail.md:43: code block (~~~~py) is never closed',
      'test/fixtures/docs-code/fail.md:43: code block (~~~~py) has no <!-- runs: <path> --> or <!-- not-run: <reason> --> marker before it',
    ]);
  });
});
