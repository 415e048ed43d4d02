"""extract: read structured data off a page, shaped by a pydantic model.

    python examples/python/extract.py <url of a product list>

The model class is sent to the model as JSON Schema, and the answer is validated into an
instance of it: `result.data` is a `Products`, typed for your editor and mypy.
"""

import asyncio
import sys

from pydantic import BaseModel

from deckhand import Deckhand, local_browser


class Product(BaseModel):
    name: str
    # A number, not "$24.99": the model converts, and the schema says so.
    price: float


class Products(BaseModel):
    products: list[Product]


async def main(url: str) -> None:
    browser = await local_browser.launch(headless=True)
    try:
        deckhand = await Deckhand.create(browser=browser)
        page = await browser.context.active_page()
        await page.goto(url)

        result = await deckhand.extract("the products with their prices", Products)
        for p in result.data.products:
            print(f"{p.name}: {p.price:.2f}")
        print(f"total: {sum(p.price for p in result.data.products):.2f}")
        await deckhand.close()
    finally:
        await browser.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/python/extract.py <url>")
    asyncio.run(main(sys.argv[1]))
