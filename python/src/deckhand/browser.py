"""Browser handles: `local_browser.launch()` starts Chromium with the extension loaded (CDP over
a pipe, so no debugging port is opened; POSIX only), `local_browser.connect(cdp_url=...)`
attaches to a running Chromium that has the extension, and `local_browser.attach()` waits for
the extension in a person's own Chrome to dial in over the WebSocket bridge.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping, Sequence, get_args

from . import _bridge, _wire
from ._bridge import PairingInfo
from ._checks import quiet
from ._cdp import CdpConnection, PipeTransport, WebSocketTransport
from ._link import ExtensionLink, check_ms, extension_id_from_manifest
from ._wire import CHROMIUM_FLAGS, DEFAULTS
from .errors import BrowserClosedError, DeckhandError, DeckhandTimeoutError, ExtensionMissingError, InvalidArgumentError, UnavailableError
from .page import BrowserContext

# Where Chromium and the built extension are, and Chromium's temporary profiles: `deckhand-profile-<pid>-XXXXXX` in
# the temp folder (the Node client's names), removed when the browser ends, when this process exits, or by a later
# launch once the process that made them is gone.

_PACKAGE = Path(__file__).resolve().parent

CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable",
              "/Applications/Chromium.app/Contents/MacOS/Chromium"]  # fmt: skip


def extension_dir() -> Path:
    """The built extension: DECKHAND_EXTENSION_DIR, else the copy shipped in the package
    (`deckhand/_extension`, put there when a wheel is built), else the checkout's
    `.output/chrome-mv3` (an editable install of python/ in the repository)."""
    env = os.environ.get("DECKHAND_EXTENSION_DIR")
    if env:
        return Path(env)
    shipped = _PACKAGE / "_extension"
    if (shipped / "manifest.json").exists():
        return shipped
    for parent in _PACKAGE.parents:
        candidate = parent / ".output" / "chrome-mv3"
        if (candidate / "manifest.json").exists() or (parent / "package.json").exists() and (parent / "python").is_dir():
            return candidate
    return shipped


def find_chromium() -> str | None:
    env = os.environ.get("DECKHAND_CHROMIUM") or os.environ.get("CHROME_PATH")
    found = (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome"))
    return env or next((c for c in CANDIDATES if os.path.exists(c)), None) or next((f for f in found if f), None)


_live: dict[str, "TempProfile"] = {}
_NAME = re.compile(r"^deckhand-profile-(\d+)-")


class TempProfile:
    def __init__(self) -> None:
        # First the profiles of processes that were killed outright (SIGKILL) and are gone now.
        with contextlib.suppress(OSError):
            for p in Path(tempfile.gettempdir()).iterdir():
                m = _NAME.match(p.name)
                if m and int(m[1]) != os.getpid() and not _alive(int(m[1])):
                    shutil.rmtree(p, ignore_errors=True)
        self.dir = tempfile.mkdtemp(prefix=f"deckhand-profile-{os.getpid()}-")
        #: Chromium's process group, once it runs.
        self.pid: int | None = None
        _live[self.dir] = self

    def remove(self) -> None:
        """End Chromium's helpers (they write into the profile), then remove the folder."""
        if _live.pop(self.dir, None) is not None:
            if self.pid:
                kill_group(self.pid)
            shutil.rmtree(self.dir, ignore_errors=True)


def kill_group(pid: int) -> None:
    """SIGKILL a process group (Chromium's, with its helpers)."""
    if sys.platform != "win32":
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


@atexit.register
def _remove_all() -> None:
    for p in list(_live.values()):
        p.remove()


def parse_allow_schemes(value: Any, what: str = "allow_url_schemes") -> list[str]:
    """The operator's extra URL schemes ('FILE:' -> 'file'): those the worker opens on request (AllowSchemes)."""
    if value is None:
        return []
    optional = get_args(get_args(get_args(_wire.AllowSchemes)[0])[0])
    allowed = f"{', '.join(repr(o) for o in optional)}; http:, https:, data: and about:blank are open already, javascript: URLs are never opened"
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidArgumentError(None, f"{what} must be a list of scheme names ({allowed}), got {value!r}")
    names = [x.strip().lower().removesuffix(":") if isinstance(x, str) else x for x in value]
    for n in names:
        if n not in optional and n not in ("http", "https", "data"):
            raise InvalidArgumentError(None, f"{what}: {n!r} is not a scheme Deckhand opens on request ({allowed})")
    return list(dict.fromkeys(n for n in names if n in optional))


def window_size(viewport: Any) -> str:
    """The switch for a viewport (default DEFAULTS.viewportWidth x viewportHeight)."""
    vp = viewport or {"width": DEFAULTS["viewportWidth"], "height": DEFAULTS["viewportHeight"]}
    if not (isinstance(vp, dict) and vp.get("width", 0) > 0 and vp.get("height", 0) > 0):
        raise InvalidArgumentError(None, "viewport needs positive width and height")
    return f"--window-size={vp['width']},{vp['height']}"


