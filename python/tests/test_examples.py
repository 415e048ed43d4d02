"""The Python examples (examples/python/) run as a user runs them: `python <example> <url>`, a
subprocess of this virtualenv's Python with a fixture page's URL and no key, no DECKHAND_*
variable. Each must exit 0, print what it says it does, and have done it: the page's resulting
state it prints, or the form post the page server received."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import urllib.parse
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "test" / "fixtures" / "pages"
EXAMPLES = ROOT / "examples" / "python"
#: Examples another suite runs (attach needs a person to pair the extension in Chrome).
RUN_ELSEWHERE = {"attach"}


class _Site(SimpleHTTPRequestHandler):
    """The fixture pages, and a form POST to any path recorded and answered with a page that
    shows what arrived (as test/fixtures/server.ts does for the Node examples)."""

    posts: list[dict[str, Any]] = []

    def __init__(self, *a: Any, **k: Any) -> None:
        super().__init__(*a, directory=str(PAGES), **k)

    def log_message(self, *_: Any) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_POST(self) -> None:  # noqa: N802
        size = int(self.headers.get("Content-Length") or 0)
        fields = dict(urllib.parse.parse_qsl(self.rfile.read(min(size, 65_536)).decode(), keep_blank_values=True))
        self.posts.append({"path": urllib.parse.urlsplit(self.path).path, "fields": fields})
        who = f"Thanks, {fields['name']}!" if fields.get("name") else "Thanks!"
        body = f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Message sent</title></head><body><h1>{who}</h1></body></html>'.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def posts() -> list[dict[str, Any]]:
    _Site.posts.clear()
    return _Site.posts


def run(name: str, url: str) -> list[str]:
    """`python examples/python/<name>.py <url>` from the repository root; its output's lines
    once it has ended well."""
    # What a user's shell would not have: a provider key (the examples use the built-in model)
    # or the test run's settings. PYTHONPATH: this checkout's package, whatever is installed.
    env = {k: v for k, v in os.environ.items() if not re.search(r"_API_KEY$|^DECKHAND_|^PYTEST_", k)}
    env["PYTHONPATH"] = str(ROOT / "python" / "src")
    r = subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py"), url], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"exit {r.returncode}\nstderr:\n{r.stderr}\nstdout:\n{r.stdout}"
    return r.stdout.strip().splitlines()


CASES = ["act", "observe", "extract", "cache", "custom_model", "logging_callback", "batch", "agent", "pages_and_locators"]


def test_every_example_is_run_here() -> None:
    found = {p.stem for p in EXAMPLES.glob("*.py")} - RUN_ELSEWHERE
    assert sorted(found) == sorted(CASES)


def test_act_fills_the_contact_form_and_sends_it(site: str, posts: list[dict[str, Any]]) -> None:
    out = run("act", f"{site}/examples/contact.html")
    assert len([l for l in out if l.startswith("done: ")]) == 5, out
    assert out[-2:] == ["page now: Message sent", "heading: Thanks, Ada Lovelace!"]
    fields = {"name": "Ada Lovelace", "email": "ada@example.com", "topic": "returns", "message": "The trowel arrived bent."}
    assert posts == [{"path": "/contact", "fields": fields}]


def test_observe_lists_the_buttons_and_acts_on_the_second(site: str) -> None:
    out = run("observe", f"{site}/examples/shop.html")
    assert out[0] == "found 3 actions:"
    assert all(re.fullmatch(r"  click .*Add to cart.*\(\S+\)", l) for l in out[1:4]), out
    assert out[4:] == ["Cart: 1 item", "in the cart: Trowel"]


def test_extract_reads_the_products_into_a_pydantic_model(site: str) -> None:
    assert run("extract", f"{site}/examples/shop.html") == ["Garden Hose: 24.99", "Trowel: 9.50", "Watering Can: 18.00", "total: 52.49"]


def test_cache_misses_then_hits(site: str) -> None:
    assert run("cache", f"{site}/examples/contact.html") == [
        'first run: cache MISS, Name field = "Ada Lovelace"',
        'second run: cache HIT, Name field = "Ada Lovelace"',
    ]


def test_custom_model_answers_act_with_a_function(site: str) -> None:
    out = run("custom_model", f"{site}/examples/shop.html")
    asked = [l for l in out if l.startswith("model asked: ")]
    assert len(asked) == 3
    assert re.fullmatch(r'model asked: "click \\"Add to cart\\"" over \d+ outline lines -> e\d+', asked[0]), asked
    assert re.fullmatch(r'model asked: "click \\"Pay with bitcoin\\"" over \d+ outline lines -> not found', asked[2]), asked
    assert [l for l in out if not l.startswith("model asked: ")] == [
        'click "Add to cart": done',
        'click "Checkout": done',
        'click "Pay with bitcoin": not done',
        "status: Order placed: Garden Hose",
    ]


def test_logging_hands_lines_to_a_callback(site: str) -> None:
    out = run("logging_callback", f"{site}/examples/shop.html")
    assert re.fullmatch(r"\[info\] act on page \d+ with deckhand/local", out[0]), out
    assert any(re.fullmatch(r"\[info\] act: deckhand/local answered in [\d.]+ ms", l) for l in out), out
    assert out[-2:] == ["act succeeded: true", "Cart: 1 item"]


def test_batch_adds_two_products_and_checks_out(site: str) -> None:
    assert run("batch", f"{site}/examples/shop.html") == ["Garden Hose: added", "Trowel: added", "status: Order placed: Garden Hose, Trowel"]


def test_agent_fills_and_sends_the_form_with_the_built_in_model(site: str, posts: list[dict[str, Any]]) -> None:
    out = run("agent", f"{site}/examples/contact.html")
    assert out[0] == "success: true, completed: true"
    assert len([l for l in out if l.startswith("  act: performed: ")]) == 5, out
    assert out[-1] == "page now: Message sent"
    fields = {"name": "Grace Hopper", "email": "grace@example.com", "topic": "returns", "message": "The hose leaks at the tap."}
    assert posts == [{"path": "/contact", "fields": fields}]


def test_pages_and_locators_fill_a_form_in_a_second_tab_with_the_sync_api(site: str) -> None:
    assert run("pages_and_locators", f"{site}/form.html") == [
        "open pages: 2",
        "checkboxes on the form: 2",
        "submitted: name=Ada Lovelace email=ada@example.com country=fr terms=true",
        "heading: Sign up",
        "open pages: 1, first page: about:blank",
    ]
