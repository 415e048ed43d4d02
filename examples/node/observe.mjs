// observe: ask what on the page matches a description, then act on one of the answers.
//
//   node examples/node/observe.mjs <url of a product list>
//
// observe() returns Actions (a selector, a method, its arguments). Acting on an Action you
// already have calls no model, so "observe once, act many times" costs one inference.

import { Deckhand, localBrowser } from 'deckhand';

const url = process.argv[2];
if (!url) {
  console.error('usage: node examples/node/observe.mjs <url>');
  process.exit(2);
}

const browser = await localBrowser.launch({ headless: true });
try {
  const deckhand = await Deckhand.create({ browser });
  const page = await browser.context.activePage();
  await page.goto(url);

  const { data: buttons } = await deckhand.observe('the Add to cart buttons');
  console.log(`found ${buttons.length} actions:`);
  for (const action of buttons) console.log(`  ${action.method} ${action.description}  (${action.selector})`);

  // Take the second product: the Action runs as is, deterministically.
  if (buttons.length < 2) throw new Error('expected at least two Add to cart buttons');
  await deckhand.act(buttons[1]);

  console.log(await page.evaluate(() => document.querySelector('#cart-count')?.textContent));
  console.log(`in the cart: ${await page.evaluate(() => [...document.querySelectorAll('#cart li')].map((li) => li.textContent).join(', '))}`);
  await deckhand.close();
} finally {
  await browser.close();
}
