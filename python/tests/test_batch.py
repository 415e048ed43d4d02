"""experimental_batch: a JavaScript callback's source run inside the worker, and its rules:
1. input must be JSON: omitted gives undefined, None gives null;
2. the result must be JSON (undefined comes back as None); anything else is an error naming the path;
3. errors thrown in the callback come back as BATCH_FAILED with their message and stack;
4. what is not available inside a batch says so by name;
5. the default timeout is 30 s; at the deadline the batch fails with TIMEOUT and starts nothing new;
6. usage of AI calls made in a batch counts in metrics (a Python callback answers them too).
Plus batch.page is fixed, and the `page` option picks it."""

from __future__ import annotations

import asyncio
import time

from deckhand import Deckhand
from deckhand.errors import BatchFailedError

from helpers import click_answer, element_id, failure


async def test_runs_in_the_worker_with_input_and_result_as_json(dh, open_page, origin) -> None:
    page = await open_page("/form.html")
    r = await dh.experimental_batch(
        """async ({ page }, input) => {
             for (let i = 0; i < input.clicks; i++) await page.locator('#multi').click();
             await page.locator('#name').fill('from a batch');
             return { title: await page.title(), url: await page.url(), n: await page.locator('input[type=radio]').count() };
           }""",
        {"clicks": 3},
    )
    assert r == {"title": "Sign up", "url": f"{origin}/form.html", "n": 2}
    assert await page.evaluate("() => window.__log") == ["click:multi"] * 3
    assert await page.evaluate("() => document.getElementById('name').value") == "from a batch"


async def test_rule_1_input_omitted_is_undefined_none_is_null(dh, open_page) -> None:
    await open_page("/form.html")
    kind = "(_b, input) => ({ kind: input === undefined ? 'undefined' : input === null ? 'null' : typeof input })"
    assert await dh.experimental_batch(kind) == {"kind": "undefined"}
    assert await dh.experimental_batch(kind, None) == {"kind": "null"}
    assert await dh.experimental_batch(kind, 0) == {"kind": "number"}
    assert await dh.experimental_batch("(_b, xs) => xs.map((x) => x * 2)", [1, 2, 3]) == [2, 4, 6]
    assert await dh.experimental_batch("async (batch, input) => (await batch.page.title()) + input", "!") == "Sign up!"
    e = await failure(dh.experimental_batch("() => 1", {"when": {1, 2}}))
    assert e.code == "INVALID_ARGUMENT" and "cannot send its arguments as JSON" in e.message and "set" in e.message
    e = await failure(dh.experimental_batch("() => 1", {"x": float("nan")}))
    assert e.code == "INVALID_ARGUMENT" and "cannot send its arguments as JSON" in e.message
    e = await failure(dh.experimental_batch(lambda b, i: 1))  # type: ignore[arg-type]
    assert e.code == "INVALID_ARGUMENT" and "JavaScript source" in e.message
    e = await failure(dh.experimental_batch("   "))
    assert e.code == "INVALID_ARGUMENT"


async def test_rule_2_the_result_must_be_json(dh, open_page) -> None:
    await open_page("/form.html")
    assert await dh.experimental_batch("() => undefined") is None
    assert await dh.experimental_batch("() => null") is None
    assert await dh.experimental_batch("() => ({ a: [1, 'two', true, null, { b: 2.5 }] })") == {"a": [1, "two", True, None, {"b": 2.5}]}
    e = await failure(dh.experimental_batch("() => ({ when: new Date() })"))
    assert e.code == "BATCH_FAILED" and "not JSON-serialisable: result.when is a Date" in e.message
    e = await failure(dh.experimental_batch("() => () => 1"))
    assert "not JSON-serialisable: result is a function" in e.message


async def test_rule_3_errors_come_back_with_message_and_stack(dh, open_page) -> None:
    await open_page("/form.html")
    e = await failure(dh.experimental_batch("async () => { throw new Error('exploded in the worker') }"))
    assert isinstance(e, BatchFailedError) and e.code == "BATCH_FAILED"
    assert e.message == "exploded in the worker"
    assert e.stack and "exploded in the worker" in e.stack and "at " in e.stack
    e = await failure(dh.experimental_batch("() => outside + 1"))
    assert "outside is not defined" in e.message and "not captured" in e.message
    e = await failure(dh.experimental_batch("this is not javascript("))
    assert e.code == "BATCH_FAILED" and "could not be started: SyntaxError" in e.message
    e = await failure(dh.experimental_batch("42"))
    assert "must evaluate to a function" in e.message


