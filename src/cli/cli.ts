#!/usr/bin/env node
/**
 * The `deckhand` command. `deckhand demo [url]` is the quick start's main job:
 * launch Chromium with the extension, open a page, print the snapshot a model
 * would read, and perform a deterministic action on it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Deckhand, localBrowser } from '../index';
import { deckhandHome } from '../client/deckhand';
import { startService } from '../server/service';
import { listOf } from '../server/hosts';
import { parseAllowSchemes } from '../protocol/url-policy';
import { SessionManager } from '../sessions/sessions';
import { SqliteStore } from '../client/cache/store';
import { resolveMcpOptions, type RawOptions } from '../mcp/options';
import { runStdio } from '../mcp/stdio';

const DEMO_PAGE = `<!doctype html><title>Deckhand demo</title>
<h1>Deckhand demo</h1>
<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Greeting: Hello, ' + this.name.value + '!'">
  <label for="name">Your name</label> <input id="name" name="name" placeholder="Ada">
  <label><input type="checkbox" id="news"> Send me news</label>
  <button id="go">Say hello</button>
</form>
<p id="out" role="status"></p>`;
// The page answers with "Greeting: Hello, <name>!", which extract reads back.

function usage(): never {
  console.log(`usage:
  deckhand demo [url]        launch Chromium, print the page snapshot, act on the demo form
  deckhand snapshot <url>    print the snapshot of a page
  deckhand mcp [--port P --host H [--allowedHosts H1,H2 --allowedOrigins O1,O2]] [--allowUrlSchemes file,...]
               [--modelName M --modelApiKey K] [--keepAlive] [--cache] [--proxies]
               [--contextId ID [--persist false]] [--browserWidth W --browserHeight H]
                             the MCP tool server (stdio, or Streamable HTTP at /mcp with --port)
  deckhand serve [--host H] [--port P] [--max-sessions N] [--idle-timeout SECONDS]
                 [--allowed-hosts H1,H2] [--allowed-origins O1,O2] [--allow-url-schemes file,...]
                             run the Deckhand HTTP service (sessions, act/observe/extract, cache)
                             (Host names besides loopback, and web-page origins, it answers;
                             also DECKHAND_ALLOWED_HOSTS and DECKHAND_ALLOWED_ORIGINS; URL schemes
                             such as file opened for every session, also DECKHAND_ALLOW_URL_SCHEMES)
options:
  --headed                   show the browser window
environment:
  DECKHAND_ALLOW_URL_SCHEMES URL schemes to open beyond http(s), data and about:blank (e.g. file)
  DECKHAND_MODEL             model for instructions (default: a provider's model when its key is set, else deckhand/local)`);
  process.exit(2);
}

async function withBrowser<T>(headed: boolean, fn: (dh: Deckhand) => Promise<T>): Promise<T> {
  const browser = await localBrowser.launch({ headless: !headed, allowUrlSchemes: urlSchemes(undefined) });
  const dh = await Deckhand.create({ browser, ...(process.env.DECKHAND_MODEL ? { model: process.env.DECKHAND_MODEL } : {}) });
  try {
    return await fn(dh);
  } finally {
    await dh.close();
    await browser.close();
  }
}

async function demo(url: string | undefined, headed: boolean): Promise<void> {
  const server = url ? null : createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(DEMO_PAGE));
  if (server) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const target = url ?? `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
  try {
    await withBrowser(headed, async (dh) => {
      const page = await dh.context.activePage();
      let t = performance.now();
      await page.goto(target);
      console.log(`opened ${target} in ${Math.round(performance.now() - t)} ms`);
      t = performance.now();
      const snap = await page.snapshot();
      console.log(`\nsnapshot (${snap.tokens} tokens est., ${Math.round(performance.now() - t)} ms):\n${snap.text}\n`);
      if (!url) {
        // Plain-language instructions, carried out by the configured model (the built-in
        // local model when no model or key is set), then one deterministic Action.
        for (const instruction of ['type "Ada" into the name field', 'check "Send me news"']) {
          t = performance.now();
          const r = await dh.act(instruction);
          console.log(`act "${instruction}" → ${r.data.message} (${Math.round(performance.now() - t)} ms, confidence ${r.metadata.confidence ?? 'n/a'})`);
          if (!r.data.success) throw new Error(`the demo could not ${instruction}`);
        }
        t = performance.now();
        const r = await dh.act({ selector: '#go', method: 'click', description: 'the Say hello button' });
        console.log(`act { selector: '#go' } → ${r.data.message} (${Math.round(performance.now() - t)} ms)`);
        const { data } = await dh.extract('the greeting');
        console.log(`\nextract "the greeting" → ${JSON.stringify(data)}`);
        console.log(`metrics: ${JSON.stringify(await dh.metrics())}`);
      }
    });
  } finally {
    server?.close();
  }
}

/** The operator's extra URL schemes, checked at once so a typo fails the start, not the first navigation. */
function urlSchemes(value: string | undefined): string[] {
  return [...parseAllowSchemes(listOf(value ?? process.env.DECKHAND_ALLOW_URL_SCHEMES))];
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function serve(args: string[]): Promise<void> {
  const home = deckhandHome();
  const port = Number(flag(args, 'port') ?? process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got ${flag(args, 'port')}`);
  const num = (name: string, env: string | undefined, def: number) => {
    const v = Number(flag(args, name) ?? env ?? def);
    if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
    return v;
  };
  const svc = await startService({
    home,
    host: flag(args, 'host') ?? process.env.HOST ?? '127.0.0.1',
    port,
    maxSessions: num('max-sessions', process.env.DECKHAND_MAX_SESSIONS, 4),
    idleTimeoutMs: num('idle-timeout', process.env.DECKHAND_IDLE_TIMEOUT_S, 600) * 1000,
    allowedHosts: listOf(flag(args, 'allowed-hosts') ?? process.env.DECKHAND_ALLOWED_HOSTS),
    allowedOrigins: listOf(flag(args, 'allowed-origins') ?? process.env.DECKHAND_ALLOWED_ORIGINS),
    allowUrlSchemes: urlSchemes(flag(args, 'allow-url-schemes')),
    log: (l) => console.error(l),
  });
  console.log(`deckhand service listening on ${svc.url} (data in ${home})`);
  if (svc.keys.generated) console.log(`created an API key (stored in ${join(home, 'api-keys')}; shown only now): ${svc.keys.generated}`);
  // A clean shutdown ends every session; remote browsers are disconnected from, never closed.
  const stop = () => {
    console.log('shutting down: ending sessions');
    void svc.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** Flags of `deckhand mcp`: `--name value`, or a bare `--name` meaning true. */
function mcpFlags(args: string[]): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (let i = 0; i < args.length; i++) {
    const m = /^--([A-Za-z]+)$/.exec(args[i]);
    if (!m) throw new Error(`unexpected argument ${args[i]}`);
    const next = args[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      out[m[1]] = next;
      i++;
    } else out[m[1]] = true;
  }
  return out;
}

async function mcp(args: string[]): Promise<void> {
  const f = mcpFlags(args);
  const known = ['port', 'host', 'allowUrlSchemes', 'allowedHosts', 'allowedOrigins', 'modelName', 'modelApiKey', 'keepAlive', 'proxies', 'verified', 'contextId', 'persist', 'browserWidth', 'browserHeight', 'experimental', 'cache'];
  const unknown = Object.keys(f).filter((k) => !known.includes(k));
  if (unknown.length) throw new Error(`unknown flag${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `--${k}`).join(', ')}`);
  const home = deckhandHome();
  const raw = { ...f, port: undefined, host: undefined, allowedHosts: undefined, allowedOrigins: undefined, allowUrlSchemes: undefined } as RawOptions;
  const allowUrlSchemes = urlSchemes(typeof f.allowUrlSchemes === 'string' ? f.allowUrlSchemes : undefined);
  const list = (v: string | boolean | undefined, env: string | undefined) => listOf(typeof v === 'string' ? v : env);
  const options = resolveMcpOptions(raw); // fails at once, clearly, on bad flags
  if (f.port === undefined) {
    // The same cache database as the service's, scoped to the one local tenant.
    const store = options.cache ? await SqliteStore.open(join(home, 'cache.db')) : undefined;
    const sessions = new SessionManager({ maxSessions: Number(process.env.DECKHAND_MAX_SESSIONS ?? 4), idleTimeoutMs: 30 * 60_000, allowUrlSchemes }, {}, undefined, store);
    return runStdio(options, sessions, home);
  }
  const svc = await startService({
    home,
    host: typeof f.host === 'string' ? f.host : 'localhost',
    port: Number(f.port),
    mcpOptions: raw,
    allowedHosts: list(f.allowedHosts, process.env.DECKHAND_ALLOWED_HOSTS),
    allowedOrigins: list(f.allowedOrigins, process.env.DECKHAND_ALLOWED_ORIGINS),
    allowUrlSchemes,
    log: (l) => console.error(l),
  });
  console.log(`deckhand MCP server listening on ${svc.url}/mcp`);
  if (svc.keys.generated) console.log(`created an API key (stored in ${join(home, 'api-keys')}; shown only now): ${svc.keys.generated}`);
  const stop = () => void svc.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const headed = args.includes('--headed');
  const rest = args.filter((a) => a !== '--headed');
  const [cmd, arg] = rest;
  if (cmd === 'demo' || cmd === undefined) return demo(arg, headed);
  if (cmd === 'serve') return serve(rest.slice(1));
  if (cmd === 'mcp') return mcp(process.argv.slice(3));
  if (cmd === 'snapshot' && arg) {
    return withBrowser(headed, async (dh) => {
      const page = await dh.context.activePage();
      await page.goto(arg);
      console.log((await page.snapshot()).text);
    });
  }
  usage();
}

main().catch((e) => {
  console.error(`deckhand: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
