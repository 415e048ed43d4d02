"""What the generated blocking API (sync.py) runs on: one asyncio loop in a background thread,
shared by every blocking object, and the mapping between async objects and their blocking views."""

from __future__ import annotations

import asyncio
import atexit
import threading
from typing import Any, Callable, Coroutine, TypeVar

T = TypeVar("T")

_LOOP_THREAD = "deckhand-loop"
_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()
_views: dict[type, type[Blocking]] = {}


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on the wrapper's loop and wait for its result."""
    global _loop
    if threading.current_thread().name == _LOOP_THREAD:
        # A callback the loop runs (a callback model, a tool, a log function) that blocked on the
        # loop would wait for itself forever.
        coro.close()
        raise RuntimeError("deckhand.sync cannot be used from inside a callback it runs; use the async API there")
    with _lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name=_LOOP_THREAD, daemon=True).start()
    return asyncio.run_coroutine_threadsafe(coro, _loop).result()


def on_loop(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Call a plain method of an async object on the loop's thread (some read the running loop)."""

    async def call() -> T:
        return fn(*args, **kwargs)

    return run(call())


class Blocking:
    """A blocking view of one async object; two views of the same object are equal."""

    __slots__ = ("_async",)
    _async: Any

    def __init__(self, obj: Any) -> None:
        self._async = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Blocking) and self._async == other._async

    def __hash__(self) -> int:
        return hash(self._async)

    def __repr__(self) -> str:
        return f"sync {self._async!r}"


def register(async_type: type, view: type[Blocking]) -> None:
    _views[async_type] = view


def wrap(v: Any) -> Any:
    """An async object's blocking view (lists element by element); anything else as it is."""
    if isinstance(v, list):
        return [wrap(x) for x in v]
    return _views[type(v)](v) if type(v) in _views else v


def unwrap(v: Any) -> Any:
    """The async object behind a blocking view (lists and tuples element by element); anything
    else as it is, for the async method to judge."""
    if isinstance(v, (list, tuple)):
        return type(v)(unwrap(x) for x in v)
    return v._async if isinstance(v, Blocking) else v


@atexit.register
def _stop() -> None:
    if _loop is not None:
        _loop.call_soon_threadsafe(_loop.stop)
