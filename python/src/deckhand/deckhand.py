"""The client: `await Deckhand.create(browser=...)` is the only way to get an instance; it claims
the browser handle, so one handle backs one instance (src/client/deckhand.ts in Python).
"""

from __future__ import annotations

import asyncio
import os
import uuid
from pathlib import Path
from typing import Any, Awaitable, Callable, Literal, Mapping, Sequence, TypeVar, cast, overload

from pydantic import BaseModel, ValidationError

from . import _wire
from ._agent import Agent, agent_deadline_ms, agent_model, agent_run_params, agent_tools
from ._checks import (
    approval_handler,
    approval_option,
    cache_for_call,
    call_options,
    check_flag,
    combine_model,
    is_store,
    json_schema_of,
    not_json,
    page_id,
    parse_answer,
    quiet,
    variables_option,
)
from ._link import MAX_CALL_MS, MAX_TIMEOUT_MS, check_ms
from ._logging import Logger
from ._worker_calls import WorkerCalls
from .browser import Browser
from .cache import MemoryStore, RemoteStore, SqliteStore
from .errors import (
    AlreadyInUseError,
    BrowserClosedError,
    ClosedError,
    DeckhandError,
    DeckhandTimeoutError,
    InvalidArgumentError,
    ModelOutputInvalidError,
    type_error,
)
from .flows import Flows, as_flow, flow_name
from .models import CallbackRegistry, default_model, resolve_model
from .options import (
    AgentOptions,
    ApprovalHandler,
    ApprovalPolicy,
    AgentTool,
    CacheCallOption,
    CacheOption,
    CacheStore,
    CallbackModel,
    LocatorLike,
    LoggingOptions,
    ModelSpec,
    TelemetryOptions,
    Variables,
)
from .page import BrowserContext, Page, locator_spec
from .types import ExtractResult

M = TypeVar("M", bound=BaseModel)

#: Marks an omitted argument (experimental_batch's input: omitted is undefined, None is null).
_OMIT: Any = type("_Omitted", (), {"__repr__": lambda self: "<omitted>"})()



def deckhand_home() -> Path:
    return Path(os.environ.get("DECKHAND_HOME") or Path.home() / ".deckhand")


def _opentelemetry_trace() -> Any:
    """The opentelemetry.trace module, or None when opentelemetry-api is not installed."""
    try:
        import opentelemetry.trace as trace
    except ImportError:
        return None
    return trace


class _Telemetry:
    """OpenTelemetry spans when opentelemetry-api is installed (a no-op otherwise)."""

    def __init__(self, options: TelemetryOptions | None) -> None:
        if options is not None and not isinstance(options, Mapping):
            raise type_error(f"telemetry must be a dict (tracer=, tracer_name=), got {type(options).__name__}")
        o: dict[str, Any] = dict(options or {})
        unknown = set(o) - {"tracer", "tracer_name"}
        if unknown:
            raise InvalidArgumentError(None, f"unknown telemetry option {', '.join(repr(k) for k in sorted(unknown))} (use tracer, tracer_name)")
        trace = _opentelemetry_trace()
        if o.get("tracer") is not None and trace is None:
            raise InvalidArgumentError(None, "telemetry with a tracer needs the opentelemetry-api package")
        self.trace: Any = trace
        self.tracer: Any = o.get("tracer") or (trace.get_tracer(o.get("tracer_name") or "deckhand") if trace else None)


