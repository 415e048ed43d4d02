"""The worker's calls to this client (src/client/worker-calls.ts in Python): the cache store,
callback models, the caller's agent tools, approvals of risky steps and log lines. Each is checked against its wire
schema before it runs; anything else the worker asks is answered with an error by the link."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Awaitable, Callable, Protocol

from pydantic import BaseModel, ValidationError

from . import _wire
from ._checks import checked_params, run_user
from .page import parse_answer
from ._rpc import RpcPeer
from ._logging import Logger
from .cache import call_store
from .errors import InvalidArgumentError, NoModelConfiguredError
from .models import CallbackRegistry
from .options import ApprovalHandler, CacheStore


class Serves(Protocol):
    """Either link to the worker (CDP or the WebSocket bridge): what it lets this client answer."""

    peer: RpcPeer

    def serve(self, method: str, handler: Callable[[Any], Any]) -> None: ...


class Owner(Protocol):
    """What the Deckhand instance keeps that the worker's calls use (its cache store is set after
    it starts serving, so each is read at the call)."""

    _store: CacheStore | None
    _callbacks: CallbackRegistry
    _tools: dict[str, Callable[[Any], Awaitable[str]]]
    _logger: Logger
    _step_listeners: set[Callable[[dict[str, Any]], None]]
    _telemetry: Any
    _spans: dict[str, Any]

    def _approver(self, op_id: str | None) -> ApprovalHandler | None: ...


class WorkerCalls:
    """What one Deckhand instance answers."""

    def __init__(self, owner: Owner) -> None:
        self._o = owner
        #: Requests still open, by id: set when they end (whoever decided).
        self._asking: dict[str, asyncio.Event] = {}
        self._peer: RpcPeer | None = None

    def serve(self, link: Serves) -> None:
        self._peer = link.peer
        link.serve("cache.lookup", self._lookup)
        link.serve("cache.record", self._record)
        link.serve("cache.invalidate", self._invalidate)
        link.serve("model.generate", self._generate)
        link.serve("tool.call", self._tool_call)
        link.serve("approval.request", self._approval_request)
        link.serve("approval.settled", self._approval_settled)
        link.serve("log", self._log)

    def _store_or_refuse(self) -> CacheStore:
        s = self._o._store
        if s is None:
            raise InvalidArgumentError(None, "this client has no cache store")
        return s

    async def _lookup(self, p: Any) -> Any:
        req = parse_answer(_wire.CacheLookupRequest, p, "cache.lookup")
        return await call_store(self._store_or_refuse().lookup, req.key, req.base_key)

    async def _record(self, p: Any) -> Any:
        parse_answer(_wire.CacheRecordRequest, p, "cache.record")
        return await call_store(self._store_or_refuse().record, p)

    async def _invalidate(self, p: Any) -> Any:
        req = parse_answer(_wire.CacheInvalidateParams, p, "cache.invalidate")
        await call_store(self._store_or_refuse().invalidate, req.key)
        return None

    async def _generate(self, p: Any) -> Any:
        params = checked_params(_wire.ModelGenerateParams, p, "model.generate")
        fn = self._o._callbacks.get(params.callback_id)
        if fn is None:
            raise NoModelConfiguredError(None, "the callback model is no longer registered with this client")
        out = await run_user(fn, params.request)
        if isinstance(out, BaseModel) and not isinstance(out, _wire.ModelReply):
            out = out.model_dump(by_alias=True, exclude_unset=True)
        try:
            reply = out if isinstance(out, _wire.ModelReply) else _wire.ModelReply.model_validate(out)
        except ValidationError as e:
            raise InvalidArgumentError(None, f"the generation callback must return {{'object': ..., 'usage': {{...}}}}: {e}") from None
        return reply.to_wire()

    async def _tool_call(self, p: Any) -> Any:
        params = checked_params(_wire.ToolCallParams, p, "tool.call")
        fn = self._o._tools.get(params.name)
        if fn is None:
            raise InvalidArgumentError(None, f"no tool '{params.name}' is registered with this client")
        return {"output": await fn(params.input)}

    async def _approval_request(self, p: Any) -> Any:
        """A step waits for approval: the call's handler decides (or says None: the side panel
        may). Meanwhile the worker's clock for that call stands still, and so do this side's."""
        req = checked_params(_wire.ApprovalRequest, p, "approval.request")
        ended = asyncio.Event()
        self._asking[req.id] = ended
        assert self._peer is not None

        async def until_ended() -> None:
            # Until the request ends (whoever decides, the side panel included), or a moment past its deadline.
            try:
                await asyncio.wait_for(ended.wait(), max(0.0, req.deadline / 1000 - time.time()) + 5)
            except TimeoutError:
                pass
            finally:
                self._asking.pop(req.id, None)

        self._peer.hold(until_ended())
        handler = self._o._approver(req.op_id)
        if handler is None:
            return {"decision": None}
        # The handler is cancelled when the request ends another way.
        decide = asyncio.ensure_future(run_user(handler, req))
        waiting = asyncio.ensure_future(ended.wait())
        try:
            await asyncio.wait({decide, waiting}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiting.cancel()
            if not decide.done():
                decide.cancel()
        if decide.cancelled():
            return {"decision": None}
        try:
            decision = decide.result()
            if decision is not None and decision not in ("approve", "skip", "stop"):
                raise InvalidArgumentError(None, f"on_approval returned {decision!r}; return 'approve', 'skip', 'stop' or None")
        except Exception as e:  # noqa: BLE001
            # A handler that failed cannot decide; the others still may.
            self._o._logger.log("warn", f"on_approval failed: {e}")
            return {"decision": None}
        return {"decision": decision, "by": "the caller"}

    def _approval_settled(self, p: Any) -> None:
        end = checked_params(_wire.ApprovalSettledParams, p, "approval.settled")
        ended = self._asking.pop(end.id, None)
        if ended is not None:
            ended.set()
        return None

    def _log(self, p: Any) -> None:
        params = checked_params(_wire.LogParams, p, "log")
        self._o._logger.log(params.level, params.message, params.data)
        for f in list(self._o._step_listeners):
            f(p)
        d = params.data or {}
        # A model call's span is a child of its operation's, which the instance keeps by opId.
        if d.get("span") == "model-call" and self._o._telemetry.trace is not None:
            parent = self._o._spans.get(str(d.get("opId")))
            if parent is not None:
                ctx = self._o._telemetry.trace.set_span_in_context(parent)
                span = self._o._telemetry.tracer.start_span(
                    "deckhand.model_call",
                    context=ctx,
                    start_time=int(d.get("startedAt", 0) * 1_000_000),
                    attributes={"deckhand.model": d.get("model", ""), "gen_ai.usage.input_tokens": d.get("inputTokens", 0), "gen_ai.usage.output_tokens": d.get("outputTokens", 0)},
                )
                span.end(end_time=int(d.get("endedAt", 0) * 1_000_000))
        return None
