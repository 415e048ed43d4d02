"""The RPC peer (src/protocol/rpc.ts in Python): either side may call the other.

Frames are `{"kind": "req", "id", "method", "params"}`, `{"kind": "res", "id", "result"}` and
`{"kind": "err", "id", "error": {"code", "message", "data"?}}`, written as JSON.stringify
writes them. Every outgoing request has a deadline, so a call never hangs when the far side
vanishes.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, TypeVar

from . import _json
from .errors import DeckhandError, ProtocolError, WorkerGoneError, DeckhandTimeoutError, error, from_wire

Handler = Callable[[Any], "Awaitable[Any] | Any"]
T = TypeVar("T")


@dataclass
class _Pending:
    method: str
    fut: asyncio.Future[Any]
    expire: Callable[[], None]
    #: None while a hold stops the clock (see hold).
    timer: asyncio.TimerHandle | None
    #: Seconds left on the deadline when last armed, and when that was.
    left: float
    armed_at: float


class RpcPeer:
    def __init__(self, send_raw: Callable[[str, int | None], None], label: str = "peer") -> None:
        self._send_raw = send_raw
        self._label = label
        self._next_id = 1
        self._pending: dict[int, _Pending] = {}
        self._holds = 0
        self._handlers: dict[str, Handler] = {}
        self._closed_error: DeckhandError | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    def handle(self, method: str, handler: Handler) -> None:
        self._handlers[method] = handler

    async def request(self, method: str, params: Any, timeout_ms: float) -> Any:
        if self._closed_error is not None:
            raise self._closed_error
        loop = asyncio.get_running_loop()
        rid = self._next_id
        self._next_id += 1
        fut: asyncio.Future[Any] = loop.create_future()

        def on_timeout() -> None:
            if self._pending.pop(rid, None) is not None and not fut.done():
                fut.set_exception(
                    DeckhandTimeoutError(
                        None,
                        f"'{method}' timed out after {_json.js_number(timeout_ms)} ms waiting for the {self._label}",
                        {"method": method, "timeoutMs": timeout_ms},
                    )
                )

        # While a hold is on, the clock of a new call starts when it ends.
        timer = None if self._holds else loop.call_later(timeout_ms / 1000, on_timeout)
        self._pending[rid] = _Pending(method, fut, on_timeout, timer, timeout_ms / 1000, time.monotonic())
        try:
            self._send_raw(_json.dumps({"kind": "req", "id": rid, "method": method, "params": params}), rid)
        except Exception as e:  # noqa: BLE001
            self._drop(rid)
            if isinstance(e, DeckhandError):
                raise
            raise WorkerGoneError(None, f"could not send '{method}' to the {self._label}: {e}") from e
        try:
            return await fut
        except asyncio.CancelledError:
            self._drop(rid)
            raise

    def _drop(self, rid: int) -> _Pending | None:
        p = self._pending.pop(rid, None)
        if p is not None and p.timer is not None:
            p.timer.cancel()
        return p

    def hold(self, aw: Awaitable[T]) -> "asyncio.Task[T]":
        """Stop the clocks of the calls in flight, now, until `aw` ends: the far side waits on a
        person (an approval), and that time is not the call's. Their deadlines resume, with what
        was left, when the last hold ends. Returns the task that awaits `aw`."""
        if self._holds == 0:
            now = time.monotonic()
            for p in self._pending.values():
                if p.timer is None:
                    continue
                p.timer.cancel()
                p.timer = None
                p.left = max(0.0, p.left - (now - p.armed_at))
        self._holds += 1

        async def run() -> T:
            try:
                return await aw
            finally:
                self._holds -= 1
                if self._holds == 0:
                    loop = asyncio.get_running_loop()
                    now = time.monotonic()
                    for p in self._pending.values():
                        p.armed_at = now
                        p.timer = loop.call_later(p.left, p.expire)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def receive(self, raw: str) -> None:
        try:
            value = _json.loads(raw)
        except ValueError:
            return  # malformed: nothing sane to answer
        self.receive_parsed(value)

    def receive_parsed(self, msg: Any) -> None:
        if not isinstance(msg, dict) or type(msg.get("id")) is not int:
            return
        kind = msg.get("kind")
        rid = msg["id"]
        if kind == "req":
            if not isinstance(msg.get("method"), str):
                return
            task = asyncio.get_running_loop().create_task(self._dispatch(rid, msg["method"], msg.get("params")))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        if kind not in ("res", "err"):
            return
        if kind == "err":
            err = msg.get("error")
            if not isinstance(err, dict) or not isinstance(err.get("code"), str) or not isinstance(err.get("message"), str):
                return
        p = self._drop(rid)
        if p is None or p.fut.done():
            return
        if kind == "res":
            p.fut.set_result(msg.get("result"))
        else:
            p.fut.set_exception(from_wire(msg["error"]))

    async def _dispatch(self, rid: int, method: str, params: Any) -> None:
        handler = self._handlers.get(method)
        try:
            if handler is None:
                raise ProtocolError(None, f"unknown method '{method}'")
            result = handler(params)
            if inspect.isawaitable(result):
                result = await result
            reply: dict[str, Any] = {"kind": "res", "id": rid, "result": result}
        except Exception as e:  # noqa: BLE001
            reply = {"kind": "err", "id": rid, "error": serialize_error(e)}
        try:
            raw = _json.dumps(reply)
        except (TypeError, ValueError) as e:
            raw = _json.dumps(
                {"kind": "err", "id": rid, "error": {"code": "INTERNAL", "message": f"the result of '{method}' cannot be sent as JSON: {e}"}}
            )
        try:
            self._send_raw(raw, None)
        except Exception:  # noqa: BLE001
            pass  # the caller is gone; its own deadline reports that

    def fail(self, rid: int, err: DeckhandError) -> None:
        p = self._drop(rid)
        if p is not None and not p.fut.done():
            p.fut.set_exception(err)

    def fail_all(self, err: DeckhandError, permanently: bool = False) -> None:
        if permanently:
            self._closed_error = err
        pending = list(self._pending.items())
        self._pending.clear()
        for _, p in pending:
            if p.timer is not None:
                p.timer.cancel()
            if not p.fut.done():
                p.fut.set_exception(error(err.code, f"'{p.method}' failed: {err.message}", err.data))

    @property
    def in_flight(self) -> int:
        return len(self._pending)


def serialize_error(e: BaseException) -> dict[str, Any]:
    if isinstance(e, DeckhandError):
        return e.to_wire()
    return {"code": "INTERNAL", "message": str(e) or type(e).__name__}
