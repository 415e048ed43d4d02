"""custom model: answer the model's requests with your own function.

    python examples/python/custom_model.py <url of a product list>

A callback model is how you bring any model Deckhand has no provider for: it gets each request
(the system prompt, the user prompt, the JSON Schema of the answer, and for act, observe and
extract the instruction and the page outline as data) and returns the object. Here it is a few
deterministic rules instead of an LLM, so the run is the same every time. It may be sync or async
(a sync one runs in a worker thread, so it may block on an HTTP client of its own).
"""

import asyncio
import json
import re
import sys
from typing import Any

from deckhand import Deckhand, ModelRequest, local_browser


def click_by_name(request: ModelRequest) -> dict[str, Any]:
    """Understands one kind of instruction, `click "<name>"`, and clicks the first element of that
    name in the outline. Anything else is answered "not found", which act reports as an
    unsuccessful result rather than guessing."""
    m = re.fullmatch(r'click "([^"]+)"', request.instruction or "", re.I)
    wanted = m.group(1) if m else ""
    outline = request.outline or []
    line = next((l for l in outline if l.kind == "element" and l.name == wanted), None)
    print(f"model asked: {json.dumps(request.instruction)} over {len(outline)} outline lines -> {line.id if line else 'not found'}")
    # The answer must follow request.json_schema: for act that is the fields below, all required.
    answer: dict[str, Any]
    if line is not None:
        answer = {
            "found": True, "elementId": line.id, "method": "click", "arguments": [],
            "description": f'{line.role} "{line.name}"', "twoStep": False, "reason": "",
        }
    else:
        answer = {
            "found": False, "elementId": "", "method": "click", "arguments": [],
            "description": "", "twoStep": False, "reason": f"no element named {json.dumps(wanted)}",
        }
    # usage is optional; when given it shows up in results and metrics like a provider's.
    return {"object": answer, "usage": {"inputTokens": len(request.prompt), "outputTokens": 0}}


async def main(url: str) -> None:
    browser = await local_browser.launch(headless=True)
    try:
        # The callback is the default model of this instance; act, observe and extract may also
        # take a model= per call.
        deckhand = await Deckhand.create(browser=browser, model=click_by_name)
        page = await browser.context.active_page()
        await page.goto(url)

        for instruction in ['click "Add to cart"', 'click "Checkout"', 'click "Pay with bitcoin"']:
            result = await deckhand.act(instruction)
            print(f"{instruction}: {'done' if result.data.success else 'not done'}")
        status = await page.evaluate("document.querySelector('#status')?.textContent")
        print(f"status: {status}")
        await deckhand.close()
    finally:
        await browser.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/python/custom_model.py <url>")
    asyncio.run(main(sys.argv[1]))
