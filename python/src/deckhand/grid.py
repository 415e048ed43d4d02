"""`grid_browser.launch(url=...)`: a browser from a Selenium Grid 4, driven through the session's
`se:cdp` WebSocket as `local_browser.connect()` drives any browser with the extension. A health
check over CDP and a periodic WebDriver command keep the session alive; closing deletes it.
"""

from __future__ import annotations

import asyncio
import base64
import errno
import json
import re
import time
import urllib.error
import urllib.parse
from pathlib import Path
from typing import Any, Mapping, Sequence

from ._cdp import CdpConnection
from ._checks import quiet, spawn
from ._link import check_ms
from ._rpc import dumps
from ._wire import DEFAULTS, SHARED_CHROMIUM_FLAGS
from .browser import Browser, _browser_over, _http, parse_allow_schemes, window_size
from .browser import extension_dir as _default_extension_dir
from .errors import BrowserUnavailableError, DeckhandError, DeckhandTimeoutError, ExtensionMissingError, InvalidArgumentError

# How often the Browser checks that the browser behind the Grid still answers, and how long it
# waits: the Grid's CDP proxy keeps the WebSocket open when a node's browser dies, so without
# this a call would wait out its wait for the worker's ack (DEFAULTS.rpcAckMs, 10 s).
HEALTH_EVERY_S = 3.0
HEALTH_WAIT_MS = 5_000

_SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{1,200}$")


def _grid_says(status: int, raw: bytes) -> str:
    """The Grid's own words from a WebDriver error body (else the text as it came), short."""
    msg = raw.decode("utf-8", "replace")
    try:
        v = json.loads(msg).get("value")
        if isinstance(v, dict) and v.get("message"):
            msg = f"{v['error']}: {v['message']}" if v.get("error") else str(v["message"])
    except (ValueError, AttributeError):
        pass
    msg = msg.split("\n")[0].strip()
    return (msg[:297] + "...") if len(msg) > 300 else msg or f"HTTP {status}"


def _base_of(url: Any) -> str:
    """The Grid's address without a trailing slash; http(s) only, and no credentials in it."""
    if not isinstance(url, str):
        raise InvalidArgumentError(None, "grid_browser.launch() needs url=: the Grid's address, e.g. http://127.0.0.1:4444")
    # Before anything that echoes the url: a password must not land in an error message or a log.
    if "@" in url.strip().split("//", 1)[-1].split("/", 1)[0]:
        raise InvalidArgumentError(None, "put the Grid's credentials in headers (Authorization), not in its url")
    try:
        u = urllib.parse.urlsplit(url.strip())
        ok = u.scheme.lower() in ("http", "https") and bool(u.hostname) and (u.port is None or u.port > 0)
    except ValueError:
        ok = False
    if not ok:
        raise InvalidArgumentError(None, f"the Grid's url must be an http(s):// URL, got '{url[:200]}'")
    return f"{u.scheme.lower()}://{u.netloc.lower()}{u.path.rstrip('/')}"


def _session(status: int, raw: bytes) -> tuple[dict[str, Any], str | None]:
    """A new session's answer, and its id when it is one."""
    try:
        value = json.loads(raw)["value"]
        sid = value["sessionId"]
    except (ValueError, KeyError, TypeError):
        return {}, None
    return value, sid if 200 <= status < 300 and isinstance(sid, str) and _SESSION_ID.match(sid) else None


