"""The blocking API, for scripts without asyncio:

    from deckhand.sync import Deckhand, local_browser

    browser = local_browser.launch(headless=True)
    deckhand = Deckhand.create(browser=browser)
    page = browser.context.active_page()
    page.goto("https://example.com")
    print(deckhand.extract("the page heading").data)
    deckhand.close()
    browser.close()

Each class here (Browser, BrowserContext, Page, Locator, Deckhand, Agent, Flows) has the
methods of its async counterpart with the same arguments, and blocks until the call is done;
where the async method takes or returns a Page, a Locator or a Browser, this one takes and
returns the blocking ones. The asyncio loop runs in one background thread shared by all of
them; generation callbacks, tools and log callbacks are called from there (sync ones in a worker
thread), so they must not call back into this wrapper.
"""

from __future__ import annotations

import asyncio
import atexit
import threading
from pathlib import Path
from typing import Any, Callable, Coroutine, Literal, Mapping, Sequence, TypeVar, overload

from pydantic import BaseModel

from . import _wire
from . import browser as _browser
from . import deckhand as _deckhand
from . import flows as _flows
from . import grid as _grid
from . import page as _page
from ._bridge import PairingInfo
from ._cdp import CdpConnection
from .deckhand import _OMIT
from .flows import Where
from .options import (
    AgentOptions,
    AgentTool,
    CacheCallOption,
    CacheOption,
    CallbackModel,
    LocatorDict,
    LoggingOptions,
    ModelSpec,
    TelemetryOptions,
    Variables,
)
from .types import ExtractResult

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

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


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on the wrapper's loop and wait for its result."""
    loop = _get_loop()
    if threading.current_thread().name == "deckhand-loop":
        coro.close()
        raise RuntimeError("deckhand.sync cannot be used from inside a callback it runs; use the async API there")
    return asyncio.run_coroutine_threadsafe(coro, loop).result()


class _Blocking:
    """A blocking view of one async object; two views of the same object are equal."""

    __slots__ = ("_async",)
    _async: Any

    def __init__(self, obj: Any) -> None:
        self._async = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Blocking) and self._async == other._async

    def __hash__(self) -> int:
        return hash(self._async)

    def __repr__(self) -> str:
        return f"sync {self._async!r}"


def _locator(v: Locator | str | LocatorDict | None) -> _page.Locator | str | LocatorDict | None:
    return v._async if isinstance(v, Locator) else v


def _locators(v: Sequence[Locator | str | LocatorDict] | None) -> Sequence[_page.Locator | str | LocatorDict] | None:
    if v is None or isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
        return v  # the async method names what is wrong with it
    return [x._async if isinstance(x, Locator) else x for x in v]


def _page_of(v: Page | int | None) -> _page.Page | int | None:
    return v._async if isinstance(v, Page) else v


# -- pages, locators, the context --------------------------------------------------------------


class Locator(_Blocking):
    """Elements of a page by CSS or XPath selector (deckhand.Locator, blocking)."""

    _async: _page.Locator

    def __init__(self, obj: _page.Locator) -> None:
        super().__init__(obj)

    @property
    def page(self) -> Page:
        return Page(self._async.page)

    @property
    def selector(self) -> str:
        return self._async.selector

    def nth(self, i: int) -> Locator:
        """The i-th match (0-based) of this locator's selector."""
        return Locator(self._async.nth(i))

    def first(self) -> Locator:
        return Locator(self._async.first())

    def to_spec(self) -> LocatorDict:
        return self._async.to_spec()

    def click(self, *, timeout: float | None = None) -> None:
        run(self._async.click(timeout=timeout))

    def dblclick(self, *, timeout: float | None = None) -> None:
        run(self._async.dblclick(timeout=timeout))

    def right_click(self, *, timeout: float | None = None) -> None:
        run(self._async.right_click(timeout=timeout))

    def hover(self, *, timeout: float | None = None) -> None:
        run(self._async.hover(timeout=timeout))

    def fill(self, value: str, *, timeout: float | None = None) -> None:
        run(self._async.fill(value, timeout=timeout))

    def type(self, text: str, *, timeout: float | None = None) -> None:
        run(self._async.type(text, timeout=timeout))

    def press(self, key: str, *, timeout: float | None = None) -> None:
        run(self._async.press(key, timeout=timeout))

    def check(self, *, timeout: float | None = None) -> None:
        run(self._async.check(timeout=timeout))

    def uncheck(self, *, timeout: float | None = None) -> None:
        run(self._async.uncheck(timeout=timeout))

    def select_option(self, values: str | Sequence[str], *, timeout: float | None = None) -> None:
        run(self._async.select_option(values, timeout=timeout))

    def scroll_into_view(self, *, timeout: float | None = None) -> None:
        run(self._async.scroll_into_view(timeout=timeout))

    def scroll_to(self, percent: float | str, *, timeout: float | None = None) -> None:
        run(self._async.scroll_to(percent, timeout=timeout))

    def drag_to(self, target: Locator | str, *, timeout: float | None = None) -> None:
        run(self._async.drag_to(target._async if isinstance(target, Locator) else target, timeout=timeout))

    def count(self) -> int:
        return run(self._async.count())


