/**
 * Import time of the built Node entry (dist/index.js, what `import('deckhand')` loads),
 * reported as a ratio against importing playwright-core measured in the same run: each
 * import in a fresh Node process, runs interleaved so load on the machine hits both alike.
 * Needs `npx tsup` first. BENCH_BASELINE=path/to/other/dist/index.js adds a third row
 * (an earlier build, for before/after). Numbers, not pass/fail: `npm run bench`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The JavaScript next to an entry (its chunks included), in KB. */
const jsKb = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .reduce((n, f) => n + statSync(resolve(dir, f)).size, 0) / 1024;

/** Milliseconds one fresh process takes to import `specifier` (resolved from the repository root). */
function importMs(specifier: string): number {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
  return Number(out.trim().split('\n').pop());
}

function main(): void {
  const entry = resolve(root, 'dist/index.js');
  if (!existsSync(entry)) throw new Error('dist/index.js is missing: run `npx tsup` first');
  const cases: { name: string; specifier: string }[] = [
    { name: 'deckhand (dist/index.js)', specifier: pathToFileURL(entry).href },
    { name: 'playwright-core', specifier: 'playwright-core' },
  ];
  const baseline = process.env.BENCH_BASELINE;
  if (baseline) cases.push({ name: `baseline (${baseline})`, specifier: pathToFileURL(resolve(baseline)).href });
  for (const c of cases) importMs(c.specifier); // warm the file system cache
  const times = new Map(cases.map((c) => [c.name, [] as number[]]));
  for (let i = 0; i < RUNS; i++) for (const c of cases) times.get(c.name)!.push(importMs(c.specifier));
  const pw = median(times.get('playwright-core')!);
  const rows = cases.map((c) => {
    const ms = median(times.get(c.name)!);
    const file = c.specifier.startsWith('file:') ? fileURLToPath(c.specifier) : null;
    return {
      module: c.name,
      'import ms (median)': +ms.toFixed(1),
      'ratio vs playwright-core': +(ms / pw).toFixed(3),
      'dist JS KB': file ? +jsKb(dirname(file)).toFixed(1) : '',
    };
  });
  console.table(rows);
  console.log(JSON.stringify({ runs: RUNS, rows }, null, 1));
}

main();
