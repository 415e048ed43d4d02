"""The client end of the RPC over CDP (src/client/extension-link.ts in Python): this client's
messages go to the worker with Runtime.evaluate, the worker's come back through a private
binding. A worker Chromium stopped fails the calls in flight (WORKER_GONE) and is started again
by the next call.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import secrets
import time
from pathlib import Path
from typing import Any, Callable

from ._cdp import CdpConnection
from ._checks import quiet
from ._rpc import RpcPeer
from ._wire import DEFAULTS
from .errors import BrowserClosedError, ClosedError, DeckhandError, ExtensionMissingError, InvalidArgumentError, WorkerGoneError, type_error

#: The longest deadline a caller may give.
MAX_TIMEOUT_MS = DEFAULTS["maxTimeoutMs"]


def extension_id_from_manifest(ext_dir: Path) -> str:
    """The id Chromium gives the extension: derived from the manifest's public key."""
    key = json.loads((ext_dir / "manifest.json").read_text())["key"]
    return "".join(chr(97 + int(c, 16)) for c in hashlib.sha256(base64.b64decode(key)).hexdigest()[:32])


def check_ms(what: str, value: object, *, minimum: float = 1, whole: bool = True) -> float:
    """A caller's milliseconds for an option this side reads, bounded as every deadline is;
    INVALID_ARGUMENT otherwise (not a number at all: InvalidArgumentTypeError, also a TypeError)."""
    why = f"{what} must be a {'whole ' if whole else ''}number of milliseconds from {minimum:g} to {MAX_TIMEOUT_MS} (10 minutes), got {value!r}"
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise type_error(why)
    if not minimum <= value <= MAX_TIMEOUT_MS or whole and not float(value).is_integer():
        raise InvalidArgumentError(None, why)
    return value


