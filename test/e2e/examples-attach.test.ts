/**
 * examples/node/attach.mjs as a person runs it: the program prints a port and token, the person
 * enters them in the side panel (test/fixtures/pair-panel.ts plays that part in a Chromium of its
 * own), and the program opens a page there, acts on it and prints the result. The page tells the
 * server that served it about the click, so the test sees the change without a link to the browser.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const seen: string[] = [];
let server: Server;
let origin: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  const page = await readFile(`${ROOT}test/fixtures/pages/attach.html`, 'utf8');
  server = createServer((req, res) => {
    if (req.url?.startsWith('/seen?')) seen.push(req.url);
    res.writeHead(req.url === '/attach.html' ? 200 : 204, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(req.url === '/attach.html' ? page : undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await new Promise((r) => server?.close(r));
});

/** Start a program; `lines` yields its stdout lines, `output` holds everything it printed so far. */
function run(args: string[]): { child: ChildProcess; lines: AsyncIterator<string>; output: () => string } {
  // The example runs as a user runs it (plain node); the fixture is TypeScript.
  const loader = args[0]!.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (out += d));
  return { child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator](), output: () => out };
}

async function nextLine(p: ReturnType<typeof run>, what: string): Promise<string> {
  const next = await p.lines.next();
  if (next.done) throw new Error(`${what}: the program ended without it; it printed:\n${p.output()}`);
  return next.value;
}

const exited = (c: ChildProcess) => new Promise<number | null>((r) => (c.exitCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code))));

it('examples/node/attach.mjs pairs with the side panel, acts on the page it is given and prints the result', { timeout: 90_000 }, async () => {
  const example = run(['examples/node/attach.mjs', `${origin}/attach.html`, 'click the Billing tab']);
  const offer = await nextLine(example, 'the pairing instructions');
  const m = /enter port (\d+) and token ([a-z0-9-]+)/.exec(offer);
  expect(m, offer).not.toBeNull();

  const person = run(['test/fixtures/pair-panel.ts', '--port', m![1], '--token', m![2]]);
  const paired = JSON.parse(await nextLine(person, 'the pairing outcome'));
  expect(paired).toMatchObject({ paired: true, state: 'attached', port: Number(m![1]), message: `attached to the attach example on 127.0.0.1:${m![1]}` });

  const result = JSON.parse(await nextLine(example, 'the result'));
  expect(result).toEqual({ success: true, action: expect.stringMatching(/Billing/), title: 'Orders: Billing' });
  expect(await exited(example.child)).toBe(0);
  expect(seen).toContain('/seen?click=tab-billing');

  person.child.stdin!.end(); // the person is done: the fixture closes its browser
  expect(await exited(person.child)).toBe(0);
});