class Page(_Blocking):
    """One tab (deckhand.Page, blocking)."""

    _async: _page.Page

    def __init__(self, obj: _page.Page) -> None:
        super().__init__(obj)

    @property
    def id(self) -> int:
        return self._async.id

    def goto(
        self, url: str, *, wait_until: Literal["load", "domcontentloaded", "commit"] | None = None, timeout: float | None = None
    ) -> _wire.PageInfo:
        return run(self._async.goto(url, wait_until=wait_until, timeout=timeout))

    def info(self) -> _wire.PageInfo:
        return run(self._async.info())

    def url(self) -> str:
        return run(self._async.url())

    def title(self) -> str:
        return run(self._async.title())

    def evaluate(self, source: str, arg: Any = None, *, timeout: float | None = None, is_function: bool | None = None) -> Any:
        """Run JavaScript in the page: a function's source (called with `arg`) or an expression."""
        return run(self._async.evaluate(source, arg, timeout=timeout, is_function=is_function))

    def screenshot(
        self,
        *,
        type: Literal["png", "jpeg"] | None = None,
        quality: int | None = None,
        full_page: bool | None = None,
        path: str | Path | None = None,
    ) -> bytes:
        return run(self._async.screenshot(type=type, quality=quality, full_page=full_page, path=path))

    def close(self) -> None:
        run(self._async.close())

    def bring_to_front(self) -> None:
        run(self._async.bring_to_front())

    def locator(self, selector: str) -> Locator:
        return Locator(self._async.locator(selector))

    def press(self, keys: str, *, timeout: float | None = None) -> None:
        """Press keys ('Enter', 'Control+A') on whatever has focus in the page."""
        run(self._async.press(keys, timeout=timeout))

    def selectors_for(self, ids: Sequence[str]) -> list[_wire.PageSelectorsResultItem | None]:
        return run(self._async.selectors_for(ids))

    def snapshot(
        self,
        *,
        locator: Locator | str | LocatorDict | None = None,
        ignore_locators: Sequence[Locator | str | LocatorDict] | None = None,
        budget: int | None = None,
        timeout: float | None = None,
    ) -> _wire.SnapshotResult:
        """The text a model reads for this page."""
        return run(self._async.snapshot(locator=_locator(locator), ignore_locators=_locators(ignore_locators), budget=budget, timeout=timeout))

    @overload
    def extract(
        self,
        instruction: str | None = None,
        *,
        schema: type[M],
        selector: str | None = None,
        iframes: bool | None = None,
        model_name: str | None = None,
        model_client_options: Mapping[str, Any] | None = None,
        dom_settle_timeout_ms: int | None = None,
    ) -> M: ...

    @overload
    def extract(
        self,
        instruction: str | None = None,
        *,
        schema: Mapping[str, Any] | None = None,
        selector: str | None = None,
        iframes: bool | None = None,
        model_name: str | None = None,
        model_client_options: Mapping[str, Any] | None = None,
        dom_settle_timeout_ms: int | None = None,
    ) -> Any: ...

    def extract(
        self,
        instruction: str | None = None,
        *,
        schema: type[BaseModel] | Mapping[str, Any] | None = None,
        selector: str | None = None,
        iframes: bool | None = None,
        model_name: str | None = None,
        model_client_options: Mapping[str, Any] | None = None,
        dom_settle_timeout_ms: int | None = None,
    ) -> Any:
        """The earlier extract (see deckhand.Page.extract)."""
        return run(
            self._async.extract(
                instruction,
                schema=schema,
                selector=selector,
                iframes=iframes,
                model_name=model_name,
                model_client_options=model_client_options,
                dom_settle_timeout_ms=dom_settle_timeout_ms,
            )
        )


