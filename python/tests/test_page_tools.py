"""A page's own tools (WebMCP) on the fixture store: listed, called, their typed errors, a form
tool that navigates, cancelling a call, and act calling one with the built-in model and with a
provider model (the scripted server of test/fixtures/model-server-cli.ts)."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from dataclasses import dataclass
from typing import Any, Iterator

import pytest

from deckhand.errors import DeckhandTimeoutError, InvalidArgumentError, ToolFailedError, ToolNotFoundError
from deckhand.types import CallToolResult, PageTool

from helpers import click_answer, failure, fixture_cli


async def text_of(page, selector: str) -> str:
    return await page.evaluate(f"document.querySelector({selector!r}).textContent")


async def test_page_tools_listed_called_and_their_errors(browser, open_page) -> None:
    page = await open_page("/tools.html")
    tools = await page.tools()
    assert tools and all(isinstance(t, PageTool) for t in tools)
    by_name = {t.name: t for t in tools}
    assert {"add_to_cart", "cart_contents", "search_catalogue", "subscribe_newsletter"} <= set(by_name)
    assert "hidden_form_tool" not in by_name  # a form nobody can see is not offered
    assert by_name["add_to_cart"].form is False and "sku" in by_name["add_to_cart"].input_schema["properties"]
    assert by_name["search_catalogue"].form is True and by_name["search_catalogue"].autosubmit is True

    r = await page.call_tool("add_to_cart", {"sku": "C2", "qty": 2})
    assert isinstance(r, CallToolResult) and r.output is not None and "C2" in r.output and r.navigated is None
    assert await text_of(page, "#cart-count") == "2 items"
    assert "C2" in await text_of(page, "#cart")

    # Input the tool's schema refuses never reaches the page.
    e = await failure(page.call_tool("add_to_cart", {"sku": "ZZ"}))
    assert isinstance(e, InvalidArgumentError) and e.code == "INVALID_ARGUMENT" and "add_to_cart" in e.message, e
    assert await page.evaluate("window.toolCalls") == ["add_to_cart"]
    assert await text_of(page, "#cart-count") == "2 items"

    e = await failure(page.call_tool("no_such_tool"))
    assert isinstance(e, ToolNotFoundError) and e.code == "TOOL_NOT_FOUND" and "add_to_cart" in e.message, e
    e = await failure(page.call_tool("broken"))
    assert isinstance(e, ToolFailedError) and e.code == "TOOL_FAILED", e

    t = time.monotonic()
    e = await failure(page.call_tool("never_answers", timeout=1000))
    assert isinstance(e, DeckhandTimeoutError) and e.code == "TIMEOUT", e
    assert time.monotonic() - t < 3.5

    r = await page.call_tool("subscribe_newsletter", {"email": "ada@example.com"})
    assert r.output == "subscribed ada@example.com", r
    assert await text_of(page, "#subscribed") == "Subscribed ada@example.com"


async def test_cancelling_the_task_tells_the_pages_tool(browser, open_page) -> None:
    page = await open_page("/tools.html")
    call = asyncio.ensure_future(page.call_tool("never_answers"))
    for _ in range(100):
        if "never_answers" in await page.evaluate("window.toolCalls"):
            break
        await asyncio.sleep(0.05)
    t = time.monotonic()
    call.cancel()
    try:
        await call
    except asyncio.CancelledError:
        pass
    assert call.cancelled() and time.monotonic() - t < 1
    # op.cancel reaches the worker, which cancels the tool's call in the page.
    for _ in range(60):
        if "cancelled" in await page.evaluate("window.toolCalls"):
            break
        await asyncio.sleep(0.05)
    assert await page.evaluate("window.toolCalls") == ["never_answers", "cancelled"]


async def test_a_form_tool_that_submits_itself_navigates_the_page(browser, origin, open_page) -> None:
    page = await open_page("/tools.html")
    r = await page.call_tool("search_catalogue", {"q": "rope"})
    assert r.output is None and r.navigated is not None and "tools-results.html" in r.navigated, r
    url = await page.url()
    assert url.startswith(origin + "/tools-results.html") and "q=rope" in url
    assert await text_of(page, "#query") == "Results for rope"


async def test_act_with_the_built_in_model_calls_the_pages_tool(dh, open_page) -> None:
    page = await open_page("/tools.html")
    r = await dh.act("add 3 of R10 to the cart")
    assert r.data.success and "called the page's tool 'add_to_cart'" in r.data.message, r.data
    assert "R10" in await text_of(page, "#cart")
    assert await text_of(page, "#cart-count") == "3 items"


@dataclass
class ModelServer:
    """The scripted OpenAI-compatible server: its replies are queued and its requests read over HTTP."""

    url: str
    origin: str

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.origin}{path}", data=data, method=method, headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def script(self, *replies: dict[str, Any]) -> None:
        self._call("POST", "/script", list(replies))

    def recorded(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = self._call("GET", "/recorded")
        return out

    def clear(self) -> None:
        self._call("DELETE", "/recorded")


@pytest.fixture(scope="module")
def model_server() -> Iterator[ModelServer]:
    """The scripted model server; it stops when its stdin closes."""
    with fixture_cli("the scripted model server", "model-server-cli.ts", stop_within=10) as url:
        yield ModelServer(url=url, origin=url.removesuffix("/v1"))


async def test_act_with_a_provider_model_reads_the_tools_in_its_prompt_and_calls_one(dh, open_page, model_server) -> None:
    page = await open_page("/tools.html")
    # A fake key, sent only to the scripted server on 127.0.0.1.
    model = {"model_name": "openai/gpt-4.1-mini", "api_key": "sk-tools", "base_url": model_server.url}
    model_server.clear()
    answer = click_answer("page", "add two lanterns", "callTool", ["add_to_cart", '{"sku":"L1","qty":2}'])
    model_server.script({"object": answer, "usage": {"input": 100, "output": 20}})
    r = await dh.act("add two lanterns to the cart", model=model)
    assert r.data.success, r.data
    assert r.data.message == "called the page's tool 'add_to_cart'; it answered \"added 2 × L1; the cart holds 2 items\"", r.data
    assert await text_of(page, "#cart") == "L1 × 2"
    xs = model_server.recorded()
    assert xs and "- tool page_add_to_cart(" in xs[0]["prompt"], xs
