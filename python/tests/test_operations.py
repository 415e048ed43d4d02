"""act, observe and extract: typed results, the local model by default with no key, options,
rejection cases, timeouts and cancellation."""

from __future__ import annotations

import asyncio
import time

import pytest
from pydantic import BaseModel

from deckhand import Deckhand
from deckhand.errors import DeckhandError, DeckhandTimeoutError, InvalidArgumentError
from deckhand.types import Action, ActResult, ExtractResult, ObserveResult

from helpers import click_answer, element_id, failure


async def test_act_with_an_action_is_deterministic_and_typed(dh, open_page) -> None:
    page = await open_page("/form.html")
    r = await dh.act({"selector": "#multi", "description": "the Multi button", "method": "click"})
    assert isinstance(r, ActResult)
    assert r.data.success is True and r.data.action_description == "the Multi button"
    assert r.data.actions == [Action(selector="#multi", description="the Multi button", method="click", arguments=[])]
    assert r.metadata.cache.status == "DISABLED"
    assert r.metadata.action_id
    assert r.metadata.usage.input_tokens == 0 and r.metadata.usage.inference_time_ms == 0
    # An Action model works as input too.
    await dh.act(Action(selector="#name", description="name", method="fill", arguments=["Ada"]))
    assert await page.evaluate("() => window.__log") == ["click:multi"]
    assert await page.evaluate("document.getElementById('name').value") == "Ada"
    # Placeholders are filled as the action runs: a number or a boolean as its text.
    r = await dh.act(
        Action(selector="#name", description="name", method="fill", arguments=["%n% items, gift %g%"]),
        variables={"n": 3, "g": {"value": True, "description": "gift wrap"}},
    )
    assert await page.evaluate("document.getElementById('name').value") == "3 items, gift true"
    assert r.data.actions[0].arguments == ["%n% items, gift %g%"]


async def test_the_local_model_by_default_with_no_key(dh, open_page) -> None:
    page = await open_page("/form.html")
    r = await dh.act("type \"Grace Hopper\" into the Full name field")
    assert r.data.success, r.data.message
    assert r.metadata.confidence is not None and 0 < r.metadata.confidence <= 1
    assert r.metadata.usage.input_tokens == 0  # zero tokens, real compute time
    assert await page.evaluate("() => document.getElementById('name').value") == "Grace Hopper"
    refused = await dh.act("book a flight to Lisbon and then pay for it")
    assert refused.data.success is False and "configure a model" in refused.data.message


async def test_observe_returns_actions_that_act_runs_with_no_model(dh, open_page) -> None:
    page = await open_page("/form.html")
    r = await dh.observe("the Multi button")
    assert isinstance(r, ObserveResult)
    first = r.data[0]
    assert isinstance(first, Action) and first.method == "click"
    done = await dh.act(first)
    assert done.data.success and done.metadata.usage.inference_time_ms == 0
    assert await page.evaluate("() => window.__log") == ["click:multi"]
    main = await dh.observe()
    assert len(main.data) > 3


class Account(BaseModel):
    full_name: str
    email: str


async def test_extract_three_ways(dh, open_page) -> None:
    page = await open_page("/form.html")
    await page.locator("#name").fill("Ada Lovelace")
    await page.locator("#email").fill("ada@example.com")
    r = await dh.extract("the page heading")
    assert isinstance(r, ExtractResult)
    assert r.data == {"extraction": "Sign up"}
    typed = await dh.extract("the account", Account)
    assert isinstance(typed.data, Account)
    assert typed.data == Account(full_name="Ada Lovelace", email="ada@example.com")
    raw = await dh.extract("the account", {"type": "object", "properties": {"email": {"type": "string"}}})
    assert raw.data == {"email": "ada@example.com"}


async def test_options_reach_the_worker(browser, open_page) -> None:
    seen = []

    def generate(request):
        seen.append(request)
        return {"object": click_answer(element_id(request, "textbox", "Email"), "Email", "fill", ["%email%"])}

    d = await Deckhand.create(browser=browser, model=generate, system_prompt="Never submit payment forms.")
    try:
        page = await open_page("/form.html")
        r = await d.act("type my email into the email field", variables={"email": {"value": "ada@example.com", "description": "login email"}})
        assert r.data.success
        assert await page.evaluate("() => document.getElementById('email').value") == "ada@example.com"
        assert "Never submit payment forms." in seen[0].system
        assert "ada@example.com" not in seen[0].prompt and "%email%" in seen[0].prompt
        assert r.data.actions[0].arguments == ["%email%"]  # values never come back in actions
        # locator scopes the snapshot the model reads; ignore_locators leaves subtrees out.
        await d.act("type my email", variables={"email": "x@y.z"}, locator=page.locator("#signup"), timeout=30_000)
        assert "Multi" not in seen[-1].prompt
        await d.act("type my email", variables={"email": "x@y.z"}, ignore_locators=["#multi"], page=page)
        assert 'button "Multi"' not in seen[-1].prompt
    finally:
        await d.close()


