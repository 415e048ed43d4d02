"""metrics(): the thirty-two snake_case counters and their five rules, on a browser of its own so
they start at zero:
1. they start at zero;
2. each successful operation adds its usage;
3. deterministic actions, failed calls and an act that found no element add nothing;
4. reading them does not reset them;
5. they survive the worker being stopped (the next call restarts it).
Plus: a Python generation callback answers the worker, sync or async."""

from __future__ import annotations

import asyncio

import pytest_asyncio

from deckhand import Deckhand, local_browser
from deckhand.types import Metrics, ModelRequest

from helpers import click_answer, element_id, failure, stop_worker

NAMES = [
    f"{op}_{c}"
    for op in ("act", "extract", "observe", "total")
    for c in (
        "prompt_tokens", "completion_tokens", "reasoning_tokens", "cached_input_tokens", "inference_time_ms", "cost_usd", "cache_saved_tokens",
        "cache_saved_cost_usd",
    )
]


@pytest_asyncio.fixture(scope="module")
async def fresh_browser():
    b = await local_browser.launch()
    yield b
    await b.close()


async def test_the_five_rules_with_a_python_generation_callback(fresh_browser, origin) -> None:
    requests: list[ModelRequest] = []

    async def generate(request: ModelRequest):
        requests.append(request)
        if request.instruction == "click the Nope button":
            answer = {**click_answer("", ""), "found": False, "reason": "there is no Nope button"}
            return {"object": answer, "usage": {"input_tokens": 500, "output_tokens": 50}}
        if request.instruction == "fail please":
            raise RuntimeError("the model service is down")
        if request.instruction and "heading" in request.instruction:
            return {"object": {"extraction": "Sign up"}, "usage": {"inputTokens": 30, "outputTokens": 3, "reasoningTokens": 2, "cachedInputTokens": 10}}
        return {"object": click_answer(element_id(request, "button", "Multi"), "Multi"), "usage": {"input_tokens": 77, "output_tokens": 7}}

    d = await Deckhand.create(browser=fresh_browser, model=generate)
    try:
        page = await fresh_browser.context.active_page()
        await page.goto(origin + "/form.html")

        # 1. Thirty-two snake_case counters, floats, all zero.
        m0 = await d.metrics()
        assert isinstance(m0, Metrics)
        assert sorted(m0.model_dump()) == sorted(NAMES)
        assert all(isinstance(v, float) and v == 0.0 for v in m0.model_dump().values())

        # 2. A successful operation adds its usage (the callback's, reported back over the RPC).
        r = await d.act("click the Multi button")
        assert r.data.success
        assert r.metadata.usage.input_tokens == 77 and r.metadata.usage.output_tokens == 7
        # A callback's price is unknown: no cost, rather than a cost of 0.
        assert r.metadata.cost_usd is None
        assert requests[-1].instruction == "click the Multi button"
        assert requests[-1].json_schema["type"] == "object" and any(l.role == "button" for l in requests[-1].outline)
        assert await page.evaluate("() => window.__log") == ["click:multi"]
        m1 = await d.metrics()
        assert (m1.act_prompt_tokens, m1.act_completion_tokens) == (77.0, 7.0)
        assert m1.total_prompt_tokens == 77.0 and m1.act_inference_time_ms > 0
        assert m1.total_cost_usd == 0.0
        x = await d.extract("the page heading")
        assert x.data == {"extraction": "Sign up"}
        m2 = await d.metrics()
        assert (m2.extract_prompt_tokens, m2.extract_completion_tokens, m2.extract_reasoning_tokens, m2.extract_cached_input_tokens) == (30, 3, 2, 10)
        assert m2.total_prompt_tokens == 107 and m2.act_prompt_tokens == 77

        # 3. Deterministic actions, failed calls and an act that found no element add nothing.
        assert (await d.act({"selector": "#multi", "description": "Multi"})).metadata.cost_usd == 0  # no model called
        await page.locator("#multi").click()
        e = await failure(d.act("fail please"))
        assert e.code == "INTERNAL" and "the model service is down" in e.message
        nope = await d.act("click the Nope button")
        assert nope.data.success is False and "no Nope button" in nope.data.message
        e = await failure(d.act({"selector": "#gone", "description": "gone"}, timeout=300))
        assert e.code == "ELEMENT_NOT_FOUND"

        # 4. Reading does not reset them.
        assert await d.metrics() == m2
        assert await d.metrics() == m2

        # 5. They survive the worker being stopped; the next call starts it again.
        await stop_worker(fresh_browser)
        await asyncio.sleep(0.3)
        assert await d.metrics() == m2
        assert (await d.act("click the Multi button")).data.success  # the callback still answers
        assert (await d.metrics()).act_prompt_tokens == 154
    finally:
        await d.close()


async def test_a_sync_callback_and_one_that_answers_badly(fresh_browser, origin) -> None:
    def generate(request):
        if request.instruction == "bad answer":
            return {"answer": "not the reply shape"}
        return {"object": click_answer(element_id(request, "button", "Multi"), "Multi")}

    d = await Deckhand.create(browser=fresh_browser, model=generate)
    try:
        page = await fresh_browser.context.active_page()
        await page.goto(origin + "/form.html")
        before = await d.metrics()
        assert (await d.act("click the Multi button")).data.success
        e = await failure(d.act("bad answer"))
        assert e.code == "INVALID_ARGUMENT" and "object" in e.message
        # A per-call model overrides the instance's.
        r = await d.act("click the Multi button", model=lambda req: {"object": click_answer(element_id(req, "button", "Create account"), "Create account")})
        assert r.data.actions[0].description == "Create account"
        # No usage reported: nothing added but the time.
        after = await d.metrics()
        assert after.act_prompt_tokens == before.act_prompt_tokens
    finally:
        await d.close()