class BrowserContext(_Blocking):
    """The browser's pages (deckhand.BrowserContext, blocking)."""

    _async: _page.BrowserContext

    def __init__(self, obj: _page.BrowserContext) -> None:
        super().__init__(obj)

    def page(self, page_id: int) -> Page:
        """The Page for a page id."""
        return Page(self._async.page(page_id))

    def pages(self) -> list[Page]:
        return [Page(p) for p in run(self._async.pages())]

    def active_page(self) -> Page:
        return Page(run(self._async.active_page()))

    def new_page(self, url: str | None = None, *, timeout: float | None = None) -> Page:
        return Page(run(self._async.new_page(url, timeout=timeout)))


class Browser(_Blocking):
    """A browser with the Deckhand extension (deckhand.Browser, blocking). `with` closes it."""

    _async: _browser.Browser

    def __init__(self, obj: _browser.Browser) -> None:
        super().__init__(obj)

    @property
    def context(self) -> BrowserContext:
        return BrowserContext(self._async.context)

    @property
    def extension_id(self) -> str:
        return self._async.extension_id

    @property
    def is_connected(self) -> bool:
        return self._async.is_connected

    @property
    def allow_url_schemes(self) -> tuple[str, ...]:
        return self._async.allow_url_schemes

    @property
    def cdp(self) -> CdpConnection:
        """The raw CDP connection (async; for tools and tests that need it)."""
        return self._async.cdp

    def on_disconnect(self, f: Callable[[], None]) -> Callable[[], None]:
        """Call `f` (from the wrapper's loop thread) once when the browser goes away on its own;
        returns the unsubscribe function."""

        async def subscribe() -> Callable[[], None]:
            return self._async.on_disconnect(f)

        return run(subscribe())

    def close(self) -> None:
        """Close a launched browser (or disconnect from a connected one). Safe to call twice."""
        run(self._async.close())

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- the client ----------------------------------------------------------------------------


class Agent(_Blocking):
    """`deckhand.agent(...)` (blocking): `execute(instruction, ...)` runs the agent."""

    _async: _deckhand.Agent

    def __init__(self, obj: _deckhand.Agent) -> None:
        super().__init__(obj)

    def execute(
        self,
        instruction: str | Mapping[str, Any],
        *,
        max_steps: int | None = None,
        auto_screenshot: bool | None = None,
        wait_between_actions: int | None = None,
        context: str | None = None,
    ) -> _wire.AgentResult:
        return run(
            self._async.execute(
                instruction, max_steps=max_steps, auto_screenshot=auto_screenshot, wait_between_actions=wait_between_actions, context=context
            )
        )


class Flows(_Blocking):
    """`deckhand.flows` (blocking): the saved flows."""

    _async: _flows.Flows

    def __init__(self, obj: _flows.Flows) -> None:
        super().__init__(obj)

    def list(self) -> list[_wire.FlowSummary]:
        return run(self._async.list())

    def get(self, name: str, *, where: Where | None = None) -> _wire.Flow:
        return run(self._async.get(name, where=where))

    def save(self, flow: _wire.Flow | Mapping[str, Any], *, to: Where = "extension") -> _wire.FlowSummary:
        return run(self._async.save(flow, to=to))

    def rename(self, name: str, new_name: str, *, where: Where = "extension") -> _wire.FlowSummary:
        return run(self._async.rename(name, new_name, where=where))

    def delete(self, name: str, *, where: Where = "extension") -> bool:
        return run(self._async.delete(name, where=where))


