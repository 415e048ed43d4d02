// cache: the same instruction on the same page is answered from the result cache the
// second time, with no model call.
//
//   node examples/node/cache.mjs <url of a contact form>
//
// `cache: true` keeps results in a SQLite file in ~/.deckhand (shared by runs and by the
// Python and Go clients); `{ store: 'memory' }` keeps them in this process only, which is
// what a self-contained example wants.

import { Deckhand, localBrowser } from 'deckhand';

const url = process.argv[2];
if (!url) {
  console.error('usage: node examples/node/cache.mjs <url>');
  process.exit(2);
}

const browser = await localBrowser.launch({ headless: true });
try {
  const deckhand = await Deckhand.create({ browser, cache: { store: 'memory' } });
  const page = await browser.context.activePage();
  const instruction = 'type "Ada Lovelace" into the Name field';

  for (const run of ['first', 'second']) {
    // A fresh load each time: the cache keys on the instruction and the page, not on this tab.
    await page.goto(url);
    const result = await deckhand.act(instruction);
    // status is MISS (the model was asked), HIT (replayed from the cache) or DISABLED. With a
    // provider's model, a hit's tokensSaved and costSavedUsd say what it saved.
    const { status } = result.metadata.cache;
    const value = await page.evaluate(() => new FormData(document.forms[0]).get('name')); // what the form would send
    console.log(`${run} run: cache ${status}, Name field = ${JSON.stringify(value)}`);
  }
  await deckhand.close();
} finally {
  await browser.close();
}