class _GridSession:
    """One Grid session: its keep-alive, the browser's health check, and its deletion (once)."""

    def __init__(self, base: str, session_id: str, headers: dict[str, str]) -> None:
        self.url = f"{base}/session/{session_id}"
        self._headers = headers
        self._conn: CdpConnection | None = None
        self._ended: asyncio.Future[Any] | None = None
        self._tasks: set[asyncio.Future[Any]] = set()

    def end(self) -> asyncio.Future[Any]:
        """Delete the Grid session (once; a Grid that is gone already ended it)."""
        me = asyncio.current_task()
        for t in list(self._tasks):
            if t is not me:
                t.cancel()
        if self._ended is None:
            self._ended = asyncio.ensure_future(asyncio.to_thread(_http, "DELETE", self.url, self._headers, None, 10))
            self._ended.add_done_callback(lambda f: f.cancelled() or f.exception())
        return self._ended

    async def release(self) -> None:
        await quiet(asyncio.shield(self.end()))  # the Grid may be gone already

    def lost(self) -> None:
        """The browser is gone: calls in flight and later ones fail, and the Grid session is ended."""
        if self._conn is not None and not self._conn.closed:
            self._conn.close()
        self.end()

    def keep_alive(self, every_ms: float) -> None:
        spawn(self._keep_alive(every_ms / 1000), self._tasks)

    async def _keep_alive(self, every_s: float) -> None:
        # Any WebDriver command resets the Grid's idle clock; asking for the window handle costs
        # the node nothing. A session the Grid no longer knows (it timed out, its node went away)
        # is a browser that is gone.
        loop = asyncio.get_running_loop()
        tick = loop.time()
        while True:
            tick += every_s
            await asyncio.sleep(max(0.0, tick - loop.time()))
            try:
                status, _ = await asyncio.to_thread(_http, "GET", f"{self.url}/window", self._headers, None, min(every_s, 30.0))
            except Exception:  # noqa: BLE001 (a Grid that does not answer once is not a lost browser)
                continue
            if status == 404:
                return self.lost()

    def watch(self, browser: Browser) -> None:
        self._conn = browser.cdp
        browser.on_disconnect(self.end)
        spawn(self._health(browser.cdp), self._tasks)

    async def _health(self, conn: CdpConnection) -> None:
        while not conn.closed:
            await asyncio.sleep(HEALTH_EVERY_S)
            try:
                await conn.send("Browser.getVersion", {}, None, HEALTH_WAIT_MS)
            except DeckhandError:
                return self.lost()


def _abandoned(base: str, headers: Mapping[str, str]) -> Any:
    """For a new-session request its caller stopped waiting for (cancelled): delete the session
    it still produced, so the Grid's slot is not held until its idle timeout."""

    def done(f: asyncio.Future[tuple[int, bytes]]) -> None:
        sid = None if f.cancelled() or f.exception() is not None else _session(*f.result())[1]
        if sid:
            gone = asyncio.get_running_loop().run_in_executor(None, _http, "DELETE", f"{base}/session/{sid}", headers, None, 10)
            gone.add_done_callback(lambda g: g.cancelled() or g.exception())

    return done


