"""Named flows (src/protocol/flows.ts in Python): a recording (the side panel's, or an agent
run's) kept under a name, that `deckhand.replay(name)` runs step by step with no model.

A flow lives in one of two places:

- the extension (its IndexedDB): the flows a person saves in the side panel, and those a client
  saves with `deckhand.flows.save(flow)`;
- this client's own cache store (its tenant's, the same SQLite file, memory store or Deckhand
  service the result cache uses), under `flow_key(name)` with op 'flow':
  `deckhand.flows.save(flow, to="store")`.

A replay by name looks in this client's store first, then in the extension.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import Any, Literal, Mapping, Protocol

from pydantic import ValidationError

from . import _wire
from ._rpc import dumps
from .cache import CacheStore, call_store
from .errors import ClosedError, InvalidArgumentError, NotFoundError, ProtocolError

#: What JavaScript's String.prototype.trim removes: WhiteSpace and LineTerminator.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

ZERO_USAGE = {"inputTokens": 0, "outputTokens": 0, "reasoningTokens": 0, "cachedInputTokens": 0, "inferenceTimeMs": 0}

Where = Literal["extension", "store"]


def flow_name(name: Any) -> str:
    """A flow's name as the worker keeps it: trimmed as JavaScript trims; 1 to 120 characters,
    no control characters (FlowNameSchema)."""
    if not isinstance(name, str):
        raise InvalidArgumentError(None, f"a flow name is a string, got {name!r}")
    n = name.strip(_JS_SPACE)
    if not n:
        raise InvalidArgumentError(None, "a flow name must not be empty")
    if len(n.encode("utf-16-le")) // 2 > 120:
        raise InvalidArgumentError(None, "a flow name is at most 120 characters")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in n):
        raise InvalidArgumentError(None, "a flow name must not contain control characters")
    return n


def flow_key(name: str) -> str:
    """The key a flow is stored under in a client's cache store (op 'flow'): the SHA-256, in
    hex, of JSON.stringify({v: 1, op: 'flow', name}) with the name trimmed, as the worker
    computes it (flowKey in src/protocol/flows.ts)."""
    if not isinstance(name, str):
        raise InvalidArgumentError(None, f"a flow name is a string, got {name!r}")
    text = dumps({"v": 1, "op": "flow", "name": name.strip(_JS_SPACE)})
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _now_iso() -> str:
    """An ISO 8601 instant as JavaScript's Date.toISOString writes it."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def as_flow(flow: object) -> _wire.Flow:
    """A Flow from a Flow model or its wire dict; a dict may leave out `version` (1), `source`
    ('client') and `savedAt` (now). The name is trimmed as the worker trims it."""
    if isinstance(flow, _wire.Flow):
        raw: dict[str, Any] = flow.to_wire()
    elif isinstance(flow, Mapping):
        raw = {"version": 1, "source": "client", "savedAt": _now_iso(), **dict(flow)}
        if "saved_at" in raw:
            raw["savedAt"] = raw.pop("saved_at")
    else:
        raise InvalidArgumentError(None, "a flow is a deckhand.types.Flow or its dict ({'name': ..., 'recording': {...}})")
    if isinstance(raw.get("recording"), _wire.QaRecording):
        raw["recording"] = raw["recording"].to_wire()
    raw["name"] = flow_name(raw.get("name"))
    try:
        return _wire.Flow.model_validate(raw)
    except ValidationError as e:
        raise InvalidArgumentError(None, f"invalid flow: {e}") from None


def summarize(f: _wire.Flow) -> _wire.FlowSummary:
    r = f.recording
    return _wire.FlowSummary(name=f.name, title=r.title, source=f.source, saved_at=f.saved_at, start_url=r.start_url, steps=len(r.steps))


def _where(value: object, what: str) -> Where:
    if value == "extension":
        return "extension"
    if value == "store":
        return "store"
    raise InvalidArgumentError(None, f"{what} must be 'extension' or 'store', got {value!r}")


class FlowsOwner(Protocol):
    """What Flows needs from the Deckhand instance that owns it. Declared here, rather than
    importing Deckhand, so that deckhand.py can import this module without a cycle."""

    @property
    def _closed(self) -> bool: ...

    @property
    def _store(self) -> CacheStore | None: ...

    async def _call(self, method: str, params: Any) -> Any: ...


