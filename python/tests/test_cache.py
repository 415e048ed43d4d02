"""The result cache from Python: the worker asks this client's store over cache.lookup,
cache.record and cache.invalidate; hit metadata (status, count, threshold, miss_reason,
tokens_saved); hits spend nothing (they count what they saved); an unrelated change hits, a
changed target does not replay; bypasses; the SQLite store in DECKHAND_HOME."""

from __future__ import annotations

import sqlite3

import pytest

from deckhand import Deckhand, SqliteStore

from helpers import click_answer, element_id, failure


def counting_model(calls: list):
    def generate(request):
        calls.append(request.instruction)
        if request.instruction and "heading" in request.instruction:
            return {"object": {"extraction": "Sign up"}, "usage": {"input_tokens": 30, "output_tokens": 3}}
        return {"object": click_answer(element_id(request, "button", "Multi"), "Multi"), "usage": {"input_tokens": 77, "output_tokens": 7}}

    return generate


async def test_miss_then_hit_with_its_metadata_and_no_model_call(browser, open_page) -> None:
    calls: list = []
    d = await Deckhand.create(browser=browser, model=counting_model(calls), cache={"store": "memory"})
    try:
        page = await open_page("/form.html")
        first = await d.act("click the Multi button")
        c = first.metadata.cache
        assert (c.status, c.count, c.threshold, c.miss_reason) == ("MISS", 1, 1, "not_found")
        metrics = await d.metrics()
        second = await d.act("click the Multi button")
        c = second.metadata.cache
        assert (c.status, c.count, c.threshold) == ("HIT", 2, 1)
        assert c.tokens_saved is not None
        assert (c.tokens_saved.input_tokens, c.tokens_saved.output_tokens, c.tokens_saved.total_tokens) == (77, 7, 84)
        assert c.miss_reason is None
        assert second.data.success and second.metadata.usage.input_tokens == 0
        assert len(calls) == 1  # the hit made no model call
        assert await page.evaluate("() => window.__log") == ["click:multi", "click:multi"]
        after = await d.metrics()  # a hit spends nothing; it counts what it saved
        assert (after.total_prompt_tokens, after.total_completion_tokens) == (metrics.total_prompt_tokens, metrics.total_completion_tokens)
        assert after.act_cache_saved_tokens == metrics.act_cache_saved_tokens + 84
        # Bypasses: cache=False, locator and ignore_locators skip the lookup.
        assert (await d.act("click the Multi button", cache=False)).metadata.cache.status == "DISABLED"
        assert (await d.act("click the Multi button", locator="body")).metadata.cache.status == "DISABLED"
        assert (await d.act("click the Multi button", ignore_locators=["#signup"])).metadata.cache.status == "DISABLED"
        assert len(calls) == 4
        e = await failure(d.act("click the Multi button", cache={"threshold": "2"}))
        assert e.code == "INVALID_ARGUMENT"
        # extract is cached too.
        assert (await d.extract("the page heading")).metadata.cache.status == "MISS"
        hit = await d.extract("the page heading")
        assert hit.metadata.cache.status == "HIT" and hit.data == {"extraction": "Sign up"}
    finally:
        await d.close()


async def test_threshold_two_an_unrelated_change_and_a_changed_target(browser, open_page) -> None:
    calls: list = []
    d = await Deckhand.create(browser=browser, model=counting_model(calls), cache={"store": "memory", "threshold": 2})
    try:
        page = await open_page("/form.html")
        statuses = [(await d.act("click the Multi button")).metadata.cache for _ in range(3)]
        assert [(s.status, s.count, s.threshold) for s in statuses] == [("MISS", 1, 2), ("MISS", 2, 2), ("HIT", 3, 2)]
        assert statuses[1].miss_reason == "below_threshold"
        assert len(calls) == 2
        # A control elsewhere comes: the same call, still served.
        await page.evaluate("() => { const b = document.createElement('button'); b.textContent = 'Brand new'; document.body.prepend(b); }")
        assert (await d.act("click the Multi button")).metadata.cache.status == "HIT"
        # The target itself now means something else: a miss that says so, and the model is asked.
        await page.evaluate("() => { document.getElementById('multi').textContent = 'Delete everything'; }")
        # (The model finds no Multi button now and fails the call: what matters is that nothing was replayed.)
        with pytest.raises(Exception):
            await d.act("click the Multi button", cache={"threshold": 1})
        assert len(calls) == 3
        assert await page.evaluate("() => window.__log.length") == 4  # three acts served before, none now
    finally:
        await d.close()


