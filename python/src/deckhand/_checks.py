"""What this side reads of a caller's options itself, and small helpers the modules share. The
rest of a call's arguments the worker checks."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any, Awaitable, Callable, Mapping

from pydantic import BaseModel

from .errors import InvalidArgumentError, type_error


def cache_for_call(base: dict[str, Any] | None, on_by_default: bool, option: object) -> dict[str, Any] | None:
    """The `cache` an operation carries (src/protocol/cache.ts cacheForCall): a call's option is
    False (no lookup), True, or {"threshold": n} with n a positive integer."""
    if option is not None and not isinstance(option, bool):
        why = f"invalid cache option: {option!r} (use False, True or {{'threshold': n}} with n a positive integer)"
        if not isinstance(option, Mapping):
            raise type_error(why)
        t = option.get("threshold")
        if set(option) != {"threshold"} or not isinstance(t, int) or isinstance(t, bool) or t < 1:
            raise InvalidArgumentError(None, why)
    if not base or not (on_by_default if option is None else option is not False):
        return None
    return {**base, "threshold": option["threshold"]} if isinstance(option, Mapping) else base


def json_schema_of(schema: object) -> dict[str, Any]:
    """A JSON Schema dict as given; a pydantic model class as its JSON Schema without the titles
    pydantic adds (the worker puts its $defs references in place)."""
    if isinstance(schema, Mapping):
        return dict(schema)
    if not (isinstance(schema, type) and issubclass(schema, BaseModel)):
        raise type_error(f"a schema is a pydantic model class or a JSON Schema dict, got {type(schema).__name__}")

    def untitled(s: Any, names: bool = False) -> Any:
        if isinstance(s, list):
            return [untitled(x) for x in s]
        # Under "properties" the keys are field names, which may be "title" themselves.
        return {k: untitled(v, k == "properties" and not names) for k, v in s.items() if names or k != "title"} if isinstance(s, dict) else s

    out: dict[str, Any] = untitled(schema.model_json_schema())
    return out


def given(**values: Any) -> dict[str, Any]:
    """The values that were given (Node's JSON.stringify drops undefined), in order."""
    return {k: v for k, v in values.items() if v is not None}


def known_keys(what: str, options: object, keys: tuple[str, ...]) -> dict[str, Any]:
    """An options dict with only these keys (None: empty); a wrong type or an unknown key is refused."""
    if options is not None and not isinstance(options, Mapping):
        raise type_error(f"{what} must be a dict ({', '.join(f'{k}=' for k in keys)}), got {type(options).__name__}")
    unknown = sorted(set(options or {}) - set(keys))
    if unknown:
        raise InvalidArgumentError(None, f"unknown {what} option {', '.join(repr(k) for k in unknown)} (use {', '.join(keys)})")
    return dict(options or {})


def callable_or_none(what: str, fn: Any) -> Any:
    if fn is not None and not callable(fn):
        raise type_error(f"{what} must be a function (sync or async), got {type(fn).__name__}")
    return fn


def is_store(x: Any) -> bool:
    return x is not None and not isinstance(x, (bool, str, Mapping)) and callable(getattr(x, "lookup", None)) and callable(getattr(x, "record", None))


async def run_user(fn: Callable[..., Any], *args: Any) -> Any:
    """A caller's function, sync or async; sync ones run in a thread so the loop keeps serving."""
    if inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(getattr(fn, "__call__", None)):
        return await fn(*args)
    out = await asyncio.to_thread(fn, *args)
    return await out if inspect.isawaitable(out) else out


def spawn(coro: Any, tasks: set[asyncio.Future[Any]]) -> asyncio.Future[Any]:
    """Run `coro` in the background, kept in `tasks` until it ends; what it raises is not reported
    (a socket that went away meanwhile, say)."""
    task: asyncio.Future[Any] = asyncio.ensure_future(coro)
    tasks.add(task)

    def done(t: asyncio.Future[Any]) -> None:
        tasks.discard(t)
        if not t.cancelled():
            t.exception()

    task.add_done_callback(done)
    return task


async def quiet(aw: Awaitable[Any]) -> None:
    try:
        await aw
    except Exception:  # noqa: BLE001
        pass
