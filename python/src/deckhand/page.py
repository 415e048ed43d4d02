"""Pages, locators and the browser context (src/facade/page.ts in Python).

Every call is one method of the worker's command table (page.goto, locator.act, ...), sent
with the same parameters the Node facade sends; the worker checks them.
"""

from __future__ import annotations

import asyncio
import base64
import re
import uuid
from pathlib import Path
from typing import Any, Literal, Mapping, Sequence, TypedDict, TypeVar, Union, cast, overload

from pydantic import BaseModel, ValidationError
from typing_extensions import Unpack

from . import _wire
from ._checks import given as _given, quiet as _quiet
from .errors import InvalidArgumentError, InvalidSelectorError, ProtocolError, UnavailableError, type_error

W = TypeVar("W", bound=BaseModel)
M = TypeVar("M", bound=BaseModel)


def parse_answer(model: type[W], value: Any, method: str) -> W:
    """The worker's answer read as its result model; PROTOCOL_ERROR when it does not fit."""
    try:
        return model.model_validate(value)
    except ValidationError as e:
        raise ProtocolError(None, f"invalid the answer to '{method}': {e}") from None


class PageExtractOptions(TypedDict, total=False):
    """page.extract's earlier options: an XPath `selector` to scope it, `iframes`, `model_name` with
    its `model_client_options`, and `dom_settle_timeout_ms` (default 30000)."""

    selector: str | None
    iframes: bool | None
    model_name: str | None
    model_client_options: Mapping[str, Any] | None
    dom_settle_timeout_ms: int | None


#: What pages call: the link to the worker (`call(method, params)`).
CommandClient = Any
#: The Browser that made them (browser.py imports this module): its `allow_url_schemes`, and its
#: `_extract`, set by the Deckhand instance that uses it (page.extract with a model).
PageHost = Any


#: `{"selector": css_or_xpath, "nth": i}`.
LocatorDict = _wire.LocatorSpecDict


# A JavaScript function's source, as opposed to an expression: `function ...`, `async ...`,
# `x => ...` or `(a, b) => ...`.
_FUNCTION = re.compile(r"^\s*(async\s+)?(function\b|\(\s*[^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")


class Locator(_wire.LocatorActions):
    """Elements of a page by CSS or XPath selector: `page.locator(selector)`, `.nth(i)`, `.first()`.

    click, fill, ... (the methods that send one action) are declared once, in the schema."""

    def __init__(self, client: CommandClient, page: "Page", selector: str, index: int | None = None) -> None:
        if not isinstance(selector, str):
            raise type_error(f"a locator needs a CSS or XPath selector (a string), got {type(selector).__name__}")
        if not selector.strip():
            raise InvalidSelectorError(None, "a locator needs a non-empty CSS or XPath selector")
        self._client = client
        self.page = page
        self.selector = selector
        self._index = index

    def nth(self, i: int) -> "Locator":
        """The i-th match (0-based) of this locator's selector."""
        if not isinstance(i, int) or isinstance(i, bool):
            raise type_error(f"nth() takes a non-negative integer, got {i!r}")
        if i < 0:
            raise InvalidArgumentError(None, f"nth() takes a non-negative integer, got {i!r}")
        return Locator(self._client, self.page, self.selector, i)

    def first(self) -> "Locator":
        return self.nth(0)

    def to_spec(self) -> LocatorDict:
        return {"selector": self.selector} if self._index is None else {"selector": self.selector, "nth": self._index}

    async def _run(self, method: str, args: list[str], timeout: float | None) -> None:
        params = {"page": self.page.id, "locator": self.to_spec(), "method": method, "arguments": args}
        await self._client.call("locator.act", {**params, **_given(timeout=timeout)})

    async def scroll_to(self, percent: float | str, *, timeout: float | None = None) -> None:
        await self._run("scrollTo", [percent if isinstance(percent, str) else f"{percent:g}"], timeout)

    async def drag_to(self, target: "Locator | str", *, timeout: float | None = None) -> None:
        await self._run("dragAndDrop", [target if isinstance(target, str) else target.selector], timeout)

    async def count(self) -> int:
        r = await self._client.call("locator.count", {"page": self.page.id, "locator": {"selector": self.selector}})
        n = int(r["count"])
        return n if self._index is None else (1 if n > self._index else 0)

    def __repr__(self) -> str:
        return f"Locator({self.selector!r}{'' if self._index is None else f', nth={self._index}'})"