class Deckhand(_Blocking):
    """deckhand.Deckhand, blocking: `Deckhand.create(browser=...)`, then act, observe, extract,
    metrics, experimental_batch, replay, agent, close. `with` closes it."""

    _async: _deckhand.Deckhand

    def __init__(self, obj: _deckhand.Deckhand) -> None:
        if not isinstance(obj, _deckhand.Deckhand):
            raise TypeError("use Deckhand.create(browser=...) to make an instance")
        super().__init__(obj)

    @classmethod
    def create(
        cls,
        *,
        browser: Browser,
        api_key: str | None = None,
        api_url: str | None = None,
        model: ModelSpec | None = None,
        model_api_key: str | None = None,
        model_headers: Mapping[str, str] | None = None,
        system_prompt: str | None = None,
        self_heal: bool | None = None,
        dom_settle_timeout_ms: int | None = None,
        cache: CacheOption | None = None,
        logging: LoggingOptions | None = None,
        telemetry: TelemetryOptions | None = None,
    ) -> Deckhand:
        """See deckhand.Deckhand.create."""
        b: Any = browser._async if isinstance(browser, Browser) else browser
        return cls(
            run(
                _deckhand.Deckhand.create(
                    browser=b,
                    api_key=api_key,
                    api_url=api_url,
                    model=model,
                    model_api_key=model_api_key,
                    model_headers=model_headers,
                    system_prompt=system_prompt,
                    self_heal=self_heal,
                    dom_settle_timeout_ms=dom_settle_timeout_ms,
                    cache=cache,
                    logging=logging,
                    telemetry=telemetry,
                )
            )
        )

    @property
    def browser(self) -> Browser:
        return Browser(self._async.browser)

    @property
    def context(self) -> BrowserContext:
        return BrowserContext(self._async.context)

    @property
    def initialized(self) -> bool:
        return self._async.initialized

    @property
    def flows(self) -> Flows:
        return Flows(self._async.flows)

    def act(
        self,
        instruction_or_action: str | Mapping[str, Any] | _wire.Action,
        *,
        cache: CacheCallOption | None = None,
        ignore_locators: Sequence[Locator | str | LocatorDict] | None = None,
        locator: Locator | str | LocatorDict | None = None,
        model: ModelSpec | None = None,
        timeout: int | None = None,
        variables: Variables | None = None,
        page: Page | int | None = None,
        dom_settle_timeout_ms: int | None = None,
        frame_id: int | None = None,
    ) -> _wire.ActResult:
        """See deckhand.Deckhand.act."""
        return run(
            self._async.act(
                instruction_or_action,
                cache=cache,
                ignore_locators=_locators(ignore_locators),
                locator=_locator(locator),
                model=model,
                timeout=timeout,
                variables=variables,
                page=_page_of(page),
                dom_settle_timeout_ms=dom_settle_timeout_ms,
                frame_id=frame_id,
            )
        )

    def observe(
        self,
        instruction: str | None = None,
        *,
        cache: CacheCallOption | None = None,
        ignore_locators: Sequence[Locator | str | LocatorDict] | None = None,
        locator: Locator | str | LocatorDict | None = None,
        model: ModelSpec | None = None,
        timeout: int | None = None,
        variables: Variables | None = None,
        page: Page | int | None = None,
        dom_settle_timeout_ms: int | None = None,
        frame_id: int | None = None,
    ) -> _wire.ObserveResult:
        """See deckhand.Deckhand.observe."""
        return run(
            self._async.observe(
                instruction,
                cache=cache,
                ignore_locators=_locators(ignore_locators),
                locator=_locator(locator),
                model=model,
                timeout=timeout,
                variables=variables,
                page=_page_of(page),
                dom_settle_timeout_ms=dom_settle_timeout_ms,
                frame_id=frame_id,
            )
        )

    @overload
    def extract(
        self,
        instruction: str | None,
        schema: type[M],
        *,
        cache: CacheCallOption | None = None,
        ignore_locators: Sequence[Locator | str | LocatorDict] | None = None,
        locator: Locator | str | LocatorDict | None = None,
        model: ModelSpec | None = None,
        timeout: int | None = None,
        variables: Variables | None = None,
        page: Page | int | None = None,
        screenshot: bool | None = None,
        dom_settle_timeout_ms: int | None = None,
        iframes: bool | None = None,
        frame_id: int | None = None,
    ) -> ExtractResult[M]: ...

    @overload
    def extract(
        self,
        instruction: str | None = None,
        *,
        schema: type[M],
        cache: CacheCallOption | None = None,
        ignore_locators: Sequence[Locator | str | LocatorDict] | None = None,
        locator: Locator | str | LocatorDict | None = None,
        model: ModelSpec | None = None,
        timeout: int | None = None,
        variables: Variables | None = None,
        page: Page | int | None = None,
        screenshot: bool | None = None,
        dom_settle_timeout_ms: int | None = None,
        iframes: bool | None = None,
        frame_id: int | None = None,
    ) -> ExtractResult[M]: ...

    @overload
    def extract(
        self,
        instruction: str | None = None,
        schema: Mapping[str, Any] | None = None,
        *,
        cache: CacheCallOption | None = None,
        ignore_locators: Sequence[Locator | str | LocatorDict] | None = None,
        locator: Locator | str | LocatorDict | None = None,
        model: ModelSpec | None = None,
        timeout: int | None = None,
        variables: Variables | None = None,
        page: Page | int | None = None,
        screenshot: bool | None = None,
        dom_settle_timeout_ms: int | None = None,
        iframes: bool | None = None,
        frame_id: int | None = None,
    ) -> ExtractResult[Any]: ...

    def extract(
        self,
        instruction: str | None = None,
        schema: type[BaseModel] | Mapping[str, Any] | None = None,
        *,
        cache: CacheCallOption | None = None,
        ignore_locators: Sequence[Locator | str | LocatorDict] | None = None,
        locator: Locator | str | LocatorDict | None = None,
        model: ModelSpec | None = None,
        timeout: int | None = None,
        variables: Variables | None = None,
        page: Page | int | None = None,
        screenshot: bool | None = None,
        dom_settle_timeout_ms: int | None = None,
        iframes: bool | None = None,
        frame_id: int | None = None,
    ) -> ExtractResult[Any]:
        """See deckhand.Deckhand.extract: with a pydantic model class as schema, `data` is an
        instance of it."""
        return run(
            self._async.extract(
                instruction,
                schema,
                cache=cache,
                ignore_locators=_locators(ignore_locators),
                locator=_locator(locator),
                model=model,
                timeout=timeout,
                variables=variables,
                page=_page_of(page),
                screenshot=screenshot,
                dom_settle_timeout_ms=dom_settle_timeout_ms,
                iframes=iframes,
                frame_id=frame_id,
            )
        )

    def metrics(self) -> _wire.Metrics:
        """See deckhand.Deckhand.metrics."""
        return run(self._async.metrics())

    def experimental_batch(self, source: str, input: object = _OMIT, *, timeout: int | None = None, page: Page | int | None = None) -> Any:
        """See deckhand.Deckhand.experimental_batch."""
        return run(self._async.experimental_batch(source, input, timeout=timeout, page=_page_of(page)))

    def replay(
        self,
        flow: str | Mapping[str, Any] | _wire.Flow,
        *,
        variables: Variables | None = None,
        page: Page | int | None = None,
        model: ModelSpec | None = None,
        step_timeout: int | None = None,
        timeout: int | None = None,
    ) -> _wire.FlowReplayResult:
        """See deckhand.Deckhand.replay."""
        return run(
            self._async.replay(flow, variables=variables, page=_page_of(page), model=model, step_timeout=step_timeout, timeout=timeout)
        )

    def agent(
        self,
        *,
        model: str | CallbackModel | None = None,
        instructions: str | None = None,
        options: AgentOptions | None = None,
        provider: Literal["openai", "anthropic"] | None = None,
        tools: Mapping[str, AgentTool] | None = None,
        integrations: Sequence[Any] | None = None,
    ) -> Agent:
        """See deckhand.Deckhand.agent."""
        return Agent(
            self._async.agent(model=model, instructions=instructions, options=options, provider=provider, tools=tools, integrations=integrations)
        )

    def close(self) -> None:
        """Release this instance; the browser stays open. Safe to call more than once."""
        run(self._async.close())

    def __enter__(self) -> Deckhand:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- browsers ------------------------------------------------------------------------------


