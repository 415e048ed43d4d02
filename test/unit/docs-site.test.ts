/**
 * The docs site without building it: every page the navigation names exists (or is one the
 * reference generator writes), no page is left out of it, and the generator's pure parts turn
 * today's OpenAPI document, error table and MCP tools into the pages' expected headings.
 * `npm run docs` builds the whole site (with VitePress's dead-link check) in CI.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pageFile, sections } from '../../docs/.vitepress/sidebar';
import {
  cliMarkdown,
  errorCodeDocs,
  errorsMarkdown,
  fieldRows,
  GENERATED_PAGES,
  goDocMarkdown,
  mcpMarkdown,
  openApiMarkdown,
  operationHeading,
  subcommands,
  typeOf,
} from '../../scripts/reference/render';
import { errorRows, httpDocument, mcpToolDocs } from '../../scripts/reference/sources';
import { ErrorCode } from '../../src/protocol/errors';

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));
const links = sections.flatMap((s) => [s.link, ...s.items.map((i) => i.link)]);
const generated = new Set(GENERATED_PAGES.map((p) => `reference/${p}`));

/** Markdown files under docs/ that people write (not the generated reference, not VitePress's own folder). */
function writtenPages(dir = docs): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    const rel = relative(docs, path);
    if (e.isDirectory()) return e.name.startsWith('.') || e.name === 'public' ? [] : writtenPages(path);
    return e.name.endsWith('.md') && !(rel.startsWith('reference/') && rel !== 'reference/index.md') ? [rel] : [];
  });
}

describe('the docs site navigation', () => {
  it('names only pages that exist or that gen-reference writes', () => {
    const missing = links.map(pageFile).filter((f) => !generated.has(f) && !existsSync(join(docs, f)));
    expect(missing).toEqual([]);
  });

  it('names every generated reference page, and every page written by hand', () => {
    const named = new Set(links.map(pageFile));
    expect([...generated].filter((p) => !named.has(p))).toEqual([]);
    expect(writtenPages().filter((p) => !named.has(p))).toEqual([]);
  });

  it("has the plan's sections, in order", () => {
    expect(sections.map((s) => s.text)).toEqual(['Start', 'Guides', 'Reference', 'Architecture', 'Benchmarks']);
    expect(pageFile('/')).toBe('index.md');
    expect(pageFile('/reference/typescript/')).toBe('reference/typescript/index.md');
    expect(pageFile('/guides/cache')).toBe('guides/cache.md');
  });
});

describe('the HTTP reference', () => {
  const doc = httpDocument();
  const page = openApiMarkdown(doc);

  it('has a heading for every operation of the OpenAPI document', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) expect(page).toContain(`\n### ${operationHeading(method, path)}\n`);
    }
    expect(page).toContain('\n### POST `/v1/sessions/{id}/act`\n');
    expect(page).toContain('\n### PUT `/v1/flows/{name}`\n');
    expect(page).toContain('\n## Errors\n');
  });

  it('shows request fields, parameters and the statuses an operation fails with', () => {
    const act = page.slice(page.indexOf('### POST `/v1/sessions/{id}/act`'), page.indexOf('### POST `/v1/sessions/{id}/observe`'));
    expect(act).toContain('**Request body** (`application/json`, required)');
    expect(act).toMatch(/\| `id` \| path \| `string \(uuid\)` \| yes \|/);
    expect(act).toMatch(/\| `input` \| `string \\\| object` \| yes \|/);
    expect(act).toContain('| `x-stream-response` | header |');
    expect(act).toMatch(/\*\*Errors\*\*: 400, 401, .*422/);
    expect(page).toMatch(/\| 422 \| [A-Z_, ]*ELEMENT_NOT_FOUND/);
  });
});

