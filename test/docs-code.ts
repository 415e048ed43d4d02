/**
 * The docs' code-block rule (docs plan, issue 36), as a checker the unit test runs over
 * README.md and docs/**\/*.md. Every code block on a page is one of:
 *  - a VitePress include line, `<<< @/../examples/node/act.mjs#region{lang}`: the file exists,
 *    is one a test runs, and holds the #region when one is named;
 *  - a fenced block preceded (blank lines allowed) by `<!-- runs: <path> -->`: the path (from
 *    the repository root) is a file a test runs, and holds every non-empty line of the block,
 *    trimmed;
 *  - a fenced block preceded by `<!-- not-run: <reason> -->` with a reason.
 * So a snippet on a page either runs somewhere or says why not, and cannot drift silently.
 *
 * Fences are parsed as CommonMark does: ``` or ~~~ of any length from 3, closed by the same
 * character at least as long, an info string (no backtick in it for ``` fences), and fences
 * indented inside list items or in blockquotes. Markers are HTML comments on one line of their
 * own. Indented (4-space) code blocks are not looked at.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export interface Marker {
  kind: 'runs' | 'not-run';
  /** The path of runs:, the reason of not-run: (trimmed). */
  value: string;
  line: number;
}

export interface Fence {
  type: 'fence';
  /** 1-based line of the opening fence. */
  line: number;
  /** The opening fence itself, e.g. "```" or "~~~~". */
  fence: string;
  info: string;
  /** The block's lines, each with its 1-based line number in the page. */
  body: { text: string; line: number }[];
  closed: boolean;
  marker?: Marker;
}

export interface Include {
  type: 'include';
  line: number;
  /** As written after `<<<`. */
  raw: string;
  path: string;
  region?: string;
}

export interface Stray {
  type: 'problem';
  line: number;
  message: string;
}

export type Item = Fence | Include | Stray;