class LocalBrowser:
    """`local_browser.launch(...)`, `local_browser.connect(cdp_url=...)` and `local_browser.attach(...)`, blocking."""

    def launch(
        self,
        *,
        headless: bool = True,
        executable_path: str | None = None,
        viewport: dict[str, int] | None = None,
        user_data_dir: str | None = None,
        args: Sequence[str] | None = None,
        timeout: float | None = None,
        allow_url_schemes: Sequence[str] | None = None,
    ) -> Browser:
        """See deckhand.local_browser.launch."""
        return Browser(
            run(
                _browser.launch(
                    headless=headless,
                    executable_path=executable_path,
                    viewport=viewport,
                    user_data_dir=user_data_dir,
                    args=args,
                    timeout=timeout,
                    allow_url_schemes=allow_url_schemes,
                )
            )
        )

    def connect(
        self,
        *,
        cdp_url: str,
        headers: dict[str, str] | None = None,
        timeout: float | None = None,
        allow_url_schemes: Sequence[str] | None = None,
    ) -> Browser:
        """See deckhand.local_browser.connect."""
        return Browser(run(_browser.connect(cdp_url=cdp_url, headers=headers, timeout=timeout, allow_url_schemes=allow_url_schemes)))

    def attach(
        self,
        *,
        port: int | None = None,
        token: str | None = None,
        host: str | None = None,
        timeout: float | None = None,
        reconnect_timeout: float | None = None,
        name: str | None = None,
        on_pairing: Callable[[PairingInfo], object] | None = None,
        allow_url_schemes: Sequence[str] | None = None,
    ) -> Browser:
        """See deckhand.local_browser.attach. Blocks until the extension pairs (or the timeout);
        on_pairing is called from the wrapper's loop thread, so it must not call back into this wrapper."""
        return Browser(
            run(
                _browser.attach(
                    port=port,
                    token=token,
                    host=host,
                    timeout=timeout,
                    reconnect_timeout=reconnect_timeout,
                    name=name,
                    on_pairing=on_pairing,
                    allow_url_schemes=allow_url_schemes,
                )
            )
        )


