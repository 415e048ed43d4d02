"""A small synchronous wrapper for scripts:

    from deckhand.sync import Deckhand, local_browser

    browser = local_browser.launch(headless=True)
    deckhand = Deckhand.create(browser=browser)
    page = browser.context.active_page()
    page.goto("https://example.com")
    print(deckhand.extract("the page heading").data)
    deckhand.close()
    browser.close()

Every object is the async one behind a proxy whose coroutine methods block until done. The
asyncio loop runs in one background thread shared by all of them; generation callbacks,
tools and log callbacks are called from there (sync ones in a worker thread), so they must
not call back into this wrapper.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import inspect
import threading
from typing import Any

from . import browser as _browser
from . import deckhand as _deckhand
from . import flows as _flows
from . import grid as _grid
from . import page as _page

_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


def _get_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None:
            loop = asyncio.new_event_loop()
            t = threading.Thread(target=loop.run_forever, name="deckhand-loop", daemon=True)
            t.start()
            _loop = loop
        return _loop


def run(coro: Any) -> Any:
    """Run a coroutine on the wrapper's loop and wait for its result."""
    loop = _get_loop()
    if threading.current_thread().name == "deckhand-loop":
        raise RuntimeError("deckhand.sync cannot be used from inside a callback it runs; use the async API there")
    return asyncio.run_coroutine_threadsafe(coro, loop).result()


_WRAPPED = (_browser.Browser, _page.BrowserContext, _page.Page, _page.Locator, _deckhand.Deckhand, _deckhand.Agent, _flows.Flows)


def _wrap(v: Any) -> Any:
    if isinstance(v, _WRAPPED):
        return Sync(v)
    if isinstance(v, list):
        return [_wrap(x) for x in v]
    return v


def _unwrap(v: Any) -> Any:
    if isinstance(v, Sync):
        return object.__getattribute__(v, "_obj")
    if isinstance(v, list):
        return [_unwrap(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_unwrap(x) for x in v)
    return v


class Sync:
    """A blocking view of one of the async objects."""

    __slots__ = ("_obj",)

    def __init__(self, obj: Any) -> None:
        object.__setattr__(self, "_obj", obj)

    def __getattr__(self, name: str) -> Any:
        obj = object.__getattribute__(self, "_obj")
        attr = getattr(obj, name)
        if inspect.iscoroutinefunction(attr):

            @functools.wraps(attr)
            def blocking(*args: Any, **kwargs: Any) -> Any:
                return _wrap(run(attr(*[_unwrap(a) for a in args], **{k: _unwrap(v) for k, v in kwargs.items()})))

            return blocking
        if callable(attr) and not isinstance(attr, type):

            @functools.wraps(attr)
            def plain(*args: Any, **kwargs: Any) -> Any:
                return _wrap(attr(*[_unwrap(a) for a in args], **{k: _unwrap(v) for k, v in kwargs.items()}))

            return plain
        return _wrap(attr)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_obj"), name, value)

    def __eq__(self, other: Any) -> bool:
        return object.__getattribute__(self, "_obj") == _unwrap(other)

    def __hash__(self) -> int:
        return hash(object.__getattribute__(self, "_obj"))

    def __repr__(self) -> str:
        return f"sync {object.__getattribute__(self, '_obj')!r}"

    def __enter__(self) -> "Sync":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _SyncLocalBrowser:
    def launch(self, **options: Any) -> Any:
        return Sync(run(_browser.local_browser.launch(**options)))

    def connect(self, **options: Any) -> Any:
        return Sync(run(_browser.local_browser.connect(**options)))


class _SyncGridBrowser:
    def launch(self, **options: Any) -> Any:
        return Sync(run(_grid.grid_browser.launch(**options)))


class _SyncDeckhand:
    @staticmethod
    def create(**options: Any) -> Any:
        return Sync(run(_deckhand.Deckhand.create(**{k: _unwrap(v) for k, v in options.items()})))


local_browser = _SyncLocalBrowser()
grid_browser = _SyncGridBrowser()
Deckhand = _SyncDeckhand()


@atexit.register
def _stop() -> None:
    if _loop is not None:
        _loop.call_soon_threadsafe(_loop.stop)