async def test_rule_4_what_is_not_available_says_so(dh, open_page) -> None:
    await open_page("/form.html")
    cases = [
        ("async (b) => b.context.close()", "context.close() is not available inside experimentalBatch"),
        ("async (b) => b.page.on('console', () => {})", "page event subscription (page.on) is not available"),
        ("async (b) => b.experimentalBatch(() => 1)", "a nested experimentalBatch is not available"),
        ("async (b) => b.close()", "close() (instance lifecycle) is not available"),
        ("async (b) => b.page.screenshot({ path: '/tmp/x.png' })", "only available from Node"),
        ("async () => require('fs')", "Node APIs are not available"),
    ]
    for src, text in cases:
        e = await failure(dh.experimental_batch(src))
        assert text in e.message, (src, e.message)
    assert await dh.experimental_batch("async (b) => (await b.page.screenshot()).length > 100") is True


async def test_rule_5_timeout(dh, open_page) -> None:
    page = await open_page("/form.html")
    t = time.monotonic()
    e = await failure(
        dh.experimental_batch(
            """async (b) => {
                 await b.page.evaluate(() => new Promise((r) => setTimeout(r, 1500)));
                 await b.page.evaluate(() => (window.after = true));
               }""",
            timeout=500,
        )
    )
    assert e.code == "TIMEOUT" and "timed out after 500 ms" in e.message and "not atomic" in e.message
    assert time.monotonic() - t < 1.4
    await asyncio.sleep(1.8)
    assert await page.evaluate("() => window.after ?? false") is False
    for bad in (0, 600_001, 2.5, "30s"):
        e = await failure(dh.experimental_batch("() => 1", timeout=bad))
        assert e.code == "INVALID_ARGUMENT" and "batch.run parameters: timeout" in e.message


async def test_rule_6_usage_counts_in_metrics_and_batch_page_is_fixed(browser, open_page) -> None:
    def generate(request):
        return {"object": click_answer(element_id(request, "button", "Multi"), "Multi"), "usage": {"input_tokens": 77, "output_tokens": 7}}

    d = await Deckhand.create(browser=browser, model=generate)
    try:
        first = await open_page("/form.html")
        before = await d.metrics()
        n = await d.experimental_batch("async (b) => (await b.act('click the Multi button')).metadata.usage.inputTokens")
        assert n == 77
        assert (await d.metrics()).act_prompt_tokens - before.act_prompt_tokens == 77
        r = await d.experimental_batch(
            """async (b) => {
                 const second = await b.context.newPage((await b.page.url()).replace('form.html', 'store.html'));
                 const t = await b.page.title();
                 await second.close();
                 return { t, same: (await b.page.title()) === t };
               }"""
        )
        assert r == {"t": "Sign up", "same": True}
        assert await d.experimental_batch("async (b) => b.page.title()", page=first) == "Sign up"
    finally:
        await d.close()


async def test_cancelling_the_task_stops_the_batch_in_the_worker(dh, open_page) -> None:
    page = await open_page("/form.html")
    source = """async (b) => {
        await b.page.locator('#never-there').click({ timeout: 20000 });
        await b.page.locator('#name').fill('after the cancel');
    }"""
    task = asyncio.ensure_future(dh.experimental_batch(source))
    await asyncio.sleep(0.5)
    t = time.monotonic()
    task.cancel()
    try:
        await task
        raise AssertionError("the cancelled batch finished")
    except asyncio.CancelledError:
        pass
    assert time.monotonic() - t < 1
    # The worker stopped too: the element appearing now is not clicked, and the fill never runs.
    await page.evaluate(
        "() => document.body.insertAdjacentHTML('beforeend', '<button id=\"never-there\" onclick=\"window.__late = (window.__late || 0) + 1\">Late</button>')"
    )
    await asyncio.sleep(0.8)
    assert await page.evaluate("() => window.__late ?? 0") == 0
    assert await page.evaluate("() => document.getElementById('name').value") == ""
