// extract: read structured data off a page, shaped by a zod schema.
//
//   node examples/node/extract.mjs <url of a product list>
//
// The schema is sent to the model as JSON Schema, and the answer is checked against it
// here: a result that does not fit fails with MODEL_OUTPUT_INVALID instead of reaching you.

import { Deckhand, localBrowser } from 'deckhand';
import { z } from 'zod';

const url = process.argv[2];
if (!url) {
  console.error('usage: node examples/node/extract.mjs <url>');
  process.exit(2);
}

const Products = z.object({
  products: z.array(
    z.object({
      name: z.string(),
      // A number, not "$24.99": the model converts, and the schema says so.
      price: z.number(),
    }),
  ),
});

const browser = await localBrowser.launch({ headless: true });
try {
  const deckhand = await Deckhand.create({ browser });
  const page = await browser.context.activePage();
  await page.goto(url);

  const { data } = await deckhand.extract('the products with their prices', Products);
  // data is typed and validated: { products: { name: string; price: number }[] }
  for (const p of data.products) console.log(`${p.name}: ${p.price.toFixed(2)}`);
  const total = data.products.reduce((sum, p) => sum + p.price, 0);
  console.log(`total: ${total.toFixed(2)}`);
  await deckhand.close();
} finally {
  await browser.close();
}
