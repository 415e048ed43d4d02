/**
 * The Python client's overhead against the Node client (bench/client-act.ts).
 *
 *   node --import tsx bench/python-act.ts      (BENCH_CLICKS=100 BENCH_ROUNDS=3 by default)
 */
import { existsSync } from 'node:fs';
import { CLICKS, compareWithNode, processRound } from './client-act';

const PYTHON = process.env.DECKHAND_PYTHON ?? '.venv/bin/python';

async function main(): Promise<void> {
  if (!existsSync(PYTHON)) throw new Error(`no ${PYTHON}: run npm run setup (it installs the Python client into .venv)`);
  await compareWithNode('Python', (url, selector) => processRound(PYTHON, ['bench/python-act.py', url, selector, String(CLICKS)]));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
