"""Values as the person means them, from Python: the shared vectors (test/vectors/values.json,
also run by test/e2e/values.test.ts and go/values_e2e_test.go) through act and the agent with
the built-in local model in real Chromium, then what the fields hold."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import pytest

from conftest import VECTORS

CASES: list[dict[str, Any]] = json.loads((VECTORS / "values.json").read_text("utf-8"))["cases"]


def date_in(today: list[int], days: int, fmt: str) -> str:
    """The page's date plus `days`, written in `fmt` (YYYY, MM, DD and the separators)."""
    d = datetime.date(*today) + datetime.timedelta(days=days)
    parts = {"YYYY": f"{d.year:04d}", "MM": f"{d.month:02d}", "DD": f"{d.day:02d}"}
    return re.sub(r"YYYY|MM|DD", lambda m: parts[m.group(0)], fmt)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['run']}: {c['name']}" for c in CASES])
async def test_values_as_the_person_means_them(dh, open_page, case: dict[str, Any]) -> None:
    page = await open_page(case["page"])
    today = await page.evaluate("[new Date().getFullYear(), new Date().getMonth() + 1, new Date().getDate()]")
    if case["run"] == "act":
        r = await dh.act(case["say"])
        success, message = r.data.success, r.data.message
    else:
        a = await dh.agent().execute(case["say"])
        success, message = a.success, a.message
    assert success is case["success"], message
    for selector, want in case["expect"].items():
        value = date_in(today, want["days"], want["format"]) if isinstance(want, dict) else want
        got = await page.evaluate(
            "(sel) => { const el = document.querySelector(sel); return el.type === 'checkbox' || el.type === 'radio' ? el.checked : el.value; }",
            selector,
        )
        assert got == value, f"{selector} after {case['say']!r} ({message})"
    if "clicked" in case:
        assert await page.evaluate("window.__clicked") == case["clicked"]
