"""The checks a call's arguments pass before anything is sent, and the small helpers the client's
modules share (the Node client's zod schemas and src/protocol helpers, in Python)."""

from __future__ import annotations

import asyncio
import inspect
import math
from typing import Any, Awaitable, Callable, Mapping, Sequence, TypeVar

from pydantic import BaseModel, ValidationError

from . import _wire
from .errors import InvalidArgumentError, ProtocolError, type_error

M = TypeVar("M", bound=BaseModel)


def parse_cache_call_option(v: object) -> bool | dict[str, int] | None:
    """Per call: False (no lookup), True, or {"threshold": n} with n a positive integer."""
    if v is None or isinstance(v, bool):
        return v
    why = f"invalid cache option: {v!r} (use False, True or {{'threshold': n}} with n a positive integer)"
    if not isinstance(v, Mapping):
        raise type_error(why)
    if set(v) == {"threshold"}:
        t = v["threshold"]
        if isinstance(t, int) and not isinstance(t, bool) and t > 0:
            return {"threshold": t}
    raise InvalidArgumentError(None, why)


def cache_for_call(base: dict[str, Any] | None, on_by_default: bool, option: object) -> dict[str, Any] | None:
    """The `cache` an operation carries (src/protocol/cache.ts cacheForCall)."""
    setting = parse_cache_call_option(option)
    wanted = on_by_default if setting is None else setting is not False
    if not base or not wanted:
        return None
    return {**base, "threshold": setting["threshold"]} if isinstance(setting, dict) else base


def json_schema_of(schema: object) -> dict[str, Any]:
    """A pydantic model class as an inlined JSON Schema (no $ref), as the worker reads it."""
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        raw = schema.model_json_schema()
        defs = raw.pop("$defs", {})

        def inline(s: Any, in_props: bool = False) -> Any:
            if isinstance(s, dict):
                if not in_props and "$ref" in s and s["$ref"].startswith("#/$defs/"):
                    return inline(defs[s["$ref"].split("/")[-1]])
                out: dict[str, Any] = {}
                for k, v in s.items():
                    if not in_props and k == "title":
                        continue
                    out[k] = inline(v, k == "properties" and not in_props)
                return out
            if isinstance(s, list):
                return [inline(x) for x in s]
            return s

        inlined: dict[str, Any] = inline(raw)
        return inlined
    if isinstance(schema, Mapping):
        return dict(schema)
    raise type_error(f"a schema is a pydantic model class or a JSON Schema dict, got {type(schema).__name__}")


def known_keys(what: str, options: object, keys: tuple[str, ...]) -> dict[str, Any]:
    """An options dict with only these keys (None: empty); a wrong type or an unknown key is refused."""
    if options is not None and not isinstance(options, Mapping):
        raise type_error(f"{what} must be a dict ({', '.join(f'{k}=' for k in keys)}), got {type(options).__name__}")
    o = dict(options or {})
    unknown = sorted(set(o) - set(keys))
    if unknown:
        raise InvalidArgumentError(None, f"unknown {what} option {', '.join(repr(k) for k in unknown)} (use {', '.join(keys)})")
    return o


def callable_or_none(what: str, fn: Any) -> Any:
    if fn is not None and not callable(fn):
        raise type_error(f"{what} must be a function (sync or async), got {type(fn).__name__}")
    return fn


def is_store(x: Any) -> bool:
    return x is not None and not isinstance(x, (bool, str, Mapping)) and callable(getattr(x, "lookup", None)) and callable(getattr(x, "record", None))


def checked_params(model: type[M], value: Any, method: str) -> M:
    try:
        return model.model_validate(value if value is not None else {})
    except ValidationError as e:
        raise InvalidArgumentError(None, f"invalid {method} parameters: {e}") from None


async def run_user(fn: Callable[..., Any], *args: Any) -> Any:
    """A caller's function, sync or async; sync ones run in a thread so the loop keeps serving."""
    if inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(getattr(fn, "__call__", None)):
        return await fn(*args)
    out = await asyncio.to_thread(fn, *args)
    if inspect.isawaitable(out):
        out = await out
    return out


async def quiet(aw: Awaitable[Any]) -> None:
    try:
        await aw
    except Exception:  # noqa: BLE001
        pass
