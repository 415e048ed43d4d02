"""A minimal CDP connection (flattened sessions) over Chromium's --remote-debugging-pipe or a
WebSocket. Every command has a deadline; when the connection drops, every pending command
fails with BROWSER_CLOSED.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, Callable, Mapping

from .errors import BrowserClosedError, DeckhandTimeoutError, ProtocolError

EventListener = Callable[[str, Any, "str | None"], None]
#: CDP messages can be large (full-page screenshots); Chromium allows 512 MB.
MAX_MESSAGE = 512 * 1024 * 1024


class Transport:
    """Messages both ways: `send`, `close`, and the connection's `on_message` and `on_close`."""

    on_message: Callable[[str], None] | None = None
    on_close: Callable[[], None] | None = None
    _closed = False

    def _done(self) -> None:
        if not self._closed:
            self._closed = True
            if self.on_close:
                self.on_close()

    def _spawn_pump(self, pump: Any) -> None:
        self._task = asyncio.get_running_loop().create_task(pump)
        self._task.add_done_callback(lambda _t: self._done())


class PipeTransport(Transport):
    """NUL-delimited JSON over two pipes: to Chromium (its fd 3) and from it (its fd 4)."""

    async def open(self, write_fd: int, read_fd: int) -> None:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=MAX_MESSAGE)
        self._reading, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(read_fd, "rb", buffering=0))
        self._writer, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(write_fd, "wb", buffering=0))

        async def pump() -> None:
            try:
                while True:
                    message = await reader.readuntil(b"\0")
                    if self.on_message:
                        self.on_message(message[:-1].decode("utf-8", "replace"))
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                pass

        self._spawn_pump(pump())

    def send(self, message: str) -> None:
        if self._closed or self._writer.is_closing():
            raise BrowserClosedError(None, "the browser connection is closed")
        self._writer.write(message.encode("utf-8") + b"\0")

    def close(self) -> None:
        self._writer.close()
        self._reading.close()
        self._done()


class WebSocketTransport(Transport):
    def __init__(self, ws: Any) -> None:
        self._ws = ws

        async def pump() -> None:
            try:
                async for msg in self._ws:
                    if self.on_message:
                        self.on_message(msg if isinstance(msg, str) else msg.decode("utf-8", "replace"))
            except Exception:  # noqa: BLE001 (a dropped connection: on_close says so)
                pass

        self._spawn_pump(pump())

    @classmethod
    async def connect(cls, url: str, headers: Mapping[str, str] | None = None, timeout_ms: float = 10_000) -> "WebSocketTransport":
        from websockets.asyncio.client import connect

        try:
            ws = await asyncio.wait_for(
                connect(url, additional_headers=headers or None, max_size=MAX_MESSAGE, compression=None, ping_interval=None), timeout_ms / 1000
            )
        except asyncio.TimeoutError:
            raise BrowserClosedError(None, f"connecting to {url} timed out after {timeout_ms:g} ms") from None
        except Exception as e:  # noqa: BLE001
            raise BrowserClosedError(None, f"cannot connect to {url}: {e}") from e
        return cls(ws)

    def send(self, message: str) -> None:
        if self._closed:
            raise BrowserClosedError(None, "the browser connection is closed")
        # Written before the first yield of send(), so messages leave in order; a failure shows as the close.
        task = asyncio.get_running_loop().create_task(self._ws.send(message))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())

    def close(self) -> None:
        asyncio.get_running_loop().create_task(self._ws.close())


class CdpConnection:
    def __init__(self, transport: PipeTransport | WebSocketTransport) -> None:
        self._transport = transport
        self._next_id = 1
        self._pending: dict[int, tuple[str, asyncio.Future[Any], asyncio.TimerHandle]] = {}
        self._listeners: set[EventListener] = set()
        self._close_listeners: set[Callable[[], object]] = set()
        self.closed = False
        transport.on_message = self._on_message
        transport.on_close = self._on_close

    def on_event(self, f: EventListener) -> None:
        self._listeners.add(f)

    def off_event(self, f: EventListener) -> None:
        self._listeners.discard(f)

    def on_close(self, f: Callable[[], object]) -> None:
        self._close_listeners.add(f)

    def off_close(self, f: Callable[[], object]) -> None:
        self._close_listeners.discard(f)

    def send_nowait(self, method: str, params: dict[str, Any] | None = None, session_id: str | None = None, timeout_ms: float = 30_000) -> asyncio.Future[Any]:
        """Send a command; the future resolves with its result (or fails)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        if self.closed:
            fut.set_exception(BrowserClosedError(None, f"cannot send {method}: the browser is closed"))
            return fut
        cid = self._next_id
        self._next_id += 1

        def on_timeout() -> None:
            if self._pending.pop(cid, None) is not None and not fut.done():
                fut.set_exception(DeckhandTimeoutError(None, f"CDP {method} timed out after {timeout_ms:g} ms"))

        self._pending[cid] = (method, fut, loop.call_later(timeout_ms / 1000, on_timeout))
        msg = {"id": cid, "method": method, "params": params or {}, **({"sessionId": session_id} if session_id else {})}
        try:
            self._transport.send(json.dumps(msg, ensure_ascii=False, separators=(",", ":")))
        except Exception as e:  # noqa: BLE001
            self._pending.pop(cid)[2].cancel()
            fut.set_exception(e)
        return fut

    async def send(self, method: str, params: dict[str, Any] | None = None, session_id: str | None = None, timeout_ms: float = 30_000) -> Any:
        return await self.send_nowait(method, params, session_id, timeout_ms)

    def _on_message(self, raw: str) -> None:
        try:
            msg = json.loads(raw)
        except ValueError:
            return
        if msg.get("id") is not None:
            p = self._pending.pop(msg["id"], None)
            if p is None:
                return
            method, fut, timer = p
            timer.cancel()
            if fut.done():
                return
            if "error" in msg:
                fut.set_exception(ProtocolError(None, f"CDP {method}: {msg['error'].get('message')}"))
            else:
                fut.set_result(msg.get("result"))
        elif msg.get("method"):
            for f in list(self._listeners):
                try:
                    f(msg["method"], msg.get("params"), msg.get("sessionId"))
                except Exception:  # noqa: BLE001
                    pass

    def _on_close(self) -> None:
        if self.closed:
            return
        self.closed = True
        pending, self._pending = list(self._pending.values()), {}
        for method, fut, timer in pending:
            timer.cancel()
            if not fut.done():
                fut.set_exception(BrowserClosedError(None, f"the browser closed during CDP {method}"))
        for f in list(self._close_listeners):
            try:
                f()
            except Exception:  # noqa: BLE001
                pass

    def close(self) -> None:
        """Close the connection; calls still waiting fail at once (a peer that never acknowledges
        the close, such as a proxy whose browser died, cannot hold them)."""
        self._transport.close()
        self._on_close()
