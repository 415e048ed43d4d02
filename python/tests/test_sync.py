"""The synchronous wrapper, from a plain (non-async) test."""

from __future__ import annotations

import pytest

from deckhand.sync import Deckhand, local_browser


def test_a_script_without_asyncio(servers) -> None:
    seen = []

    def generate(request):  # a plain function, called from the wrapper's loop in a thread
        seen.append(request.instruction)
        return {"object": {"extraction": "Sign up"}, "usage": {"input_tokens": 5, "output_tokens": 1}}

    with local_browser.launch(headless=True) as browser:
        deckhand = Deckhand.create(browser=browser)
        page = browser.context.active_page()
        page.goto(servers.origin + "/form.html")
        assert page.title() == "Sign up"
        page.locator("input[type=radio]").nth(1).check()
        r = deckhand.act({"selector": "#multi", "description": "Multi"})
        assert r.data.success
        assert deckhand.extract("the page heading").data == {"extraction": "Sign up"}
        assert deckhand.experimental_batch("async (b) => b.page.title()") == "Sign up"
        assert deckhand.metrics().total_prompt_tokens == 0
        with pytest.raises(Exception) as e:
            Deckhand.create(browser=browser)
        assert e.value.code == "ALREADY_IN_USE"
        deckhand.close()
        with Deckhand.create(browser=browser, model=generate) as d2:
            assert d2.extract("the heading", page=page).data == {"extraction": "Sign up"}
            assert seen == ["the heading"] and d2.initialized
        assert page.evaluate("() => document.getElementById('plan-pro').checked") is True
        # A flow: given whole, then saved and listed (replay and flows block too).
        action = {"selector": "#multi", "description": "Multi", "method": "click"}
        step = {"kind": "act", "id": "a", "description": "click Multi", "actions": [action], "urlAfter": ""}
        flow = {"name": "sync flow", "recording": {"version": 1, "title": "Sign up", "startUrl": servers.origin + "/form.html", "steps": [step]}}
        with Deckhand.create(browser=browser) as d3:
            r = d3.replay(flow)
            assert [s.status for s in r.steps] == ["done"] and r.usage.input_tokens == 0
            assert page.evaluate("() => window.__log") == ["click:multi"]
            assert d3.flows.save(flow).name == "sync flow"
            assert [f.name for f in d3.flows.list()] == ["sync flow"]
            assert d3.replay("sync flow").name == "sync flow"
