"""local_browser.attach(): the WebSocket bridge a person's own Chrome dials into.

test/fixtures/pair-panel.ts plays the person: a Chromium of its own with the extension, whose
side panel it fills in (port and token, Connect) for each pairing the tests ask for. The page the
tests act on (test/fixtures/pages/attach.html) tells the server that served it about each click,
so a change is seen without any link to that browser. The wire rules (Origin, Host, the one-time
token, the secret for reconnects, bye) are also checked with a plain WebSocket client playing the
worker, as the Node client's tests do.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, AsyncIterator

import pytest
import pytest_asyncio
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from deckhand import Deckhand, PairingInfo, local_browser
from deckhand._link import extension_id_from_manifest
from deckhand.browser import extension_dir
from deckhand.errors import (
    BrowserClosedError,
    DeckhandTimeoutError,
    InvalidArgumentError,
    UnavailableError,
)

from helpers import failure

ROOT = Path(__file__).resolve().parents[2]
PAIR_PANEL = ROOT / "test" / "fixtures" / "pair-panel.ts"
EXAMPLE = ROOT / "examples" / "python" / "attach.py"
PAGE = (ROOT / "test" / "fixtures" / "pages" / "attach.html").read_bytes()
EXTENSION_ID = extension_id_from_manifest(extension_dir())
ORIGIN_HEADER = f"chrome-extension://{EXTENSION_ID}"


# -- the page, and what it reported ---------------------------------------------------------------
class _Recorder(BaseHTTPRequestHandler):
    seen: list[str] = []

    def log_message(self, *_: Any) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        if self.path.startswith("/seen?"):
            self.seen.append(self.path)
        body = PAGE if self.path == "/attach.html" else b""
        self.send_response(200 if body else 204)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        if body:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def page_url() -> Any:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/attach.html"
    server.shutdown()
    server.server_close()


async def reported(what: str) -> bool:
    """Whether the page reported `what` (it reports with a fetch, a moment after the click)."""
    deadline = time.monotonic() + 5
    while what not in _Recorder.seen and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return what in _Recorder.seen


# -- the person at the side panel -----------------------------------------------------------------
class Person:
    """One pair-panel.ts process (one Chromium) for the module: each pair() is one Connect."""

    def __init__(self, log: Path) -> None:
        self.proc: asyncio.subprocess.Process | None = None
        self.log = log

    async def pair(self, port: int, token: str) -> dict[str, Any]:
        if self.proc is None:
            self.proc = await asyncio.create_subprocess_exec(
                "node", "--import", "tsx", str(PAIR_PANEL), "--port", str(port), "--token", token,
                cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=self.log.open("wb"),
            )  # fmt: skip
        else:
            assert self.proc.stdin is not None
            self.proc.stdin.write(f"{port} {token}\n".encode())
            await self.proc.stdin.drain()
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 90)
        if not line:
            raise AssertionError(f"pair-panel.ts ended: {self.log.read_text(errors='replace')[-2000:]}")
        out: dict[str, Any] = json.loads(line)
        return out

    async def close(self) -> int | None:
        if self.proc is None:
            return None
        assert self.proc.stdin is not None
        self.proc.stdin.close()  # the person is done: the fixture closes its browser
        return await asyncio.wait_for(self.proc.wait(), 30)


@pytest_asyncio.fixture(scope="module")
async def person(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Person]:
    p = Person(tmp_path_factory.mktemp("pair-panel") / "stderr.log")
    yield p
    assert await p.close() in (0, None)


async def start_attach(**options: Any) -> tuple[PairingInfo, asyncio.Task[Any]]:
    """Start attach() and return the pairing it offers, without waiting for it to pair."""
    offered: asyncio.Future[PairingInfo] = asyncio.get_running_loop().create_future()
    task = asyncio.ensure_future(local_browser.attach(on_pairing=offered.set_result, **options))
    done, _ = await asyncio.wait({offered, task}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()  # bad options: raise that instead of waiting
        raise AssertionError("attach returned before offering a pairing")
    return offered.result(), task


# -- in real Chromium -----------------------------------------------------------------------------
async def test_a_wrong_token_is_refused_and_attach_waits_on_then_the_right_one_pairs_and_acts(person: Person, page_url: str) -> None:
    pairing, task = await start_attach(name="python attach test")
    assert pairing.host == "127.0.0.1"
    assert re.fullmatch(r"[a-z0-9]{4}(-[a-z0-9]{4}){3}", pairing.token)

    wrong = await person.pair(pairing.port, "zzzz-zzzz-zzzz-zzzz")
    assert wrong["paired"] is False and wrong["state"] == "refused"
    assert "the pairing token is wrong or already used" in wrong["message"]
    await asyncio.sleep(0.3)
    assert not task.done()

    right = await person.pair(pairing.port, pairing.token)
    assert right == {"paired": True, "state": "attached", "port": pairing.port, "message": f"attached to python attach test on 127.0.0.1:{pairing.port}"}
    browser = await task
    try:
        assert browser.is_connected
        assert browser.extension_id == EXTENSION_ID
        with pytest.raises(UnavailableError, match="WebSocket bridge, which carries Deckhand calls only"):
            browser.cdp

        dh = await Deckhand.create(browser=browser)  # the built-in local model: no key
        page = await browser.context.new_page(page_url)
        assert await page.title() == "Orders"
        result = await dh.act("click the Billing tab", page=page)
        assert result.data.success is True
        assert await page.title() == "Orders: Billing"
        assert await page.evaluate("document.getElementById('shown').textContent") == "Showing: Billing"
        assert await reported("/seen?click=tab-billing")
        await dh.close()
    finally:
        await browser.close()
    assert not browser.is_connected
    e = await failure(page.title())
    assert isinstance(e, BrowserClosedError)


async def test_the_attach_example_pairs_acts_and_prints_the_result(person: Person, page_url: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python" / "src")}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(EXAMPLE), page_url, "click the Shipping tab",
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    try:
        offer = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
        m = re.search(r"enter port (\d+) and token ([a-z0-9-]+)", offer)
        assert m, f"no pairing offered: {offer!r} {(await proc.stderr.read()).decode()[-2000:]}"
        paired = await person.pair(int(m.group(1)), m.group(2))
        assert paired["paired"] is True and paired["message"] == f"attached to the attach example on 127.0.0.1:{m.group(1)}"
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, err.decode()[-2000:]
    result = json.loads(out.decode().strip().splitlines()[-1])
    assert result["success"] is True and "Shipping" in result["action"]
    assert result["title"] == "Orders: Shipping"
    assert await reported("/seen?click=tab-shipping")


# -- deadlines and options ------------------------------------------------------------------------
async def test_attach_times_out_naming_what_it_waited_for_and_frees_the_port() -> None:
    pairing, task = await start_attach(timeout=300)
    e = await failure(task)
    assert isinstance(e, DeckhandTimeoutError) and e.code == "TIMEOUT"
    assert e.message.startswith(f"waited 300 ms for the Deckhand extension to pair on port {pairing.port}; ")
    assert e.data == {"port": pairing.port, "timeoutMs": 300}
    # The port is free again.
    again, task = await start_attach(port=pairing.port, timeout=100)
    assert again.port == pairing.port
    assert isinstance(await failure(task), DeckhandTimeoutError)


@pytest.mark.parametrize(
    "options, names",
    [
        ({"port": 80}, "port must be 0 (a free port) or 1024 to 65535, got 80"),
        ({"port": 70000}, "port must be 0"),
        ({"port": "9333"}, "port must be 0"),
        ({"token": "a b"}, "token: the pairing token is 6 to 128 letters, digits, - or _"),
        ({"token": "short"}, "token:"),
        ({"host": "0.0.0.0"}, "host must be a loopback address"),
        ({"host": "example.com"}, "host must be a loopback address"),
        ({"host": "::1"}, "dials 127.0.0.1 only"),
        ({"timeout": 0}, "timeout must be a number of milliseconds"),
        ({"timeout": 600_001}, "timeout must be a number of milliseconds"),
        ({"reconnect_timeout": -5}, "reconnect_timeout must be a number of milliseconds"),
        ({"on_pairing": 5}, "on_pairing must be a function"),
        ({"name": 5}, "name must be a string"),
        ({"allow_url_schemes": ["javascript"]}, "javascript: URLs are never opened"),
    ],
)
async def test_bad_options_are_invalid_argument_naming_the_option(options: dict[str, Any], names: str) -> None:
    e = await failure(local_browser.attach(**options))
    assert isinstance(e, InvalidArgumentError) and e.code == "INVALID_ARGUMENT"
    assert names in e.message


async def test_a_port_in_use_is_unavailable() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        e = await failure(local_browser.attach(port=port, on_pairing=lambda p: None))
    assert isinstance(e, UnavailableError)
    assert e.message == f"cannot listen on 127.0.0.1:{port}: the port is in use"


def test_the_sync_attach_times_out_too() -> None:
    from deckhand.sync import local_browser as sync_local_browser

    offered: list[PairingInfo] = []
    with pytest.raises(DeckhandTimeoutError, match="waited 200 ms for the Deckhand extension to pair"):
        sync_local_browser.attach(timeout=200, on_pairing=offered.append)
    assert offered and offered[0].host == "127.0.0.1"


# -- the wire, with a plain WebSocket client playing the worker -----------------------------------
async def raw_http(port: int, request: str) -> tuple[int, str]:
    """Send one HTTP request; the status and body of the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request.encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    head, _, body = data.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body


