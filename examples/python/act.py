"""act: do things on a page from plain-language instructions.

    python examples/python/act.py <url of a contact form>

With no model and no API key configured, Deckhand uses its built-in local model, which runs
inside the browser extension: nothing leaves the machine.
"""

import asyncio
import sys

from deckhand import Deckhand, local_browser


async def main(url: str) -> None:
    browser = await local_browser.launch(headless=True)
    try:
        deckhand = await Deckhand.create(browser=browser)
        page = await browser.context.active_page()
        await page.goto(url)

        # One instruction per step: each is matched against the page as it is at that moment.
        for instruction in [
            'type "Ada Lovelace" into the Name field',
            'type "ada@example.com" into the Email field',
            "select Returns from the Topic list",
            'type "The trowel arrived bent." into the Message field',
            "click the Send button",
        ]:
            result = await deckhand.act(instruction)
            # An instruction the model cannot match is not an exception: success is False.
            if not result.data.success:
                raise SystemExit(f"could not {instruction}: {result.data.message}")
            print(f"done: {result.data.action_description}")

        # The form posted to the site, which answered with a new page.
        print(f"page now: {await page.title()}")
        heading = await page.evaluate("document.querySelector('h1')?.textContent")
        print(f"heading: {heading}")
        await deckhand.close()
    finally:
        await browser.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/python/act.py <url>")
    asyncio.run(main(sys.argv[1]))
