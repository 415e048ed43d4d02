"""logging: see what Deckhand does, as text or JSON lines on stderr, or through your own function.

    python examples/python/logging_callback.py <url of a product list>

(Not named logging.py: a script's folder comes first on sys.path, and that name would hide the
standard library's logging module.)

logging={"level", "format", "callback"}. Without a callback, lines go to stderr as text (format
"text", the default) or one JSON object per line (format "json"). With a callback, each line comes
to you as a dict (level, message, timestamp, data) to send wherever your program logs, e.g. to the
standard logging module. Lines never hold API keys or the values of variables.
"""

import asyncio
import sys

from deckhand import Deckhand, local_browser
from deckhand.options import LoggingOptions, LogLine


def show(line: LogLine) -> None:
    print(f"[{line['level']}] {line['message']}")


async def main(url: str) -> None:
    # "debug" shows more; the default, "warn", only problems.
    logging: LoggingOptions = {"level": "info", "callback": show}
    browser = await local_browser.launch(headless=True)
    try:
        deckhand = await Deckhand.create(browser=browser, logging=logging)
        page = await browser.context.active_page()
        await page.goto(url)
        result = await deckhand.act("click the Add to cart button for the Trowel")
        print(f"act succeeded: {str(result.data.success).lower()}")
        print(await page.evaluate("document.querySelector('#cart-count')?.textContent"))
        await deckhand.close()
    finally:
        await browser.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/python/logging_callback.py <url>")
    asyncio.run(main(sys.argv[1]))
