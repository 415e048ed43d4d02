"""Named flows from Python: a flow recorded in the side panel replays by name with no model
call, its %name% placeholders filled from variables; a step that no longer applies stops the
replay with a typed error naming it; a flow saved in this client's own store replays by name;
the extension's flows are listed, renamed and deleted.

The flow is recorded by test/fixtures/record-flow.ts (the side panel, the built-in local model)
into a profile folder; this module's browser then opens that same profile.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, AsyncIterator

import pytest
import pytest_asyncio

from deckhand import Deckhand, MemoryStore, flow_key, local_browser
from deckhand.errors import ActionFailedError, AlreadyInUseError, DeckhandTimeoutError, InvalidArgumentError, NotFoundError

from helpers import failure

ROOT = Path(__file__).resolve().parents[2]
RECORDER = ROOT / "test" / "fixtures" / "record-flow.ts"
FLOW = "python order"
INSTRUCTIONS = ["type %email% into the Email field", "click the Place order button"]


@pytest_asyncio.fixture(scope="module")
async def flow_browser(origin: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[Any, str]]:
    """A browser on a profile that has FLOW saved in its extension, and the flow's page."""
    profile = tmp_path_factory.mktemp("flow-profile")
    url = origin + "/flow-order.html"
    argv = ["--import", "tsx", str(RECORDER), "--profile", str(profile), "--name", FLOW, "--url", url]
    for i in INSTRUCTIONS:
        argv += ["--instruction", i]
    # Recorded in the side panel, as a person would (typed instructions, the built-in model, Save as flow).
    proc = await asyncio.create_subprocess_exec("node", *argv, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), 90)
    assert proc.returncode == 0, f"record-flow.ts failed: {out.decode(errors='replace')[-2000:]}"
    b = await local_browser.launch(user_data_dir=str(profile), viewport={"width": 1000, "height": 700})
    try:
        yield b, url
    finally:
        await b.close()


def refusing_model(calls: list):
    def generate(request):
        calls.append(request.instruction)
        raise AssertionError("a replay with no model given must not call one")

    return generate


async def page_state(b: Any) -> dict[str, Any]:
    page = await b.context.active_page()
    return await page.evaluate(
        "() => ({ result: document.getElementById('result').textContent, log: window.__log, email: document.getElementById('email').value })"
    )


async def test_a_recorded_flow_replays_by_name_with_no_model_call_and_variables(flow_browser) -> None:
    b, url = flow_browser
    calls: list = []
    d = await Deckhand.create(browser=b, model=refusing_model(calls))
    try:
        listed = {f.name: f for f in await d.flows.list()}
        assert FLOW in listed and listed[FLOW].source == "panel" and listed[FLOW].start_url == url
        flow = await d.flows.get(FLOW)
        fills = [a for s in flow.recording.steps if s.kind == "act" for a in s.actions if a.method in ("fill", "type")]
        assert fills and fills[0].arguments == ["%email%"]  # the placeholder is recorded, not a value
        before = await d.metrics()
        r = await d.replay(FLOW, variables={"email": "ada@example.com"})
        assert r.name == FLOW and r.url.startswith(url)
        assert [s.status for s in r.steps] == ["done"] * len(flow.recording.steps)
        assert [s.id for s in r.steps] == [s.id for s in flow.recording.steps]
        assert r.usage.input_tokens == 0 and r.usage.output_tokens == 0 and r.usage.inference_time_ms == 0
        assert calls == [] and await d.metrics() == before
        assert await page_state(b) == {"result": "Order placed for ada@example.com", "log": ["place:ada@example.com"], "email": "ada@example.com"}
        # Again, with another value (a variable given as {"value", "description"}).
        await d.replay(FLOW, variables={"email": {"value": "bob@example.com", "description": "the buyer's email"}})
        assert (await page_state(b))["result"] == "Order placed for bob@example.com"
    finally:
        await d.close()


async def test_a_step_whose_button_is_gone_stops_with_a_typed_error_naming_the_step(flow_browser) -> None:
    b, url = flow_browser
    d = await Deckhand.create(browser=b)
    page = await b.context.active_page()
    try:
        steps = (await d.flows.get(FLOW)).recording.steps
        at = next(i for i, s in enumerate(steps) if s.kind == "act" and any(a.method == "click" for a in s.actions))
        await page.goto(url)
        await page.evaluate("() => localStorage.setItem('flow-order:variant', 'no-button')")
        started = time.monotonic()
        e = await failure(d.replay(FLOW, variables={"email": "ada@example.com"}, step_timeout=500))
        assert isinstance(e, ActionFailedError) and e.code == "ACTION_FAILED", e
        assert e.data["step"] == {"index": at + 1, "id": steps[at].id, "description": steps[at].description}
        assert f'step {at + 1} of flow "{FLOW}"' in e.message and "pass a model" in e.message
        assert time.monotonic() - started < 10
        state = await page_state(b)
        assert state["email"] == "ada@example.com" and state["log"] == []  # the steps before it ran

        # With a model, the step is looked for again with it: here it finds nothing either.
        calls: list = []

        def nothing_fits(request):
            calls.append(request.instruction)
            answer = {"found": False, "elementId": "", "method": "click", "arguments": [], "description": "", "twoStep": False, "reason": "no such button"}
            return {"object": answer, "usage": {"input_tokens": 10, "output_tokens": 2}}

        e = await failure(d.replay(FLOW, variables={"email": "ada@example.com"}, step_timeout=500, model=nothing_fits))
        assert e.code == "ACTION_FAILED" and e.data["step"]["index"] == at + 1
        assert len(calls) == 1 and "Place order" in calls[0]
    finally:
        await page.evaluate("() => localStorage.removeItem('flow-order:variant')")
        await d.close()


