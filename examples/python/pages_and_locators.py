"""pages and locators: several tabs, and direct element access with CSS or XPath selectors.
Written with the blocking API (deckhand.sync): the same methods, no asyncio.

    python examples/python/pages_and_locators.py <url of a sign-up form>

Locators need no model: use them where you know the page, and act() where you do not.
"""

import json
import sys

from deckhand.sync import Deckhand, local_browser

SUBMITTED = "document.querySelector('#result')?.textContent || '{}'"


def main(url: str) -> None:
    # Both close themselves at the end of the with block, also when something fails.
    with local_browser.launch(headless=True) as browser, Deckhand.create(browser=browser) as deckhand:
        first = browser.context.active_page()

        # A second tab, opened on the form; the first stays where it was.
        form = browser.context.new_page(url)
        print(f"open pages: {len(browser.context.pages())}")

        # A locator is a selector (CSS or XPath) and, optionally, which match: nth(i), 0-based.
        form.locator("#name").fill("Ada Lovelace")
        form.locator("input[type=email]").fill("ada@example.com")
        form.locator("select#country").select_option("fr")
        form.locator("input[type=checkbox]").nth(0).check()  # the first checkbox: the terms
        print(f"checkboxes on the form: {form.locator('input[type=checkbox]').count()}")
        form.locator("//button[normalize-space(.)='Create account']").click()

        # The page shows what it submitted, as JSON; read it back with evaluate.
        sent = json.loads(form.evaluate(SUBMITTED))
        print(f"submitted: name={sent['name']} email={sent['email']} country={sent['country']} terms={json.dumps(sent['terms'])}")

        # The model operations take a page too, for when the tab you mean is not the active one.
        heading = deckhand.extract("the page heading", page=form)
        print(f"heading: {heading.data['extraction']}")

        form.close()
        print(f"open pages: {len(browser.context.pages())}, first page: {first.url()}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/python/pages_and_locators.py <url>")
    main(sys.argv[1])