class ExtensionLink:
    def __init__(self, conn: CdpConnection, extension_id: str) -> None:
        self.conn = conn
        self.extension_id = extension_id
        self._prefix = f"chrome-extension://{extension_id}/"
        self._tag = secrets.token_hex(12)
        self._binding = f"__dh_{self._tag}"
        self.peer = RpcPeer(self._deliver, "extension's service worker")
        # The worker asks a client with calls running whether it is still there (ClientMethods.ping).
        self.peer.handle("ping", lambda _params: None)
        self._session_id: str | None = None
        self._state = "detached"  # up | stopped | detached | closed
        self._restarting: asyncio.Future[None] | None = None
        conn.on_event(self._handle_event)
        conn.on_close(self._on_conn_close)

    def _on_conn_close(self) -> None:
        self._state = "closed"
        self.peer.fail_all(BrowserClosedError(None, "the browser closed"), True)

    @classmethod
    async def open(cls, conn: CdpConnection, extension_id: str, timeout_ms: float = 5_000) -> "ExtensionLink":
        link = cls(conn, extension_id)
        await conn.send("Target.setDiscoverTargets", {"discover": True})
        await link._connect(timeout_ms, True)
        return link

    async def _find_worker(self) -> Any:
        targets = (await self.conn.send("Target.getTargets"))["targetInfos"]
        return next((t for t in targets if t["type"] == "service_worker" and t["url"].startswith(self._prefix)), None)

    async def _connect(self, timeout_ms: float, first_time: bool) -> None:
        deadline = time.monotonic() + timeout_ms / 1000
        target = await self._find_worker()
        started = False
        while target is None and time.monotonic() < deadline:
            # A restarting worker is started at once; on a first attach, only after half the wait
            # (a browser without the extension has no worker to start).
            if not started and (not first_time or time.monotonic() > deadline - timeout_ms / 2000):
                started = True
                await quiet(self._start_worker())
            await asyncio.sleep(0.025)
            target = await self._find_worker()
        if target is None:
            if first_time:
                raise ExtensionMissingError(
                    None,
                    f"the browser has no Deckhand extension (no service worker at {self._prefix}); "
                    "launch it with local_browser.launch() or load the extension the deckhand package ships",
                )
            raise WorkerGoneError(None, f"the extension's service worker did not come back within {timeout_ms:g} ms")
        self._session_id = (await self.conn.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}))["sessionId"]
        await self._after_attach(max(1000, (deadline - time.monotonic()) * 1000))

    async def _after_attach(self, timeout_ms: float) -> None:
        sid = self._session_id
        await self.conn.send("Runtime.addBinding", {"name": self._binding}, sid)
        deadline = time.monotonic() + timeout_ms / 1000
        ready = {"expression": "globalThis.__deckhand?.ready === true", "returnByValue": True}
        while (await self.conn.send("Runtime.evaluate", ready, sid)).get("result", {}).get("value") is not True:
            if time.monotonic() > deadline:
                raise ExtensionMissingError(None, f"the extension's worker did not start its engine within {timeout_ms:g} ms")
            await asyncio.sleep(0.02)
        self._state = "up"

    async def _start_worker(self) -> None:
        """Wake a stopped worker through the ServiceWorker domain of any page."""
        targets = (await self.conn.send("Target.getTargets"))["targetInfos"]
        page = next((t["targetId"] for t in targets if t["type"] == "page"), None)
        created = None if page else (await self.conn.send("Target.createTarget", {"url": "about:blank", "background": True}))["targetId"]
        sid = (await self.conn.send("Target.attachToTarget", {"targetId": page or created, "flatten": True}))["sessionId"]
        try:
            await self.conn.send("ServiceWorker.enable", {}, sid)
            # The domain learns registrations asynchronously after enable: retry until it knows ours.
            for attempt in range(40):
                try:
                    await self.conn.send("ServiceWorker.startWorker", {"scopeURL": self._prefix}, sid)
                    break
                except DeckhandError:
                    if attempt == 39:
                        raise
                    await asyncio.sleep(0.05)
        finally:
            await quiet(self.conn.send("Target.detachFromTarget", {"sessionId": sid}))
            if created:
                await quiet(self.conn.send("Target.closeTarget", {"targetId": created}))

    def _handle_event(self, method: str, params: Any, session_id: str | None) -> None:
        params = params or {}
        if method == "Runtime.bindingCalled" and session_id == self._session_id and params.get("name") == self._binding:
            return self.peer.receive(str(params.get("payload")))
        ours = session_id == self._session_id or (method == "Target.detachedFromTarget" and params.get("sessionId") == self._session_id)
        if not ours or not self._session_id:
            return
        if method == "Inspector.targetCrashed":
            self._down("stopped")
        elif method == "Target.detachedFromTarget":
            self._session_id = None
            self._down("detached")
        elif method == "Inspector.targetReloadedAfterCrash" and self._state != "closed":
            # The worker came back on the same target: its globals are new, so add the binding again.
            asyncio.get_running_loop().create_task(quiet(self._after_attach(10_000)))

    def _down(self, state: str) -> None:
        if self._state != "closed":
            self._state = state
            self.peer.fail_all(WorkerGoneError(None, "the extension's service worker stopped before answering; the next call starts it again"))

    async def _ensure_up(self) -> None:
        if self._state == "up":
            return
        if self._state == "closed":
            raise ClosedError(None, "this connection is closed")
        if self._restarting is None:
            self._restarting = asyncio.ensure_future(self._restart())
            self._restarting.add_done_callback(lambda _f: setattr(self, "_restarting", None))
        await asyncio.shield(self._restarting)

    async def _restart(self) -> None:
        if self._state != "stopped" or not self._session_id:
            return await self._connect(10_000, False)
        await self._start_worker()
        deadline = time.monotonic() + 10
        while self._state != "up" and time.monotonic() < deadline:
            if self._state == "detached":
                return await self._connect(max(1000, (deadline - time.monotonic()) * 1000), False)
            await asyncio.sleep(0.02)
        if self._state != "up":
            # Fall back to a fresh attach if the old session never reported the restart.
            if self._session_id:
                await quiet(self.conn.send("Target.detachFromTarget", {"sessionId": self._session_id}))
            self._session_id = None
            await self._connect(5_000, False)

    def _deliver(self, raw: str, rid: int | None) -> None:
        sid = self._session_id
        if not sid or self._state != "up":
            raise WorkerGoneError(None, "the extension's service worker is not running")
        expression = f"globalThis.__deckhand.receive({json.dumps(raw)}, {json.dumps(self._tag)})"
        fut = self.conn.send_nowait("Runtime.evaluate", {"expression": expression}, sid)

        def done(f: asyncio.Future[Any]) -> None:
            if f.cancelled() or rid is None:
                return
            e = f.exception()
            if e is not None:
                self.peer.fail(rid, e if isinstance(e, DeckhandError) else WorkerGoneError(None, str(e)))
            elif (f.result() or {}).get("exceptionDetails"):
                self.peer.fail(rid, WorkerGoneError(None, f"the worker could not take the call: {f.result()['exceptionDetails'].get('text', '')}"))

        fut.add_done_callback(done)

    async def call(self, method: str, params: Any) -> Any:
        await self._ensure_up()
        return await self.peer.request(method, params)

    @property
    def is_connected(self) -> bool:
        return self._state != "closed" and not self.conn.closed

    def serve(self, method: str, handler: Callable[[Any], Any]) -> None:
        self.peer.handle(method, handler)

    async def close(self, reason: DeckhandError | None = None) -> None:
        if self._state == "closed":
            return
        self._state = "closed"
        self.peer.fail_all(reason or ClosedError(None, "the client was closed"), True)
        self.conn.off_event(self._handle_event)
        sid, self._session_id = self._session_id, None
        if sid and not self.conn.closed:
            await quiet(self.conn.send("Runtime.evaluate", {"expression": f"globalThis.__deckhand?.release({json.dumps(self._tag)})"}, sid, 2000))
            await quiet(self.conn.send("Runtime.removeBinding", {"name": self._binding}, sid, 2000))
            await quiet(self.conn.send("Target.detachFromTarget", {"sessionId": sid}, None, 2000))