# Chromium's stderr, for launch errors: its log lines, and what is noise in them.
_LOG_LINE = re.compile(r"^\[[^\]]*?:(VERBOSE\d*|INFO|WARNING|ERROR|FATAL):([^\]:]+)(?::\d+)?\]\s*(.*)$")
_NOISE = re.compile(r"unexpected operator$|^#\d+ 0x[0-9a-f]+|^(Received signal|Task trace:|Crash keys:|\[end of stack trace\]|DevTools listening on)", re.I)
_NOISY_SOURCE = re.compile(r"^(dbus|gpu|components/viz|chrome/browser/(ui|updater|component_updater))/")


def chromium_reason(stderr: str, limit: int = 3) -> str:
    """The last meaningful lines of Chromium's stderr, errors first, joined with ' | '."""
    errors: list[str] = []
    other: list[str] = []
    for line in filter(None, (raw.strip() for raw in stderr.split("\n"))):
        m = _LOG_LINE.match(line)
        if _NOISE.search(line) or m and (_NOISY_SOURCE.match(m[2]) or m[1].startswith(("VERBOSE", "INFO"))):
            continue
        if m is None:
            other.append(line[:300])
        else:
            (errors if m[1] in ("ERROR", "FATAL") else other).append(f"{'FATAL: ' if m[1] == 'FATAL' else ''}{m[3].strip()}"[:300])
    return " | ".join(list(dict.fromkeys(errors or other))[-limit:])


def _http(method: str, url: str, headers: Mapping[str, str], body: bytes | None, timeout_s: float) -> tuple[int, bytes]:
    """One request in a worker thread: (status, body) for any HTTP status; network failures raise."""
    req = urllib.request.Request(url, data=body, headers=dict(headers), method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout_s) as res:  # noqa: S310 (an address the caller gave)
            return res.status, res.read()
    except urllib.error.HTTPError as e:
        with e:
            try:
                return e.code, e.read()
            except OSError:
                return e.code, b""


