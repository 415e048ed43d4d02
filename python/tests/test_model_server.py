"""A real OpenAI-compatible server (llama-cpp-python with the Gemma 3 270M GGUF behind a recording
proxy, test/fixtures/llama-cli.ts; `npm run setup` installs both) driven by act, observe, extract
with a schema and the agent, once per structured-output mode, with nothing configured but
base_url and a model name. What is asserted is the wire (what was sent, that the server took it,
that an abandoned call stops generating), never the tiny model's accuracy: each operation ends in
a result or in a typed error that shows the model's reply."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from dataclasses import dataclass
from typing import Any, Awaitable, Iterator, cast

import pytest

from deckhand import Deckhand
from deckhand._wire import StructuredOutputMode
from deckhand.errors import DeckhandError
from deckhand.options import ModelConfigDict

from conftest import ROOT
from helpers import fixture_cli

PAGE = "data:text/html,<h1>Garden shop</h1><p>Trowel: 12 EUR</p><button onclick=\"document.title='saved'\">Save</button>"
PRICE = {"type": "object", "properties": {"item": {"type": "string"}, "price": {"type": "string"}}, "required": ["item", "price"]}
# Long to write, and grammar-constrained in json_object: generating it takes the tiny model minutes.
LONG = {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string"}, "minItems": 300}}, "required": ["items"]}
# Each operation's bound: most calls take 5 to 30 s, but the tiny model may run on to the output
# budget (minutes: text in `text` mode, an endless array in `tool` mode, the agent's retries). A
# call still going at its deadline must be stopped there, on the server too. The first call of
# auto has time to finish: the worker remembers the shape a server takes once a reply is complete.
OP_MS = 45_000
FIRST_MS = 90_000
TEXT_OP_MS = 25_000
AGENT_S = 30
CHAT = "/v1/chat/completions"


@dataclass
class Llama:
    url: str
    origin: str

    def _call(self, method: str) -> list[dict[str, Any]]:
        req = urllib.request.Request(f"{self.origin}/recorded", method=method)
        with urllib.request.urlopen(req, timeout=10) as r:
            out: list[dict[str, Any]] = json.loads(r.read())
            return out

    def recorded(self) -> list[dict[str, Any]]:
        return self._call("GET")

    def clear(self) -> None:
        self._call("DELETE")

    async def settled(self) -> list[dict[str, Any]]:
        """The exchanges once each has ended or been abandoned (a cancel reaches the worker a moment later)."""
        deadline = time.monotonic() + 5
        xs = self.recorded()
        while any(not x["abandoned"] and not x.get("endedAt") for x in xs) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            xs = self.recorded()
        return xs


@pytest.fixture(scope="module")
def llama() -> Iterator[Llama]:
    """The model server behind its recording proxy; it stops when its stdin closes."""
    tools = ROOT / ".tools" / "llama"
    if not (tools / "venv" / "bin" / "python").exists() or not (tools / "gemma-3-270m-q4_k_m.gguf").exists():
        pytest.fail("the model server is not installed (.tools/llama): run npm run setup")
    with fixture_cli("the model server (run npm run setup)", "llama-cli.ts") as url:
        yield Llama(url=url, origin=url.removesuffix("/v1"))


async def outcome(aw: Awaitable[Any]) -> Any:
    """The operation's result, or its typed error (the tiny model may well answer badly)."""
    try:
        return await aw
    except DeckhandError as e:
        return e


def ended_well(name: str, r: Any, xs: list[dict[str, Any]]) -> None:
    """A result; or the model's reply shown in a MODEL_OUTPUT_INVALID error; or, at the deadline
    (TIMEOUT, or the test's own bound on the agent), the request abandoned so the server stops."""
    if isinstance(r, DeckhandError) and r.code == "TIMEOUT" or isinstance(r, asyncio.TimeoutError):
        assert xs[-1]["abandoned"], (name, xs[-1])
    elif isinstance(r, DeckhandError):
        assert r.code == "MODEL_OUTPUT_INVALID" and "its reply began" in r.message, (name, r)
    else:
        assert xs[-1]["status"] == 200, (name, xs[-1])


def chats(name: str, xs: list[dict[str, Any]]) -> None:
    """Only streamed chat requests with an output budget and text content."""
    assert xs, f"{name}: no request reached the server"
    for x in xs:
        assert (x["method"], x["path"]) == ("POST", CHAT), (name, x["method"], x["path"])
        assert x["body"]["stream"] is True, name
        assert isinstance(x["body"]["max_tokens"], int) and x["body"]["max_tokens"] > 0, (name, x["body"].get("max_tokens"))
        # No screenshot (the agent's dom steps carry none): plain text, not an array of parts.
        assert isinstance(x["body"]["messages"][-1]["content"], str), name


def taken(name: str, xs: list[dict[str, Any]]) -> None:
    """Each request taken by the server, unless the call gave up on it before it answered."""
    for x in xs:
        assert x["status"] == 200 or x["abandoned"] and x["status"] == 0, (name, x["status"], x["reply"][:300])


def log(name: str, took: float, r: Any, xs: list[dict[str, Any]]) -> None:
    """How an operation went, shown with a failure (or with -s)."""
    sent = [
        f"{x['body'].get('response_format', {}).get('type')} HTTP {x['status']}, first byte {(x.get('firstByteAt') or 0) - x['startedAt']} ms, "
        f"{len(x['reply'])} bytes{', abandoned' if x['abandoned'] else ''}{', [DONE]' if 'data: [DONE]' in x['reply'] else ''}"
        for x in xs
    ]
    out = "a result" if not isinstance(r, BaseException) else f"{type(r).__name__}: {str(r)[:160]}"
    print(f"{name}: {took:.1f} s, {out}; {'; '.join(sent)}")


