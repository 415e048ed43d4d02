"""observe: ask what on the page matches a description, then act on one of the answers.

    python examples/python/observe.py <url of a product list>

observe() returns Actions (a selector, a method, its arguments). Acting on an Action you already
have calls no model, so "observe once, act many times" costs one inference.
"""

import asyncio
import sys

from deckhand import Deckhand, local_browser

CART = "[...document.querySelectorAll('#cart li')].map((li) => li.textContent).join(', ')"


async def main(url: str) -> None:
    browser = await local_browser.launch(headless=True)
    try:
        deckhand = await Deckhand.create(browser=browser)
        page = await browser.context.active_page()
        await page.goto(url)

        buttons = (await deckhand.observe("the Add to cart buttons")).data
        print(f"found {len(buttons)} actions:")
        for action in buttons:
            print(f"  {action.method} {action.description}  ({action.selector})")

        # Take the second product: the Action runs as is, deterministically.
        if len(buttons) < 2:
            raise SystemExit("expected at least two Add to cart buttons")
        await deckhand.act(buttons[1])

        print(await page.evaluate("document.querySelector('#cart-count')?.textContent"))
        print(f"in the cart: {await page.evaluate(CART)}")
        await deckhand.close()
    finally:
        await browser.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/python/observe.py <url>")
    asyncio.run(main(sys.argv[1]))
