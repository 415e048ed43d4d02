/**
 * The Node examples (examples/node/) run as a user runs them: `node <example> <url>`, a child
 * process with a fixture page's URL and no key, no DECKHAND_* variable. Each must exit 0, print
 * what it says it does, and have done it: the page's resulting state it prints, or the form
 * post the fixture server received.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServers, type FixtureServers } from '../fixtures/server';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = `${ROOT}examples/node/`;
/** Examples another suite runs (attach needs a person to pair the extension in Chrome). */
const RUN_ELSEWHERE = new Set(['attach']);

let servers: FixtureServers;
beforeAll(async () => {
  servers = await startFixtureServers();
});
afterAll(async () => {
  await servers?.close();
});
beforeEach(() => {
  servers.posts.length = 0;
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node examples/node/<name>.mjs <url>`, as a user would type it, from the repository root. */
function run(name: string, path: string): Promise<Run> {
  // What a user's shell would not have: a provider key (the examples use the built-in model)
  // or this repository's test settings.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/(_API_KEY|^DECKHAND_|^VITEST|^NODE_ENV$)/.test(k)));
  return new Promise((resolve) => {
    execFile(process.execPath, [`${EXAMPLES}${name}.mjs`, servers.origin + path], { cwd: ROOT, env, timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The run ended well; its output's lines. */
function lines(r: Run): string[] {
  expect(r.code, `exit code; stderr:\n${r.stderr}\nstdout:\n${r.stdout}`).toBe(0);
  return r.stdout.trim().split('\n');
}

describe('the Node examples', { timeout: 120_000 }, () => {
  const CASES = ['act', 'observe', 'extract', 'cache', 'custom-model', 'logging', 'batch', 'agent', 'pages-and-locators', 'approval'];

  it('are all run here', () => {
    const files = readdirSync(EXAMPLES)
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => f.replace(/\.mjs$/, ''));
    expect(files.filter((f) => !RUN_ELSEWHERE.has(f)).sort()).toEqual([...CASES].sort());
  });

  it('approval: the submit waits for the handler, which approves it; a Stop refuses with NOT_APPROVED', async () => {
    const out = lines(await run('approval', '/examples/contact.html'));
    expect(out[0]).toMatch(/^asked: click on .*Send.* submits a form/);
    expect(out).toContain('agent: done');
    expect(out).toContain('refused: NOT_APPROVED (stop)');
    expect(out.at(-1)).toBe('page now: Contact us · Harbor Supply');
    // One post: the approved one; the refused click sent nothing.
    expect(servers.posts).toEqual([{ path: '/contact', fields: expect.objectContaining({ name: 'Ada Lovelace', email: 'ada@example.com' }) }]);
  });

  it('act fills the contact form from instructions and sends it', async () => {
    const out = lines(await run('act', '/examples/contact.html'));
    expect(out.filter((l) => l.startsWith('done: '))).toHaveLength(5);
    expect(out).toContain('page now: Message sent');
    expect(out).toContain('heading: Thanks, Ada Lovelace!');
    expect(servers.posts).toEqual([
      { path: '/contact', fields: { name: 'Ada Lovelace', email: 'ada@example.com', topic: 'returns', message: 'The trowel arrived bent.' } },
    ]);
  });

  it('observe lists the Add to cart buttons and acts on the second one', async () => {
    const out = lines(await run('observe', '/examples/shop.html'));
    expect(out[0]).toBe('found 3 actions:');
    expect(out.slice(1, 4).every((l) => /^ {2}click .*Add to cart.*\(\S+\)$/.test(l))).toBe(true);
    expect(out.slice(4)).toEqual(['Cart: 1 item', 'in the cart: Trowel']);
  });

  it('extract reads the products with a zod schema', async () => {
    const out = lines(await run('extract', '/examples/shop.html'));
    expect(out).toEqual(['Garden Hose: 24.99', 'Trowel: 9.50', 'Watering Can: 18.00', 'total: 52.49']);
  });

  it('cache misses the first time and hits the second', async () => {
    const out = lines(await run('cache', '/examples/contact.html'));
    expect(out).toEqual(['first run: cache MISS, Name field = "Ada Lovelace"', 'second run: cache HIT, Name field = "Ada Lovelace"']);
  });

  it('custom model answers act with its own function', async () => {
    const out = lines(await run('custom-model', '/examples/shop.html'));
    const asked = out.filter((l) => l.startsWith('model asked: '));
    expect(asked).toHaveLength(3);
    expect(asked[0]).toMatch(/^model asked: "click \\"Add to cart\\"" over \d+ outline lines -> e\d+$/);
    expect(asked[2]).toMatch(/^model asked: "click \\"Pay with bitcoin\\"" over \d+ outline lines -> not found$/);
    expect(out.filter((l) => !l.startsWith('model asked: '))).toEqual([
      'click "Add to cart": done',
      'click "Checkout": done',
      'click "Pay with bitcoin": not done',
      'status: Order placed: Garden Hose',
    ]);
  });

  it('logging hands the log lines to a callback', async () => {
    const out = lines(await run('logging', '/examples/shop.html'));
    expect(out[0]).toMatch(/^\[info\] act on page \d+ with deckhand\/local$/);
    expect(out).toContainEqual(expect.stringMatching(/^\[info\] act: deckhand\/local answered in [\d.]+ ms$/));
    expect(out.slice(-2)).toEqual(['act succeeded: true', 'Cart: 1 item']);
  });

  it('batch adds two products and checks out inside the browser', async () => {
    const out = lines(await run('batch', '/examples/shop.html'));
    expect(out).toEqual(['Garden Hose: added', 'Trowel: added', 'status: Order placed: Garden Hose, Trowel']);
  });

  it('agent fills and sends the contact form with the built-in model', async () => {
    const out = lines(await run('agent', '/examples/contact.html'));
    expect(out[0]).toBe('success: true, completed: true');
    expect(out.filter((l) => l.startsWith('  act: performed: '))).toHaveLength(5);
    expect(out.at(-1)).toBe('page now: Message sent');
    expect(servers.posts).toEqual([
      { path: '/contact', fields: { name: 'Grace Hopper', email: 'grace@example.com', topic: 'returns', message: 'The hose leaks at the tap.' } },
    ]);
  });

  it('pages and locators fill a form in a second tab', async () => {
    const out = lines(await run('pages-and-locators', '/form.html'));
    expect(out).toEqual([
      'open pages: 2',
      'checkboxes on the form: 2',
      'submitted: name=Ada Lovelace email=ada@example.com country=fr terms=true',
      'heading: Sign up',
      'open pages: 1, first page: about:blank',
    ]);
  });
});
