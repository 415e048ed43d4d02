"""A minimal CDP connection (flattened sessions) over Chromium's --remote-debugging-pipe or a
WebSocket. Every command has a deadline; when the connection drops, every pending command
fails with BROWSER_CLOSED.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, Callable

from .errors import BrowserClosedError, DeckhandTimeoutError, ProtocolError

EventListener = Callable[[str, Any, "str | None"], None]


class Transport:
    on_message: Callable[[str], None] | None = None
    on_close: Callable[[], None] | None = None

    def send(self, message: str) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class _PipeReader(asyncio.Protocol):
    def __init__(self, owner: "PipeTransport") -> None:
        self.owner = owner

    def data_received(self, data: bytes) -> None:
        self.owner._feed(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.owner._done()

    def eof_received(self) -> bool:
        self.owner._done()
        return False


class PipeTransport(Transport):
    """NUL-delimited JSON over two pipes: to Chromium (its fd 3) and from it (its fd 4)."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._closed = False
        self._writer: asyncio.WriteTransport | None = None
        self._reader: asyncio.ReadTransport | None = None

    async def open(self, write_fd: int, read_fd: int) -> None:
        loop = asyncio.get_running_loop()
        self._reader, _ = await loop.connect_read_pipe(lambda: _PipeReader(self), os.fdopen(read_fd, "rb", buffering=0))
        self._writer, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(write_fd, "wb", buffering=0))

    def _feed(self, data: bytes) -> None:
        start = 0
        while True:
            i = data.find(b"\0", start)
            if i == -1:
                break
            self._buf += data[start:i]
            msg = self._buf.decode("utf-8", "replace")
            self._buf = bytearray()
            start = i + 1
            if self.on_message:
                self.on_message(msg)
        if start < len(data):
            self._buf += data[start:]

    def _done(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.on_close:
            self.on_close()

    def send(self, message: str) -> None:
        if self._closed or self._writer is None or self._writer.is_closing():
            raise BrowserClosedError(None, "the browser connection is closed")
        self._writer.write(message.encode("utf-8") + b"\0")

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        if self._reader is not None:
            self._reader.close()
        self._done()


class WebSocketTransport(Transport):
    def __init__(self, ws: Any) -> None:
        self._ws = ws
        self._closed = False
        self._task = asyncio.get_running_loop().create_task(self._pump())

    @classmethod
    async def connect(cls, url: str, headers: dict[str, str] | None = None, timeout_ms: float = 10_000) -> "WebSocketTransport":
        from websockets.asyncio.client import connect

        try:
            ws = await asyncio.wait_for(
                connect(url, additional_headers=headers or None, max_size=512 * 1024 * 1024, compression=None, ping_interval=None),
                timeout_ms / 1000,
            )
        except asyncio.TimeoutError:
            raise BrowserClosedError(None, f"connecting to {url} timed out after {timeout_ms:g} ms") from None
        except Exception as e:  # noqa: BLE001
            raise BrowserClosedError(None, f"cannot connect to {url}: {e}") from e
        return cls(ws)

    async def _pump(self) -> None:
        try:
            async for msg in self._ws:
                if self.on_message:
                    self.on_message(msg if isinstance(msg, str) else msg.decode("utf-8", "replace"))
        except Exception:  # noqa: BLE001
            pass
        finally:
            self._closed = True
            if self.on_close:
                self.on_close()

    def send(self, message: str) -> None:
        if self._closed:
            raise BrowserClosedError(None, "the browser connection is closed")
        asyncio.get_running_loop().create_task(self._send(message))

    async def _send(self, message: str) -> None:
        try:
            await self._ws.send(message)
        except Exception:  # noqa: BLE001
            pass  # the pump sees the close

    def close(self) -> None:
        asyncio.get_running_loop().create_task(self._ws.close())


class CdpConnection:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport
        self._next_id = 1
        self._pending: dict[int, tuple[str, asyncio.Future[Any], asyncio.TimerHandle]] = {}
        self._listeners: list[EventListener] = []
        self._close_listeners: list[Callable[[], object]] = []
        self.closed = False
        transport.on_message = self._on_message
        transport.on_close = self._on_close

    def on_event(self, f: EventListener) -> None:
        self._listeners.append(f)

    def off_event(self, f: EventListener) -> None:
        if f in self._listeners:
            self._listeners.remove(f)

    def on_close(self, f: Callable[[], object]) -> None:
        self._close_listeners.append(f)

    def off_close(self, f: Callable[[], object]) -> None:
        if f in self._close_listeners:
            self._close_listeners.remove(f)

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

        timer = loop.call_later(timeout_ms / 1000, on_timeout)
        self._pending[cid] = (method, fut, timer)
        msg: dict[str, Any] = {"id": cid, "method": method, "params": params or {}}
        if session_id:
            msg["sessionId"] = session_id
        try:
            self._transport.send(json.dumps(msg, ensure_ascii=False, separators=(",", ":")))
        except Exception as e:  # noqa: BLE001
            timer.cancel()
            self._pending.pop(cid, None)
            if not fut.done():
                fut.set_exception(e)
        return fut

    async def send(self, method: str, params: dict[str, Any] | None = None, session_id: str | None = None, timeout_ms: float = 30_000) -> Any:
        return await self.send_nowait(method, params, session_id, timeout_ms)

    def _on_message(self, raw: str) -> None:
        try:
            msg = json.loads(raw)
        except ValueError:
            return
        cid = msg.get("id")
        if cid is not None:
            p = self._pending.pop(cid, None)
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
            return
        method = msg.get("method")
        if method:
            for f in list(self._listeners):
                try:
                    f(method, msg.get("params"), msg.get("sessionId"))
                except Exception:  # noqa: BLE001
                    pass

    def _on_close(self) -> None:
        if self.closed:
            return
        self.closed = True
        pending = list(self._pending.values())
        self._pending.clear()
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