async def launch(
    *, url: str, headers: Mapping[str, str] | None = None, headless: bool = True, viewport: dict[str, int] | None = None,
    extension_dir: str | Path | None = None, packed_extension: bool = False, binary: str | None = None, args: Sequence[str] | None = None,
    capabilities: Mapping[str, Any] | None = None, timeout: float | None = None, keep_alive: float | None = None,
    allow_url_schemes: Sequence[str] | None = None,
) -> Browser:
    """A browser from the Selenium Grid 4 at `url` (its router or standalone server), with the
    extension loaded from `extension_dir` as the node sees it (default: this machine's build) or
    sent with the request (`packed_extension`); `headers` go with every request (never logged).
    `timeout` (ms, default 60000) bounds the new session, queue included; `keep_alive` (ms, default
    60000) is how often the session is said to be in use (docs/guides/many-browsers.md). Closing
    deletes the session; a browser that stops answering is taken for gone within 8 s (BrowserClosedError)."""
    base = _base_of(url)
    allow = parse_allow_schemes(allow_url_schemes)
    timeout_ms = DEFAULTS["gridTimeoutMs"] if timeout is None else check_ms("timeout", timeout, whole=False)
    keep_alive_ms = DEFAULTS["gridKeepAliveMs"] if keep_alive is None else check_ms("keep_alive", keep_alive, whole=False)
    if keep_alive_ms < DEFAULTS["gridKeepAliveMinMs"]:
        raise InvalidArgumentError(None, f"keep_alive must be at least {DEFAULTS['gridKeepAliveMinMs']} ms, got {keep_alive_ms:g}")
    ext = str(extension_dir if extension_dir is not None else _default_extension_dir())
    packed: str | None = None
    if packed_extension:
        crx = f"{_default_extension_dir()}.crx"
        try:
            packed = base64.b64encode(await asyncio.to_thread(Path(crx).read_bytes)).decode("ascii")
        except OSError:
            raise ExtensionMissingError(None, f"no packed extension at {crx}: npm run build writes it where Chromium is installed") from None
    hdrs = dict(headers or {})
    deadline = time.monotonic() + timeout_ms / 1000

    chrome_args = [
        # Not the switches only for a Chromium Deckhand starts itself (src/protocol/launch.ts).
        *SHARED_CHROMIUM_FLAGS,
        # A packed extension is unpacked by chromedriver into a folder of its choosing, which it loads itself.
        *([] if packed else [f"--disable-extensions-except={ext}", f"--load-extension={ext}"]),
        window_size(viewport),
        *([] if headless is False else ["--headless=new"]),
        *(args or []),
    ]
    chrome_options = {"args": chrome_args, **({"binary": binary} if binary else {}), **({"extensions": [packed]} if packed else {})}
    body = {"capabilities": {"alwaysMatch": {"browserName": "chrome", **(capabilities or {}), "goog:chromeOptions": chrome_options}}}
    post_headers = {**{k: v for k, v in hdrs.items() if k.lower() != "content-type"}, "Content-Type": "application/json; charset=utf-8"}
    data = dumps(body).encode("utf-8")

    posting = asyncio.ensure_future(asyncio.to_thread(_http, "POST", f"{base}/session", post_headers, data, timeout_ms / 1000))
    try:
        status, raw = await asyncio.shield(posting)
    except asyncio.CancelledError:
        posting.add_done_callback(_abandoned(base, hdrs))
        raise
    except Exception as e:  # noqa: BLE001
        reason = e.reason if isinstance(e, urllib.error.URLError) else e
        if isinstance(reason, TimeoutError):
            why = f"the Selenium Grid at {base} gave no browser within {timeout_ms:g} ms (its queue may be full, or no node matches)"
            raise DeckhandTimeoutError(None, why, {"timeoutMs": timeout_ms}) from None
        # ECONNREFUSED and the like, as Node's fetch names them; else the error's own words.
        code = getattr(reason, "errno", None)
        said = errno.errorcode[code] if isinstance(code, int) and code in errno.errorcode else str(reason) or type(reason).__name__
        raise BrowserUnavailableError(None, f"the Selenium Grid at {base} could not be reached: {said}") from None
    if not 200 <= status < 300:
        raise BrowserUnavailableError(None, f"the Selenium Grid at {base} gave no browser: {_grid_says(status, raw)}", {"status": status})
    value, sid = _session(status, raw)
    if sid is None:
        raise BrowserUnavailableError(None, f"the Selenium Grid at {base} answered a new session without a session id")

    session = _GridSession(base, sid, hdrs)
    caps = value.get("capabilities")
    cdp = caps.get("se:cdp") if isinstance(caps, dict) else None
    if not isinstance(cdp, str) or not re.match(r"^wss?://", cdp):
        await session.release()
        why = "its node's browser is not Chromium, or the Grid does not proxy CDP"
        raise BrowserUnavailableError(None, f"the Selenium Grid at {base} gave a session with no se:cdp address: {why}")
    session.keep_alive(keep_alive_ms)
    try:
        wait = min(max(1.0, (deadline - time.monotonic()) * 1000), 30_000)
        browser = await _browser_over(cdp, hdrs, wait, wait, allow, session.release)
    except Exception as e:
        await session.release()
        if isinstance(e, ExtensionMissingError) and not packed:
            e.message += f" (the Grid's node was asked to load it from {ext}: that folder must exist on the node, with the extension built)"
            e.args = (e.message,)
        raise
    except BaseException:
        session.end()
        raise
    session.watch(browser)
    return browser


class _GridBrowser:
    """`grid_browser.launch(url=...)`."""

    launch = staticmethod(launch)


grid_browser = _GridBrowser()