def upgrade(port: int, origin: str | None, host: str | None = None) -> str:
    lines = [
        "GET / HTTP/1.1",
        f"Host: {host or f'127.0.0.1:{port}'}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if origin:
        lines.append(f"Origin: {origin}")
    return "\r\n".join(lines) + "\r\n\r\n"


def hello(**credentials: str) -> str:
    return json.dumps({"kind": "hello", **credentials, "extensionId": EXTENSION_ID, "version": "0"})


async def refused(port: int, frame: str) -> tuple[int, str]:
    """Say `frame` first with the extension's Origin; the close code and reason it gets."""
    async with connect(f"ws://127.0.0.1:{port}", origin=ORIGIN_HEADER) as ws:
        await ws.send(frame)
        try:
            await asyncio.wait_for(ws.recv(), 10)
        except ConnectionClosed:
            pass
        assert ws.close_code is not None
        return ws.close_code, ws.close_reason or ""


async def test_the_wire_refuses_strangers_and_spent_tokens_and_takes_back_the_secret() -> None:
    pairing, task = await start_attach(name="wire test", reconnect_timeout=2000)
    port = pairing.port
    # Web pages, other origins and forged hosts never get a socket.
    assert await raw_http(port, upgrade(port, None)) == (403, "Origin (none) is refused: only the Deckhand extension may connect\n")
    status, body = await raw_http(port, upgrade(port, "http://127.0.0.1:1234"))
    assert status == 403 and body.startswith("Origin http://127.0.0.1:1234 is refused")
    assert (await raw_http(port, upgrade(port, "chrome-extension://abcdefghijklmnopabcdefghijklmnop")))[0] == 403
    status, body = await raw_http(port, upgrade(port, ORIGIN_HEADER, host=f"rebound.example:{port}"))
    assert (status, body) == (403, f"Host rebound.example:{port} is refused\n")
    status, body = await raw_http(port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n")
    assert (status, body) == (426, "Deckhand bridge: WebSocket connections from the Deckhand extension only\n")

    # The extension's origin with a wrong token: close code 4001, and attach waits on.
    assert await refused(port, hello(token="zzzz-zzzz-zzzz-zzzz")) == (4001, "the pairing token is wrong or already used")
    assert await refused(port, json.dumps({"kind": "ping"})) == (4001, "the first frame must be hello")
    assert await refused(port, hello(token=pairing.token)[:-1] + ',"extra":1}') == (4001, "the first frame must be hello")
    assert not task.done()

    # The right token pairs and is spent; the welcome carries the secret for reconnects.
    worker = await connect(f"ws://127.0.0.1:{port}", origin=ORIGIN_HEADER)
    await worker.send(hello(token=f" {pairing.token} "))
    welcome = json.loads(await asyncio.wait_for(worker.recv(), 10))
    assert welcome["kind"] == "welcome" and welcome["client"] == "wire test" and len(welcome["secret"]) >= 40
    browser = await task
    assert await refused(port, hello(token=pairing.token)) == (4001, "the pairing token is wrong or already used")
    assert await refused(port, hello(secret="not-the-secret")) == (4001, "unknown pairing; pair again with a new token")

    async def answer(ws: Any, result: Any) -> dict[str, Any]:
        """Play the worker for one call: ping gets pong, the request its result."""
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if msg.get("kind") == "req":
                await ws.send(json.dumps({"kind": "res", "id": msg["id"], "result": result}))
                req: dict[str, Any] = msg
                return req

    await worker.send(json.dumps({"kind": "ping"}))
    assert json.loads(await asyncio.wait_for(worker.recv(), 10)) == {"kind": "pong"}
    call = asyncio.ensure_future(browser.context.pages())
    req = await answer(worker, [{"id": 7, "url": "about:blank", "title": ""}])
    assert req["method"] == "context.pages"
    assert [p.id for p in await call] == [7]

    # The worker drops off and dials back in with the secret: the next call waits for it.
    await worker.close()
    call = asyncio.ensure_future(browser.context.pages())
    await asyncio.sleep(0.2)
    assert not call.done() and browser.is_connected
    worker = await connect(f"ws://127.0.0.1:{port}", origin=ORIGIN_HEADER)
    await worker.send(hello(secret=welcome["secret"]))
    assert json.loads(await asyncio.wait_for(worker.recv(), 10))["kind"] == "welcome"
    await answer(worker, [{"id": 8, "url": "about:blank", "title": ""}])
    assert [p.id for p in await call] == [8]

    # The person disconnects in the side panel: the worker says bye, calls fail BROWSER_CLOSED.
    await worker.send(json.dumps({"kind": "bye", "reason": "disconnected from the side panel"}))
    await asyncio.sleep(0.2)
    assert not browser.is_connected
    e = await failure(browser.context.pages())
    assert isinstance(e, BrowserClosedError) and e.message == "the person disconnected this client in the Deckhand side panel"
    await browser.close()
    await worker.close()


async def test_a_worker_that_does_not_come_back_fails_the_call_after_reconnect_timeout() -> None:
    pairing, task = await start_attach(reconnect_timeout=500)
    worker = await connect(f"ws://127.0.0.1:{pairing.port}", origin=ORIGIN_HEADER)
    await worker.send(hello(token=pairing.token))
    await asyncio.wait_for(worker.recv(), 10)
    browser = await task
    await worker.close()
    await asyncio.sleep(0.1)
    t = time.monotonic()
    e = await failure(browser.context.pages())
    assert e.code == "WORKER_GONE"
    assert e.message == (
        f"'context.pages' waited 500 ms for the extension's service worker to reconnect to the bridge on 127.0.0.1:{pairing.port}, and it did not"
    )
    assert time.monotonic() - t >= 0.45
    # Closing says goodbye to nobody and stops listening.
    await browser.close()
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", pairing.port)) != 0
