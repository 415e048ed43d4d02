"""Approval of risky steps from Python: act and an agent run on a real form that POSTs to the
fixture server. With `approval={"when": ["submit"]}` the submit waits for a decision: the call's
`on_approval` (sync or async) decides; 'stop' refuses it with NotApprovedError, 'approve' lets it
go, and no answer by the deadline refuses it too. While a step waits, this client's own deadline
for the call stands still. The server's record of POSTs is the proof of what was submitted."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from deckhand import Deckhand
from deckhand.errors import InvalidArgumentError, InvalidArgumentTypeError, NotApprovedError
from deckhand.options import ApprovalDecision
from deckhand.types import ApprovalRequest

SEND = {"selector": "#send", "method": "click", "description": "the Send button"}


async def settle_then(posts: list[dict[str, Any]], count: int, what: str, seconds: float = 10) -> None:
    """Wait until the server has `count` POSTs (a submit that was let go lands a moment later)."""
    end = time.monotonic() + seconds
    while len(posts) < count:
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}; POSTs: {posts}")
        await asyncio.sleep(0.05)


async def test_stop_refuses_the_submit_and_nothing_is_sent(dh, open_page, form_posts) -> None:
    page = await open_page("/examples/contact.html")
    await page.locator("#name").fill("Ada Lovelace")
    seen: list[ApprovalRequest] = []

    def decide(req: ApprovalRequest) -> ApprovalDecision:
        seen.append(req)
        return "stop"

    with pytest.raises(NotApprovedError) as e:
        await dh.act(SEND, approval={"when": ["submit"]}, on_approval=decide)
    assert e.value.code == "NOT_APPROVED"
    assert e.value.data is not None and e.value.data["decision"] == "stop" and e.value.data["kinds"] == ["submit"]
    assert len(seen) == 1 and isinstance(seen[0], ApprovalRequest)
    assert seen[0].kinds == ["submit"] and seen[0].method == "click" and "Send" in seen[0].element and seen[0].op_id
    await asyncio.sleep(0.5)
    assert form_posts == []
    assert await page.title() == "Contact us · Harbor Supply"


async def test_approve_lets_the_submit_go(dh, open_page, form_posts) -> None:
    page = await open_page("/examples/contact.html")
    await page.locator("#name").fill("Ada Lovelace")

    async def decide(req: ApprovalRequest) -> ApprovalDecision:
        return "approve" if req.kinds == ["submit"] else "stop"

    r = await dh.act(SEND, approval={"when": ["submit"]}, on_approval=decide)
    assert r.data.success, r.data.message
    await settle_then(form_posts, 1, "the form POST")
    assert form_posts == [{"path": "/contact", "fields": {"name": "Ada Lovelace", "email": "", "topic": "general", "message": ""}}]


async def test_no_answer_by_the_deadline_is_a_refusal(dh, open_page, form_posts) -> None:
    await open_page("/examples/contact.html")
    started = time.monotonic()
    with pytest.raises(NotApprovedError) as e:
        await dh.act(SEND, approval={"when": ["submit"], "timeout": 1500})
    took = time.monotonic() - started
    assert e.value.data is not None and e.value.data["decision"] == "timeout"
    assert "1500 ms" in e.value.message
    assert 1.4 <= took < 10, took
    await asyncio.sleep(0.5)
    assert form_posts == []


async def test_a_slow_decision_does_not_run_out_the_clients_deadline(dh, open_page, form_posts) -> None:
    # act's own timeout is 1 s, so this client gives the call 1 s plus a 5 s grace; the handler
    # takes 6.5 s. The wait for a decision stops both clocks, the worker's and this client's.
    await open_page("/examples/contact.html")

    async def slow(req: ApprovalRequest) -> ApprovalDecision:
        await asyncio.sleep(6.5)
        return "approve"

    started = time.monotonic()
    r = await dh.act(SEND, approval={"when": ["submit"], "timeout": 20_000}, on_approval=slow, timeout=1000)
    assert r.data.success, r.data.message
    assert time.monotonic() - started >= 6.5
    await settle_then(form_posts, 1, "the form POST")


async def test_an_agent_run_waits_for_the_handler_before_it_submits(browser, open_page, form_posts) -> None:
    page = await open_page("/examples/contact.html")
    # region approval
    asked: list[list[str]] = []

    def on_approval(req: ApprovalRequest) -> ApprovalDecision | None:
        asked.append(list(req.kinds))
        print(f"approve? {req.summary}")  # e.g. click on button 'Send' (submits a form)
        return "approve"

    deckhand = await Deckhand.create(browser=browser, approval={"when": ["submit"]}, on_approval=on_approval)
    result = await deckhand.agent().execute(
        'Fill the contact form: name Ada Lovelace, email ada@example.com, message "Hi", and then click Send'
    )
    # endregion
    try:
        assert result.success, result.message
        assert asked == [["submit"]]
        await settle_then(form_posts, 1, "the form POST")
        assert form_posts[0]["fields"]["name"] == "Ada Lovelace" and form_posts[0]["fields"]["email"] == "ada@example.com"
        assert form_posts[0]["fields"]["message"] == "Hi"
        assert await page.title() == "Message sent"
    finally:
        await deckhand.close()


async def test_a_batch_waits_too_and_skip_refuses(dh, open_page, form_posts) -> None:
    await open_page("/examples/contact.html")
    kinds: list[list[str]] = []

    def skip(req: ApprovalRequest) -> ApprovalDecision:
        kinds.append(list(req.kinds))
        return "skip"

    out = await dh.experimental_batch(
        """async (batch) => {
             try { await batch.act({ selector: '#send', method: 'click', description: 'Send' }); return 'sent'; }
             catch (e) { return e.code + ' ' + e.data?.decision; }
           }""",
        approval={"when": ["submit"]},
        on_approval=skip,
    )
    assert out == "NOT_APPROVED skip"
    assert kinds == [["submit"]]
    await asyncio.sleep(0.5)
    assert form_posts == []


async def test_a_bad_policy_or_handler_is_a_typed_error_before_anything_is_done(dh) -> None:
    # The worker checks the policy and names the field.
    with pytest.raises(InvalidArgumentError, match="approval needs at least one kind"):
        await dh.act(SEND, approval={})
    with pytest.raises(InvalidArgumentError, match="approval.when"):
        await dh.act(SEND, approval={"when": ["explode"]})  # type: ignore[list-item]
    with pytest.raises(InvalidArgumentError, match="approval.timeout"):
        await dh.act(SEND, approval={"when": ["pay"], "timeout": 50})
    with pytest.raises(InvalidArgumentTypeError, match="on_approval must be a function"):
        await dh.act(SEND, approval={"when": ["pay"]}, on_approval="approve")  # type: ignore[arg-type]
