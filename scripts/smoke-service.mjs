#!/usr/bin/env node
// Runs the quick start's main job (`npm start`: the HTTP service on the embedded defaults)
// and drives it once over HTTP: start a session, navigate, act with the built-in local
// model, end; then stops it with SIGTERM. CI uses this to run the main job and return.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const key = 'smoke-key';
const env = { ...process.env, PORT: '0', DECKHAND_API_KEYS: key, DECKHAND_HOME: mkdtempSync(join(tmpdir(), 'deckhand-smoke-')) };
// Its own process group, so the service and its browsers are stopped together whatever happens.
const child = spawn('npm', ['start'], { env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
const killAll = (signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
};
const fail = (msg) => {
  console.error(`smoke: ${msg}`);
  killAll('SIGKILL');
  process.exit(1);
};
const site = createServer((_, res) =>
  res
    .writeHead(200, { 'content-type': 'text/html' })
    .end('<title>Smoke</title><label for=q>Search</label><input id=q><button onclick="document.title=\'clicked\'">Go</button>'),
);
await new Promise((r) => site.listen(0, '127.0.0.1', r));
const timer = setTimeout(() => fail('no answer within 60 s'), 60_000);
const url = await new Promise((resolve) => {
  let out = '';
  child.stdout.on('data', (d) => {
    process.stdout.write(d);
    out += d;
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
  child.once('exit', (code) => fail(`the service exited early (code ${code})`));
});
const call = async (path, body) => {
  const r = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': key }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!j.success) fail(`${path}: ${r.status} ${JSON.stringify(j.error)}`);
  return j.data;
};
const page = `http://127.0.0.1:${site.address().port}/`;
const { sessionId } = await call('/v1/sessions/start', {});
await call(`/v1/sessions/${sessionId}/navigate`, { url: page });
const typed = await call(`/v1/sessions/${sessionId}/act`, { input: 'type "deckhand" into the search field' });
const clicked = await call(`/v1/sessions/${sessionId}/act`, { input: 'click the Go button' });
const { data: extracted } = await call(`/v1/sessions/${sessionId}/extract`, { instruction: 'the search' });
console.log(`smoke: act → ${typed.data.message}; ${clicked.data.message}; confidence ${clicked.metadata.confidence}`);
await call(`/v1/sessions/${sessionId}/end`, {});
child.removeAllListeners('exit');
killAll('SIGTERM');
await new Promise((r) => child.once('exit', r));
clearTimeout(timer);
site.close();
if (extracted.extraction !== 'deckhand') fail(`extract read ${JSON.stringify(extracted)}, not the typed text`);
console.log(`smoke: extract → ${JSON.stringify(extracted)}; the service answered and shut down cleanly`);