async def test_rejections_come_before_anything_is_done(dh, open_page) -> None:
    # Refused here (what this side reads) or by the worker (what it checks), typed either way.
    page = await open_page("/form.html")
    cases = [
        dh.act("click Multi", cache="yes"),
        dh.act("click Multi", cache={"threshold": 0}),
        dh.act({"selector": "#multi", "description": "x"}, cache={"threshold": -1}),
        dh.act("click Multi", timeout=0),
        dh.act("click Multi", timeout=600_001),
        dh.act("click Multi", timeout=1.5),
        dh.act(42),  # type: ignore[arg-type]
        dh.observe("x", variables=["not", "a", "dict"]),  # type: ignore[arg-type]
        dh.extract("x", schema=42),
        dh.act("click", locator=42),
    ]
    for c in cases:
        e = await failure(c)
        assert isinstance(e, InvalidArgumentError), e
        assert e.code == "INVALID_ARGUMENT"
    # The worker checks what it receives the same way: an Action with an unknown method.
    e = await failure(dh.act({"selector": "#multi", "description": "x", "method": "smash"}))
    assert e.code == "UNSUPPORTED_METHOD"
    e = await failure(dh.act({"selector": "#multi", "description": "x", "extra": 1}))
    assert e.code == "INVALID_ARGUMENT" and "extra" in e.message
    # A schema nested 5,000 levels deep cannot be written as JSON; one too large the worker refuses by name.
    deep: dict = {"type": "string"}
    for _ in range(5000):
        deep = {"type": "object", "properties": {"a": deep}}
    e = await failure(dh.extract("x", schema=deep))
    assert isinstance(e, InvalidArgumentError) and "cannot send its arguments as JSON" in e.message, e
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(6000)}}
    e = await failure(dh.extract("x", schema=wide))
    assert isinstance(e, InvalidArgumentError) and "more than 10,000 values" in e.message, e
    assert await page.evaluate("() => window.__log") == []  # the page was not touched


async def test_a_call_past_its_timeout_gives_a_clear_error(browser, open_page) -> None:
    def slow(request):
        time.sleep(3)
        return {"object": click_answer(element_id(request, "button", "Multi"), "Multi")}

    d = await Deckhand.create(browser=browser, model=slow)
    try:
        page = await open_page("/form.html")
        t = time.monotonic()
        e = await failure(d.act("click the Multi button", timeout=1000))
        assert isinstance(e, DeckhandTimeoutError) and isinstance(e, TimeoutError)
        assert e.code == "TIMEOUT" and "act timed out after 1000 ms" in e.message
        assert time.monotonic() - t < 2.9
        e = await failure(page.evaluate("() => new Promise(r => setTimeout(r, 5000))", timeout=500))
        assert e.code == "TIMEOUT" and "page.evaluate timed out after 500 ms" in e.message
        e = await failure(page.locator("#does-not-exist").click(timeout=300))
        assert e.code == "ELEMENT_NOT_FOUND" and "#does-not-exist" in e.message
        assert str(e).startswith("ELEMENT_NOT_FOUND: ")
    finally:
        await d.close()


async def test_cancelling_the_task_cancels_the_operation(browser, open_page) -> None:
    started = asyncio.Event()

    async def hanging(request):
        started.set()
        await asyncio.sleep(30)
        return {"object": {}}

    d = await Deckhand.create(browser=browser, model=hanging)
    try:
        await open_page("/form.html")
        task = asyncio.ensure_future(d.act("click the Multi button"))
        await asyncio.wait_for(started.wait(), 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # The instance stays usable.
        assert (await d.act({"selector": "#multi", "description": "Multi"})).data.success
    finally:
        await d.close()


async def test_errors_carry_codes_and_subclasses(dh, open_page) -> None:
    page = await open_page("/form.html")
    e = await failure(page.goto("file:///etc/passwd"))
    assert e.code == "URL_NOT_ALLOWED" and "file" in e.message
    assert type(e).__name__ == "UrlNotAllowedError" and isinstance(e, DeckhandError)
    e = await failure(dh.act({"selector": "//div[", "description": "broken"}))
    assert e.code == "INVALID_SELECTOR"