class Flows:
    """`deckhand.flows`: the saved flows, in the extension and in this client's own store."""

    def __init__(self, owner: FlowsOwner) -> None:
        self._owner = owner

    def _store(self) -> Any:
        if self._owner._closed:
            raise ClosedError(None, "cannot use the flows of a closed Deckhand instance")
        store = self._owner._store
        if store is None:
            raise InvalidArgumentError(None, "this client has no cache store to keep flows in: create it with cache=True (or a store, or api_key and api_url)")
        return store

    async def _from_store(self, name: str) -> _wire.Flow | None:
        key = flow_key(name)
        look = await call_store(self._store().lookup, key, key)
        entry = (look or {}).get("entry") if isinstance(look, Mapping) else None
        if not entry or entry.get("op") != "flow":
            return None
        try:
            return _wire.Flow.model_validate(entry.get("result"))
        except ValidationError:
            return None  # not a flow this client can read: as the worker, take it for absent

    async def list(self) -> list[_wire.FlowSummary]:
        """The extension's saved flows (the side panel's and those saved there), newest first.
        A store keeps flows by key and cannot list them."""
        raw = await self._owner._call("flow.list", {})
        if not isinstance(raw, list):
            raise ProtocolError(None, "invalid the answer to 'flow.list': not a list")
        try:
            return [_wire.FlowSummary.model_validate(x) for x in raw]
        except ValidationError as e:
            raise ProtocolError(None, f"invalid the answer to 'flow.list': {e}") from None

    async def get(self, name: str, *, where: Where | None = None) -> _wire.Flow:
        """A saved flow. `where=None` looks where a replay by name does: this client's store
        (when it has one), then the extension. NotFoundError when it is in neither."""
        n = flow_name(name)
        w = None if where is None else _where(where, "where")
        if w == "store" or (w is None and self._owner._store is not None):
            found = await self._from_store(n)
            if found is not None:
                return found
            if w == "store":
                raise NotFoundError(None, f'no flow named "{n}" is saved in this client\'s store', {"flow": n})
        raw = await self._owner._call("flow.get", {"name": n})
        try:
            return _wire.Flow.model_validate(raw)
        except ValidationError as e:
            raise ProtocolError(None, f"invalid the answer to 'flow.get': {e}") from None

    async def save(self, flow: _wire.Flow | Mapping[str, Any], *, to: Where = "extension") -> _wire.FlowSummary:
        """Save (or replace) a flow under its name: in the extension (`to='extension'`, where
        the side panel lists it), or in this client's own store (`to='store'`, under
        flow_key(name), op 'flow'), where only this client's tenant replays it."""
        w = _where(to, "to")
        f = as_flow(flow)
        if w == "extension":
            raw = await self._owner._call("flow.save", {"flow": f.to_wire()})
            return _wire.FlowSummary.model_validate(raw)
        key = flow_key(f.name)
        await call_store(self._store().record, {"key": key, "baseKey": key, "op": "flow", "result": f.to_wire(), "usage": dict(ZERO_USAGE)})
        return summarize(f)

    async def rename(self, name: str, new_name: str, *, where: Where = "extension") -> _wire.FlowSummary:
        """Rename a saved flow. AlreadyInUseError when `new_name` is taken in the extension;
        in a store, a flow under `new_name` is replaced."""
        w = _where(where, "where")
        old, new = flow_name(name), flow_name(new_name)
        if w == "extension":
            return _wire.FlowSummary.model_validate(await self._owner._call("flow.rename", {"from": old, "to": new}))
        f = await self._from_store(old)
        if f is None:
            raise NotFoundError(None, f'no flow named "{old}" is saved in this client\'s store', {"flow": old})
        renamed = f.model_copy(update={"name": new})
        summary = await self.save(renamed, to="store")
        if flow_key(old) != flow_key(new):
            await call_store(self._store().invalidate, flow_key(old))
        return summary

    async def delete(self, name: str, *, where: Where = "extension") -> bool:
        """Delete a saved flow; False when there was none under that name."""
        w = _where(where, "where")
        n = flow_name(name)
        if w == "extension":
            return bool(_wire.FlowDeleteResult.model_validate(await self._owner._call("flow.delete", {"name": n})).deleted)
        if await self._from_store(n) is None:
            return False
        await call_store(self._store().invalidate, flow_key(n))
        return True
