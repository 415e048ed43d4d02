"""The RPC peer (src/protocol/rpc.ts in Python): either side may call the other, with frames
written as JSON.stringify writes them. The worker decides every call's deadline: a call waits
DEFAULTS.rpcAckMs for its ack, then the ack's ms plus DEFAULTS.rpcGraceMs.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from ._checks import spawn
from ._wire import DEFAULTS
from .errors import DeckhandError, DeckhandTimeoutError, InvalidArgumentError, ProtocolError, WorkerGoneError, error, from_wire, type_error

Handler = Callable[[Any], "Awaitable[Any] | Any"]


def _js(v: Any) -> Any:
    """A value as JavaScript holds it: generated models as their wire form, 2.0 as 2."""
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e21:
        return int(v)
    if isinstance(v, dict):
        return {k: _js(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_js(x) for x in v]
    return _js(v.to_wire()) if hasattr(v, "to_wire") else v


def dumps(value: Any) -> str:
    """JSON as JSON.stringify writes it (no spaces, characters as they are), so frames match the Node client's."""
    return json.dumps(_js(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


@dataclass
class _Pending:
    method: str
    fut: asyncio.Future[Any]
    #: None while a hold stops the clock (see hold).
    timer: asyncio.TimerHandle | None
    #: Seconds left on the deadline when last armed, and when that was.
    left: float
    armed_at: float
    #: What the far side's ack promised (ms), once it came.
    acked: int | None = None


class RpcPeer:
    def __init__(self, send_raw: Callable[[str, int | None], None], label: str = "peer") -> None:
        self._send_raw = send_raw
        self._label = label
        self._next_id = 1
        self._pending: dict[int, _Pending] = {}
        self._holds = 0
        self._handlers: dict[str, Handler] = {}
        self._closed_error: DeckhandError | None = None
        self._tasks: set[asyncio.Future[Any]] = set()

    def handle(self, method: str, handler: Handler) -> None:
        self._handlers[method] = handler

    def _expire(self, rid: int) -> None:
        p = self._pending.pop(rid, None)
        if p is None or p.fut.done():
            return
        grace = DEFAULTS["rpcGraceMs"]
        waited = f"its promised {p.acked} ms and {grace} ms more" if p.acked is not None else f"{DEFAULTS['rpcAckMs']} ms"
        data = {"method": p.method, "timeoutMs": p.acked + grace if p.acked is not None else DEFAULTS["rpcAckMs"]}
        p.fut.set_exception(DeckhandTimeoutError(None, f"'{p.method}' timed out after {waited} waiting for the {self._label}", data))

    def _arm(self, rid: int, p: _Pending, seconds: float) -> None:
        p.left, p.armed_at = seconds, time.monotonic()
        if p.timer is not None:
            p.timer.cancel()
        # While a hold is on, the clock stays stopped until it ends.
        p.timer = None if self._holds else asyncio.get_running_loop().call_later(seconds, self._expire, rid)

    async def request(self, method: str, params: Any) -> Any:
        if self._closed_error is not None:
            raise self._closed_error
        try:
            raw = dumps({"kind": "req", "id": self._next_id, "method": method, "params": params})
        except TypeError as e:
            raise type_error(f"'{method}' cannot send its arguments as JSON: {e}") from None
        except (ValueError, RecursionError) as e:
            raise InvalidArgumentError(None, f"'{method}' cannot send its arguments as JSON: {e}") from None
        rid = self._next_id
        self._next_id += 1
        p = self._pending[rid] = _Pending(method, asyncio.get_running_loop().create_future(), None, 0.0, 0.0)
        self._arm(rid, p, DEFAULTS["rpcAckMs"] / 1000)
        try:
            self._send_raw(raw, rid)
        except Exception as e:  # noqa: BLE001
            self._drop(rid)
            if isinstance(e, DeckhandError):
                raise
            raise WorkerGoneError(None, f"could not send '{method}' to the {self._label}: {e}") from e
        try:
            return await p.fut
        except asyncio.CancelledError:
            self._drop(rid)
            raise

    def _drop(self, rid: int) -> _Pending | None:
        p = self._pending.pop(rid, None)
        if p is not None and p.timer is not None:
            p.timer.cancel()
        return p

    def hold(self, aw: Awaitable[Any]) -> None:
        """Stop the clocks of the calls in flight, now, until `aw` ends: the far side waits on a
        person (an approval), and that time is not the call's. Their deadlines resume, with what
        was left, when the last hold ends."""
        if self._holds == 0:
            now = time.monotonic()
            for p in self._pending.values():
                if p.timer is not None:
                    p.timer.cancel()
                    p.timer = None
                    p.left = max(0.0, p.left - (now - p.armed_at))
        self._holds += 1

        async def run() -> None:
            try:
                await aw
            finally:
                self._holds -= 1
                if self._holds == 0:
                    for rid, p in list(self._pending.items()):
                        self._arm(rid, p, p.left)

        spawn(run(), self._tasks)

    def receive(self, raw: str) -> None:
        try:
            value = json.loads(raw)
        except ValueError:
            return  # malformed: nothing sane to answer
        self.receive_parsed(value)

    def receive_parsed(self, msg: Any) -> None:
        if not isinstance(msg, dict) or type(msg.get("id")) is not int:
            return
        kind, rid, err = msg.get("kind"), msg["id"], msg.get("error")
        if kind == "req" and isinstance(msg.get("method"), str):
            spawn(self._dispatch(rid, msg["method"], msg.get("params")), self._tasks)
        elif kind == "ack" and rid in self._pending and type(msg.get("ms")) is int and msg["ms"] >= 0:
            # The far side's promise replaces the wait for the ack; a hold in force keeps the clock stopped.
            p = self._pending[rid]
            p.acked = msg["ms"]
            self._arm(rid, p, (msg["ms"] + DEFAULTS["rpcGraceMs"]) / 1000)
        elif kind == "res":
            self._settle(rid, lambda f: f.set_result(msg.get("result")))
        elif kind == "err" and isinstance(err, dict) and isinstance(err.get("code"), str) and isinstance(err.get("message"), str):
            self._settle(rid, lambda f: f.set_exception(from_wire(err)))

    def _settle(self, rid: int, how: Callable[[asyncio.Future[Any]], None]) -> None:
        p = self._drop(rid)
        if p is not None and not p.fut.done():
            how(p.fut)

    async def _dispatch(self, rid: int, method: str, params: Any) -> None:
        handler = self._handlers.get(method)
        try:
            if handler is None:
                raise ProtocolError(None, f"unknown method '{method}'")
            result = handler(params)
            reply: dict[str, Any] = {"kind": "res", "id": rid, "result": await result if inspect.isawaitable(result) else result}
        except Exception as e:  # noqa: BLE001
            error = e.to_wire() if isinstance(e, DeckhandError) else {"code": "INTERNAL", "message": str(e) or type(e).__name__}
            reply = {"kind": "err", "id": rid, "error": error}
        try:
            raw = dumps(reply)
        except (TypeError, ValueError) as e:
            raw = dumps({"kind": "err", "id": rid, "error": {"code": "INTERNAL", "message": f"the result of '{method}' cannot be sent as JSON: {e}"}})
        try:
            self._send_raw(raw, None)
        except Exception:  # noqa: BLE001
            pass  # the caller is gone; its own deadline reports that

    def fail(self, rid: int, err: DeckhandError) -> None:
        self._settle(rid, lambda f: f.set_exception(err))

    def fail_all(self, err: DeckhandError, permanently: bool = False) -> None:
        if permanently:
            self._closed_error = err
        for rid, p in list(self._pending.items()):
            self.fail(rid, error(err.code, f"'{p.method}' failed: {err.message}", err.data))