class Deckhand:
    """Drives the extension's engine: act, observe, extract, metrics, experimental_batch, agent."""

    def __init__(self, _token: object, browser: Browser, options: dict[str, Any]) -> None:
        if _token is not _CREATE:
            raise type_error("use `await Deckhand.create(browser=...)` to make an instance")
        self._browser = browser
        self._link = browser._link
        self._o = options
        self._closed = False
        self._callbacks = CallbackRegistry()
        self._logger: Logger = options["logger"]
        self._telemetry: _Telemetry = options["telemetry"]
        self._spans: dict[str, Any] = {}
        self._step_listeners: set[Callable[[dict[str, Any]], None]] = set()
        self._tools: dict[str, Callable[[Any], Awaitable[str]]] = {}
        #: Calls' own approval handlers, by opId, while they run.
        self._approvers: dict[str, ApprovalHandler] = {}
        self._store: CacheStore | None = None
        self._cache_enabled = False
        self._threshold = 1
        self._self_heal = True
        self._flows = Flows(self)

    # -- creation ---------------------------------------------------------------------------
    @classmethod
    async def create(
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
        approval: ApprovalPolicy | None = None,
        on_approval: ApprovalHandler | None = None,
    ) -> "Deckhand":
        """Attach to the extension's engine in `browser` (from local_browser.launch(),
        local_browser.connect() or grid_browser.launch()); one browser handle backs one instance.

        - `model`: the default model of act, observe, extract and the agent: a 'provider/model'
          name, a ModelConfig, or a generation callback (default: a provider's model when its key
          is in the environment, else the built-in local model 'deckhand/local').
        - `model_api_key`, `model_headers`: added to a model given by name or config.
        - `cache`: True (SQLite in $DECKHAND_HOME), a store, or CacheOptions; `api_key` and
          `api_url` use a Deckhand service's cache instead.
        - `logging`: LoggingOptions; `telemetry`: TelemetryOptions (OpenTelemetry spans).
        - `approval`: risky steps of act, the agent and experimental_batch wait for approval
          (`{"when": ["submit", "pay"], "words": [...], "timeout": ms}`; a call's own wins);
          `on_approval` decides them for calls without a handler of their own (else the side
          panel, else the deadline refuses them: NotApprovedError).
        """
        if not isinstance(browser, Browser):
            raise type_error("Deckhand.create needs browser= from local_browser.launch() or local_browser.connect()")
        for name, value in (("api_key", api_key), ("api_url", api_url), ("model_api_key", model_api_key)):
            if value is not None and not isinstance(value, str):
                raise type_error(f"{name} must be a string, got {type(value).__name__}")
        if model_headers is not None and not isinstance(model_headers, Mapping):
            raise type_error(f"model_headers must be a dict of header names to values, got {type(model_headers).__name__}")
        if logging is not None and not isinstance(logging, Mapping):
            raise type_error(f"logging must be a dict (level=, format=, callback=), got {type(logging).__name__}")
        if cache is not None and not isinstance(cache, (bool, Mapping)) and not is_store(cache):
            raise type_error("cache must be True, False, a store, or {'threshold': n, 'store': ..., 'enabled': bool}")
        logger = Logger(logging)
        tracing = _Telemetry(telemetry)
        model = combine_model(model, model_api_key, model_headers)
        if model is not None:
            resolve_model(model, CallbackRegistry())  # a bad configuration fails now
        if dom_settle_timeout_ms is not None:
            check_ms("dom_settle_timeout_ms", dom_settle_timeout_ms, minimum=0)
        if system_prompt is not None and not isinstance(system_prompt, str):
            raise type_error("system_prompt must be a string")
        if self_heal is not None and not isinstance(self_heal, bool):
            raise type_error("self_heal must be True or False")
        policy = approval_option("Deckhand.create", approval)
        approval_handler("Deckhand.create", on_approval)
        if browser._claimed_by is not None:
            raise AlreadyInUseError(None, "this browser handle already backs a Deckhand instance; close that instance first or launch another browser")
        if not browser.is_connected:
            raise BrowserClosedError(None, "the browser is closed")
        options = {
            "model": model,
            "system_prompt": system_prompt,
            "dom_settle_timeout_ms": dom_settle_timeout_ms,
            "logger": logger,
            "telemetry": tracing,
            "approval": policy,
            "on_approval": on_approval,
        }
        instance = cls(_CREATE, browser, options)
        instance._configure_cache(cache, self_heal, api_key, api_url)
        if browser._claimed_by is not None:  # claimed while this one was being made
            raise AlreadyInUseError(None, "this browser handle already backs a Deckhand instance; close that instance first or launch another browser")
        browser._claimed_by = instance
        browser._extract = instance._page_extract
        WorkerCalls(
            store=lambda: instance._store,
            callbacks=instance._callbacks,
            tools=instance._tools,
            logger=instance._logger,
            step_listeners=instance._step_listeners,
            telemetry=instance._telemetry,
            spans=instance._spans,
            approver=instance._approver,
        ).serve(instance._link)
        try:
            # Names this program in a side panel watching the browser.
            await instance._call("engine.ping", {"client": {"kind": "python"}})
        except BaseException:
            await instance.close()
            raise
        return instance

    def _approver(self, op_id: str | None) -> ApprovalHandler | None:
        """The handler that decides a step of the call with this opId: its own, else the instance's."""
        own = self._approvers.get(op_id) if op_id is not None else None
        return own if own is not None else cast("ApprovalHandler | None", self._o["on_approval"])

    def _configure_cache(self, c: object, self_heal: bool | None, api_key: str | None, api_url: str | None) -> None:
        if c is not None and not isinstance(c, (bool, Mapping)) and not is_store(c):
            raise type_error("cache must be True, False, a store, or {'threshold': n, 'store': ..., 'enabled': bool}")
        o: dict[str, Any] = dict(c) if isinstance(c, Mapping) else {}
        unknown = set(o) - {"threshold", "store", "enabled"}
        if unknown:
            raise InvalidArgumentError(None, f"unknown cache option {', '.join(repr(k) for k in sorted(unknown))} (use threshold, store, enabled)")
        threshold = o.get("threshold", 1)
        if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 1:
            raise InvalidArgumentError(None, f"cache threshold must be a positive integer, got {threshold!r}")
        self._threshold = threshold
        self._self_heal = True if self_heal is None else self_heal
        self._cache_enabled = bool(o.get("enabled", True)) if isinstance(c, Mapping) else (c is not False and c is not None)
        if (api_key is None) != (api_url is None):
            raise InvalidArgumentError(None, "api_key and api_url go together: give both to use a Deckhand service")
        if api_key and api_url:
            self._store = RemoteStore(api_url, api_key)
            if c is None:
                self._cache_enabled = True
            return
        if is_store(c):
            self._store = cast(CacheStore, c)
            return
        if not c:
            self._store, self._cache_enabled = None, False
            return
        where = o.get("store", "local")
        if is_store(where):
            self._store = cast(CacheStore, where)
        elif where == "memory":
            self._store = MemoryStore()
        elif where == "local":
            self._store = SqliteStore(deckhand_home() / "cache.db")
        elif isinstance(where, Mapping) and isinstance(where.get("path"), (str, os.PathLike)):
            self._store = SqliteStore(where["path"])
        else:
            raise InvalidArgumentError(None, f"cache store must be 'local', 'memory', {{'path': ...}} or a store object, got {where!r}")

    def _cache_base(self) -> dict[str, Any] | None:
        return {"threshold": self._threshold, "selfHeal": self._self_heal, "store": "caller"} if self._store is not None else None

    # -- properties --------------------------------------------------------------------------
    @property
    def browser(self) -> Browser:
        return self._browser

    @property
    def initialized(self) -> bool:
        return not self._closed

    @property
    def context(self) -> BrowserContext:
        return self._browser.context

    async def _call(self, method: str, params: Any, timeout_ms: float | None = None) -> Any:
        if self._closed:
            raise ClosedError(None, f"cannot call {method}: this Deckhand instance is closed")
        return await self._link.call(method, params, timeout_ms)

    # -- operations --------------------------------------------------------------------------
    def _wire_options(self, o: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
        """OperationOptions in the order the Node client writes them."""
        out: dict[str, Any] = {}
        for key, name in (
            ("timeout", "timeout"),
            ("frame_id", "frameId"),
            ("variables", "variables"),
            ("screenshot", "screenshot"),
            ("dom_settle_timeout_ms", "domSettleTimeoutMs"),
            ("iframes", "iframes"),
            ("approval", "approval"),
        ):
            if o.get(key) is not None:
                out[name] = o[key]
        out.update(extra)
        if o.get("page") is not None:
            out["page"] = o["page"]
        if o.get("locator") is not None:
            out["locator"] = locator_spec(o["locator"])
        if o.get("ignore_locators") is not None:
            out["ignoreLocators"] = [locator_spec(l) for l in o["ignore_locators"]]
        return out

    async def _call_cancellable(self, op_id: str, method: str, params: dict[str, Any], deadline: float | None) -> Any:
        """A call whose params carry op_id: when the caller's task is cancelled, op.cancel stops it
        in the worker too (a model request, a wait, a batch's running operation)."""
        try:
            return await self._call(method, params, deadline)
        except asyncio.CancelledError:
            if not self._closed:
                asyncio.ensure_future(quiet(self._call("op.cancel", {"opId": op_id})))
            raise

    async def _operation(self, op: str, params: dict[str, Any], o: dict[str, Any], needs_model: bool) -> Any:
        op_id = str(uuid.uuid4())
        model = None
        if needs_model:
            spec = o.get("model") if o.get("model") is not None else self._o["model"] if self._o["model"] is not None else default_model()
            model = resolve_model(spec, self._callbacks)
        cache = cache_for_call(self._cache_base(), self._cache_enabled, o.get("cache"))
        extra: dict[str, Any] = {"opId": op_id}
        # The call's own policy is among its options; the instance's comes after the opId, as Node writes it.
        if op == "act" and not o.get("approval") and self._o["approval"]:
            extra["approval"] = self._o["approval"]
        if cache:
            extra["cache"] = cache
        if model:
            extra["model"] = model
        if self._o["system_prompt"] is not None:
            extra["systemPrompt"] = self._o["system_prompt"]
        if o.get("dom_settle_timeout_ms") is None and self._o["dom_settle_timeout_ms"] is not None:
            extra["domSettleTimeoutMs"] = self._o["dom_settle_timeout_ms"]
        wire = self._wire_options(o, extra)
        span = None
        tracer = self._telemetry.tracer
        if tracer is not None:
            span = tracer.start_span(f"deckhand.{op}", attributes={"deckhand.operation": op, **({"deckhand.model": model["name"]} if model else {})})
            self._spans[op_id] = span
        if o.get("on_approval") is not None:
            self._approvers[op_id] = o["on_approval"]
        try:
            # The call's deadline follows from the operation's (rpc_deadline).
            r = await self._call_cancellable(op_id, op, {**params, "options": wire}, None)
            if span is not None:
                usage = (r.get("metadata") or {}).get("usage") or {}
                span.set_attributes({"gen_ai.usage.input_tokens": usage.get("inputTokens", 0), "gen_ai.usage.output_tokens": usage.get("outputTokens", 0)})
            return r
        except DeckhandError as e:
            if span is not None:
                span.record_exception(e)
                span.set_status(self._telemetry.trace.Status(self._telemetry.trace.StatusCode.ERROR, e.message))
            self._logger.log("debug", f"{op} failed: {e.message}", {"opId": op_id})
            raise
        finally:
            self._spans.pop(op_id, None)
            self._approvers.pop(op_id, None)
            if span is not None:
                span.end()

    async def act(
        self,
        instruction_or_action: str | Mapping[str, Any] | _wire.Action,
        *,
        cache: CacheCallOption | None = None,
        ignore_locators: Sequence[LocatorLike] | None = None,
        locator: LocatorLike | None = None,
        model: ModelSpec | None = None,
        timeout: int | None = None,
        variables: Variables | None = None,
        page: Page | int | None = None,
        dom_settle_timeout_ms: int | None = None,
        frame_id: int | None = None,
        approval: ApprovalPolicy | None = None,
        on_approval: ApprovalHandler | None = None,
    ) -> _wire.ActResult:
        """Do one thing: an Action runs deterministically (no model); an instruction is carried
        out by the model (or replayed from the cache). With `approval` (or the instance's), a
        risky step waits for `on_approval` (or the instance's, or the side panel) to approve it;
        refused, or not approved in time, it raises NotApprovedError (`data["decision"]`:
        'skip', 'stop' or 'timeout')."""
        o = call_options(
            "act", cache=cache, ignore_locators=ignore_locators, locator=locator, model=model, timeout=timeout,
            variables=variables, page=page, dom_settle_timeout_ms=dom_settle_timeout_ms, frame_id=frame_id,
        )
        o.update(approval=approval_option("act", approval), on_approval=approval_handler("act", on_approval))
        x: object = instruction_or_action
        if isinstance(x, str):
            r = await self._operation("act", {"input": x}, o, True)
        else:
            if isinstance(x, BaseModel):
                x = x.model_dump(by_alias=True, exclude_unset=True)
            if not isinstance(x, Mapping):
                raise type_error(
                    "act takes an instruction (a string) or an Action ({'selector': ..., 'description': ..., 'method': ..., 'arguments': [...]}), "
                    f"got {type(x).__name__}"
                )
            r = await self._operation("act", {"input": dict(x)}, {**o, "cache": False, "model": None}, False)
        return parse_answer(_wire.ActResult, r, "act")

    async def observe(
        self,
        instruction: str | None = None,
        *,
        cache: CacheCallOption | None = None,
        ignore_locators: Sequence[LocatorLike] | None = None,
        locator: LocatorLike | None = None,
        model: ModelSpec | None = None,
        timeout: int | None = None,
        variables: Variables | None = None,
        page: Page | int | None = None,
        dom_settle_timeout_ms: int | None = None,
        frame_id: int | None = None,
    ) -> _wire.ObserveResult:
        """Elements that match the instruction (or the page's main controls), as Actions act() runs."""
        if instruction is not None and not isinstance(instruction, str):
            raise type_error(f"observe takes an instruction (a string) or nothing, got {type(instruction).__name__}")
        o = call_options(
            "observe", cache=cache, ignore_locators=ignore_locators, locator=locator, model=model, timeout=timeout,
            variables=variables, page=page, dom_settle_timeout_ms=dom_settle_timeout_ms, frame_id=frame_id,
        )
        params: dict[str, Any] = {} if instruction is None else {"instruction": instruction}
        return parse_answer(_wire.ObserveResult, await self._operation("observe", params, o, True), "observe")

    @overload
    async def extract(
        self,
        instruction: str | None,
        schema: type[M],
        *,
        cache: CacheCallOption | None = None,
        ignore_locators: Sequence[LocatorLike] | None = None,
        locator: LocatorLike | None = None,
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
    async def extract(
        self,
        instruction: str | None = None,
        *,
        schema: type[M],
        cache: CacheCallOption | None = None,
        ignore_locators: Sequence[LocatorLike] | None = None,
        locator: LocatorLike | None = None,
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
    async def extract(
        self,
        instruction: str | None = None,
        schema: Mapping[str, Any] | None = None,
        *,
        cache: CacheCallOption | None = None,
        ignore_locators: Sequence[LocatorLike] | None = None,
        locator: LocatorLike | None = None,
        model: ModelSpec | None = None,
        timeout: int | None = None,
        variables: Variables | None = None,
        page: Page | int | None = None,
        screenshot: bool | None = None,
        dom_settle_timeout_ms: int | None = None,
        iframes: bool | None = None,
        frame_id: int | None = None,
    ) -> ExtractResult[Any]: ...

    async def extract(
        self,
        instruction: str | None = None,
        schema: type[BaseModel] | Mapping[str, Any] | None = None,
        *,
        cache: CacheCallOption | None = None,
        ignore_locators: Sequence[LocatorLike] | None = None,
        locator: LocatorLike | None = None,
        model: ModelSpec | None = None,
        timeout: int | None = None,
        variables: Variables | None = None,
        page: Page | int | None = None,
        screenshot: bool | None = None,
        dom_settle_timeout_ms: int | None = None,
        iframes: bool | None = None,
        frame_id: int | None = None,
    ) -> ExtractResult[Any]:
        """Data from the page. With a pydantic model class as schema, an ExtractResult[Model]:
        `data` is an instance of it; with a JSON Schema dict, the data as JSON; without one,
        `{"extraction": str}`."""
        if instruction is not None and not isinstance(instruction, str):
            raise type_error(f"extract takes an instruction (a string) or nothing, got {type(instruction).__name__}")
        o = call_options(
            "extract", cache=cache, ignore_locators=ignore_locators, locator=locator, model=model, timeout=timeout,
            variables=variables, page=page, dom_settle_timeout_ms=dom_settle_timeout_ms, frame_id=frame_id,
        )
        o.update(screenshot=check_flag("screenshot", screenshot), iframes=check_flag("iframes", iframes))
        params: dict[str, Any] = {}
        if instruction is not None:
            params["instruction"] = instruction
        if schema is not None:
            params["schema"] = json_schema_of(schema)
        r: ExtractResult[Any] = parse_answer(ExtractResult, await self._operation("extract", params, o, True), "extract")
        if isinstance(schema, type) and issubclass(schema, BaseModel):
            try:
                r.data = schema.model_validate(r.data)
            except ValidationError as e:
                raise ModelOutputInvalidError(None, f"the extracted data does not fit the schema: {e}") from None
        return r

    async def _page_extract(
        self,
        page_id: int,
        *,
        instruction: str | None,
        schema: type[BaseModel] | Mapping[str, Any] | None,
        selector: str | None,
        iframes: bool | None,
        model_name: str | None,
        model_client_options: Mapping[str, Any] | None,
        dom_settle_timeout_ms: int | None,
    ) -> Any:
        """page.extract with an instruction or schema: extract on that page with the earlier defaults."""
        model: ModelSpec | None = None
        if model_name:
            opts = dict(model_client_options or {})
            model = cast(ModelSpec, {"modelName": model_name, **opts}) if opts else model_name
        loc: LocatorLike | None = None
        if selector:
            loc = {"selector": selector if selector.startswith(("xpath=", "/")) else f"xpath={selector}"}
        r = await self.extract(
            instruction,
            schema,
            page=page_id,
            dom_settle_timeout_ms=dom_settle_timeout_ms if dom_settle_timeout_ms is not None else 30_000,
            model=model,
            locator=loc,
            iframes=iframes if iframes is not None else False,
        )
        return r.data

    async def metrics(self) -> _wire.Metrics:
        """The thirty-two counters (act|extract|observe|total x prompt, completion, reasoning and
        cached input tokens, inference time, cost in US dollars, and the tokens and dollars cache
        hits saved), as floats."""
        return parse_answer(_wire.Metrics, await self._call("metrics", {}), "metrics")

    async def experimental_batch(
        self,
        source: str,
        input: object = _OMIT,
        *,
        timeout: int | None = None,
        page: Page | int | None = None,
        approval: ApprovalPolicy | None = None,
        on_approval: ApprovalHandler | None = None,
    ) -> Any:
        """Run a trusted, self-contained JavaScript callback `async (batch, input) => ...` inside the
        extension's worker. `source` is the function's source; `input` must be JSON (omitted: the
        callback gets undefined; None: null); the result comes back as JSON. Default timeout 30 s.
        `approval` and `on_approval`: its risky steps wait for approval, as act's do."""
        if not isinstance(source, str):
            raise type_error("experimental_batch needs the JavaScript source of a function, e.g. 'async (batch, input) => ...'")
        if not source.strip():
            raise InvalidArgumentError(None, "experimental_batch needs the JavaScript source of a function, e.g. 'async (batch, input) => ...'")
        has_input = input is not _OMIT
        if has_input:
            problem = not_json(input, "input")
            if problem:
                raise InvalidArgumentError(None, f"the batch input must be JSON-serialisable: {problem}")
        t = check_ms("the batch timeout", 30_000 if timeout is None else timeout)
        policy = approval_option("experimental_batch", approval) or self._o["approval"]
        approval_handler("experimental_batch", on_approval)
        model = resolve_model(self._o["model"] if self._o["model"] is not None else default_model(), self._callbacks)
        defaults: dict[str, Any] = {"model": model}
        base = self._cache_base()
        if base:
            defaults["cache"] = base
        if self._o["system_prompt"] is not None:
            defaults["systemPrompt"] = self._o["system_prompt"]
        if self._o["dom_settle_timeout_ms"] is not None:
            defaults["domSettleTimeoutMs"] = self._o["dom_settle_timeout_ms"]
        params: dict[str, Any] = {"source": source, "hasInput": has_input}
        if has_input:
            params["input"] = input
        if page is not None:
            params["page"] = page_id(page)
        op_id = str(uuid.uuid4())
        params.update({"timeout": t, "defaults": defaults, "cacheByDefault": self._cache_enabled, "opId": op_id})
        if policy:
            params["approval"] = policy
        if on_approval is not None:
            self._approvers[op_id] = on_approval
        try:
            r = await self._call_cancellable(op_id, "batch.run", params, t + 10_000)
        finally:
            self._approvers.pop(op_id, None)
        return r.get("value") if r.get("hasValue") else None

    # -- named flows -------------------------------------------------------------------------
    @property
    def flows(self) -> Flows:
        """The saved flows: `list()`, `get(name)`, `save(flow, to='extension'|'store')`,
        `rename(name, new_name)`, `delete(name)` (see deckhand.flows)."""
        return self._flows

    async def replay(
        self,
        flow: str | Mapping[str, Any] | _wire.Flow,
        *,
        variables: Variables | None = None,
        page: Page | int | None = None,
        model: ModelSpec | None = None,
        step_timeout: int | None = None,
        timeout: int | None = None,
    ) -> _wire.FlowReplayResult:
        """Replay a saved flow step by step, with no model: by name (this client's store first,
        then the extension's flows, the side panel's among them) or given whole (a Flow or its
        dict). It opens the flow's start page on `page` (default: the active page) and performs
        each recorded step there. `variables` fill the %name% placeholders of the recorded
        arguments. A step whose element is gone stops the replay with ActionFailedError, whose
        `data["step"]` is `{"index", "id", "description"}`; with `model`, that step is found
        again with the model instead (status 'healed'), and extract steps run. `step_timeout`: how
        long each step waits for its element (ms, default 3000); `timeout`: the whole replay (ms,
        default 10 minutes), past which the worker stops it and DeckhandTimeoutError is raised.
        Cancelling the task stops the replay in the worker too."""
        params: dict[str, Any] = {}
        if isinstance(flow, str):
            params["name"] = flow_name(flow)
        else:
            params["flow"] = as_flow(flow).to_wire()
        if page is not None:
            params["page"] = page_id(page)
        v = variables_option(variables)
        if v is not None:
            params["variables"] = v
        if model is not None:
            params["model"] = resolve_model(model, self._callbacks)
        if step_timeout is not None:
            params["stepTimeout"] = check_ms("replay: step_timeout", step_timeout)
        t = MAX_TIMEOUT_MS if timeout is None else check_ms("replay: timeout", timeout)
        op_id = str(uuid.uuid4())
        params["opId"] = op_id
        try:
            async with asyncio.timeout(t / 1000) as window:
                r = await self._call_cancellable(op_id, "flow.replay", params, t)
        except TimeoutError:
            if window.expired():  # the task was cancelled at the deadline: op.cancel went out
                raise DeckhandTimeoutError(None, f"the replay did not finish within {t} ms", {"timeoutMs": t}) from None
            raise
        return parse_answer(_wire.FlowReplayResult, r, "flow.replay")

    # -- the agent ---------------------------------------------------------------------------
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
        """The earlier agent interface: `agent(model=, instructions=, options=).execute(...)`.
        `options`: api_key, base_url, organization. `tools`: name -> {"description", "input_schema"
        (a pydantic model class or a JSON Schema), "execute" (sync or async)}."""
        spec = agent_model(model, options, provider, integrations)
        if spec is not None:
            resolve_model(spec, self._callbacks)  # a bad configuration fails here, not at execute
        return Agent(self._agent_run, spec, instructions, agent_tools(tools))

    async def _agent_run(
        self, run: Any, model: Any, system_prompt: str | None, tools: dict[str, Any], approval: dict[str, Any] | None, on_approval: ApprovalHandler | None
    ) -> _wire.AgentResult:
        spec = model if model is not None else self._o["model"] if self._o["model"] is not None else default_model()
        resolved = resolve_model(spec, self._callbacks)
        op_id = str(uuid.uuid4())
        params = agent_run_params(
            run, resolved, system_prompt or self._o["system_prompt"], tools, self._browser.allow_url_schemes, op_id, approval or self._o["approval"]
        )
        for n, t in tools.items():
            self._tools[n] = t["run"]
        if on_approval is not None:
            self._approvers[op_id] = on_approval
        try:
            r = await self._call_cancellable(op_id, "agent.run", params, agent_deadline_ms(run.max_steps, MAX_CALL_MS))
        finally:
            for n in tools:
                self._tools.pop(n, None)
            self._approvers.pop(op_id, None)
        return parse_answer(_wire.AgentRunResult, r, "agent.run").result

    # -- lifecycle ---------------------------------------------------------------------------
    async def close(self) -> None:
        """Release this instance; the browser stays open. Safe to call more than once."""
        if self._closed:
            return
        self._closed = True
        if self._browser._claimed_by is self:
            self._browser._claimed_by = None
            self._browser._extract = None

    async def __aenter__(self) -> "Deckhand":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


_CREATE = object()
