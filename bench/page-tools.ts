/**
 * One task done through the page's own tool against the same task by page steps (the peer, in the
 * same run): "add 3 of R10 to the cart" on tools.html, as one tool call, and on tools.html?notools
 * (the same shop without tools) as three clicks of its Add to cart button. Measured: wall-clock
 * time with the built-in model, the steps taken, and the prompt tokens a provider model reads (a
 * scripted model server records each prompt; tokens estimated as the snapshot counts them).
 * `npm run bench`.
 */
import { Deckhand, localBrowser } from '../src/index';
import { estimateTokens } from '../src/protocol/text';
import { startFixtureServers } from '../test/fixtures/server';
import { idFor, promptText, startModelServer } from '../test/fixtures/model-server';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const servers = await startFixtureServers();
  const ms = await startModelServer();
  const browser = await localBrowser.launch({ viewport: { width: 1000, height: 700 } });
  const dh = await Deckhand.create({ browser });
  const page = await browser.context.activePage();
  const cart = () => page.evaluate(() => document.getElementById('cart')!.textContent);
  const timed = async (f: () => Promise<void>) => {
    const t0 = performance.now();
    await f();
    return performance.now() - t0;
  };
  const tool: number[] = [];
  const dom: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await page.goto(`${servers.origin}/tools.html`);
    tool.push(await timed(async () => void (await dh.act('add 3 of R10 to the cart'))));
    if ((await cart()) !== 'R10 × 3') throw new Error(`the tool left the cart at ${await cart()}`);
    await page.goto(`${servers.origin}/tools.html?notools`);
    dom.push(
      await timed(async () => {
        for (let k = 0; k < 3; k++) await dh.act('click the Add to cart button for Rope');
      }),
    );
    if ((await cart()) !== 'R10 × 3') throw new Error(`the clicks left the cart at ${await cart()}`);
  }

  // What a provider model reads: one prompt for the tool, three for the clicks.
  const model = { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-bench', baseURL: ms.url };
  const act = (elementId: string, method: string, args: string[]) => ({
    object: { found: true, elementId, method, arguments: args, description: 'x', twoStep: false, reason: '' },
    usage: { input: 1, output: 1 },
  });
  const tokens = () => ms.requests.reduce((n, r) => n + estimateTokens(promptText(r.body).length), 0);
  await page.goto(`${servers.origin}/tools.html`);
  ms.requests.length = 0;
  ms.script(act('page', 'callTool', ['add_to_cart', '{"sku":"R10","qty":3}']));
  await dh.act('add 3 of R10 to the cart', { model });
  const toolTokens = tokens();
  await page.goto(`${servers.origin}/tools.html?notools`);
  ms.requests.length = 0;
  ms.script((_r, prompt) => act(idFor(prompt, /button "Add to cart"/), 'click', []));
  for (let k = 0; k < 3; k++) await dh.act('click the Add to cart button for Rope', { model });
  const domTokens = tokens();
  if ((await cart()) !== 'R10 × 3') throw new Error('the scripted clicks did not fill the cart');

  await dh.close();
  await browser.close();
  await ms.close();
  await servers.close();
  console.log(`page tools (${RUNS} runs each, same page, same run): "add 3 of R10 to the cart"`);
  console.log(`  through the page's tool: 1 step, median ${median(tool).toFixed(1)} ms, ${toolTokens} prompt tokens`);
  console.log(`  by page steps (peer):    3 steps, median ${median(dom).toFixed(1)} ms, ${domTokens} prompt tokens`);
  console.log(`  ratio (tool / peer): time ${(median(tool) / median(dom)).toFixed(2)}, tokens ${(toolTokens / domTokens).toFixed(2)}, steps 0.33`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
