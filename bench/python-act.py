"""The Python side of bench/python-act.ts: a deterministic act (a click by selector, no model)
from the Python client, timed as the Node side times it. Prints one JSON line.

    .venv/bin/python bench/python-act.py URL SELECTOR COUNT
"""

import asyncio
import json
import sys
import time

from deckhand import Deckhand, local_browser


async def main(url: str, selector: str, count: int) -> None:
    browser = await local_browser.launch(viewport={"width": 1280, "height": 800})
    dh = await Deckhand.create(browser=browser)
    try:
        page = await browser.context.active_page()
        await page.goto(url)
        for _ in range(5):
            await dh.act({"selector": selector, "description": "warm", "method": "click"})
        times = []
        for _ in range(count):
            t = time.perf_counter()
            await dh.act({"selector": selector, "description": "bench click", "method": "click"})
            times.append((time.perf_counter() - t) * 1000)
        print(json.dumps({"times": times}))
    finally:
        await dh.close()
        await browser.close()


asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
