"""Browsers from a Selenium Grid 4: a real one (standalone on loopback, started by
test/fixtures/grid-cli.ts; `npm run setup` installs its jars and chromedriver) for acting, closing
and a browser that dies, and a small stand-in for the Grid's answers a real one gives only
slowly or never (its errors, a session without se:cdp, no answer at all)."""

from __future__ import annotations

import asyncio
import base64
import json
import socket
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, AsyncIterator, Iterator

import pytest
import pytest_asyncio

from deckhand import Deckhand, grid_browser
from deckhand._link import extension_id_from_manifest
from deckhand.browser import extension_dir
from deckhand._wire import SHARED_CHROMIUM_FLAGS
from deckhand.errors import BrowserClosedError, BrowserUnavailableError, DeckhandTimeoutError, ExtensionMissingError, InvalidArgumentError

from conftest import ROOT
from helpers import failure, fixture_cli


@pytest.fixture(scope="module")
def grid() -> Iterator[str]:
    """A Grid with a 10 s idle timeout and two slots; it stops when its stdin closes."""
    with fixture_cli("the test Grid (run npm run setup)", "grid-cli.ts", "10", "2") as url:
        yield url


def _sessions(url: str) -> int:
    with urllib.request.urlopen(f"{url}/status", timeout=5) as r:
        status = json.loads(r.read())
    return sum(1 for node in status["value"].get("nodes", []) for slot in node.get("slots", []) if slot.get("session"))


def _sessions_become(url: str, n: int) -> int:
    """The Grid's session count once it has settled on `n` (a deleted session's slot frees a
    moment later), or what it is after 10 s."""
    deadline = time.monotonic() + 10
    now = _sessions(url)
    while now != n and time.monotonic() < deadline:
        time.sleep(0.1)
        now = _sessions(url)
    return now


async def sessions_become(url: str, n: int) -> int:
    return await asyncio.to_thread(_sessions_become, url, n)


