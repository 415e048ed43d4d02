"""Pages, locators and the context: the calls the Node facade has."""

from __future__ import annotations

from deckhand.types import PageInfo, SnapshotResult

from helpers import failure


async def test_pages_and_context(browser, dh, origin, tmp_path) -> None:
    ctx = browser.context
    page = await ctx.active_page()
    info = await page.goto(origin + "/form.html", wait_until="load", timeout=10_000)
    assert isinstance(info, PageInfo) and info.title == "Sign up" and info.url == origin + "/form.html"
    assert await page.url() == origin + "/form.html" and await page.title() == "Sign up"
    assert ctx.page(page.id) is page  # one object per page
    second = await ctx.new_page(origin + "/store.html")
    assert second.id != page.id and second in await ctx.pages()
    assert (await ctx.active_page()) is second
    await page.bring_to_front()
    assert (await ctx.active_page()) is page
    assert await second.evaluate("document.title") == (await second.title())
    assert await page.evaluate("(x) => x.a + x.b", {"a": 2, "b": 3}) == 5
    assert await page.evaluate("async () => 7") == 7
    assert await page.evaluate("1 + 1") == 2
    png = await page.screenshot()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    jpeg = await page.screenshot(type="jpeg", quality=50, path=tmp_path / "shot.jpg")
    assert jpeg[:2] == b"\xff\xd8" and (tmp_path / "shot.jpg").read_bytes() == jpeg
    await second.close()
    assert second.id not in [p.id for p in await ctx.pages()]
    e = await failure(second.title())
    assert e.code == "PAGE_CLOSED"


async def test_locators(dh, open_page) -> None:
    page = await open_page("/form.html")
    radios = page.locator("input[type=radio]")
    assert await radios.count() == 2
    assert await radios.nth(1).count() == 1 and await radios.nth(5).count() == 0
    await radios.nth(1).check()
    assert await page.evaluate("() => document.getElementById('plan-pro').checked") is True
    await page.locator("#terms").check()
    await page.locator("#news").uncheck()
    await page.locator("#name").fill("Ada")
    await page.locator("#bio").type("hi!")
    await page.locator("#country").select_option("France")
    await page.locator("#langs").select_option(["en", "de"])
    await page.locator("//button[normalize-space(.)='Multi']").click()
    await page.locator("#multi").dblclick()
    await page.locator("#hover-target").hover()
    await page.locator("#name").press("End")
    await page.press("Tab")
    await page.locator("#submit").scroll_into_view()
    state = await page.evaluate(
        """() => ({ terms: document.getElementById('terms').checked, news: document.getElementById('news').checked,
                   name: document.getElementById('name').value, bio: document.getElementById('bio').value,
                   country: document.getElementById('country').value,
                   langs: [...document.getElementById('langs').selectedOptions].map((o) => o.value) })"""
    )
    assert state == {"terms": True, "news": False, "name": "Ada", "bio": "hi!", "country": "fr", "langs": ["en", "de"]}
    log = await page.evaluate("() => window.__log")
    assert "click:multi" in log and "dblclick:multi" in log and "mouseenter:hover-target" in log
    e = await failure(page.locator("#locked").fill("x", timeout=300))
    assert e.code == "ELEMENT_NOT_ACTIONABLE"
    for bad in (lambda: page.locator(""), lambda: radios.nth(-1)):
        try:
            bad()
        except Exception as err:  # noqa: BLE001
            assert err.code in ("INVALID_SELECTOR", "INVALID_ARGUMENT")
        else:
            raise AssertionError("expected an error")


async def test_snapshot_and_selectors(dh, open_page) -> None:
    page = await open_page("/form.html")
    snap = await page.snapshot()
    assert isinstance(snap, SnapshotResult) and snap.tokens > 0 and snap.folded is False
    line = next(l for l in snap.text.splitlines() if 'button "Multi"' in l)
    eid = line.strip().split("]")[0].lstrip("[")
    [ref, gone] = await page.selectors_for([eid, "e99999"])
    assert ref is not None and ref.role == "button" and ref.name == "Multi" and gone is None
    await page.locator(ref.selector).click()
    assert await page.evaluate("() => window.__log") == ["click:multi"]
    scoped = await page.snapshot(locator=page.locator("#signup"), ignore_locators=["#country"], budget=2000)
    assert "Multi" not in scoped.text and "Country" not in scoped.text and "Full name" in scoped.text
