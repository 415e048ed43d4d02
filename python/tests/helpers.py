"""Helpers shared by the tests."""

from __future__ import annotations

import contextlib
import json
import subprocess
from typing import Any, Iterator

import pytest

from conftest import ROOT


@contextlib.contextmanager
def fixture_cli(what: str, script: str, *args: str, stop_within: float = 30) -> Iterator[str]:
    """A Node test fixture for other languages' tests (test/fixtures/<script>): it prints one JSON
    line with its url, which this yields, and stops when its stdin closes."""
    proc = subprocess.Popen(["node", "--import", "tsx", f"test/fixtures/{script}", *args], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdin is not None
    line = proc.stdout.readline()
    if not line:
        proc.wait(10)
        pytest.fail(f"{what} did not start (exit code {proc.returncode})")
    try:
        yield str(json.loads(line)["url"])
    finally:
        proc.stdin.close()
        try:
            proc.wait(stop_within)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


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