class GridBrowser:
    """`grid_browser.launch(url=...)`, blocking."""

    def launch(
        self,
        *,
        url: str,
        headers: Mapping[str, str] | None = None,
        headless: bool = True,
        viewport: dict[str, int] | None = None,
        extension_dir: str | Path | None = None,
        packed_extension: bool = False,
        binary: str | None = None,
        args: Sequence[str] | None = None,
        capabilities: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        keep_alive: float | None = None,
        allow_url_schemes: Sequence[str] | None = None,
    ) -> Browser:
        """See deckhand.grid_browser.launch."""
        return Browser(
            run(
                _grid.launch(
                    url=url,
                    headers=headers,
                    headless=headless,
                    viewport=viewport,
                    extension_dir=extension_dir,
                    packed_extension=packed_extension,
                    binary=binary,
                    args=args,
                    capabilities=capabilities,
                    timeout=timeout,
                    keep_alive=keep_alive,
                    allow_url_schemes=allow_url_schemes,
                )
            )
        )


local_browser = LocalBrowser()
grid_browser = GridBrowser()


@atexit.register
def _stop() -> None:
    if _loop is not None:
        _loop.call_soon_threadsafe(_loop.stop)


__all__ = [
    "Agent",
    "Browser",
    "BrowserContext",
    "Deckhand",
    "Flows",
    "GridBrowser",
    "LocalBrowser",
    "Locator",
    "Page",
    "PairingInfo",
    "grid_browser",
    "local_browser",
    "run",
]
