// logging: see what Deckhand does, as text or JSON lines on stderr, or through your own
// function.
//
//   node examples/node/logging.mjs <url of a product list>
//
// logging: { level, format, callback }. Without a callback, lines go to stderr as text
// (format: 'text', the default) or one JSON object per line (format: 'json'). With a
// callback, each line comes to you as { level, message, timestamp, data } to send wherever
// your program logs. Lines never hold API keys or the values of variables.

import { Deckhand, localBrowser } from 'deckhand';

const url = process.argv[2];
if (!url) {
  console.error('usage: node examples/node/logging.mjs <url>');
  process.exit(2);
}

/** @type {import('deckhand').CreateOptions['logging']} */
const logging = {
  level: 'info', // 'debug' shows more; the default, 'warn', only problems
  callback: (line) => console.log(`[${line.level}] ${line.message}`),
};

const browser = await localBrowser.launch({ headless: true });
try {
  const deckhand = await Deckhand.create({ browser, logging });
  const page = await browser.context.activePage();
  await page.goto(url);
  const result = await deckhand.act('click the Add to cart button for the Trowel');
  console.log(`act succeeded: ${result.data.success}`);
  console.log(await page.evaluate(() => document.querySelector('#cart-count')?.textContent));
  await deckhand.close();
} finally {
  await browser.close();
}