async def test_cache_true_uses_sqlite_in_deckhand_home_shared_across_instances(browser, open_page, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("DECKHAND_HOME", str(tmp_path / "home"))
    calls: list = []
    d = await Deckhand.create(browser=browser, model=counting_model(calls), cache=True)
    try:
        await open_page("/form.html")
        assert (await d.act("click the Multi button")).metadata.cache.status == "MISS"
    finally:
        await d.close()
    db = tmp_path / "home" / "cache.db"
    assert db.exists()
    rows = sqlite3.connect(db).execute("SELECT op, agree FROM entries").fetchall()
    assert rows == [("act", 1)]
    # Another instance (another process would do the same) hits the stored entry.
    d2 = await Deckhand.create(browser=browser, model=counting_model(calls), cache={"store": {"path": str(db)}})
    try:
        assert (await d2.act("click the Multi button")).metadata.cache.status == "HIT"
        assert len(calls) == 1
    finally:
        await d2.close()
    # A store object of one's own works too.
    d3 = await Deckhand.create(browser=browser, model=counting_model(calls), cache=SqliteStore(db))
    try:
        assert (await d3.act("click the Multi button")).metadata.cache.status == "HIT"
    finally:
        await d3.close()


async def test_a_batch_callbacks_act_uses_this_clients_store(browser, open_page) -> None:
    calls: list = []
    d = await Deckhand.create(browser=browser, model=counting_model(calls), cache={"store": "memory"})
    try:
        await open_page("/form.html")
        r = await d.experimental_batch(
            """async (b) => {
                 const first = await b.act('click the Multi button');
                 const second = await b.act('click the Multi button');
                 const off = await b.act('click the Multi button', { cache: false });
                 return [first, second, off].map((x) => x.metadata.cache.status);
               }"""
        )
        assert r == ["MISS", "HIT", "DISABLED"]
        assert len(calls) == 2
        assert (await d.act("click the Multi button")).metadata.cache.status == "HIT"
    finally:
        await d.close()


def test_node_and_python_programs_share_the_sqlite_file(tmp_path) -> None:
    """The Python store writes the Node store's format: each reads what the other recorded."""
    import json
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    db = tmp_path / "cache.db"
    usage = {"inputTokens": 77, "outputTokens": 7, "reasoningTokens": 0, "cachedInputTokens": 0, "inferenceTimeMs": 12}
    action = [{"selector": "#multi", "description": "Multi", "method": "click", "arguments": []}]
    py = SqliteStore(db)
    assert py.record({"key": "p" * 64, "baseKey": "b" * 64, "op": "act", "result": action, "usage": usage}) == {"agree": 1}
    script = f"""
      import {{ SqliteStore }} from './src/client/cache/store.ts';
      const s = await SqliteStore.open({json.dumps(str(db))});
      const seen = await s.lookup('{"p" * 64}', '{"b" * 64}');
      await s.record({{ key: '{"n" * 64}', baseKey: '{"b" * 64}', op: 'extract', result: {{ heading: 'Sign up' }}, usage: {json.dumps(usage)} }});
      s.close();
      console.log(JSON.stringify(seen));
    """
    out = subprocess.run(["node", "--import", "tsx", "--input-type=module", "-e", script], cwd=root, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen == {"count": 2, "entry": {"key": "p" * 64, "op": "act", "result": action, "usage": usage, "agree": 1}, "pageChanged": False}
    hit = py.lookup("n" * 64, "b" * 64)
    assert hit["entry"]["result"] == {"heading": "Sign up"} and hit["count"] == 2
    py.close()
