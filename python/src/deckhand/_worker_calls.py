"""The worker's calls to this client (src/client/worker-calls.ts in Python): the cache store,
callback models, the caller's agent tools, approvals of risky steps and log lines. Anything else
the worker asks is answered with an error by the RPC peer."""

from __future__ import annotations

import asyncio
import time
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from . import _wire
from ._bridge import BridgeLink
from ._checks import run_user
from ._link import ExtensionLink
from .cache import call_store
from .errors import InvalidArgumentError, NoModelConfiguredError

W = TypeVar("W", bound=BaseModel)


def _params(model: type[W], value: Any, method: str) -> W:
    try:
        return model.model_validate(value if value is not None else {})
    except ValidationError as e:
        raise InvalidArgumentError(None, f"invalid {method} parameters: {e}") from None


class WorkerCalls:
    """What one Deckhand instance answers. `owner` is that instance: its cache store (read at each
    call: it is set after serving starts), callbacks, tools, approval handlers, logger and telemetry."""

    def __init__(self, owner: Any) -> None:
        self._o = owner
        #: Approval requests still open, by id: set when they end (whoever decided).
        self._asking: dict[str, asyncio.Event] = {}

    def serve(self, link: ExtensionLink | BridgeLink) -> None:
        self._peer = link.peer
        for method in ("cache.lookup", "cache.record", "cache.invalidate", "model.generate", "tool.call", "approval.request", "approval.settled", "log"):
            link.serve(method, getattr(self, "_" + method.replace(".", "_")))

    def _store(self) -> Any:
        if self._o._store is None:
            raise InvalidArgumentError(None, "this client has no cache store")
        return self._o._store

    async def _cache_lookup(self, p: Any) -> Any:
        req = _params(_wire.CacheLookupRequest, p, "cache.lookup")
        return await call_store(self._store().lookup, req.key, req.base_key)

    async def _cache_record(self, p: Any) -> Any:
        _params(_wire.CacheRecordRequest, p, "cache.record")
        return await call_store(self._store().record, p)

    async def _cache_invalidate(self, p: Any) -> None:
        await call_store(self._store().invalidate, _params(_wire.CacheInvalidateParams, p, "cache.invalidate").key)

    async def _model_generate(self, p: Any) -> Any:
        params = _params(_wire.ModelGenerateParams, p, "model.generate")
        fn = self._o._callbacks.get(params.callback_id)
        if fn is None:
            raise NoModelConfiguredError(None, "the callback model is no longer registered with this client")
        out = await run_user(fn, params.request)
        if isinstance(out, BaseModel) and not isinstance(out, _wire.ModelReply):
            out = out.model_dump(by_alias=True, exclude_unset=True)
        try:
            return (out if isinstance(out, _wire.ModelReply) else _wire.ModelReply.model_validate(out)).to_wire()
        except ValidationError as e:
            raise InvalidArgumentError(None, f"the generation callback must return {{'object': ..., 'usage': {{...}}}}: {e}") from None

    async def _tool_call(self, p: Any) -> Any:
        params = _params(_wire.ToolCallParams, p, "tool.call")
        fn = self._o._tools.get(params.name)
        if fn is None:
            raise InvalidArgumentError(None, f"no tool '{params.name}' is registered with this client")
        return {"output": await fn(params.input)}

    async def _approval_request(self, p: Any) -> Any:
        """A step waits for approval: the call's handler decides (or says None: the side panel
        may). Meanwhile the worker's clock for that call stands still, and so do this side's."""
        req = _params(_wire.ApprovalRequest, p, "approval.request")
        ended = self._asking[req.id] = asyncio.Event()
        # Until the request ends (whoever decides, the side panel included), or a moment past its deadline.
        self._peer.hold(asyncio.wait_for(ended.wait(), max(0.0, req.deadline / 1000 - time.time()) + 5))
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
            decide.cancel()
        try:
            decision = None if decide.cancelled() else decide.result()
            if decision not in (None, "approve", "skip", "stop"):
                raise InvalidArgumentError(None, f"on_approval returned {decision!r}; return 'approve', 'skip', 'stop' or None")
        except Exception as e:  # noqa: BLE001
            # A handler that failed cannot decide; the others still may.
            self._o._logger.log("warn", f"on_approval failed: {e}")
            return {"decision": None}
        return {"decision": decision, "by": "the caller"} if decision else {"decision": None}

    def _approval_settled(self, p: Any) -> None:
        ended = self._asking.pop(_params(_wire.ApprovalSettledParams, p, "approval.settled").id, None)
        if ended is not None:
            ended.set()

    def _log(self, p: Any) -> None:
        params = _params(_wire.LogParams, p, "log")
        self._o._logger.log(params.level, params.message, params.data)
        self._o._telemetry.model_call(params.data or {})