#: Where an operation looks: a CSS or XPath selector, a Locator, or a LocatorDict.
LocatorLike = Union[Locator, str, LocatorDict]


def locator_spec(l: object) -> LocatorDict:
    """A locator option (LocatorLike) as the wire's LocatorSpec."""
    if isinstance(l, str):
        return {"selector": l}
    if isinstance(l, Locator):
        return l.to_spec()
    if isinstance(l, Mapping):
        return cast(LocatorDict, {k: v for k, v in l.items() if v is not None})  # the worker checks it
    raise type_error(f"a locator is a selector string, a Locator or {{'selector': ..., 'nth': ...}}, got {l!r}")


def page_id(page: object) -> int | None:
    """A `page=` option: a Page or a page id."""
    if page is None or isinstance(page, int) and not isinstance(page, bool):
        return page
    if isinstance(page, Page):
        return page.id
    raise type_error(f"page must be a Page or a page id (an int), got {type(page).__name__}")


def _schemes(host: PageHost | None) -> dict[str, Any]:
    """The URL schemes the browser's operator opened, for a call that navigates."""
    allow = host.allow_url_schemes if host else ()
    return {"allowSchemes": list(allow)} if allow else {}


class Page:
    """One tab: navigation, JavaScript, screenshots, key presses, locators, the page's own tools and the earlier extract."""

    def __init__(self, client: CommandClient, page_id: int, browser: PageHost | None = None) -> None:
        self._client = client
        self.id = page_id
        self._browser = browser

    async def goto(
        self, url: str, *, wait_until: Literal["load", "domcontentloaded", "commit"] | None = None, timeout: float | None = None
    ) -> _wire.PageInfo:
        options = _given(waitUntil=wait_until, timeout=timeout)
        params = {"page": self.id, "url": url, **({"options": options} if options else {}), **_schemes(self._browser)}
        return parse_answer(_wire.PageInfo, await self._client.call("page.goto", params), "page.goto")

    async def info(self) -> _wire.PageInfo:
        return parse_answer(_wire.PageInfo, await self._client.call("page.info", {"page": self.id}), "page.info")

    async def url(self) -> str:
        return (await self.info()).url

    async def title(self) -> str:
        return (await self.info()).title

    async def evaluate(self, source: str, arg: Any = None, *, timeout: float | None = None, is_function: bool | None = None) -> Any:
        """Run JavaScript in the page: a function's source (called with `arg`) or an expression.
        The argument and the result are JSON values."""
        fn = isinstance(source, str) and bool(_FUNCTION.match(source)) if is_function is None else is_function
        params = {"page": self.id, "source": source, "isFunction": fn, **_given(arg=arg, timeout=timeout)}
        return (await self._client.call("page.evaluate", params)).get("value")

    async def screenshot(
        self, *, type: Literal["png", "jpeg"] | None = None, quality: int | None = None, full_page: bool | None = None, path: str | Path | None = None
    ) -> bytes:
        options = _given(type=type, quality=quality, fullPage=full_page)
        data = base64.b64decode((await self._client.call("page.screenshot", {"page": self.id, "options": options}))["data"])
        if path is not None:
            Path(path).write_bytes(data)
        return data

    async def close(self) -> None:
        await self._client.call("page.close", {"page": self.id})

    async def bring_to_front(self) -> None:
        await self._client.call("page.bringToFront", {"page": self.id})

    def locator(self, selector: str) -> Locator:
        return Locator(self._client, self, selector)

    async def press(self, keys: str, *, timeout: float | None = None) -> None:
        """Press keys ('Enter', 'Control+A') on whatever has focus in the page."""
        await self._client.call("page.press", {"page": self.id, "keys": keys, **_given(timeout=timeout)})

    async def tools(self) -> list[_wire.PageTool]:
        """The page's own tools (WebMCP), as the snapshot lists them: name, description, input schema."""
        r = await self._client.call("page.tools", {"page": self.id})
        return parse_answer(_wire.PageToolsResult, r, "page.tools").tools

    async def call_tool(
        self, name: str, input: Mapping[str, Any] | None = None, *, timeout: float | None = None, approval: _wire.ApprovalPolicyDict | None = None
    ) -> _wire.CallToolResult:
        """Call one of the page's own tools with `input` (checked against its input schema first). A
        tool a form declares fills the form and submits it. `output` is the tool's answer as text
        (JSON text for an object), None when it answered nothing (a form that navigated the page:
        `navigated`). `approval` makes the call wait for approval as a click would. Cancelling the
        task cancels the call in the worker (the page's tool is told)."""
        if not isinstance(name, str):
            raise type_error(f"call_tool needs a tool's name (a string), got {type(name).__name__}")
        if input is not None and not isinstance(input, Mapping):
            raise type_error(f"a tool's input is a dict, got {type(input).__name__}")
        op_id = str(uuid.uuid4())
        # What the caller gave, no more (the worker's schema decides what no input means), with an
        # opId so that cancelling the task can stop the call: a page's tool may never answer.
        params = {
            "page": self.id,
            "name": name,
            **_given(input=None if input is None else dict(input), timeout=timeout, approval=None if approval is None else dict(approval)),
            "opId": op_id,
        }
        try:
            r = await self._client.call("page.callTool", params)
        except asyncio.CancelledError:
            asyncio.ensure_future(_quiet(self._client.call("op.cancel", {"opId": op_id})))
            raise
        return parse_answer(_wire.CallToolResult, r, "page.callTool")

    async def selectors_for(self, ids: Sequence[str]) -> list[_wire.PageSelectorsResultItem | None]:
        """Selectors for snapshot element ids (None where the element is gone)."""
        r = await self._client.call("page.selectors", {"page": self.id, "ids": list(ids)})
        return [None if x is None else parse_answer(_wire.PageSelectorsResultItem, x, "page.selectors") for x in r]

    async def snapshot(
        self,
        *,
        locator: LocatorLike | None = None,
        ignore_locators: Sequence[LocatorLike] | None = None,
        budget: int | None = None,
        timeout: float | None = None,
    ) -> _wire.SnapshotResult:
        """The text a model reads for this page."""
        params = _given(
            page=self.id,
            locator=None if locator is None else locator_spec(locator),
            ignoreLocators=None if ignore_locators is None else [locator_spec(l) for l in ignore_locators],
            budget=budget,
            timeout=timeout,
        )
        return parse_answer(_wire.SnapshotResult, await self._client.call("page.snapshot", params), "page.snapshot")

    @overload
    async def extract(self, instruction: str | None = None, *, schema: type[M], **options: Unpack[PageExtractOptions]) -> M: ...

    @overload
    async def extract(self, instruction: str | None = None, *, schema: Mapping[str, Any] | None = None, **options: Unpack[PageExtractOptions]) -> Any: ...

    async def extract(
        self, instruction: str | None = None, *, schema: type[BaseModel] | Mapping[str, Any] | None = None, **options: Unpack[PageExtractOptions]
    ) -> Any:
        """The earlier extract: `extract()` -> `{"page_text": ...}` (no model); `extract(instruction)`
        -> `{"extraction": ...}`; with `schema=` (and PageExtractOptions) -> the data (an instance
        of the schema when it is a pydantic model class)."""
        if not instruction and schema is None:
            selector = options.get("selector")
            params = _given(page=self.id, locator={"selector": selector} if selector else None, budget=50_000_000)
            return {"page_text": (await self._client.call("page.snapshot", params))["text"]}
        if self._browser is None or self._browser._extract is None:
            raise UnavailableError(None, "page.extract with an instruction or schema needs a Deckhand instance on this browser (Deckhand.create)")
        return await self._browser._extract(self.id, instruction, schema, **options)

    def __repr__(self) -> str:
        return f"Page(id={self.id})"


class BrowserContext:
    """The browser's pages: `browser.context.pages()`, `active_page()`, `new_page(url)`."""

    def __init__(self, client: CommandClient, browser: PageHost | None = None) -> None:
        self._client = client
        self._browser = browser
        self._pages: dict[int, Page] = {}

    def page(self, page_id: int) -> Page:
        """The Page object for a page id (one object per page)."""
        p = self._pages.get(page_id)
        if p is None:
            p = self._pages[page_id] = Page(self._client, page_id, self._browser)
        return p

    async def pages(self) -> list[Page]:
        return [self.page(i["id"]) for i in await self._client.call("context.pages", {})]

    async def active_page(self) -> Page:
        return self.page((await self._client.call("context.activePage", {}))["id"])

    async def new_page(self, url: str | None = None, *, timeout: float | None = None) -> Page:
        params = {**_given(url=url, timeout=timeout), **_schemes(self._browser)}
        return self.page((await self._client.call("context.newPage", params))["id"])
