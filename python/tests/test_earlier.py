"""The earlier calls: page.extract() in its three forms and agent(...).execute(...) with
max_steps, auto_screenshot, wait_between_actions, context and a Python tool."""

from __future__ import annotations

import json
import time

from pydantic import BaseModel

from deckhand import Deckhand
from deckhand.types import AgentResult

from helpers import click_answer, element_id, failure


def step(tool: str, **args):
    base = {k: None for k in ("instruction", "url", "direction", "ms", "keys", "x", "y", "text", "toX", "toY", "query", "answer", "success", "toolInput")}
    answer = {"reasoning": f"next: {tool}", "tool": tool, **base, "taskCompleted": tool == "done", **args}
    return {"object": answer, "usage": {"input_tokens": 40, "output_tokens": 8}}


class Heading(BaseModel):
    heading: str


async def test_page_extract_three_forms(browser, open_page) -> None:
    seen = []

    def generate(request):
        seen.append(request)
        return {"object": {"heading": "Sign up"}}

    page = await open_page("/form.html")
    e = await failure(page.extract("the heading"))
    assert e.code == "UNAVAILABLE" and "Deckhand instance" in e.message
    d = await Deckhand.create(browser=browser)
    try:
        r = await page.extract()
        assert set(r) == {"page_text"} and '[e' in r["page_text"] and 'textbox "Full name"' in r["page_text"]
        assert await page.extract("the page heading") == {"extraction": "Sign up"}  # the local model
        e = await failure(page.extract(42))  # type: ignore[arg-type]
        assert e.code == "INVALID_ARGUMENT"
    finally:
        await d.close()
    d = await Deckhand.create(browser=browser, model=generate)
    try:
        data = await page.extract(instruction="the heading", schema=Heading, selector="//form[@id='signup']")
        assert data == Heading(heading="Sign up")
        assert "Multi" not in seen[-1].prompt  # the selector scoped what the model read
        assert seen[-1].json_schema["properties"] == {"heading": {"type": "string"}}
        heading = {"type": "object", "properties": {"heading": {"type": "string"}}}
        data = await page.extract(instruction="the heading", schema=heading, iframes=True, dom_settle_timeout_ms=1000)
        assert data == {"heading": "Sign up"}
        e = await failure(page.extract(instruction="x", schema=Heading, model_name="openai/gpt-4.1-mini"))
        assert e.code == "NO_MODEL_CONFIGURED"
    finally:
        await d.close()


async def test_agent_execute_with_a_python_tool_and_its_options(browser, open_page) -> None:
    turns = []
    tool_inputs = []
    mode = {"wait": False}

    class Usd(BaseModel):
        usd: float

    def convert(args: Usd) -> str:
        tool_inputs.append(args.usd)
        return f"{args.usd * 0.9:.2f} EUR"

    def planner(request):
        props = request.json_schema.get("properties", {})
        if "elementId" in props:  # the act inside the agent's act tool
            return {"object": click_answer(element_id(request, "button", "Multi"), "Multi"), "usage": {"input_tokens": 10, "output_tokens": 1}}
        turns.append(request)
        n = len(turns)
        if mode["wait"]:
            return step("wait", ms=10)
        if n == 1:
            assert "currency(toolInput)" in request.system + request.prompt and "Stay on the form." in request.system + request.prompt
            assert "Be brief." in request.system + request.prompt
            return step("act", instruction="click the Multi button")
        if n == 2:
            return step("currency", toolInput=json.dumps({"usd": 10}))
        return step("done", answer="10 USD is 9.00 EUR", success=True)

    d = await Deckhand.create(browser=browser, model=planner)
    try:
        page = await open_page("/form.html")
        agent = d.agent(
            instructions="Stay on the form.",
            tools={"currency": {"description": "Convert USD to EUR", "input_schema": Usd, "execute": convert}},
        )
        t = time.monotonic()
        r = await agent.execute("click Multi, then convert 10 USD", max_steps=5, auto_screenshot=False, wait_between_actions=300, context="Be brief.")
        assert isinstance(r, AgentResult)
        assert (r.success, r.completed, r.message) == (True, True, "10 USD is 9.00 EUR")
        assert [a.type for a in r.actions] == ["act", "currency", "done"]
        assert r.actions[0].task_completed is False and r.actions[0].page_url.endswith("/form.html")
        assert tool_inputs == [10]
        assert r.usage is not None and r.usage.input_tokens >= 120 and r.usage.output_tokens >= 24
        assert time.monotonic() - t >= 0.3  # waited between actions
        assert await page.evaluate("() => window.__log") == ["click:multi"]
        assert not turns[0].images  # auto_screenshot=False

        # max_steps ends the run incomplete; the worker's default sends dom steps no screenshot.
        turns.clear()
        mode["wait"] = True
        capped = await d.agent().execute({"instruction": "wait around", "max_steps": 2})
        assert capped.completed is False and len(capped.actions) == 2 and "2" in capped.message
        assert not turns[0].images
        turns.clear()
        await d.agent().execute("wait around", max_steps=1, auto_screenshot=True)
        assert turns[0].images

        # Bad options are clear.
        for bad in (lambda: d.agent(provider="martian", model="x"), lambda: d.agent(model="openai/x", options={"api_key": "k", "temperature": 1})):
            try:
                bad()
            except Exception as e:  # noqa: BLE001
                assert e.code == "INVALID_ARGUMENT"
            else:
                raise AssertionError("expected INVALID_ARGUMENT")
        e = await failure(d.agent().execute(""))
        assert e.code == "INVALID_ARGUMENT"
        e = await failure(d.agent().execute("x", max_steps=0))
        assert e.code == "INVALID_ARGUMENT"
    finally:
        await d.close()


async def test_the_local_model_plans_a_compound_instruction_and_refuses_what_it_cannot_ground(dh, open_page) -> None:
    page = await open_page("/form.html")
    r = await dh.agent().execute('Enter "Ada" into the full name field, then tick I accept the terms', max_steps=5)
    assert r.success and r.completed, r.message
    assert [a.type for a in r.actions] == ["act", "act", "done"]
    assert await page.evaluate("() => [document.querySelector('#name').value, document.querySelector('#terms').checked]") == ["Ada", True]
    # A step naming nothing on the page: refused before the first step runs.
    refused = await dh.agent().execute('Enter "Bo" into the full name field and enter 7 into the shoe size field', max_steps=5)
    assert not refused.success and "nothing was done" in refused.message
    assert await page.evaluate("() => document.querySelector('#name').value") == "Ada"
