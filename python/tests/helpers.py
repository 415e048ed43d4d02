"""Helpers shared by the tests."""

from __future__ import annotations

from typing import Any


async def stop_worker(browser: Any) -> None:
    """Stop the extension's service worker as Chromium does when it idles it out."""
    cdp = browser.cdp
    targets = (await cdp.send("Target.getTargets"))["targetInfos"]
    page = next(t for t in targets if t["type"] == "page")
    sid = (await cdp.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True}))["sessionId"]
    await cdp.send("ServiceWorker.enable", {}, sid)
    await cdp.send("ServiceWorker.stopAllWorkers", {}, sid)
    await cdp.send("Target.detachFromTarget", {"sessionId": sid})


def element_id(request: Any, role: str, name: str) -> str:
    """The outline id of the element a callback model should pick."""
    for line in request.outline or []:
        if line.kind == "element" and line.role == role and line.name == name:
            return line.id
    raise AssertionError(f"no {role} {name!r} in the outline")


def click_answer(element: str, name: str, method: str = "click", args: list[str] | None = None) -> dict[str, Any]:
    """What act's model answers: one element and a method (src/engine/core/prompts.ts)."""
    return {
        "found": True,
        "elementId": element,
        "method": method,
        "arguments": args or [],
        "description": name,
        "twoStep": False,
        "reason": "",
    }


async def failure(aw: Any) -> Any:
    try:
        await aw
    except Exception as e:  # noqa: BLE001
        return e
    raise AssertionError("expected the call to fail")

