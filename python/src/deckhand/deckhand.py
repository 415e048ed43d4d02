"""The client: `await Deckhand.create(browser=...)` is the only way to get an instance; it claims
the browser handle, so one handle backs one instance (src/client/deckhand.ts in Python).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import math
import os
import uuid
from pathlib import Path
from typing import Any, Awaitable, Callable, Literal, Mapping, Sequence, TypeVar, cast, overload

from pydantic import BaseModel, ValidationError

from . import _wire
from ._link import MAX_CALL_MS, MAX_TIMEOUT_MS, check_ms
from ._logging import Logger
from .browser import Browser
from .cache import MemoryStore, RemoteStore, SqliteStore, call_store
from .errors import (
    AlreadyInUseError,
    BrowserClosedError,
    ClosedError,
    DeckhandError,
    DeckhandTimeoutError,
    InvalidArgumentError,
    ModelOutputInvalidError,
    NoModelConfiguredError,
    ProtocolError,
    type_error,
)
from .flows import Flows, as_flow, flow_name
from .models import CallbackRegistry, default_model, resolve_model
from .options import (
    AgentOptions,
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

AGENT_MAX_STEPS = 20
MODEL_OPERATION_TIMEOUT_MS = 120_000
AGENT_TOOL_TIMEOUT_MS = 30_000


def deckhand_home() -> Path:
    return Path(os.environ.get("DECKHAND_HOME") or Path.home() / ".deckhand")


def _parse(model: type[M], value: Any, method: str) -> M:
    try:
        return model.model_validate(value)
    except ValidationError as e:
        raise ProtocolError(None, f"invalid the answer to '{method}': {e}") from None


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


def _not_json(v: Any, path: str, seen: set[int] | None = None) -> str | None:
    """Why a value cannot travel as JSON (src/protocol/json.ts notJson), or None."""
    seen = set() if seen is None else seen
    if v is None or isinstance(v, (str, bool)):
        return None
    if isinstance(v, (int, float)):
        return None if math.isfinite(v) else f"{path} is {v}"
    if isinstance(v, (list, tuple, dict)):
        if id(v) in seen:
            return f"{path} refers back to itself"
        seen.add(id(v))
        items = enumerate(v) if not isinstance(v, dict) else v.items()
        for k, x in items:
            if isinstance(v, dict) and not isinstance(k, str):
                return f"{path} has a key that is not a string ({k!r})"
            p = _not_json(x, f"{path}[{k}]" if not isinstance(v, dict) else f"{path}.{k}", seen)
            if p:
                return p
        seen.discard(id(v))
        return None
    return f"{path} is a {type(v).__name__}"


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
        problem = _schema_too_big(schema)
        if problem:
            raise InvalidArgumentError(None, f"extract: {problem}")
        return dict(schema)
    raise type_error(f"a schema is a pydantic model class or a JSON Schema dict, got {type(schema).__name__}")


def _schema_too_big(schema: Any) -> str | None:
    """Why a JSON Schema is too deep or too large (the worker's own bound), measured without
    recursion, so a schema nested thousands of levels deep is refused by name before json.dumps
    meets it."""
    depth_max, values_max = _wire.SCHEMA_LIMITS["depth"], _wire.SCHEMA_LIMITS["values"]
    stack: list[tuple[Any, int]] = [(schema, 1)]
    values = 0
    while stack:
        x, depth = stack.pop()
        values += 1
        if values > values_max:
            return f"the schema has more than {values_max:,} values (keys' values and array items, counted through every level); at most {values_max:,} are allowed"
        if isinstance(x, Mapping):
            children: Any = x.values()
        elif isinstance(x, (list, tuple)):
            children = x
        else:
            continue
        if depth > depth_max:
            return f"the schema is nested more than {depth_max} levels deep (JSON objects and arrays inside one another); at most {depth_max} are allowed"
        stack.extend((c, depth + 1) for c in children)
    return None


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


class Agent:
    """`deckhand.agent(...)`: `await agent.execute(instruction, max_steps=, auto_screenshot=,
    wait_between_actions=, context=)` runs the autonomous agent on the active page."""

    def __init__(self, owner: "Deckhand", model: Any, instructions: str | None, tools: dict[str, dict[str, Any]]) -> None:
        self._owner = owner
        self._model = model
        self._instructions = instructions
        self._tools = tools

    async def execute(
        self,
        instruction: str | Mapping[str, Any],
        *,
        max_steps: int | None = None,
        auto_screenshot: bool | None = None,
        wait_between_actions: int | None = None,
        context: str | None = None,
    ) -> _wire.AgentResult:
        if isinstance(instruction, Mapping):
            o = dict(instruction)
            instruction = o.pop("instruction", None)
            if not isinstance(instruction, str) and instruction is not None:
                raise type_error(f"execute: the instruction must be a string, got {type(instruction).__name__}")
            max_steps = o.pop("max_steps", max_steps)
            auto_screenshot = o.pop("auto_screenshot", auto_screenshot)
            wait_between_actions = o.pop("wait_between_actions", wait_between_actions)
            context = o.pop("context", context)
            if o:
                raise InvalidArgumentError(None, f"unknown execute option {', '.join(repr(k) for k in o)}")
        if instruction is not None and not isinstance(instruction, str):
            raise type_error(f"execute takes an instruction (a string) or a dict of options, got {type(instruction).__name__}")
        if not instruction:
            raise InvalidArgumentError(None, "invalid agentExecute request: executeOptions.instruction: instruction must not be empty")
        return await self._owner._agent_run(
            instruction=instruction,
            model=self._model,
            system_prompt=self._instructions,
            max_steps=AGENT_MAX_STEPS if max_steps is None else max_steps,
            auto_screenshot=True if auto_screenshot is None else auto_screenshot,
            wait_between_actions=wait_between_actions or 0,
            context=context,
            tools=self._tools,
        )


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
        if cache is not None and not isinstance(cache, (bool, Mapping)) and not _is_store(cache):
            raise type_error("cache must be True, False, a store, or {'threshold': n, 'store': ..., 'enabled': bool}")
        logger = Logger(logging)
        tracing = _Telemetry(telemetry)
        model = _combine_model(model, model_api_key, model_headers)
        if model is not None:
            resolve_model(model, CallbackRegistry())  # a bad configuration fails now
        if dom_settle_timeout_ms is not None:
            check_ms("dom_settle_timeout_ms", dom_settle_timeout_ms, minimum=0)
        if system_prompt is not None and not isinstance(system_prompt, str):
            raise type_error("system_prompt must be a string")
        if self_heal is not None and not isinstance(self_heal, bool):
            raise type_error("self_heal must be True or False")
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
        }
        instance = cls(_CREATE, browser, options)
        instance._configure_cache(cache, self_heal, api_key, api_url)
        if browser._claimed_by is not None:  # claimed while this one was being made
            raise AlreadyInUseError(None, "this browser handle already backs a Deckhand instance; close that instance first or launch another browser")
        browser._claimed_by = instance
        browser._extract = instance._page_extract
        instance._serve()
        try:
            await instance._call("engine.ping", {})
        except BaseException:
            await instance.close()
            raise
        return instance

    def _configure_cache(self, c: object, self_heal: bool | None, api_key: str | None, api_url: str | None) -> None:
        if c is not None and not isinstance(c, (bool, Mapping)) and not _is_store(c):
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
        if _is_store(c):
            self._store = cast(CacheStore, c)
            return
        if not c:
            self._store, self._cache_enabled = None, False
            return
        where = o.get("store", "local")
        if _is_store(where):
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

    # -- worker -> client calls --------------------------------------------------------------
    def _serve(self) -> None:
        link = self._link

        def store() -> CacheStore:
            if self._store is None:
                raise InvalidArgumentError(None, "this client has no cache store")
            return self._store

        async def lookup(p: Any) -> Any:
            req = _parse(_wire.CacheLookupRequest, p, "cache.lookup")
            return await call_store(store().lookup, req.key, req.base_key)

        async def record(p: Any) -> Any:
            _parse(_wire.CacheRecordRequest, p, "cache.record")
            return await call_store(store().record, p)

        async def invalidate(p: Any) -> Any:
            req = _parse(_wire.CacheInvalidateParams, p, "cache.invalidate")
            await call_store(store().invalidate, req.key)
            return None

        link.serve("cache.lookup", lookup)
        link.serve("cache.record", record)
        link.serve("cache.invalidate", invalidate)
        link.serve("model.generate", self._generate)
        link.serve("tool.call", self._tool_call)
        link.serve("log", self._log)

    async def _generate(self, p: Any) -> Any:
        params = _checked(_wire.ModelGenerateParams, p, "model.generate")
        fn = self._callbacks.get(params.callback_id)
        if fn is None:
            raise NoModelConfiguredError(None, "the callback model is no longer registered with this client")
        out = await _run_user(fn, params.request)
        if isinstance(out, BaseModel) and not isinstance(out, _wire.ModelReply):
            out = out.model_dump(by_alias=True, exclude_unset=True)
        try:
            reply = out if isinstance(out, _wire.ModelReply) else _wire.ModelReply.model_validate(out)
        except ValidationError as e:
            raise InvalidArgumentError(None, f"the generation callback must return {{'object': ..., 'usage': {{...}}}}: {e}") from None
        return reply.to_wire()

    async def _tool_call(self, p: Any) -> Any:
        params = _checked(_wire.ToolCallParams, p, "tool.call")
        fn = self._tools.get(params.name)
        if fn is None:
            raise InvalidArgumentError(None, f"no tool '{params.name}' is registered with this client")
        return {"output": await fn(params.input)}

    def _log(self, p: Any) -> None:
        params = _checked(_wire.LogParams, p, "log")
        self._logger.log(params.level, params.message, params.data)
        for f in list(self._step_listeners):
            f(p)
        d = params.data or {}
        if d.get("span") == "model-call" and self._telemetry.trace is not None:
            parent = self._spans.get(str(d.get("opId")))
            if parent is not None:
                ctx = self._telemetry.trace.set_span_in_context(parent)
                span = self._telemetry.tracer.start_span(
                    "deckhand.model_call",
                    context=ctx,
                    start_time=int(d.get("startedAt", 0) * 1_000_000),
                    attributes={"deckhand.model": d.get("model", ""), "gen_ai.usage.input_tokens": d.get("inputTokens", 0), "gen_ai.usage.output_tokens": d.get("outputTokens", 0)},
                )
                span.end(end_time=int(d.get("endedAt", 0) * 1_000_000))
        return None

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
                asyncio.ensure_future(_quiet(self._call("op.cancel", {"opId": op_id})))
            raise

    async def _operation(self, op: str, params: dict[str, Any], o: dict[str, Any], needs_model: bool) -> Any:
        op_id = str(uuid.uuid4())
        model = None
        if needs_model:
            spec = o.get("model") if o.get("model") is not None else self._o["model"] if self._o["model"] is not None else default_model()
            model = resolve_model(spec, self._callbacks)
        cache = cache_for_call(self._cache_base(), self._cache_enabled, o.get("cache"))
        extra: dict[str, Any] = {"opId": op_id}
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
        try:
            # Without a timeout, a model operation may take the engine's default (120 s) before the
            # RPC gives up on it; a deterministic act has the usual default.
            deadline = o.get("timeout") if o.get("timeout") is not None else MODEL_OPERATION_TIMEOUT_MS if needs_model else None
            r = await self._call_cancellable(op_id, op, {**params, "options": wire}, deadline)
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
    ) -> _wire.ActResult:
        """Do one thing: an Action runs deterministically (no model); an instruction is carried
        out by the model (or replayed from the cache)."""
        o = _call_options(
            "act", cache=cache, ignore_locators=ignore_locators, locator=locator, model=model, timeout=timeout,
            variables=variables, page=page, dom_settle_timeout_ms=dom_settle_timeout_ms, frame_id=frame_id,
        )
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
        return _parse(_wire.ActResult, r, "act")

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
        o = _call_options(
            "observe", cache=cache, ignore_locators=ignore_locators, locator=locator, model=model, timeout=timeout,
            variables=variables, page=page, dom_settle_timeout_ms=dom_settle_timeout_ms, frame_id=frame_id,
        )
        params: dict[str, Any] = {} if instruction is None else {"instruction": instruction}
        return _parse(_wire.ObserveResult, await self._operation("observe", params, o, True), "observe")

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
        o = _call_options(
            "extract", cache=cache, ignore_locators=ignore_locators, locator=locator, model=model, timeout=timeout,
            variables=variables, page=page, dom_settle_timeout_ms=dom_settle_timeout_ms, frame_id=frame_id,
        )
        o.update(screenshot=_flag("screenshot", screenshot), iframes=_flag("iframes", iframes))
        params: dict[str, Any] = {}
        if instruction is not None:
            params["instruction"] = instruction
        if schema is not None:
            params["schema"] = json_schema_of(schema)
        r: ExtractResult[Any] = _parse(ExtractResult, await self._operation("extract", params, o, True), "extract")
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
        return _parse(_wire.Metrics, await self._call("metrics", {}), "metrics")

    async def experimental_batch(self, source: str, input: object = _OMIT, *, timeout: int | None = None, page: Page | int | None = None) -> Any:
        """Run a trusted, self-contained JavaScript callback `async (batch, input) => ...` inside the
        extension's worker. `source` is the function's source; `input` must be JSON (omitted: the
        callback gets undefined; None: null); the result comes back as JSON. Default timeout 30 s."""
        if not isinstance(source, str):
            raise type_error("experimental_batch needs the JavaScript source of a function, e.g. 'async (batch, input) => ...'")
        if not source.strip():
            raise InvalidArgumentError(None, "experimental_batch needs the JavaScript source of a function, e.g. 'async (batch, input) => ...'")
        has_input = input is not _OMIT
        if has_input:
            problem = _not_json(input, "input")
            if problem:
                raise InvalidArgumentError(None, f"the batch input must be JSON-serialisable: {problem}")
        t = check_ms("the batch timeout", 30_000 if timeout is None else timeout)
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
            params["page"] = _page_id(page)
        op_id = str(uuid.uuid4())
        params.update({"timeout": t, "defaults": defaults, "cacheByDefault": self._cache_enabled, "opId": op_id})
        r = await self._call_cancellable(op_id, "batch.run", params, t + 10_000)
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
            params["page"] = _page_id(page)
        v = _variables(variables)
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
        return _parse(_wire.FlowReplayResult, r, "flow.replay")

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
        if provider is not None and provider not in ("openai", "anthropic"):
            raise InvalidArgumentError(None, f"agent provider must be 'openai' or 'anthropic', got {provider!r}")
        if integrations:
            raise InvalidArgumentError(None, "integrations (MCP servers) are not supported by the Python client yet: pass tools= instead")
        if options is not None and not isinstance(options, Mapping):
            raise type_error(f"agent options must be a dict (api_key, base_url, organization), got {type(options).__name__}")
        o: dict[str, Any] = dict(options or {})
        aliases = {"apiKey": "api_key", "baseURL": "base_url"}
        o = {aliases.get(k, k): v for k, v in o.items()}
        unknown = [k for k in o if k not in ("api_key", "base_url", "organization")]
        if unknown:
            raise InvalidArgumentError(None, f"unknown agent option{'s' if len(unknown) > 1 else ''} {', '.join(repr(k) for k in unknown)} (use api_key, base_url, organization)")
        spec: Any = None
        if callable(model) and not isinstance(model, str):
            if o:
                raise InvalidArgumentError(None, "a callback model cannot also take api_key, base_url or organization: the callback makes its own requests")
            spec = model
        elif model is not None:
            if not isinstance(model, str):
                raise type_error("agent model must be a model name or a generation callback")
            name = f"{provider}/{model}" if provider and "/" not in model else model
            if o.get("api_key") or o.get("base_url") or o.get("organization"):
                spec = {"modelName": name}
                if o.get("api_key"):
                    spec["apiKey"] = o["api_key"]
                if o.get("base_url"):
                    spec["baseURL"] = o["base_url"]
                if o.get("organization"):
                    spec["headers"] = {"OpenAI-Organization": o["organization"]}
            else:
                spec = name
        if spec is not None:
            resolve_model(spec, self._callbacks)  # a bad configuration fails here, not at execute
        if instructions is not None and not isinstance(instructions, str):
            raise type_error("agent instructions must be a string")
        return Agent(self, spec, instructions, _agent_tools(tools))

    async def _agent_run(
        self,
        *,
        instruction: str,
        model: Any,
        system_prompt: str | None,
        max_steps: int,
        auto_screenshot: bool,
        wait_between_actions: int,
        context: str | None,
        tools: dict[str, dict[str, Any]],
    ) -> _wire.AgentResult:
        if not isinstance(max_steps, int) or isinstance(max_steps, bool) or not 1 <= max_steps <= 200:
            raise InvalidArgumentError(None, f"invalid agentExecute request: executeOptions.maxSteps: must be a whole number from 1 to 200, got {max_steps!r}")
        if wait_between_actions:
            check_ms("wait_between_actions", wait_between_actions, minimum=0)
        spec = model if model is not None else self._o["model"] if self._o["model"] is not None else default_model()
        resolved = resolve_model(spec, self._callbacks)
        op_id = str(uuid.uuid4())
        sp = system_prompt if system_prompt else self._o["system_prompt"]
        params: dict[str, Any] = {"instruction": instruction, "mode": "dom", "model": resolved, "executionModel": resolved}
        if sp:
            params["systemPrompt"] = sp
        params.update({"maxSteps": max_steps, "toolTimeout": AGENT_TOOL_TIMEOUT_MS, "highlightCursor": False, "opId": op_id})
        if context:
            params["context"] = context
        if wait_between_actions:
            params["waitBetweenActions"] = wait_between_actions
        if auto_screenshot:
            params["autoScreenshot"] = True
        if tools:
            params["extraTools"] = [{"name": n, "description": t["description"], "inputSchema": t["input_schema"]} for n, t in tools.items()]
        if self._browser.allow_url_schemes:
            params["allowSchemes"] = list(self._browser.allow_url_schemes)
        for n, t in tools.items():
            self._tools[n] = t["run"]
        try:
            r = await self._call_cancellable(op_id, "agent.run", params, min(max_steps * (AGENT_TOOL_TIMEOUT_MS * 3 + 10_000), MAX_CALL_MS))
        finally:
            for n in tools:
                self._tools.pop(n, None)
        return _parse(_wire.AgentRunResult, r, "agent.run").result

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


def _is_store(x: Any) -> bool:
    return x is not None and not isinstance(x, (bool, str, Mapping)) and callable(getattr(x, "lookup", None)) and callable(getattr(x, "record", None))


def _variables(v: object) -> dict[str, Any] | None:
    if v is None:
        return None
    if not isinstance(v, Mapping):
        raise type_error("variables must be a dict of name -> value or {'value': ..., 'description': ...}")
    return dict(v)


def _page_id(page: object) -> int | None:
    """A `page=` option: a Page or a page id."""
    if page is None:
        return None
    if isinstance(page, Page):
        return page.id
    if isinstance(page, int) and not isinstance(page, bool):
        return page
    raise type_error(f"page must be a Page or a page id (an int), got {type(page).__name__}")


def _number(what: str, value: object) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise type_error(f"{what} must be a number, got {type(value).__name__}")


def _flag(what: str, value: object) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise type_error(f"{what} must be True or False, got {type(value).__name__}")
    return value


def _call_options(
    op: str,
    *,
    cache: object,
    ignore_locators: object,
    locator: object,
    model: object,
    timeout: object,
    variables: object,
    page: object,
    dom_settle_timeout_ms: object,
    frame_id: object,
) -> dict[str, Any]:
    """The options of act, observe and extract, with their types checked (a wrong type is
    InvalidArgumentTypeError, also a TypeError) before anything is sent."""
    parse_cache_call_option(cache)
    if ignore_locators is not None and (isinstance(ignore_locators, (str, bytes, Mapping)) or not isinstance(ignore_locators, Sequence)):
        raise type_error(f"{op}: ignore_locators must be a list of locators, got {type(ignore_locators).__name__}")
    _number(f"{op}: timeout", timeout)
    _number(f"{op}: dom_settle_timeout_ms", dom_settle_timeout_ms)
    _number(f"{op}: frame_id", frame_id)
    return dict(
        cache=cache, ignore_locators=ignore_locators, locator=locator, model=model, timeout=timeout,
        variables=_variables(variables), page=_page_id(page), dom_settle_timeout_ms=dom_settle_timeout_ms, frame_id=frame_id,
    )


def _checked(model: type[M], value: Any, method: str) -> M:
    try:
        return model.model_validate(value if value is not None else {})
    except ValidationError as e:
        raise InvalidArgumentError(None, f"invalid {method} parameters: {e}") from None


async def _run_user(fn: Callable[..., Any], *args: Any) -> Any:
    """A caller's function, sync or async; sync ones run in a thread so the loop keeps serving."""
    if inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(getattr(fn, "__call__", None)):
        return await fn(*args)
    out = await asyncio.to_thread(fn, *args)
    if inspect.isawaitable(out):
        out = await out
    return out


async def _quiet(aw: Awaitable[Any]) -> None:
    try:
        await aw
    except Exception:  # noqa: BLE001
        pass


def _combine_model(model: Any, api_key: str | None, headers: Mapping[str, str] | None) -> Any:
    """`model` with `model_api_key` / `model_headers`: a ModelConfig; with a callback: refused."""
    if api_key is None and headers is None:
        return model
    given = ", ".join(n for n, v in (("model_api_key", api_key), ("model_headers", headers)) if v is not None)
    if model is None:
        raise InvalidArgumentError(None, f"{given} needs model= (a model name such as 'openai/gpt-4.1-mini')")
    if callable(model) and not isinstance(model, (str, BaseModel, type)) or isinstance(model, Mapping) and "callback" in model:
        raise InvalidArgumentError(None, f"a generation callback cannot be combined with {given}: the callback makes its own requests")
    cfg: dict[str, Any] = {"modelName": model} if isinstance(model, str) else (
        model.model_dump(by_alias=True, exclude_unset=True) if isinstance(model, BaseModel) else dict(model)
    )
    if api_key is not None:
        cfg["apiKey"] = api_key
    if headers is not None:
        cfg["headers"] = dict(headers)
    return cfg


def _agent_tools(tools: Mapping[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, t in (tools or {}).items():
        if not isinstance(t, Mapping) or not callable(t.get("execute")):
            raise InvalidArgumentError(None, f"tool '{name}' needs 'execute' (a function) and 'input_schema'")
        schema = t.get("input_schema", t.get("inputSchema", {"type": "object"}))
        model = schema if isinstance(schema, type) and issubclass(schema, BaseModel) else None
        execute = t["execute"]

        async def run(raw: Any, _name: str = name, _model: Any = model, _execute: Any = execute) -> str:
            arg = raw
            if _model is not None:
                try:
                    arg = _model.model_validate(raw if raw is not None else {})
                except ValidationError as e:
                    raise InvalidArgumentError(None, f"arguments for tool {_name} do not fit its schema: {e}") from None
            out = await _run_user(_execute, arg)
            if isinstance(out, BaseModel):
                out = out.model_dump(mode="json")
            return out if isinstance(out, str) else json.dumps(out, ensure_ascii=False)

        out[name] = {"description": t.get("description") or name, "input_schema": json_schema_of(schema), "run": run}
    return out