def check_shape(mode: str, x: dict[str, Any]) -> None:
    """A request in the shape `mode` asks for."""
    body = x["body"]
    if mode in ("auto", "json_object"):
        assert body["response_format"]["type"] == "json_object"
        assert body["response_format"]["schema"]["type"] == "object"
        assert "tools" not in body
    elif mode == "text":
        assert "response_format" not in body and "tools" not in body
        assert "JSON Schema" in body["messages"][-1]["content"]
    elif mode == "tool":
        assert "response_format" not in body
        assert [t["function"]["name"] for t in body["tools"]] == ["answer"]
        assert body["tool_choice"] == {"type": "function", "function": {"name": "answer"}}


async def run_ops(dh: Deckhand, llama: Llama, mode: str) -> None:
    """act, observe, extract and the agent (2 steps), each checked on the wire."""
    page = await dh.browser.context.active_page()
    await page.goto(PAGE)
    ms = TEXT_OP_MS if mode == "text" else OP_MS
    ops: dict[str, Any] = {
        "act": lambda: dh.act("click the Save button", timeout=FIRST_MS if mode == "auto" else ms),
        "observe": lambda: dh.observe("the Save button", timeout=ms),
        "extract": lambda: dh.extract("the item and its price", schema=PRICE, timeout=ms),
        # The agent takes no timeout: the test bounds it, and a cancelled task cancels the run.
        "agent": lambda: asyncio.wait_for(dh.agent().execute("Click the Save button", max_steps=2), AGENT_S),
    }
    for name, op in ops.items():
        llama.clear()
        t0 = time.monotonic()
        try:
            r = await outcome(op())
        except asyncio.TimeoutError as e:
            r = e
        xs = await llama.settled()
        log(name, time.monotonic() - t0, r, xs)
        chats(name, xs)
        ended_well(name, r, xs)
        if mode == "auto" and name == "act":
            # A fresh endpoint: strict json_schema and json_schema are refused (HTTP 500 naming
            # response_format), json_object is taken, and remembered for what follows.
            shapes = [(x["body"].get("response_format", {}).get("type"), x["status"]) for x in xs[:3]]
            assert shapes == [("json_schema", 500), ("json_schema", 500), ("json_object", 200)]
            assert xs[0]["body"]["response_format"]["json_schema"]["strict"] is True
            assert "strict" not in xs[1]["body"]["response_format"]["json_schema"]
            xs = xs[2:]
        taken(name, xs)
        if name == "act":
            assert "click the Save button" in xs[0]["body"]["messages"][-1]["content"]
        for x in xs:
            check_shape(mode, x)


@pytest.mark.parametrize("mode", ["auto", "json_object", "text", "tool"])
async def test_each_structured_output_mode_reaches_the_server_in_its_shape(browser: Any, llama: Llama, mode: str) -> None:
    # Only a name and base_url: the default run (auto) sets nothing else.
    model: ModelConfigDict = {"model_name": "gemma-3-270m", "base_url": llama.url}
    if mode != "auto":
        model["structured_output"] = cast(StructuredOutputMode, mode)
    dh = await Deckhand.create(browser=browser, model=model)
    try:
        await run_ops(dh, llama, mode)
    finally:
        await dh.close()


async def test_a_forced_shape_the_server_refuses_is_a_typed_error_naming_the_setting(browser: Any, llama: Llama) -> None:
    dh = await Deckhand.create(browser=browser, model={"model_name": "gemma-3-270m", "base_url": llama.url, "structured_output": "json_schema"})
    try:
        page = await dh.browser.context.active_page()
        await page.goto(PAGE)
        llama.clear()
        e = await outcome(dh.act("click the Save button", timeout=OP_MS))
    finally:
        await dh.close()
    assert isinstance(e, DeckhandError) and e.code == "MODEL_PROVIDER_ERROR", e
    assert "structuredOutput" in e.message and CHAT in e.message, e.message
    xs = llama.recorded()
    assert [(x["path"], x["body"]["response_format"]["type"], x["status"]) for x in xs] == [(CHAT, "json_schema", 500)]


async def test_a_call_that_times_out_stops_the_generation_and_the_next_call_is_answered_at_once(browser: Any, llama: Llama) -> None:
    dh = await Deckhand.create(browser=browser, model={"model_name": "gemma-3-270m", "base_url": llama.url, "structured_output": "json_object"})
    try:
        page = await dh.browser.context.active_page()
        await page.goto(PAGE)
        llama.clear()
        t0 = time.monotonic()
        # 10 s: past the prompt's reading, which llama.cpp-class servers finish before they look at the socket.
        e = await outcome(dh.extract("list 300 garden tools", schema=LONG, timeout=10_000))
        assert isinstance(e, DeckhandError) and e.code == "TIMEOUT", e
        assert time.monotonic() - t0 < 20
        xs = await llama.settled()
        log("extract", time.monotonic() - t0, e, xs)
        assert len(xs) == 1 and xs[0]["abandoned"], xs
        gone = xs[0]
        t0 = time.monotonic()
        r = await outcome(dh.act("click the Save button", timeout=OP_MS))
        xs = (await llama.settled())[1:]
        log("act", time.monotonic() - t0, r, xs)
    finally:
        await dh.close()
    chats("act", xs)
    taken("act", xs)
    ended_well("act", r, xs)
    nxt = xs[0]
    # Left running, the 300 items take the server minutes; stopped, the next request waits for
    # nothing but the reading of its own prompt.
    assert nxt["firstByteAt"] - nxt["startedAt"] < 15_000, nxt["firstByteAt"] - nxt["startedAt"]
    assert gone["endedAt"] < nxt["startedAt"] + 1000