describe('the error-code reference', () => {
  it('has a row per code with its HTTP status and MCP code, and the meanings errors.ts writes down', () => {
    const page = errorsMarkdown(errorRows(), { 422: 'Unprocessable Entity' });
    expect(page).toMatch(/^# Error codes\n/);
    expect(page).toContain('| `ELEMENT_NOT_FOUND` | `ErrorCode.ElementNotFound` |  | 422 Unprocessable Entity | tool result, `isError` |');
    expect(page).toContain('| `INVALID_JSON` | `ErrorCode.InvalidJson` |  | 400 | -32700 (parse error) |');
    expect(page).toContain("Chromium's error page");
    expect(page.match(/^\| `[A-Z_]+` \|/gm)).toHaveLength(errorRows().length);
  });

  it('reads doc comments off the ErrorCode object only', () => {
    const docs = errorCodeDocs(readFileSync(fileURLToPath(new URL('../../src/protocol/errors.ts', import.meta.url)), 'utf8'));
    expect(docs.UrlNotAllowed).toMatch(/scheme the operator has not opened/);
    // Every code has its comment, and nothing but the codes is read (ERROR_MAP's rows are not).
    expect(Object.keys(docs)).toEqual(Object.keys(ErrorCode));
  });
});

describe('the MCP tools reference', () => {
  it('has a section per tool with its input and output fields', () => {
    const tools = mcpToolDocs();
    const page = mcpMarkdown(tools);
    for (const t of tools) expect(page).toContain(`\n## ${t.name}\n`);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['start', 'act', 'extract', 'agent', 'replay']));
    const act = page.slice(page.indexOf('\n## act\n'), page.indexOf('\n## observe\n'));
    expect(act).toMatch(/\| `action` \| `string` \| yes \| one action in plain language \|/);
    expect(act).toContain('| `cache` |');
    const start = page.slice(page.indexOf('\n## start\n'), page.indexOf('\n## end\n'));
    expect(start).toContain('No arguments.');
  });
});

describe('the pure renderers', () => {
  it('names nested fields by their path', () => {
    const rows = fieldRows({
      type: 'object',
      required: ['a'],
      properties: { a: { type: 'array', items: { type: 'object', properties: { b: { type: 'string', description: 'x | y' } } } } },
    });
    expect(rows).toEqual([
      { name: 'a', type: 'object[]', required: true, description: '' },
      { name: 'a[].b', type: 'string', required: false, description: 'x | y' },
    ]);
    expect(typeOf({ anyOf: [{ type: 'string' }, { type: 'number' }], nullable: true })).toBe('string | number | null');
    expect(typeOf({ type: 'object', additionalProperties: { type: 'string' } })).toBe('Record<string, string>');
  });

  it("lists a help text's subcommands and sets each help in a code block", () => {
    const help =
      'Usage: deckhand [options] [command]\n\nCommands:\n  serve [options]   run it\n  keys              the keys:\n' +
      '                    wrapped\n  help [command]    display help\n\nEnvironment:\n  X  y\n';
    expect(subcommands(help)).toEqual(['serve', 'keys']);
    expect(cliMarkdown([{ command: 'deckhand', help }])).toContain('## deckhand\n\n```text\nUsage: deckhand');
  });

  it('gives go doc output a heading per section, type and function', () => {
    const page = goDocMarkdown(
      'package deckhand // import "x"\n\nPackage doc.\n\nFUNCTIONS\n\nfunc Bool(v bool) *bool\n    Bool is a pointer.\n\n' +
        'TYPES\n\ntype Client struct {\n\t// Has unexported fields.\n}\n    A client.\n\nfunc New() *Client\n\nfunc (c *Client) Close() error\n',
      'x',
    );
    expect(page).toContain('\n## Functions\n\n### Bool\n\n```go\nfunc Bool(v bool) *bool');
    expect(page).toContain('\n## Types\n\n### Client\n\n```go\ntype Client struct {');
    expect(page).toContain('func (c *Client) Close() error\n```');
    expect(page).toContain('## Overview\n\n```text\npackage deckhand');
  });
});
