"""Fixtures: the repository's fixture pages served on 127.0.0.1 (and the same pages on
localhost, a second origin), one Chromium with the extension for the session, and a fresh
Deckhand instance per test. Chromium's temp folders go to the repository's .tmp/."""

from __future__ import annotations

import os
import shutil
import threading
import urllib.parse
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import pytest
import pytest_asyncio

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "test" / "fixtures" / "pages"
VECTORS = ROOT / "test" / "vectors"

# A temporary folder outside the repository, for what must not see it (the packaging test's
# virtualenv and program): the temp folder this process started with.
_OUTSIDE_BASE = Path(os.environ.get("TMPDIR") or "/tmp")
if _OUTSIDE_BASE.resolve() == ROOT or ROOT in _OUTSIDE_BASE.resolve().parents:
    _OUTSIDE_BASE = Path("/tmp")

# Chromium leaves folders in TMPDIR: keep them in a folder of the repository's .tmp/ that the
# session removes at its end.
_TMP = ROOT / ".tmp" / "python"
_TMP.mkdir(parents=True, exist_ok=True)
os.environ["TMPDIR"] = str(_TMP)
import tempfile  # noqa: E402

tempfile.tempdir = None
# No provider key from the environment: the default model is the built-in local one.
for _k in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"):
    os.environ.pop(_k, None)

from deckhand import Deckhand, local_browser  # noqa: E402


class _Pages(SimpleHTTPRequestHandler):
    origins: dict[str, str] = {}

    def __init__(self, *a: Any, **k: Any) -> None:
        super().__init__(*a, directory=str(PAGES), **k)

    def log_message(self, *_: Any) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:  # noqa: N802
        path = self.path.split("?")[0]
        target = (PAGES / path.lstrip("/")).resolve()
        if target.suffix == ".html" and target.is_file() and PAGES in target.parents:
            body = target.read_text("utf-8").replace("{{CROSS_ORIGIN}}", self.origins["cross"]).replace("{{ORIGIN}}", self.origins["main"]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    #: Form POSTs received (path and fields), newest last: what a test reads to know what was submitted.
    posts: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802
        size = int(self.headers.get("Content-Length") or 0)
        fields = dict(urllib.parse.parse_qsl(self.rfile.read(min(size, 65_536)).decode(), keep_blank_values=True))
        self.posts.append({"path": urllib.parse.urlsplit(self.path).path, "fields": fields})
        body = b'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Message sent</title></head><body><h1>Thanks!</h1></body></html>'
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Servers:
    def __init__(self) -> None:
        self.main = ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
        self.cross = ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
        self.origin = f"http://127.0.0.1:{self.main.server_address[1]}"
        self.cross_origin = f"http://localhost:{self.cross.server_address[1]}"
        _Pages.origins = {"main": self.origin, "cross": self.cross_origin}
        for s in (self.main, self.cross):
            threading.Thread(target=s.serve_forever, daemon=True).start()

    def close(self) -> None:
        for s in (self.main, self.cross):
            s.shutdown()
            s.server_close()


@pytest.fixture(scope="session", autouse=True)
def _clean_tmp() -> Any:
    yield
    shutil.rmtree(_TMP, ignore_errors=True)


@pytest.fixture
def outside_tmp() -> Any:
    """A fresh folder outside the repository (removed afterwards)."""
    d = Path(tempfile.mkdtemp(prefix="deckhand-outside-", dir=_OUTSIDE_BASE))
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="session")
def servers() -> Any:
    s = Servers()
    yield s
    s.close()


@pytest.fixture
def form_posts(servers: Servers) -> list[dict[str, Any]]:
    """The form POSTs the fixture servers receive during this test."""
    _Pages.posts.clear()
    return _Pages.posts


@pytest.fixture(scope="session")
def origin(servers: Servers) -> str:
    return servers.origin


@pytest_asyncio.fixture(scope="session")
async def browser() -> AsyncIterator[Any]:
    b = await local_browser.launch(viewport={"width": 1000, "height": 700})
    yield b
    await b.close()


@pytest_asyncio.fixture
async def dh(browser: Any) -> AsyncIterator[Deckhand]:
    d = await Deckhand.create(browser=browser)
    yield d
    await d.close()


@pytest_asyncio.fixture
async def open_page(browser: Any, origin: str) -> Callable[[str], Any]:
    async def open_(path: str) -> Any:
        page = await browser.context.active_page()
        await page.goto(origin + path)
        return page

    return open_
