"""Named flows (src/protocol/flows.ts in Python): a recording (the side panel's, or an agent
run's) kept under a name, that `deckhand.replay(name)` runs step by step with no model. A flow
lives in the extension (the side panel's, and those saved there), or in this client's own cache
store under `flow_key(name)` with op 'flow'; a replay by name looks in the store first. The worker
keeps both: it reaches this client's store through the cache calls it makes back to it.
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal, Mapping, TypeVar

from pydantic import BaseModel

from . import _wire
from ._checks import given
from ._rpc import dumps
from .errors import InvalidArgumentError, ProtocolError
from .page import parse_answer

#: What JavaScript's String.prototype.trim removes: WhiteSpace and LineTerminator.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

Where = Literal["extension", "store"]
LookIn = Literal["extension", "store", "anywhere"]
W = TypeVar("W", bound=BaseModel)


def flow_key(name: str) -> str:
    """The key a flow is stored under in a client's cache store (op 'flow'): the SHA-256, in
    hex, of JSON.stringify({v: 1, op: 'flow', name}) with the name trimmed, as the worker
    computes it (flowKey in src/protocol/flows.ts)."""
    if not isinstance(name, str):
        raise InvalidArgumentError(None, f"a flow name is a string, got {name!r}")
    return hashlib.sha256(dumps({"v": 1, "op": "flow", "name": name.strip(_JS_SPACE)}).encode("utf-8")).hexdigest()


def flow_param(flow: object) -> dict[str, Any]:
    """A flow as the caller gave it, for the wire: a Flow model or its dict, which may leave out
    `version`, `source` and `savedAt` (the worker fills them in and checks the rest)."""
    if isinstance(flow, _wire.WireModel):
        return flow.to_wire()
    if not isinstance(flow, Mapping):
        raise InvalidArgumentError(None, "a flow is a deckhand.types.Flow or its dict ({'name': ..., 'recording': {...}})")
    raw = dict(flow)
    if "saved_at" in raw:
        raw["savedAt"] = raw.pop("saved_at")
    if isinstance(raw.get("recording"), _wire.WireModel):
        raw["recording"] = raw["recording"].to_wire()
    return raw


class Flows:
    """`deckhand.flows`: the saved flows, in the extension and in this client's own store."""

    def __init__(self, owner: Any) -> None:
        #: The Deckhand instance: its calls to the worker.
        self._owner = owner

    async def _call(self, model: type[W], method: str, params: Any) -> W:
        return parse_answer(model, await self._owner._call(method, params), method)

    async def list(self) -> list[_wire.FlowSummary]:
        """The extension's saved flows (the side panel's and those saved there), newest first.
        A store keeps flows by key and cannot list them."""
        raw = await self._owner._call("flow.list", {})
        if not isinstance(raw, list):
            raise ProtocolError(None, "invalid the answer to 'flow.list': not a list")
        return [parse_answer(_wire.FlowSummary, x, "flow.list") for x in raw]

    async def get(self, name: str, *, where: LookIn | None = None) -> _wire.Flow:
        """A saved flow. `where=None` ('anywhere') looks where a replay by name does: this
        client's store (when it has one), then the extension. NotFoundError when it is not there."""
        return await self._call(_wire.Flow, "flow.get", {"name": name, **given(**{"from": where})})

    async def save(self, flow: _wire.Flow | Mapping[str, Any], *, to: Where | None = None) -> _wire.FlowSummary:
        """Save (or replace) a flow under its name: in the extension (`to='extension'`, the
        default, where the side panel lists it), or in this client's own store (`to='store'`,
        under flow_key(name), op 'flow'), where only this client's tenant replays it. A dict may
        leave out `version` (1), `source` ('client') and `savedAt` (now)."""
        return await self._call(_wire.FlowSummary, "flow.save", {"flow": flow_param(flow), **given(to=to)})

    async def rename(self, name: str, new_name: str, *, where: Where | None = None) -> _wire.FlowSummary:
        """Rename a saved flow (the extension's by default). AlreadyInUseError when `new_name`
        is taken in the extension; in a store, a flow under `new_name` is replaced."""
        return await self._call(_wire.FlowSummary, "flow.rename", {"from": name, "to": new_name, **given(where=where)})

    async def delete(self, name: str, *, where: Where | None = None) -> bool:
        """Delete a saved flow (the extension's by default); False when there was none under that name."""
        r = await self._call(_wire.FlowDeleteResult, "flow.delete", {"name": name, **given(**{"from": where})})
        return bool(r.deleted)