const FENCE_OPEN = /^( *)(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])( +|$)/;
const MARKER = /^\s*<!--\s*(runs|not-run)\s*:(.*?)-->\s*$/;
const INCLUDE = /^\s*<<<\s+(.*?)\s*$/;
// VitePress's own include syntax: path, then #region, {highlighted lines and/or lang}, [title].
const INCLUDE_PARTS = /^([^\s#{[]+)(?:#([\w*-]+))?(?:\s*\{([^}]*)\})?(?:\s*\[([^\]]*)\])?$/;

const QUOTE = /^(?: {0,3}> ?)+/;

const indentOf = (s: string) => s.length - s.trimStart().length;
/** A line without its blockquote prefix (GitHub's `> [!NOTE]` alerts may hold code blocks). */
const unquote = (s: string) => s.replace(QUOTE, '');

/** The fences, includes and misplaced markers of a Markdown page, in order. */
export function parseMarkdown(md: string): Item[] {
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  const items: Item[] = [];
  let i = 0;
  // Front matter: YAML, never code blocks.
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1);
    if (end > 0) i = end + 1;
  }
  // Content columns of the open list items, innermost last: a fence may be indented up to
  // 3 spaces past the innermost one (more would make it an indented code block's text).
  const lists: number[] = [];
  let pending: Marker | undefined;
  const orphan = (m: Marker, why: string) => items.push({ type: 'problem', line: m.line, message: `<!-- ${m.kind}: --> marker ${why}` });

  for (; i < lines.length; i++) {
    const quoted = QUOTE.test(lines[i]);
    let text = unquote(lines[i]).replace(/\t/g, '    ');
    if (text.trim() === '') continue;
    let ind = indentOf(text);
    while (lists.length && ind < lists[lists.length - 1]) lists.pop();
    // A list item's first line may itself open a fence ("- ```ts"): look at what follows the marker.
    const item = LIST_ITEM.exec(text);
    if (item) {
      const spaces = item[3].length;
      const column = item[1].length + item[2].length + (spaces === 0 || spaces > 4 ? 1 : spaces);
      while (lists.length && lists[lists.length - 1] >= column) lists.pop();
      lists.push(column);
      text = ' '.repeat(column) + text.slice(column);
      ind = indentOf(text);
    }
    const base = lists.length ? lists[lists.length - 1] : 0;

    const marker = MARKER.exec(text);
    if (marker) {
      if (pending) orphan(pending, 'is followed by another marker, not by a code block');
      pending = { kind: marker[1] as Marker['kind'], value: marker[2].trim(), line: i + 1 };
      continue;
    }

    const open = FENCE_OPEN.exec(text);
    if (open && ind - base <= 3 && !(open[2][0] === '`' && open[3].includes('`'))) {
      const fence = open[2];
      const close = new RegExp(`^ *${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
      const body: Fence['body'] = [];
      let closed = false;
      let j = i + 1;
      for (; j < lines.length; j++) {
        // A fence opened in a blockquote ends with it.
        if (quoted && !QUOTE.test(lines[j])) break;
        const l = quoted ? unquote(lines[j]) : lines[j];
        if (close.test(l)) {
          closed = true;
          break;
        }
        // Drop the fence's own indentation, as CommonMark does.
        body.push({ text: l.slice(Math.min(ind, indentOf(l))), line: j + 1 });
      }
      items.push({ type: 'fence', line: i + 1, fence, info: open[3].trim(), body, closed, marker: pending });
      pending = undefined;
      i = closed ? j : j - 1;
      continue;
    }

    const include = INCLUDE.exec(text);
    if (include && ind - base <= 3) {
      if (pending) orphan(pending, 'is followed by an include line, which needs no marker');
      pending = undefined;
      const parts = INCLUDE_PARTS.exec(include[1]);
      if (!parts) items.push({ type: 'problem', line: i + 1, message: `include line not understood: "${text.trim()}"` });
      else items.push({ type: 'include', line: i + 1, raw: include[1], path: parts[1], region: parts[2] });
      continue;
    }

    if (pending) orphan(pending, 'is not followed by a code block');
    pending = undefined;
  }
  if (pending) orphan(pending, 'is not followed by a code block');
  return items;
}

/** Whether a test runs the file at `rel` (a path from the repository root, with / separators). */
export function runByTests(rel: string): boolean {
  if (/^(test|examples|python\/tests)\//.test(rel)) return true;
  return rel.startsWith('go/') && (rel.endsWith('_test.go') || rel.startsWith('go/examples/'));
}

// VitePress's region markers in the comment styles of the languages the examples use.
const regionStart = (name: string) => new RegExp(`^\\s*(?://|#|<!--|/\\*)\\s*#?region\\s+${name.replace(/[*]/g, '\\*')}\\b`);
const regionEnd = /^\s*(?:\/\/|#|<!--|\/\*)\s*#?endregion\b/;

/** Whether `source` holds `// #region name` ... `// #endregion` (any of the usual comment styles). */
export function hasRegion(source: string, name: string): boolean {
  const lines = source.split('\n');
  const start = lines.findIndex((l) => regionStart(name).test(l));
  return start >= 0 && lines.slice(start + 1).some((l) => regionEnd.test(l));
}

export interface CheckOptions {
  /** The repository root: runs: paths are taken from it, `@/` is its docs/ folder. */
  root: string;
  /** The page's path, from the root (for messages and relative include paths). */
  file: string;
}

/** Everything on the page that breaks the rule, as "file:line: what is wrong". */
export function checkMarkdown(md: string, { root, file }: CheckOptions): string[] {
  const problems: string[] = [];
  const say = (line: number, message: string) => problems.push(`${file}:${line}: ${message}`);
  const fromRoot = (abs: string) => relative(root, abs).split(sep).join('/');
  const outside = (rel: string) => rel.startsWith('../') || isAbsolute(rel);

  for (const item of parseMarkdown(md)) {
    if (item.type === 'problem') {
      say(item.line, item.message);
      continue;
    }
    if (item.type === 'include') {
      const abs = item.path.startsWith('@/') ? resolve(root, 'docs', item.path.slice(2)) : resolve(root, dirname(file), item.path);
      const rel = fromRoot(abs);
      if (outside(rel)) say(item.line, `include ${item.path} points outside the repository`);
      else if (!existsSync(abs) || !statSync(abs).isFile()) say(item.line, `include ${item.path}: no file ${rel}`);
      else if (!runByTests(rel))
        say(item.line, `include ${item.path}: ${rel} is not a file tests run (test/, examples/, python/tests/, go/*_test.go, go/examples/)`);
      else if (item.region && !hasRegion(readFileSync(abs, 'utf8'), item.region))
        say(item.line, `include ${item.path}: no #region ${item.region} (with an #endregion after it) in ${rel}`);
      continue;
    }
    const what = `code block (${item.fence}${item.info ? item.info.split(/\s/)[0] : ''})`;
    if (!item.closed) say(item.line, `${what} is never closed`);
    const m = item.marker;
    if (!m) {
      say(item.line, `${what} has no <!-- runs: <path> --> or <!-- not-run: <reason> --> marker before it`);
      continue;
    }
    if (m.kind === 'not-run') {
      if (!m.value) say(m.line, `<!-- not-run: --> marker without a reason (for the ${what} at line ${item.line})`);
      continue;
    }
    if (!m.value) {
      say(m.line, `<!-- runs: --> marker without a path (for the ${what} at line ${item.line})`);
      continue;
    }
    const abs = resolve(root, m.value);
    const rel = fromRoot(abs);
    if (outside(rel)) {
      say(m.line, `runs: ${m.value} points outside the repository`);
      continue;
    }
    if (!existsSync(abs) || !statSync(abs).isFile()) {
      say(m.line, `runs: no file ${m.value}`);
      continue;
    }
    if (!runByTests(rel)) {
      say(m.line, `runs: ${m.value} is not a file tests run (test/, examples/, python/tests/, go/*_test.go, go/examples/)`);
      continue;
    }
    const source = readFileSync(abs, 'utf8');
    for (const l of item.body) {
      const t = l.text.trim();
      if (t && !source.includes(t)) say(l.line, `line not in ${m.value}: ${t}`);
    }
  }
  return problems;
}

/** The pages the rule covers, from the root: README.md and docs/**\/*.md but the generated reference and VitePress's folder. */
export function docPages(root: string): string[] {
  const out = existsSync(join(root, 'README.md')) ? ['README.md'] : [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name === 'node_modules' || rel === 'docs/.vitepress') continue;
        walk(rel);
      } else if (e.isFile() && e.name.endsWith('.md')) {
        if (rel.startsWith('docs/reference/') && rel !== 'docs/reference/index.md') continue;
        out.push(rel);
      }
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  return out.sort();
}
