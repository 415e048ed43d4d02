#!/usr/bin/env node
/**
 * The `deckhand` command. `deckhand demo [url]` is the quick start's main job:
 * launch Chromium with the extension, open a page, print the snapshot a model
 * would read, and perform a deterministic action on it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Deckhand, localBrowser } from '../index';

const DEMO_PAGE = `<!doctype html><title>Deckhand demo</title>
<h1>Deckhand demo</h1>
<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Hello, ' + this.name.value + '!'">
  <label for="name">Your name</label> <input id="name" name="name" placeholder="Ada">
  <label><input type="checkbox" id="news"> Send me news</label>
  <button id="go">Say hello</button>
</form>
<p id="out" role="status"></p>`;

function usage(): never {
  console.log(`usage:
  deckhand demo [url]        launch Chromium, print the page snapshot, act on the demo form
  deckhand snapshot <url>    print the snapshot of a page
options:
  --headed                   show the browser window`);
  process.exit(2);
}

async function withBrowser<T>(headed: boolean, fn: (dh: Deckhand) => Promise<T>): Promise<T> {
  const browser = await localBrowser.launch({ headless: !headed });
  const dh = await Deckhand.create({ browser });
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
        for (const action of [
          { selector: '#name', method: 'fill', arguments: ['Ada'], description: 'type a name' },
          { selector: '#news', method: 'check', description: 'tick the news box' },
          { selector: '#go', method: 'click', description: 'say hello' },
        ]) {
          t = performance.now();
          const r = await dh.act(action);
          console.log(`act: ${r.data.actionDescription} → ${r.data.message} (${Math.round(performance.now() - t)} ms)`);
        }
        console.log(`\npage says: ${await page.evaluate(() => document.getElementById('out')?.textContent)}`);
      }
    });
  } finally {
    server?.close();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const headed = args.includes('--headed');
  const rest = args.filter((a) => a !== '--headed');
  const [cmd, arg] = rest;
  if (cmd === 'demo' || cmd === undefined) return demo(arg, headed);
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
