/**
 * Writes docs/reference/ from the code (`npm run docs` runs it before the site build; never
 * edit its output): the TypeScript API (TypeDoc), the HTTP API (the service's OpenAPI
 * document, built in-process), the MCP tools, the error codes, the CLI (--help), the Python
 * client (its docstrings) and the Go module (go doc). A missing tool fails the run, naming it:
 * a reference page that silently went missing would be worse than no build.
 *
 * The Markdown itself is made by the pure functions of scripts/reference/render.ts.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Application, type TypeDocOptions } from 'typedoc';
import type { PluginOptions } from 'typedoc-plugin-markdown';
import { cliMarkdown, errorsMarkdown, GENERATED_NOTE, goDocMarkdown, mcpMarkdown, openApiMarkdown, subcommands, verbatim } from './reference/render';
import { errorRows, httpDocument, mcpToolDocs } from './reference/sources';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'docs/reference');
const PYTHON = join(root, '.venv/bin/python');

class Missing extends Error {}

/** A child process's standard output; a failure names the command and what it printed. */
async function output(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  try {
    return (await run(cmd, args, { cwd: opts.cwd ?? root, env: opts.env ?? process.env, maxBuffer: 32 * 1024 * 1024 })).stdout;
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === 'ENOENT') throw new Missing(`\`${cmd}\` is not installed (or not on PATH)`);
    throw new Error(`\`${[cmd, ...args].join(' ')}\` failed in ${relative(root, opts.cwd ?? root) || '.'}: ${err.stderr || err.message}`);
  }
}

function write(page: string, markdown: string): void {
  const file = join(out, page);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
}

/** Everything but the hand-written index.md, so a page whose source is gone does not linger. */
function clean(): void {
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(out)) if (name !== 'index.md') rmSync(join(out, name), { recursive: true, force: true });
}

async function typescript(): Promise<void> {
  const options: Partial<TypeDocOptions & PluginOptions> = {
    entryPoints: [join(root, 'src/index.ts')],
    tsconfig: join(root, 'tsconfig.node.json'),
    plugin: ['typedoc-plugin-markdown'],
    out: join(out, 'typescript'),
    name: 'TypeScript API',
    readme: 'none',
    // "Defined in: src/client/deckhand.ts:144": paths from the repository's root.
    basePath: root,
    entryFileName: 'index',
    excludePrivate: true,
    excludeInternal: true,
    excludeExternals: true,
    // `npm run typecheck` owns type errors; this only documents.
    skipErrorChecking: true,
    hidePageHeader: true,
    hideBreadcrumbs: true,
    // `<` and `{` in comments would be read as Vue template syntax by VitePress.
    sanitizeComments: true,
    logLevel: 'Warn',
  };
  const app = await Application.bootstrapWithPlugins(options as TypeDocOptions);
  const project = await app.convert();
  if (!project) throw new Error('TypeDoc could not convert src/index.ts (see the messages above)');
  await app.generateOutputs(project);
}

function http(): void {
  write('http.md', openApiMarkdown(httpDocument()));
}

function mcp(): void {
  write('mcp.md', mcpMarkdown(mcpToolDocs()));
}

async function errors(): Promise<void> {
  const python = JSON.parse(await pythonReference(['--errors'])) as Record<string, { class: string; doc: string }>;
  write('errors.md', errorsMarkdown(errorRows(python), STATUS_CODES));
}

/** The newest modification time under a folder, to tell whether dist/ was built from today's src/. */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

async function cli(): Promise<void> {
  const cliJs = join(root, 'dist/cli.js');
  if (!existsSync(cliJs) || statSync(cliJs).mtimeMs < newest(join(root, 'src'))) {
    // The page shows what the built command prints, so build it from today's source first.
    await output(join(root, 'node_modules/.bin/tsup'), []);
  }
  // Output to a pipe wraps at 80 columns whatever the terminal: the page is the same wherever it is built.
  const help = (args: string[]) => output(process.execPath, [cliJs, ...args, '--help']);
  const entries: { command: string; help: string }[] = [];
  const walk = async (args: string[]) => {
    const text = await help(args);
    entries.push({ command: ['deckhand', ...args].join(' '), help: text });
    for (const sub of subcommands(text)) await walk([...args, sub]);
  };
  await walk([]);
  write('cli.md', cliMarkdown(entries));
}

/** The Python reference script's output, with the checkout's package first on the path. */
function pythonReference(args: string[]): Promise<string> {
  if (!existsSync(PYTHON)) throw new Missing(`${relative(root, PYTHON)} (the project's Python: \`npm run setup\` makes it)`);
  return output(PYTHON, [join(root, 'scripts/reference/python_api.py'), ...args], {
    env: { ...process.env, PYTHONPATH: join(root, 'python/src') },
  });
}

async function python(): Promise<void> {
  const body = await pythonReference([]);
  write('python.md', `# Python\n\n${GENERATED_NOTE('the docstrings of python/src/deckhand')}\n\n${verbatim(body)}`);
}

async function go(): Promise<void> {
  const dir = join(root, 'go');
  const text = await output('go', ['doc', '-all', '.'], { cwd: dir });
  const module = /^module (\S+)/m.exec(readFileSync(join(dir, 'go.mod'), 'utf8'))?.[1] ?? 'go/';
  write('go.md', goDocMarkdown(text, module));
}

async function main(): Promise<void> {
  const started = Date.now();
  clean();
  // The child processes run while TypeDoc (in this process) works.
  // (Settled at once, so a failure waits for the report below rather than ending the process.)
  const children = Promise.allSettled([cli(), python(), go(), errors()]);
  const here = await Promise.allSettled([(async () => http())(), (async () => mcp())(), typescript()]);
  const failed = [...here, ...(await children)].flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
  if (failed.length) {
    for (const e of failed) console.error(`gen-reference: ${e instanceof Missing ? `missing: ${e.message}` : e.message}`);
    process.exit(1);
  }
  console.log(`gen-reference: docs/reference/ written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

await main();
