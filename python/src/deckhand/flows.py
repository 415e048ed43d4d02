"""Named flows (src/protocol/flows.ts in Python): a recording (the side panel's, or an agent
run's) kept under a name, that `deckhand.replay(name)` runs step by step with no model. A flow
lives in the extension (the side panel's, and those saved there), or in this client's own cache
store under `flow_key(name)` with op 'flow'; a replay by name looks in the store first.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import Any, Literal, Mapping, TypeVar, cast

from pydantic import BaseModel, ValidationError

from . import _wire
from ._rpc import dumps
from .cache import call_store
from .errors import ClosedError, InvalidArgumentError, NotFoundError, ProtocolError
from .page import parse_answer

#: What JavaScript's String.prototype.trim removes: WhiteSpace and LineTerminator.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
ZERO_USAGE = {"inputTokens": 0, "outputTokens": 0, "reasoningTokens": 0, "cachedInputTokens": 0, "inferenceTimeMs": 0}

Where = Literal["extension", "store"]
W = TypeVar("W", bound=BaseModel)


def flow_name(name: Any) -> str:
    """A flow's name as the worker keeps it: trimmed as JavaScript trims (the worker checks the rest)."""
    if not isinstance(name, str) or not name.strip(_JS_SPACE):
        raise InvalidArgumentError(None, f"a flow name is a string that is not empty, got {name!r}")
    return name.strip(_JS_SPACE)


def flow_key(name: str) -> str:
    """The key a flow is stored under in a client's cache store (op 'flow'): the SHA-256, in
    hex, of JSON.stringify({v: 1, op: 'flow', name}) with the name trimmed, as the worker
    computes it (flowKey in src/protocol/flows.ts)."""
    if not isinstance(name, str):
        raise InvalidArgumentError(None, f"a flow name is a string, got {name!r}")
    return hashlib.sha256(dumps({"v": 1, "op": "flow", "name": name.strip(_JS_SPACE)}).encode("utf-8")).hexdigest()


def as_flow(flow: object) -> _wire.Flow:
    """A Flow from a Flow model or its wire dict; a dict may leave out `version` (1), `source`
    ('client') and `savedAt` (now). The name is trimmed as the worker trims it."""
    if not isinstance(flow, (_wire.Flow, Mapping)):
        raise InvalidArgumentError(None, "a flow is a deckhand.types.Flow or its dict ({'name': ..., 'recording': {...}})")
    # An ISO 8601 instant as JavaScript's Date.toISOString writes it.
    now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    raw = flow.to_wire() if isinstance(flow, _wire.Flow) else {"version": 1, "source": "client", "savedAt": now, **dict(flow)}
    if "saved_at" in raw:
        raw["savedAt"] = raw.pop("saved_at")
    if isinstance(raw.get("recording"), _wire.QaRecording):
        raw["recording"] = raw["recording"].to_wire()
    try:
        return _wire.Flow.model_validate({**raw, "name": flow_name(raw.get("name"))})
    except ValidationError as e:
        raise InvalidArgumentError(None, f"invalid flow: {e}") from None


def _where(value: Any, what: str) -> Where:
    if value not in ("extension", "store"):
        raise InvalidArgumentError(None, f"{what} must be 'extension' or 'store', got {value!r}")
    return cast(Where, value)


class Flows:
    """`deckhand.flows`: the saved flows, in the extension and in this client's own store."""

    def __init__(self, owner: Any) -> None:
        #: The Deckhand instance: its store (read at each call) and its calls to the worker.
        self._owner = owner

    async def _call(self, model: type[W], method: str, params: Any) -> W:
        return parse_answer(model, await self._owner._call(method, params), method)

    def _store(self) -> Any:
        if self._owner._closed:
            raise ClosedError(None, "cannot use the flows of a closed Deckhand instance")
        if self._owner._store is None:
            raise InvalidArgumentError(None, "this client has no cache store to keep flows in: create it with cache=True (or a store, or api_key and api_url)")
        return self._owner._store

    async def _from_store(self, name: str, must: bool = False) -> _wire.Flow | None:
        key = flow_key(name)
        entry = ((await call_store(self._store().lookup, key, key)) or {}).get("entry")
        try:
            found = _wire.Flow.model_validate(entry["result"]) if entry and entry.get("op") == "flow" else None
        except ValidationError:
            found = None  # not a flow this client can read: as the worker, take it for absent
        if found is None and must:
            raise NotFoundError(None, f'no flow named "{name}" is saved in this client\'s store', {"flow": name})
        return found

    async def list(self) -> list[_wire.FlowSummary]:
        """The extension's saved flows (the side panel's and those saved there), newest first.
        A store keeps flows by key and cannot list them."""
        raw = await self._owner._call("flow.list", {})
        if not isinstance(raw, list):
            raise ProtocolError(None, "invalid the answer to 'flow.list': not a list")
        return [parse_answer(_wire.FlowSummary, x, "flow.list") for x in raw]

    async def get(self, name: str, *, where: Where | None = None) -> _wire.Flow:
        """A saved flow. `where=None` looks where a replay by name does: this client's store
        (when it has one), then the extension. NotFoundError when it is in neither."""
        n = flow_name(name)
        w = None if where is None else _where(where, "where")
        if w == "store" or (w is None and self._owner._store is not None):
            found = await self._from_store(n, must=w == "store")
            if found is not None:
                return found
        return await self._call(_wire.Flow, "flow.get", {"name": n})

    async def save(self, flow: _wire.Flow | Mapping[str, Any], *, to: Where = "extension") -> _wire.FlowSummary:
        """Save (or replace) a flow under its name: in the extension (`to='extension'`, where
        the side panel lists it), or in this client's own store (`to='store'`, under
        flow_key(name), op 'flow'), where only this client's tenant replays it."""
        w, f = _where(to, "to"), as_flow(flow)
        if w == "extension":
            return await self._call(_wire.FlowSummary, "flow.save", {"flow": f.to_wire()})
        key = flow_key(f.name)
        await call_store(self._store().record, {"key": key, "baseKey": key, "op": "flow", "result": f.to_wire(), "usage": dict(ZERO_USAGE)})
        r = f.recording
        return _wire.FlowSummary(name=f.name, title=r.title, source=f.source, saved_at=f.saved_at, start_url=r.start_url, steps=len(r.steps))

    async def rename(self, name: str, new_name: str, *, where: Where = "extension") -> _wire.FlowSummary:
        """Rename a saved flow. AlreadyInUseError when `new_name` is taken in the extension;
        in a store, a flow under `new_name` is replaced."""
        w, old, new = _where(where, "where"), flow_name(name), flow_name(new_name)
        if w == "extension":
            return await self._call(_wire.FlowSummary, "flow.rename", {"from": old, "to": new})
        f = await self._from_store(old, must=True)
        assert f is not None  # else NotFoundError
        summary = await self.save(f.model_copy(update={"name": new}), to="store")
        if flow_key(old) != flow_key(new):
            await call_store(self._store().invalidate, flow_key(old))
        return summary

    async def delete(self, name: str, *, where: Where = "extension") -> bool:
        """Delete a saved flow; False when there was none under that name."""
        w, n = _where(where, "where"), flow_name(name)
        if w == "extension":
            return bool((await self._call(_wire.FlowDeleteResult, "flow.delete", {"name": n})).deleted)
        if await self._from_store(n) is None:
            return False
        await call_store(self._store().invalidate, flow_key(n))
        return True