class Browser:
    """A browser with the Deckhand extension. At most one Deckhand instance may use it."""

    def __init__(
        self,
        link: ExtensionLink | _bridge.BridgeLink,
        #: None over the WebSocket bridge: it carries Deckhand calls only.
        conn: CdpConnection | None,
        proc: asyncio.subprocess.Process | None,
        profile: TempProfile | None,
        allow_url_schemes: list[str],
        release: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._link = link
        #: Ends what the handle holds elsewhere once its connection is closed (a Grid session).
        self._release = release
        self._conn = conn
        self._proc = proc
        self._profile = profile
        self._closing: asyncio.Future[None] | None = None
        self._claimed_by: object | None = None
        self.allow_url_schemes: tuple[str, ...] = tuple(allow_url_schemes)
        #: Set by the Deckhand instance that uses this browser (page.extract with a model).
        self._extract: Callable[..., Awaitable[Any]] | None = None
        self.context = BrowserContext(link, self)

    @property
    def extension_id(self) -> str:
        return self._link.extension_id

    @property
    def is_connected(self) -> bool:
        return self._link.is_connected

    @property
    def cdp(self) -> CdpConnection:
        """The raw CDP connection (for tools and tests that need it)."""
        if self._conn is None:
            raise UnavailableError(
                None, "this browser is attached over the WebSocket bridge, which carries Deckhand calls only: there is no CDP connection"
            )
        return self._conn

    def on_disconnect(self, f: Callable[[], object]) -> Callable[[], None]:
        """Call `f` once when the browser goes away on its own; returns the unsubscribe function.
        Over the WebSocket bridge nothing is reported here; `is_connected` still turns False."""
        conn = self._conn
        if conn is None:
            return lambda: None
        if conn.closed:
            asyncio.get_running_loop().call_soon(f)
            return lambda: None
        conn.on_close(f)
        return lambda: conn.off_close(f)

    async def close(self) -> None:
        """Close a launched browser (or disconnect from a connected one). Safe to call twice."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        what = "the browser was closed" if self._proc else "the browser connection was closed" if self._conn else "the bridge connection was closed"
        await self._link.close(BrowserClosedError(None, what))
        conn, proc = self._conn, self._proc
        if conn is not None and proc is not None:
            await quiet(conn.send("Browser.close", {}, None, 3000))
            try:
                await asyncio.wait_for(proc.wait(), 5)
            except asyncio.TimeoutError:
                kill_group(proc.pid)
                await proc.wait()
        if conn is not None:
            conn.close()
        if self._profile is not None:
            self._profile.remove()
        if self._release is not None:
            await self._release()

    async def __aenter__(self) -> "Browser":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def launch(
    *, headless: bool = True, executable_path: str | None = None, viewport: dict[str, int] | None = None, user_data_dir: str | None = None,
    args: Sequence[str] | None = None, timeout: float | None = None, allow_url_schemes: Sequence[str] | None = None,
) -> Browser:
    """Start Chromium with the Deckhand extension loaded; CDP runs over a pipe (Linux and macOS;
    elsewhere UnavailableError: use connect())."""
    try:
        if sys.platform == "win32":
            raise ImportError
        import fcntl  # POSIX: the pipes are moved to Chromium's fd 3 and 4 with it
    except ImportError:
        raise UnavailableError(
            None,
            f"local_browser.launch() needs a POSIX system (Linux, macOS) to start Chromium with CDP over a pipe; this is {sys.platform}. "
            "Start Chromium yourself with the extension loaded (--load-extension= the folder deckhand.extension_dir() names) "
            "and --remote-debugging-port=9222, then use local_browser.connect(cdp_url='http://127.0.0.1:9222')",
        ) from None

    allow = parse_allow_schemes(allow_url_schemes)
    exe = executable_path or find_chromium()
    if not exe or not os.path.exists(exe):
        raise InvalidArgumentError(None, f"no Chromium found{f' at {exe}' if exe else ''}; install it (npm run setup does) or pass executable_path")
    ext = extension_dir()
    if not (ext / "manifest.json").exists():
        raise ExtensionMissingError(None, f"the extension is not built (no {ext}/manifest.json); run npm run build:ext in the repository")
    timeout_ms, window = DEFAULTS["launchTimeoutMs"] if timeout is None else check_ms("timeout", timeout, whole=False), window_size(viewport)
    profile = None if user_data_dir else TempProfile()
    argv = [
        "--remote-debugging-pipe",
        f"--user-data-dir={user_data_dir or profile and profile.dir}",
        f"--disable-extensions-except={ext}",
        f"--load-extension={ext}",
        *CHROMIUM_FLAGS,
        window,
        *([] if headless is False else ["--headless"]),
        *(args or []),
    ]
    # Chromium reads CDP from its fd 3 and writes to its fd 4.
    to_chrome_r, to_chrome_w = os.pipe()
    from_chrome_r, from_chrome_w = os.pipe()

    def wire_pipes() -> None:  # runs in the child between fork and exec
        a, b = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
        os.dup2(a, 3)
        os.dup2(b, 4)

    try:
        proc = await asyncio.create_subprocess_exec(
            exe, *argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            pass_fds=(3, 4), preexec_fn=wire_pipes, start_new_session=True,
        )  # fmt: skip
    except OSError as e:
        for fd in (to_chrome_r, to_chrome_w, from_chrome_r, from_chrome_w):
            os.close(fd)
        if profile:
            profile.remove()
        raise BrowserClosedError(None, f"could not start Chromium at {exe}: {e}", {"executablePath": exe}) from e
    os.close(to_chrome_r)
    os.close(from_chrome_w)
    if profile:
        profile.pid = proc.pid
    stderr_tail = bytearray()

    async def read_stderr() -> None:
        assert proc.stderr is not None
        while chunk := await proc.stderr.read(4096):
            stderr_tail.extend(chunk)
            del stderr_tail[:-8192]

    stderr_task = asyncio.ensure_future(read_stderr())

    def said() -> str:
        reason = chromium_reason(stderr_tail.decode("utf-8", "replace"))
        return f"; Chromium said: {reason}" if reason else ""

    def exited_during_launch() -> DeckhandError:
        rc = proc.returncode
        how = f"code {rc}" if rc is not None and rc >= 0 else f"signal {signal.Signals(-rc).name}" if rc is not None else "unknown"
        return BrowserClosedError(None, f"Chromium exited during launch ({how}){said() or '; it printed nothing'}", {"executablePath": exe})

    transport = PipeTransport()
    await transport.open(to_chrome_w, from_chrome_r)
    conn = CdpConnection(transport)
    opening = asyncio.ensure_future(ExtensionLink.open(conn, extension_id_from_manifest(ext), timeout_ms))
    exit_wait = asyncio.ensure_future(proc.wait())
    try:
        done, _ = await asyncio.wait({opening, exit_wait}, timeout=(timeout_ms + 2000) / 1000, return_when=asyncio.FIRST_COMPLETED)
        if opening not in done:
            opening.cancel()
            if exit_wait in done:
                raise exited_during_launch()
            why = f"launching Chromium timed out after {timeout_ms:g} ms: the browser or the extension's worker did not come up{said()}"
            raise DeckhandTimeoutError(None, why, {"timeoutMs": timeout_ms})
        link = opening.result()
        # Chromium starts with no window; the first tab opens once the worker is up (a tab's
        # renderer starting beside it slows the worker down). Should it fail, the engine
        # opens one on the first call.
        first_tab = conn.send_nowait("Target.createTarget", {"url": "about:blank"}, None, timeout_ms)
        first_tab.add_done_callback(lambda f: f.cancelled() or f.exception())
        await asyncio.wait({first_tab, exit_wait}, timeout=timeout_ms / 1000, return_when=asyncio.FIRST_COMPLETED)
    except BaseException as e:
        if isinstance(e, DeckhandError) and e.code == "BROWSER_CLOSED" and proc.returncode is None:
            await asyncio.wait({exit_wait}, timeout=1.0)  # an exit that closed the pipe is about to be seen
        err = exited_during_launch() if proc.returncode is not None and isinstance(e, DeckhandError) else e
        if err is e and isinstance(e, DeckhandError) and "Chromium said:" not in e.message:
            e.message += said()
            e.args = (e.message,)
        conn.close()
        kill_group(proc.pid)
        await proc.wait()
        stderr_task.cancel()
        if profile:
            profile.remove()
        if err is e:
            raise
        raise err from None
    # From now on Chromium exiting on its own (a crash, a kill) also removes the temporary profile.
    if profile:
        exit_wait.add_done_callback(lambda _f: profile.remove())
    return Browser(link, conn, proc, profile, allow)


async def connect(
    *,
    cdp_url: str,
    headers: dict[str, str] | None = None,
    timeout: float | None = None,
    allow_url_schemes: Sequence[str] | None = None,
) -> Browser:
    """Attach to a running Chromium (an http:// or ws:// DevTools address) that has the extension."""
    if not isinstance(cdp_url, str):
        raise InvalidArgumentError(None, "connect() needs cdp_url=")
    allow = parse_allow_schemes(allow_url_schemes)
    timeout_ms = DEFAULTS["connectTimeoutMs"] if timeout is None else check_ms("timeout", timeout, whole=False)
    ws_url = cdp_url
    if re.match(r"^https?:", cdp_url):
        url = urllib.parse.urljoin(cdp_url, "/json/version")
        try:
            ws_url = json.loads((await asyncio.to_thread(_http, "GET", url, headers or {}, None, timeout_ms / 1000))[1])["webSocketDebuggerUrl"]
        except Exception as e:  # noqa: BLE001
            raise BrowserClosedError(None, f"cannot reach {url}: {e}") from e
    elif not re.match(r"^wss?:", cdp_url):
        raise InvalidArgumentError(None, f"cdp_url must be an http(s):// or ws(s):// URL, got '{cdp_url}'")
    return await _browser_over(ws_url, headers, timeout_ms, min(timeout_ms, DEFAULTS["connectWorkerWaitMs"]), allow)


async def _browser_over(
    ws_url: str, headers: Mapping[str, str] | None, timeout_ms: float, link_timeout_ms: float, allow: list[str],
    release: Callable[[], Awaitable[None]] | None = None,
) -> Browser:
    """A Browser over a CDP WebSocket to a browser with the extension (connect's, and the Grid's)."""
    conn = CdpConnection(await WebSocketTransport.connect(ws_url, headers, timeout_ms))
    try:
        link = await ExtensionLink.open(conn, extension_id_from_manifest(extension_dir()), link_timeout_ms)
    except BaseException:
        conn.close()
        raise
    return Browser(link, conn, None, None, allow, release)


async def attach(
    *, port: int | None = None, token: str | None = None, host: str | None = None, timeout: float | None = None,
    reconnect_timeout: float | None = None, name: str | None = None, on_pairing: Callable[[PairingInfo], object] | None = None,
    allow_url_schemes: Sequence[str] | None = None,
) -> Browser:
    """Wait for the Deckhand extension in a person's own Chrome to pair with this process over the
    WebSocket bridge (no remote debugging; on 127.0.0.1 only), then return its handle. The options
    are docs/guides/attach.md's (times in ms); `on_pairing` is told the PairingInfo to show the
    person (default: one line on stderr). `browser.cdp` raises UnavailableError: there is none."""
    allow = parse_allow_schemes(allow_url_schemes)
    options = dict(port=port, token=token, host=host, timeout=timeout, reconnect_timeout=reconnect_timeout, name=name, on_pairing=on_pairing)
    return Browser(await _bridge.pair(extension_id=extension_id_from_manifest(extension_dir()), **options), None, None, None, allow)


class _LocalBrowser:
    """`local_browser.launch(...)`, `local_browser.connect(cdp_url=...)` and `local_browser.attach(...)`."""

    launch = staticmethod(launch)
    connect = staticmethod(connect)
    attach = staticmethod(attach)


local_browser = _LocalBrowser()
