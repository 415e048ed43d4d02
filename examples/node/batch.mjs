// experimentalBatch: run a whole sequence inside the browser, in one round trip.
//
//   node examples/node/batch.mjs <url of a product list>
//
// The callback is sent as source and runs in the extension's service worker, next to the
// engine, so each act, locator call or evaluate in it skips the trip to this process. It is
// worth it for many small steps, or a remote browser far away.

import { Deckhand, localBrowser } from 'deckhand';

const url = process.argv[2];
if (!url) {
  console.error('usage: node examples/node/batch.mjs <url>');
  process.exit(2);
}

const browser = await localBrowser.launch({ headless: true });
try {
  const deckhand = await Deckhand.create({ browser });
  const page = await browser.context.activePage();
  await page.goto(url);

  // The callback sees none of this file's variables (it runs elsewhere): what it needs comes
  // in as `input`, which must be JSON, and what it returns must be JSON too.
  const summary = await deckhand.experimentalBatch(
    async (batch, input) => {
      const done = [];
      for (const product of input.products) {
        // An instruction for the model, as deckhand.act would take it...
        const r = await batch.act(`click Add to cart for the ${product}`);
        done.push(`${product}: ${r.data.success ? 'added' : r.data.message}`);
      }
      // ...and the page and locators as in Node, without the round trips.
      await batch.page.locator('#checkout').click();
      const status = await batch.page.evaluate(() => document.querySelector('#status')?.textContent);
      return { done, status };
    },
    { products: ['Garden Hose', 'Trowel'] },
    { timeout: 20_000 },
  );

  for (const line of summary.done) console.log(line);
  console.log(`status: ${summary.status}`);
  await deckhand.close();
} finally {
  await browser.close();
}
