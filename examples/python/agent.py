"""agent: give a task in several steps and let the agent work out and do the steps.

    python examples/python/agent.py <url of a contact form>

With no model configured the agent runs on the built-in local model: no key, no network. It
handles form tasks like this one; with a provider's model (model="openai/gpt-4.1-mini" and
OPENAI_API_KEY, say) the same code takes on open-ended tasks.
"""

import asyncio
import sys

from deckhand import Deckhand, local_browser

TASK = (
    "Fill the contact form: name Grace Hopper, email grace@example.com, topic Returns, "
    'message "The hose leaks at the tap.", and then click Send'
)


async def main(url: str) -> None:
    browser = await local_browser.launch(headless=True)
    try:
        deckhand = await Deckhand.create(browser=browser)
        page = await browser.context.active_page()
        await page.goto(url)

        # max_steps bounds the work: the agent stops after that many steps, done or not.
        result = await deckhand.agent().execute(TASK, max_steps=12)

        print(f"success: {str(result.success).lower()}, completed: {str(result.completed).lower()}")
        print(f"message: {result.message}")
        for step in result.actions:
            print(f"  {step.type}: {step.result or ''}")
        print(f"page now: {await page.title()}")
        await deckhand.close()
    finally:
        await browser.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/python/agent.py <url>")
    asyncio.run(main(sys.argv[1]))
