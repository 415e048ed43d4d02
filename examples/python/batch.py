"""experimental_batch: run a whole sequence inside the browser, in one round trip.

    python examples/python/batch.py <url of a product list>

The callback is JavaScript, sent as source, and runs in the extension's service worker next to
the engine, so each act, locator call or evaluate in it skips the trip to this process. It is
worth it for many small steps, or a remote browser far away. It is the same callback a Node
program would pass: `batch` has act, observe, extract, page and context.
"""

import asyncio
import sys

from deckhand import Deckhand, local_browser

# It sees nothing of this program: what it needs comes in as `input`, which must be JSON, and
# what it returns must be JSON too.
ADD_AND_CHECK_OUT = """
async (batch, input) => {
  const done = [];
  for (const product of input.products) {
    // An instruction for the model, as deckhand.act would take it...
    const r = await batch.act(`click Add to cart for the ${product}`);
    done.push(`${product}: ${r.data.success ? 'added' : r.data.message}`);
  }
  // ...and the page and locators, without the round trips.
  await batch.page.locator('#checkout').click();
  const status = await batch.page.evaluate(() => document.querySelector('#status')?.textContent);
  return { done, status };
}
"""


async def main(url: str) -> None:
    browser = await local_browser.launch(headless=True)
    try:
        deckhand = await Deckhand.create(browser=browser)
        page = await browser.context.active_page()
        await page.goto(url)

        summary = await deckhand.experimental_batch(ADD_AND_CHECK_OUT, {"products": ["Garden Hose", "Trowel"]}, timeout=20_000)
        for line in summary["done"]:
            print(line)
        print(f"status: {summary['status']}")
        await deckhand.close()
    finally:
        await browser.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/python/batch.py <url>")
    asyncio.run(main(sys.argv[1]))