async def test_a_flow_saved_in_the_clients_own_store_replays_by_name(flow_browser) -> None:
    b, url = flow_browser
    store = MemoryStore()
    mine = "python order (mine)"
    d = await Deckhand.create(browser=b, cache=store)
    try:
        recorded = await d.flows.get(FLOW, where="extension")
        summary = await d.flows.save(recorded.model_copy(update={"name": f"  {mine} ", "source": "client"}), to="store")
        assert (summary.name, summary.source, summary.steps) == (mine, "client", len(recorded.recording.steps))
        # Kept under flow_key(name) with op 'flow', as the worker looks it up; not in the extension.
        entry = store.lookup(flow_key(mine), flow_key(mine))["entry"]
        assert entry["op"] == "flow" and entry["result"]["name"] == mine
        assert isinstance(await failure(d.flows.get(mine, where="extension")), NotFoundError)
        assert (await d.flows.get(mine)).name == mine
        before = await d.metrics()
        r = await d.replay(mine, variables={"email": "grace@example.com"})
        assert r.name == mine and all(s.status == "done" for s in r.steps) and r.usage.input_tokens == 0
        assert await d.metrics() == before
        assert (await page_state(b))["result"] == "Order placed for grace@example.com"
        # Renamed and deleted there.
        assert (await d.flows.rename(mine, "python order (renamed)", where="store")).name == "python order (renamed)"
        assert store.lookup(flow_key(mine), flow_key(mine))["entry"] is None
        assert await d.flows.delete("python order (renamed)", where="store") is True
        assert await d.flows.delete("python order (renamed)", where="store") is False
        # A dict may leave out version, source and savedAt: the worker fills them in.
        bare = {"name": "python bare", "recording": recorded.recording}
        assert (await d.flows.save(bare, to="store")).source == "client"
        got = await d.flows.get("python bare", where="store")
        assert (got.version, got.source) == (1, "client") and got.saved_at.endswith("Z")
        assert isinstance(await failure(d.flows.rename("no such flow", "x", where="store")), NotFoundError)
    finally:
        await d.close()
    # Another client, with no store of its own, has no such flow.
    d2 = await Deckhand.create(browser=b)
    try:
        e = await failure(d2.replay(mine))
        assert isinstance(e, NotFoundError) and e.data == {"flow": mine}
        e = await failure(d2.flows.save(recorded, to="store"))
        assert isinstance(e, InvalidArgumentError) and "no cache store to keep flows in" in e.message, e
    finally:
        await d2.close()


async def test_the_extensions_flows_saved_renamed_and_deleted(flow_browser) -> None:
    b, url = flow_browser
    d = await Deckhand.create(browser=b)
    try:
        f = await d.flows.get(FLOW)
        s = await d.flows.save(f.model_copy(update={"name": "python copy"}))
        assert s.name == "python copy" and "python copy" in [x.name for x in await d.flows.list()]
        assert isinstance(await failure(d.flows.rename("python copy", FLOW)), AlreadyInUseError)
        assert (await d.flows.rename("python copy", "python copy 2")).name == "python copy 2"
        assert await d.flows.delete("python copy 2") is True
        assert await d.flows.delete("python copy 2") is False
        assert FLOW in [x.name for x in await d.flows.list()]
        assert isinstance(await failure(d.flows.get("no such flow")), NotFoundError)
        assert isinstance(await failure(d.flows.get("   ")), InvalidArgumentError)
        assert isinstance(await failure(d.flows.save(f, to="elsewhere")), InvalidArgumentError)
    finally:
        await d.close()


async def test_a_flow_given_whole_its_timeout_and_bad_arguments(flow_browser) -> None:
    b, url = flow_browser
    d = await Deckhand.create(browser=b)
    try:
        wait = {"kind": "wait", "id": "w", "description": "wait", "ms": 5000}
        waiting = {"name": "waits", "recording": {"version": 1, "title": "t", "startUrl": url, "steps": [wait]}}
        started = time.monotonic()
        e = await failure(d.replay(waiting, timeout=400))
        assert isinstance(e, DeckhandTimeoutError) and e.data == {"timeoutMs": 400}
        assert time.monotonic() - started < 3
        r = await d.replay({**waiting, "recording": {**waiting["recording"], "steps": [{**waiting["recording"]["steps"][0], "ms": 10}]}})
        assert r.name == "waits" and [s.status for s in r.steps] == ["done"]
        assert isinstance(await failure(d.replay(FLOW, step_timeout=0)), InvalidArgumentError)
        assert isinstance(await failure(d.replay(FLOW, timeout=-1)), InvalidArgumentError)
        assert isinstance(await failure(d.replay({"name": "x", "recording": {"steps": []}})), InvalidArgumentError)
    finally:
        await d.close()


def test_flow_key_is_the_workers() -> None:
    # Computed with flowKey in src/protocol/flows.ts.
    assert flow_key("checkout") == "b58ec35cb9b3fd9cb98ce115f52cd00c9c309ab258f0d2749a17e7b22305c296"
    assert flow_key('\u00a0 Ünïcødé 💳 "q" \\ back\\slash \u2028\ufeff') == "a3cb3927d9306cd7094bdad462fceef750c088a8fde2ce5d6969f7172994f726"
    assert flow_key("Place order\u3000") == "3edd9dfa106320581dbb9af513bdce8ae1ac364df0f66e0405021053fd0d9b27"
    assert flow_key(" checkout\n") == flow_key("checkout")
