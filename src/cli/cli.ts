#!/usr/bin/env node
/**
 * The `deckhand` command. `deckhand demo [url]` is the quick start's main job:
 * launch Chromium with the extension, open a page, print the snapshot a model
 * would read, and perform a deterministic action on it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deckhand, localBrowser } from '../index';
import { newApiKey } from '../keys/api-keys';
import { openPool } from '../postgres/pool';
import { addPgKey, revokePgKey } from '../postgres/keys';
import { deckhandHome } from '../client/deckhand';
import { startService } from '../server/service';
import { checkBindHost, listOf } from '../server/hosts';
import { parseAllowSchemes } from '../protocol/url-policy';
import { SessionManager, type SessionLimits } from '../sessions/sessions';
import { SqliteStore } from '../client/cache/store';
import { resolveMcpOptions, type RawOptions } from '../mcp/options';
import { runStdio } from '../mcp/stdio';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ENGINE_VERSION } from '../protocol/version';
import { parsePrices, type Prices } from '../protocol/prices';

const DEMO_PAGE = `<!doctype html><title>Deckhand demo</title>
<h1>Deckhand demo</h1>
<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Greeting: Hello, ' + this.name.value + '!'">
  <label for="name">Your name</label> <input id="name" name="name" placeholder="Ada">
  <label><input type="checkbox" id="news"> Send me news</label>
  <button id="go">Say hello</button>
</form>
<p id="out" role="status"></p>`;
// The page answers with "Greeting: Hello, <name>!", which extract reads back.

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

/** A positive number from a flag, else the environment, else the default; a bad value fails the start. */
function positive(name: string, value: string | undefined, env: string | undefined, def: number): number {
  const raw = value ?? env;
  const v = Number(raw ?? def);
  if (!Number.isFinite(v) || v <= 0) throw new InvalidArgumentError(`--${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return v;
}

function portOf(value: string | undefined, fallback: number): number {
  const port = Number(value ?? fallback);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError(`--port must be a port number (0 to 65535), got ${JSON.stringify(value)}`);
  }
  return port;
}

/**
 * The operator's model prices: a JSON file (--prices, else DECKHAND_PRICES) of
 * { "provider/model": { inputPerMTok, outputPerMTok, cachedInputPerMTok? } }. A file that is
 * missing or wrong fails the start, naming the entry at fault.
 */
function pricesFrom(file: string | undefined): Prices | undefined {
  const path = file ?? process.env.DECKHAND_PRICES;
  if (!path) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new InvalidArgumentError(`the prices file ${path} could not be read as JSON: ${(e as Error).message}`);
  }
  try {
    return parsePrices(raw, `prices in ${path}`);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
}

interface ServeFlags {
  host?: string;
  port?: string;
  maxSessions?: string;
  idleTimeout?: string;
  allowedHosts?: string;
  allowedOrigins?: string;
  allowUrlSchemes?: string;
  grid?: string;
  gridExtensionDir?: string;
  allowCdpHosts?: string;
  contextsPerBrowser?: string;
  prices?: string;
}

/** The Selenium Grid sessions' browsers come from (--grid, DECKHAND_GRID_URL), if any. */
function gridOf(url: string | undefined, extensionDir: string | undefined): SessionLimits['grid'] {
  const u = url ?? process.env.DECKHAND_GRID_URL;
  if (!u) return undefined;
  const dir = extensionDir ?? process.env.DECKHAND_GRID_EXTENSION_DIR;
  // "packed": the nodes get the extension with each session request instead of from a folder of theirs.
  if (dir === 'packed') return { url: u, packedExtension: true };
  return { url: u, ...(dir ? { extensionDir: dir } : {}) };
}

async function serve(o: ServeFlags): Promise<void> {
  const home = deckhandHome();
  const svc = await startService({
    home,
    host: o.host ?? process.env.HOST ?? '127.0.0.1',
    port: portOf(o.port ?? process.env.PORT, 3000),
    maxSessions: positive('max-sessions', o.maxSessions, process.env.DECKHAND_MAX_SESSIONS, 4),
    idleTimeoutMs: positive('idle-timeout', o.idleTimeout, process.env.DECKHAND_IDLE_TIMEOUT_S, 600) * 1000,
    allowedHosts: listOf(o.allowedHosts ?? process.env.DECKHAND_ALLOWED_HOSTS),
    allowedOrigins: listOf(o.allowedOrigins ?? process.env.DECKHAND_ALLOWED_ORIGINS),
    allowUrlSchemes: urlSchemes(o.allowUrlSchemes),
    grid: gridOf(o.grid, o.gridExtensionDir),
    allowCdpHosts: listOf(o.allowCdpHosts ?? process.env.DECKHAND_ALLOW_CDP_HOSTS),
    contextsPerBrowser: positive('contexts-per-browser', o.contextsPerBrowser, process.env.DECKHAND_CONTEXTS_PER_BROWSER, 1),
    prices: pricesFrom(o.prices),
    // From the environment only: a password on the command line shows in every process listing.
    databaseUrl: process.env.DECKHAND_DATABASE_URL || undefined,
    replica: process.env.DECKHAND_REPLICA || undefined,
    log: (l) => console.error(l),
  });
  const shared = !!process.env.DECKHAND_DATABASE_URL;
  console.log(`deckhand service listening on ${svc.url} (${shared ? 'sessions, keys and cache in PostgreSQL' : `data in ${home}`})`);
  const where = shared ? 'as a digest in PostgreSQL' : `in ${join(home, 'api-keys')}`;
  if (svc.keys.generated) console.log(`created an API key (stored ${where}; shown only now): ${svc.keys.generated}`);
  // A clean shutdown ends every session; remote browsers are disconnected from, never closed.
  const stop = () => {
    console.log('shutting down: ending sessions');
    void svc.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

type McpFlags = { [K in keyof RawOptions]?: string | boolean } & {
  port?: string;
  host?: string;
  allowedHosts?: string;
  allowedOrigins?: string;
  allowUrlSchemes?: string;
  idleTimeout?: string;
  maxSessions?: string;
  grid?: string;
  gridExtensionDir?: string;
};

async function mcp(f: McpFlags): Promise<void> {
  const home = deckhandHome();
  const { port, host, allowedHosts, allowedOrigins, allowUrlSchemes: schemes, idleTimeout, maxSessions: max, grid: gridUrl, gridExtensionDir, ...rest } = f;
  const grid = gridOf(gridUrl, gridExtensionDir);
  const raw = rest as RawOptions;
  const allowUrlSchemes = urlSchemes(schemes);
  const options = resolveMcpOptions(raw); // fails at once, clearly, on bad flags
  const maxSessions = positive('max-sessions', max, process.env.DECKHAND_MAX_SESSIONS, 4);
  const idleTimeoutMs = positive('idle-timeout', idleTimeout, process.env.DECKHAND_IDLE_TIMEOUT_S, 1800) * 1000;
  const prices = pricesFrom(undefined);
  if (port === undefined) {
    // The same cache database as the service's, scoped to the one local tenant.
    const store = options.cache ? await SqliteStore.open(join(home, 'cache.db')) : undefined;
    const sessions = new SessionManager({ maxSessions, idleTimeoutMs, allowUrlSchemes, grid }, prices ? { prices } : {}, undefined, store);
    return runStdio(options, sessions, home);
  }
  const bindHost = host ?? 'localhost';
  const hosts = listOf(allowedHosts ?? process.env.DECKHAND_ALLOWED_HOSTS);
  checkBindHost({ bindHost, allowedHosts: hosts }, '--allowedHosts'); // startService checks too, naming serve's flag
  const svc = await startService({
    home,
    host: bindHost,
    port: portOf(port, 0),
    maxSessions,
    idleTimeoutMs,
    mcpOptions: raw,
    allowedHosts: hosts,
    allowedOrigins: listOf(allowedOrigins ?? process.env.DECKHAND_ALLOWED_ORIGINS),
    allowUrlSchemes,
    grid,
    prices,
    log: (l) => console.error(l),
  });
  console.log(`deckhand MCP server listening on ${svc.url}/mcp`);
  if (svc.keys.generated) console.log(`created an API key (stored in ${join(home, 'api-keys')}; shown only now): ${svc.keys.generated}`);
  const stop = () => void svc.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** The command line: every subcommand has --help; unknown flags and missing values fail with exit code 1 and a clear message. */
function program(): Command {
  const cmd = new Command('deckhand')
    .description('Drive a real Chromium with AI, from inside the browser.')
    .version(ENGINE_VERSION)
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      `
Environment:
  DECKHAND_MODEL              model for instructions (default: a provider's model when its key is set, else deckhand/local)
  DECKHAND_ALLOW_URL_SCHEMES  URL schemes to open beyond http(s), data and about:blank (e.g. file)
  DECKHAND_HOME               data folder (keys, cache, profiles); default ~/.deckhand
  DECKHAND_DATABASE_URL       serve: postgres://... for sessions, keys and cache shared by replicas (default: this process and SQLite)
  DECKHAND_PRICES             serve, mcp: a JSON file of model prices, ` +
        '{"provider/model": {"inputPerMTok", "outputPerMTok", "cachedInputPerMTok"}} (USD per million tokens)',
    );
  cmd
    .command('demo', { isDefault: true })
    .description('launch Chromium, print a page snapshot and act on the demo form (the default command)')
    .argument('[url]', 'a page to snapshot instead of the demo form')
    .option('--headed', 'show the browser window')
    .action((url: string | undefined, o: { headed?: boolean }) => demo(url, !!o.headed));
  cmd
    .command('snapshot')
    .description('print the snapshot of a page, as a model reads it')
    .argument('<url>', 'the page')
    .option('--headed', 'show the browser window')
    .action((url: string, o: { headed?: boolean }) =>
      withBrowser(!!o.headed, async (dh) => {
        const page = await dh.context.activePage();
        await page.goto(url);
        console.log((await page.snapshot()).text);
      }),
    );
  cmd
    .command('serve')
    .description('run the HTTP service (sessions, act/observe/extract, agent, cache, and MCP at /mcp)')
    .option('--host <host>', 'address to bind (also HOST; default 127.0.0.1; any other than loopback needs --allowed-hosts)', undefined)
    .option('--port <port>', 'port (also PORT; default 3000)')
    .option('--max-sessions <n>', 'sessions at once (also DECKHAND_MAX_SESSIONS; default 4)')
    .option('--idle-timeout <seconds>', 'end a session unused this long (also DECKHAND_IDLE_TIMEOUT_S; default 600)')
    .option('--allowed-hosts <list>', "Host header values answered besides loopback names, '*' for any (also DECKHAND_ALLOWED_HOSTS)")
    .option('--allowed-origins <list>', 'web-page origins allowed to call (also DECKHAND_ALLOWED_ORIGINS)')
    .option('--allow-url-schemes <list>', 'URL schemes opened for every session, e.g. file (also DECKHAND_ALLOW_URL_SCHEMES)')
    .option('--grid <url>', "sessions' browsers from this Selenium Grid 4 instead of this machine (also DECKHAND_GRID_URL)")
    .option(
      '--grid-extension-dir <dir>',
      "the built extension's folder on the Grid's nodes, or 'packed' to send it with each session " +
        "(also DECKHAND_GRID_EXTENSION_DIR; default: this machine's build)",
    )
    .option(
      '--allow-cdp-hosts <list>',
      "hosts (name or name:port, '*' for any) whose DevTools address callers may pass as cdpUrl; none by default (also DECKHAND_ALLOW_CDP_HOSTS)",
    )
    .option(
      '--contexts-per-browser <n>',
      "one tenant's sessions per local browser, each in an isolated context (own cookies, storage, pages and engine); " +
        'default 1 (also DECKHAND_CONTEXTS_PER_BROWSER)',
    )
    .option(
      '--prices <file>',
      'a JSON file of model prices in USD per million tokens, over the built-in list prices: ' +
        '{"openai/gpt-4.1-mini": {"inputPerMTok": 0.4, "outputPerMTok": 1.6, "cachedInputPerMTok": 0.1}} (also DECKHAND_PRICES)',
    )
    .action((o: ServeFlags) => serve(o));
  // Boolean MCP options: bare means true; otherwise exactly true or false (checked by resolveMcpOptions).
  const bool = (name: string, what: string) => new Option(`--${name} [true|false]`, what);
  cmd
    .command('mcp')
    .description('the MCP tool server: stdio, or Streamable HTTP at /mcp with --port')
    .option('--port <port>', 'serve Streamable HTTP on this port instead of stdio')
    .option('--host <host>', 'address to bind with --port (default localhost; any other than loopback needs --allowedHosts)')
    .option('--allowedHosts <list>', "Host header values answered besides loopback names, '*' for any")
    .option('--allowedOrigins <list>', 'web-page origins allowed to call')
    .option('--allowUrlSchemes <list>', 'URL schemes opened for every session, e.g. file')
    .option('--grid <url>', 'browsers from this Selenium Grid 4 instead of this machine (also DECKHAND_GRID_URL)')
    .option(
      '--gridExtensionDir <dir>',
      "the built extension's folder on the Grid's nodes, or 'packed' to send it with each session (also DECKHAND_GRID_EXTENSION_DIR)",
    )
    .option('--modelName <model>', 'model for the tools (default deckhand/local, the built-in model)')
    .option('--modelApiKey <key>', 'key for --modelName (required with any model but the built-in one)')
    .addOption(bool('keepAlive', 'keep the browser when the MCP session closes'))
    .addOption(bool('cache', 'act, observe and extract use the result cache'))
    .addOption(bool('proxies', 'route the browser through DECKHAND_PROXY'))
    .addOption(bool('verified', 'verified browser identity (a hosted feature: refused)'))
    .addOption(bool('experimental', 'accepted; no experimental tools yet'))
    .option(
      '--approve <kinds>',
      'risky steps of act and agent wait for approval (the host asks its user, or the side panel): submit, delete, pay, leave-site, upload, comma-separated',
    )
    .option('--approveTimeout <seconds>', 'how long such a step waits before it is refused (default 120)')
    .option('--contextId <id>', 'a named browser profile in $DECKHAND_HOME/contexts/<id>')
    .option('--persist <true|false>', 'keep the --contextId profile after the session (default true)')
    .option('--browserWidth <px>', 'viewport width (default 1024)')
    .option('--browserHeight <px>', 'viewport height (default 768)')
    .option('--idle-timeout <seconds>', 'end an MCP session and its browser unused this long (also DECKHAND_IDLE_TIMEOUT_S; default 1800)')
    .option('--max-sessions <n>', 'browser sessions at once (also DECKHAND_MAX_SESSIONS; default 4)')
    .action((o: McpFlags) => mcp(o));
  const keys = cmd.command('keys').description("the service's API keys: in PostgreSQL with DECKHAND_DATABASE_URL, else in $DECKHAND_HOME/api-keys");
  keys
    .command('create')
    .description('make a new key, store it and print it (once)')
    .action(() => keyCommand('create'));
  keys
    .command('revoke')
    .description('revoke the key read from standard input (never an argument: it would show in process listings)')
    .action(() => keyCommand('revoke'));
  return cmd;
}

async function keyCommand(what: 'create' | 'revoke'): Promise<void> {
  const url = process.env.DECKHAND_DATABASE_URL;
  const key = what === 'revoke' ? (await readStdin()).trim() : newApiKey();
  if (!key) throw new InvalidArgumentError('send the key to revoke on standard input');
  if (url) {
    const pool = await openPool(url);
    try {
      if (what === 'create') console.log(await addPgKey(pool, key));
      else if (!(await revokePgKey(pool, key))) throw new InvalidArgumentError('no such key in the database (or it was revoked already)');
    } finally {
      await pool.end();
    }
    return;
  }
  const file = join(deckhandHome(), 'api-keys');
  const now = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((k) => k.trim())
        .filter(Boolean)
    : [];
  if (what === 'revoke' && !now.includes(key)) throw new InvalidArgumentError(`no such key in ${file}`);
  const next = what === 'create' ? [...now, key] : now.filter((k) => k !== key);
  mkdirSync(deckhandHome(), { recursive: true, mode: 0o700 });
  writeFileSync(file, next.map((k) => `${k}\n`).join(''), { mode: 0o600 });
  if (what === 'create') console.log(key);
  // A running service read the file at its start: it takes the change at its next start.
  console.error(`${what === 'create' ? 'stored in' : 'removed from'} ${file}; a running service takes it at its next start`);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

program()
  .parseAsync(process.argv)
  .catch((e) => {
    console.error(`deckhand: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
