"""Drive your own Chrome from Python: wait for the Deckhand extension to pair with this program,
open a page in it and carry out one instruction with the built-in local model.

    python examples/python/attach.py <url> "<instruction>"

It prints the port and token to enter in Chrome's Deckhand side panel (Settings, "Connect to a
local client"), waits up to two minutes for that, then opens <url> in a new tab, acts and prints
the result as JSON. Nothing but the extension can connect: the program listens on 127.0.0.1 only
and the token works once.
"""

from __future__ import annotations

import json
import sys

from deckhand import PairingInfo
from deckhand.sync import Deckhand, local_browser


def show(pairing: PairingInfo) -> None:
    print(
        f'In Chrome, open the Deckhand side panel, choose "Connect to a local client" '
        f"and enter port {pairing.port} and token {pairing.token}",
        flush=True,
    )


def main() -> int:
    if len(sys.argv) != 3:
        print('usage: python examples/python/attach.py <url> "<instruction>"', file=sys.stderr)
        return 2
    url, instruction = sys.argv[1], sys.argv[2]
    with local_browser.attach(name="the attach example", on_pairing=show) as browser:
        deckhand = Deckhand.create(browser=browser)
        # A new tab: the person's own tabs stay as they are.
        page = browser.context.new_page(url)
        result = deckhand.act(instruction, page=page)
        print(json.dumps({"success": result.data.success, "action": result.data.action_description, "title": page.title()}))
        deckhand.close()
    # Leaving the `with` closes the handle, which says goodbye: the side panel shows the program
    # left, and the pairing is forgotten.
    return 0


if __name__ == "__main__":
    sys.exit(main())
