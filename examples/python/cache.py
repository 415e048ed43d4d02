"""cache: the same instruction on the same page is answered from the result cache the second
time, with no model call.

    python examples/python/cache.py <url of a contact form>

`cache=True` keeps results in a SQLite file in ~/.deckhand (shared by runs and by the Node and Go
clients); `{"store": "memory"}` keeps them in this process only, which is what a self-contained
example wants.
"""

import asyncio
import json
import sys

from deckhand import Deckhand, local_browser

# What the form would send as the name.
NAME_FIELD = "new FormData(document.forms[0]).get('name')"


async def main(url: str) -> None:
    browser = await local_browser.launch(headless=True)
    try:
        deckhand = await Deckhand.create(browser=browser, cache={"store": "memory"})
        page = await browser.context.active_page()
        instruction = 'type "Ada Lovelace" into the Name field'

        for run in ("first", "second"):
            # A fresh load each time: the cache keys on the instruction and the page, not on this tab.
            await page.goto(url)
            result = await deckhand.act(instruction)
            # status is MISS (the model was asked), HIT (replayed from the cache) or DISABLED. With
            # a provider's model, a hit's tokens_saved and cost_saved_usd say what it saved.
            status = result.metadata.cache.status
            value = await page.evaluate(NAME_FIELD)
            print(f"{run} run: cache {status}, Name field = {json.dumps(value)}")
        await deckhand.close()
    finally:
        await browser.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/python/cache.py <url>")
    asyncio.run(main(sys.argv[1]))
