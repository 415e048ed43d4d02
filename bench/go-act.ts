/**
 * The Go client's overhead against the Node client (bench/client-act.ts).
 *
 *   node --import tsx bench/go-act.ts      (BENCH_CLICKS=100 BENCH_ROUNDS=3 by default)
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { CLICKS, compareWithNode, processRound } from './client-act';

/** Built once, then run a round at a time. */
const GO_BIN = '.tmp/go-bench-act';

async function main(): Promise<void> {
  await promisify(execFile)('go', ['build', '-o', '../' + GO_BIN, './examples/bench-act'], { cwd: 'go' });
  if (!existsSync(GO_BIN)) throw new Error(`go build did not make ${GO_BIN}`);
  await compareWithNode('Go', (url, selector) => processRound(GO_BIN, [url, selector, String(CLICKS)]));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
