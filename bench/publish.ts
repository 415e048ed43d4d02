/**
 * Where a benchmark's latest figures go for the docs: docs/public/bench/NAME.json (the
 * numbers and the machine they came from), NAME.svg (its chart), and its table in
 * docs/benchmarks.md between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->`, so
 * the page stays static Markdown and changes only when a benchmark runs.
 * BENCH_PUBLISH=0 leaves the docs alone (e.g. for a run with other parameters).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from '../src/client/paths';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BENCH_DIR = join(ROOT, 'docs', 'public', 'bench');
export const PAGE = join(ROOT, 'docs', 'benchmarks.md');

/** The machine a run measured, written with its figures. */
export function machine(): Record<string, string | number> {
  const exe = findChromium();
  let chromium = 'unknown';
  try {
    // The Debian wrapper prints a shell warning first: keep the version line.
    chromium = execFileSync(exe!, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split('\n')
      .pop()!;
  } catch {
    /* left unknown */
  }
  const pw = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'playwright-core', 'package.json'), 'utf8')).version as string;
  return {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1e9),
    platform: `${process.platform} ${process.arch}`,
    node: process.version,
    chromium,
    playwright: pw,
  };
}

/** `page` with the text between NAME's markers replaced by `body`. */
export function replaceBetweenMarkers(page: string, name: string, body: string): string {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const a = page.indexOf(start);
  const b = a < 0 ? -1 : page.indexOf(end, a);
  if (b < 0) throw new Error(`no ${start} ... ${end} in the page`);
  return `${page.slice(0, a + start.length)}\n${body.trim()}\n${page.slice(b)}`;
}

/** A Markdown table from rows with the same keys. */
export function markdownTable(rows: Record<string, string | number>[]): string {
  const keys = Object.keys(rows[0] ?? {});
  const cell = (v: unknown) => String(v).replace(/\|/g, '\\|');
  return (
    [`| ${keys.map(cell).join(' | ')} |`, `|${keys.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${keys.map((k) => cell(r[k])).join(' | ')} |`)].join(
      '\n',
    ) + '\n'
  );
}

export interface Published {
  /** What was measured and how, in a sentence (kept in the JSON). */
  about: string;
  parameters: Record<string, unknown>;
  rows: object[];
  svg: string;
  /** Markdown for the page between the markers; a table of `rows` unless given. */
  markdown?: string;
}

/** Write NAME.json and NAME.svg, and NAME's table into the page; returns the JSON's path. */
export function publish(name: string, p: Published): string | null {
  if (process.env.BENCH_PUBLISH === '0') return null;
  mkdirSync(BENCH_DIR, { recursive: true });
  const measured = new Date().toISOString();
  const m = machine();
  const json = join(BENCH_DIR, `${name}.json`);
  writeFileSync(json, JSON.stringify({ benchmark: name, about: p.about, measured, machine: m, parameters: p.parameters, rows: p.rows }, null, 1) + '\n');
  writeFileSync(join(BENCH_DIR, `${name}.svg`), p.svg);
  if (existsSync(PAGE)) {
    const when =
      `Measured ${measured.slice(0, 10)} on ${m.cpus} cores (${m.cpu}), ${m.chromium}, Node ${m.node}; ` + `numbers in [${name}.json](/bench/${name}.json).`;
    try {
      writeFileSync(
        PAGE,
        replaceBetweenMarkers(readFileSync(PAGE, 'utf8'), name, `${p.markdown ?? markdownTable(p.rows as Record<string, string | number>[])}\n${when}\n`),
      );
    } catch (e) {
      // The JSON and the chart are written by now: a page without the markers should not lose the run.
      console.error(`docs/benchmarks.md not updated: ${(e as Error).message}`);
    }
  }
  return json;
}