def closed_port() -> int:
    """A port nothing listens on."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


async def test_acts_in_a_grid_browser_and_ends_the_session_on_close(grid: str, origin: str) -> None:
    browser = await grid_browser.launch(url=grid, viewport={"width": 1000, "height": 700})
    try:
        assert await asyncio.to_thread(_sessions, grid) == 1
        dh = await Deckhand.create(browser=browser)
        page = await browser.context.active_page()
        await page.goto(origin + "/form.html")
        assert await page.title() == "Sign up"
        r = await dh.act("type Ada Lovelace in the Full name field")
        assert r.data.success, r.data.message
        assert await page.evaluate("document.querySelector('#name').value") == "Ada Lovelace"
        await dh.close()
    finally:
        await browser.close()
    await browser.close()  # a second close deletes nothing more
    assert await sessions_become(grid, 0) == 0


async def test_a_node_without_the_extension_folder_gets_it_packed_with_the_session_request(grid: str, origin: str) -> None:
    browser = await grid_browser.launch(url=grid, packed_extension=True, extension_dir="/nonexistent/on/the/node")
    try:
        assert browser.extension_id == extension_id_from_manifest(extension_dir())
        page = await browser.context.active_page()
        await page.goto(origin + "/form.html")
        assert await page.title() == "Sign up"
    finally:
        await browser.close()
    assert await sessions_become(grid, 0) == 0


def test_the_sync_wrapper_has_grid_browser(grid: str, origin: str) -> None:
    from deckhand import sync

    with sync.grid_browser.launch(url=grid + "/") as browser:
        page = browser.context.active_page()
        page.goto(origin + "/form.html")
        assert page.title() == "Sign up"
    assert _sessions_become(grid, 0) == 0


async def test_a_grid_that_is_down_or_a_bad_url_fails_at_once() -> None:
    t0 = time.monotonic()
    e = await failure(grid_browser.launch(url=f"http://127.0.0.1:{closed_port()}"))
    assert isinstance(e, BrowserUnavailableError) and e.code == "BROWSER_UNAVAILABLE"
    assert "could not be reached" in e.message
    assert time.monotonic() - t0 < 5
    for bad in ("ftp://grid", "grid:4444", "http://", "http://127.0.0.1:99999", None):
        assert isinstance(await failure(grid_browser.launch(url=bad)), InvalidArgumentError), bad
    e = await failure(grid_browser.launch(url="http://user:pw@127.0.0.1:4444"))
    assert isinstance(e, InvalidArgumentError) and "pw" not in e.message
    e = await failure(grid_browser.launch(url="http://127.0.0.1:4444", keep_alive=500))
    assert isinstance(e, InvalidArgumentError) and "keep_alive" in e.message


async def test_a_browser_that_dies_fails_the_next_call_and_leaves_no_grid_session(grid: str, origin: str) -> None:
    browser = await grid_browser.launch(url=grid)
    dh = await Deckhand.create(browser=browser)
    page = await browser.context.active_page()
    await page.goto(origin + "/form.html")
    # Chromium dies at once; its answer never comes. The Grid's CDP proxy keeps the WebSocket open.
    crash = browser.cdp.send_nowait("Browser.crash", {})
    crash.add_done_callback(lambda f: f.cancelled() or f.exception())
    t0 = time.monotonic()
    e = await failure(page.title())
    assert isinstance(e, BrowserClosedError), e
    assert time.monotonic() - t0 < 20
    assert not browser.is_connected
    await dh.close()
    await browser.close()
    assert await sessions_become(grid, 0) == 0


class _StandIn(BaseHTTPRequestHandler):
    """Answers POST /session with `reply` (status, body) and records every request."""

    reply: tuple[int, dict[str, Any]] = (200, {})
    seen: list[tuple[str, str, dict[str, str], Any]] = []

    def log_message(self, *_: Any) -> None:
        pass

    def _answer(self, status: int, body: dict[str, Any]) -> None:
        raw = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.seen.append(("POST", self.path, dict(self.headers), body))
        self._answer(*self.reply)

    def do_DELETE(self) -> None:  # noqa: N802
        self.seen.append(("DELETE", self.path, dict(self.headers), None))
        self._answer(200, {"value": None})


@pytest_asyncio.fixture
async def stand_in() -> AsyncIterator[tuple[str, type[_StandIn]]]:
    handler = type("Handler", (_StandIn,), {"seen": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/wd/hub", handler
    server.shutdown()
    server.server_close()


async def test_what_is_asked_of_the_grid_and_its_refusals(stand_in: tuple[str, type[_StandIn]]) -> None:
    url, handler = stand_in
    handler.reply = (500, {"value": {"error": "session not created", "message": "Could not start a new session.\nBuild info: ...", "stacktrace": ""}})
    e = await failure(
        grid_browser.launch(
            url=url + "/",
            headers={"Authorization": "Bearer t"},
            headless=False,
            extension_dir="/opt/deckhand/ext",
            binary="/usr/bin/chromium",
            args=["--lang=fr"],
            capabilities={"platformName": "linux", "goog:chromeOptions": {"args": ["--dropped"]}},
        )
    )
    assert isinstance(e, BrowserUnavailableError)
    assert e.message.endswith("gave no browser: session not created: Could not start a new session.") and e.data == {"status": 500}
    method, path, headers, body = handler.seen[0]
    assert (method, path) == ("POST", "/wd/hub/session")
    assert headers["Content-Type"] == "application/json; charset=utf-8" and headers["Authorization"] == "Bearer t"
    assert body == {
        "capabilities": {
            "alwaysMatch": {
                "browserName": "chrome",
                "platformName": "linux",
                "goog:chromeOptions": {
                    "args": [
                        *SHARED_CHROMIUM_FLAGS, "--disable-extensions-except=/opt/deckhand/ext", "--load-extension=/opt/deckhand/ext",
                        "--window-size=1280,800", "--lang=fr",
                    ],
                    "binary": "/usr/bin/chromium",
                },
            }
        }
    }
    handler.reply = (500, {"value": {"message": "x" * 400}})
    e = await failure(grid_browser.launch(url=url))
    assert e.message.endswith(": " + "x" * 297 + "...")
    assert "--headless=new" in handler.seen[-1][3]["capabilities"]["alwaysMatch"]["goog:chromeOptions"]["args"]

    # A session whose node's browser has no CDP: deleted, and the caller told why.
    handler.reply = (200, {"value": {"sessionId": "abc-123", "capabilities": {"browserName": "firefox"}}})
    e = await failure(grid_browser.launch(url=url))
    assert isinstance(e, BrowserUnavailableError) and "no se:cdp" in e.message
    assert handler.seen[-1][:2] == ("DELETE", "/wd/hub/session/abc-123")


async def test_the_packed_extension_goes_with_the_session_request(
    stand_in: tuple[str, type[_StandIn]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, handler = stand_in
    build = tmp_path / "chrome-mv3"
    monkeypatch.setenv("DECKHAND_EXTENSION_DIR", str(build))
    # No package beside the build: EXTENSION_MISSING, naming it, before any request.
    e = await failure(grid_browser.launch(url=url, packed_extension=True))
    assert isinstance(e, ExtensionMissingError) and e.code == "EXTENSION_MISSING", e
    assert f"no packed extension at {build}.crx" in e.message and "npm run build writes it" in e.message
    assert handler.seen == []

    crx = b"Cr24\x03\x00\x00\x00 not really a package"
    Path(f"{build}.crx").write_bytes(crx)
    handler.reply = (500, {"value": {"error": "session not created", "message": "no node"}})
    from deckhand import sync

    # The sync form takes it too (it runs its own loop: from a thread here).
    e = await failure(asyncio.to_thread(sync.grid_browser.launch, url=url, packed_extension=True, extension_dir="/nonexistent/on/the/node"))
    assert isinstance(e, BrowserUnavailableError) and "no node" in e.message, e
    goog = handler.seen[-1][3]["capabilities"]["alwaysMatch"]["goog:chromeOptions"]
    assert goog["extensions"] == [base64.b64encode(crx).decode()]
    assert goog["args"] == [*SHARED_CHROMIUM_FLAGS, "--window-size=1280,800", "--headless=new"]


async def test_a_grid_that_never_answers_is_a_timeout_with_the_ms() -> None:
    mute = socket.socket()
    mute.bind(("127.0.0.1", 0))
    mute.listen()
    try:
        t0 = time.monotonic()
        e = await failure(grid_browser.launch(url=f"http://127.0.0.1:{mute.getsockname()[1]}", timeout=1000))
        assert isinstance(e, DeckhandTimeoutError) and "1000 ms" in e.message and e.data == {"timeoutMs": 1000}
        assert time.monotonic() - t0 < 4
    finally:
        mute.close()
