"""The client (src/client/deckhand.ts in Python): `await Deckhand.create(browser=...)` claims the
browser handle. The worker checks every call's params; this side checks what it reads itself.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from pathlib import Path
from typing import Any, Awaitable, Callable, Literal, Mapping, Sequence, TypeVar, cast, overload

from pydantic import BaseModel, ValidationError
from typing_extensions import Unpack

from . import _wire
from ._agent import Agent, agent_model, agent_tools
from ._checks import cache_for_call, callable_or_none, given, is_store, json_schema_of, known_keys, quiet
from ._link import check_ms
from ._logging import Logger, Telemetry
from ._worker_calls import WorkerCalls
from .browser import Browser
from .cache import MemoryStore, RemoteStore, SqliteStore
from .errors import AlreadyInUseError, BrowserClosedError, ClosedError, DeckhandError, InvalidArgumentError, ModelOutputInvalidError, type_error
from .flows import Flows, flow_param
from .models import CallbackRegistry, combine_model, default_model, resolve_model
from .options import (
    ActOptions, AgentOptions, AgentTool, ApprovalHandler, ApprovalPolicy, CacheOption, CacheStore, CallbackModel, CallOptions, ExtractOptions,
    LoggingOptions, ModelSpec, TelemetryOptions, Variables,
)  # fmt: skip
from .page import BrowserContext, Page, locator_spec, page_id, parse_answer
from .types import ExtractResult

M = TypeVar("M", bound=BaseModel)

#: Marks an omitted argument (experimental_batch's input: omitted is undefined, None is null).
_OMIT: Any = type("_Omitted", (), {"__repr__": lambda self: "<omitted>"})()
_CREATE = object()
#: Options this side reads itself; the others go to the worker as given, in camelCase.
_LOCAL_OPTIONS = ("page", "locator", "ignore_locators", "model", "cache", "on_approval")


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


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
        self._telemetry: Telemetry = options["telemetry"]
        self._tools: dict[str, Callable[[Any], Awaitable[str]]] = {}
        #: Calls' own approval handlers, by opId, while they run.
        self._approvers: dict[str, ApprovalHandler] = {}
        self._store: CacheStore | None = None
        self._cache_enabled = False
        self._cache: dict[str, Any] | None = None
        self._flows = Flows(self)

    @classmethod
    async def create(
        cls, *, browser: Browser, api_key: str | None = None, api_url: str | None = None, model: ModelSpec | None = None,
        model_api_key: str | None = None, model_headers: Mapping[str, str] | None = None, system_prompt: str | None = None,
        self_heal: bool | None = None, dom_settle_timeout_ms: int | None = None, cache: CacheOption | None = None,
        logging: LoggingOptions | None = None, telemetry: TelemetryOptions | None = None, approval: ApprovalPolicy | None = None,
        on_approval: ApprovalHandler | None = None,
    ) -> "Deckhand":
        """Attach to the extension's engine in `browser` (one browser handle backs one instance).
        `model`: the default model (a 'provider/model' name, a ModelConfig, or a generation
        callback; default: a provider's model when its key is in the environment, else
        'deckhand/local'), with `model_api_key` and `model_headers`. `cache`: True (SQLite in
        $DECKHAND_HOME), a store, or CacheOptions; `api_key` and `api_url` use a Deckhand service's.
        `approval` and `on_approval`: the default policy and handler of every call's risky steps."""
        if not isinstance(browser, Browser):
            raise type_error("Deckhand.create needs browser= from local_browser.launch() or local_browser.connect()")
        for name, value, kind in (
            ("api_key", api_key, str), ("api_url", api_url, str), ("model_api_key", model_api_key, str),
            ("system_prompt", system_prompt, str), ("self_heal", self_heal, bool), ("model_headers", model_headers, Mapping),
        ):
            if value is not None and not isinstance(value, kind):
                raise type_error(f"{name} must be a {kind.__name__}, got {type(value).__name__}")
        model = combine_model(model, model_api_key, model_headers)
        if model is not None:
            resolve_model(model, CallbackRegistry())  # a bad configuration fails now
        if dom_settle_timeout_ms is not None:
            check_ms("dom_settle_timeout_ms", dom_settle_timeout_ms, minimum=0)
        options = {
            "model": model,
            "system_prompt": system_prompt,
            "dom_settle_timeout_ms": dom_settle_timeout_ms,
            "logger": Logger(logging),
            "telemetry": Telemetry(telemetry),
            # The worker checks the policy with each call that carries it.
            "approval": dict(approval) if isinstance(approval, Mapping) else approval or None,
            "on_approval": callable_or_none("on_approval", on_approval),
        }
        if browser._claimed_by is not None:
            raise AlreadyInUseError(None, "this browser handle already backs a Deckhand instance; close that instance first or launch another browser")
        if not browser.is_connected:
            raise BrowserClosedError(None, "the browser is closed")
        instance = cls(_CREATE, browser, options)
        instance._configure_cache(cache, self_heal, api_key, api_url)
        browser._claimed_by = instance
        browser._extract = instance._page_extract
        WorkerCalls(instance).serve(instance._link)
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
        o = known_keys("cache", c, ("threshold", "store", "enabled")) if isinstance(c, Mapping) else {}
        threshold = o.get("threshold", 1)
        if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 1:
            raise InvalidArgumentError(None, f"cache threshold must be a positive integer, got {threshold!r}")
        if (api_key is None) != (api_url is None):
            raise InvalidArgumentError(None, "api_key and api_url go together: give both to use a Deckhand service")
        where: Any = o.get("store", "local") if isinstance(c, Mapping) else c
        enabled = o.get("enabled", True) if isinstance(c, Mapping) else c is not None and c is not False or (c is None and api_key is not None)
        self._cache_enabled = bool(enabled)
        if api_key and api_url:
            self._store = RemoteStore(api_url, api_key)
        elif is_store(where):
            self._store = cast(CacheStore, where)
        elif where in (True, "local"):
            self._store = SqliteStore(Path(os.environ.get("DECKHAND_HOME") or Path.home() / ".deckhand") / "cache.db")
        elif where == "memory":
            self._store = MemoryStore()
        elif isinstance(where, Mapping) and isinstance(where.get("path"), (str, os.PathLike)):
            self._store = SqliteStore(where["path"])
        elif where not in (None, False):
            raise InvalidArgumentError(None, f"cache store must be 'local', 'memory', {{'path': ...}} or a store object, got {where!r}")
        if self._store is not None:
            self._cache = {"threshold": threshold, "selfHeal": self_heal is not False, "store": "caller"}

    @property
    def browser(self) -> Browser:
        return self._browser

    @property
    def initialized(self) -> bool:
        return not self._closed

    @property
    def context(self) -> BrowserContext:
        return self._browser.context

    async def _call(self, method: str, params: Any) -> Any:
        if self._closed:
            raise ClosedError(None, f"cannot call {method}: this Deckhand instance is closed")
        return await self._link.call(method, params)

    async def _call_cancellable(self, op_id: str, method: str, params: dict[str, Any], on_approval: ApprovalHandler | None = None) -> Any:
        """A call whose params carry op_id, with its own approval handler while it runs: when the
        caller's task is cancelled, op.cancel stops it in the worker too (a model request, a wait,
        a batch's running operation)."""
        if on_approval is not None:
            self._approvers[op_id] = callable_or_none("on_approval", on_approval)
        try:
            return await self._call(method, params)
        except asyncio.CancelledError:
            if not self._closed:
                asyncio.ensure_future(quiet(self._call("op.cancel", {"opId": op_id})))
            raise
        finally:
            self._approvers.pop(op_id, None)

    def _model(self, spec: Any = None) -> dict[str, Any]:
        """A model as the worker gets it: the given one, else the instance's, else the default."""
        spec = spec if spec is not None else self._o["model"]
        return resolve_model(default_model() if spec is None else spec, self._callbacks)

    async def _operation(self, op: str, params: dict[str, Any], o: Mapping[str, Any], needs_model: bool) -> Any:
        """act, observe or extract: OperationOptions in the order the Node client writes them."""
        op_id = str(uuid.uuid4())
        model = self._model(o.get("model")) if needs_model else None
        wire = {_camel(k): dict(v) if isinstance(v, Mapping) else v for k, v in o.items() if v is not None and k not in _LOCAL_OPTIONS}
        # The call's own policy is among its options; the instance's comes after the opId.
        wire["opId"] = op_id
        if op == "act" and not o.get("approval") and self._o["approval"]:
            wire["approval"] = self._o["approval"]
        cache = cache_for_call(self._cache, self._cache_enabled, o.get("cache"))
        settle = self._o["dom_settle_timeout_ms"] if o.get("dom_settle_timeout_ms") is None else None
        wire.update(given(cache=cache, model=model, systemPrompt=self._o["system_prompt"], domSettleTimeoutMs=settle, page=page_id(o.get("page"))))
        if o.get("locator") is not None:
            wire["locator"] = locator_spec(o["locator"])
        ignore = o.get("ignore_locators")
        if ignore is not None:
            if isinstance(ignore, (str, bytes, Mapping)) or not isinstance(ignore, Sequence):
                raise type_error(f"{op}: ignore_locators must be a list of locators, got {type(ignore).__name__}")
            wire["ignoreLocators"] = [locator_spec(x) for x in ignore]
        named = model and model.get("name", model.get("model"))
        with self._telemetry.operation(op, op_id, named.get("modelName") if isinstance(named, dict) else named) as span:
            try:
                r = await self._call_cancellable(op_id, op, {**params, "options": wire}, o.get("on_approval"))
            except DeckhandError as e:
                self._logger.log("debug", f"{op} failed: {e.message}", {"opId": op_id})
                raise
            if span is not None:
                usage = (r.get("metadata") or {}).get("usage") or {}
                span.set_attributes({"gen_ai.usage.input_tokens": usage.get("inputTokens", 0), "gen_ai.usage.output_tokens": usage.get("outputTokens", 0)})
            return r

    async def act(self, instruction_or_action: str | Mapping[str, Any] | _wire.Action, **options: Unpack[ActOptions]) -> _wire.ActResult:
        """Do one thing: an Action runs deterministically (no model); an instruction is carried out by
        the model (or replayed from the cache). Options: ActOptions; a risky step refused, or not
        approved in time, raises NotApprovedError (docs/guides/approval.md)."""
        x: object = instruction_or_action
        if isinstance(x, str):
            return parse_answer(_wire.ActResult, await self._operation("act", {"input": x}, options, True), "act")
        if isinstance(x, BaseModel):
            x = x.model_dump(by_alias=True, exclude_unset=True)
        if not isinstance(x, Mapping):
            raise type_error(f"act takes an instruction (a string) or an Action ({{'selector': ..., 'description': ...}}), got {type(x).__name__}")
        cache_for_call(None, False, options.get("cache"))  # a bad option is refused here too
        r = await self._operation("act", {"input": dict(x)}, {**options, "cache": False}, False)
        return parse_answer(_wire.ActResult, r, "act")

    async def observe(self, instruction: str | None = None, **options: Unpack[CallOptions]) -> _wire.ObserveResult:
        """Elements that match the instruction (or the page's main controls), as Actions act() runs."""
        return parse_answer(_wire.ObserveResult, await self._operation("observe", given(instruction=instruction), options, True), "observe")

    @overload
    async def extract(self, instruction: str | None, schema: type[M], **options: Unpack[ExtractOptions]) -> ExtractResult[M]: ...

    @overload
    async def extract(self, instruction: str | None = None, *, schema: type[M], **options: Unpack[ExtractOptions]) -> ExtractResult[M]: ...

    @overload
    async def extract(
        self, instruction: str | None = None, schema: Mapping[str, Any] | None = None, **options: Unpack[ExtractOptions]
    ) -> ExtractResult[Any]: ...

    async def extract(
        self, instruction: str | None = None, schema: type[BaseModel] | Mapping[str, Any] | None = None, **options: Unpack[ExtractOptions]
    ) -> ExtractResult[Any]:
        """Data from the page. With a pydantic model class as schema, an ExtractResult[Model]:
        `data` is an instance of it; with a JSON Schema dict, the data as JSON; without one,
        `{"extraction": str}`. Options: see ExtractOptions."""
        params = given(instruction=instruction, schema=None if schema is None else json_schema_of(schema))
        r: ExtractResult[Any] = parse_answer(ExtractResult, await self._operation("extract", params, options, True), "extract")
        if isinstance(schema, type) and issubclass(schema, BaseModel):
            try:
                r.data = schema.model_validate(r.data)
            except ValidationError as e:
                raise ModelOutputInvalidError(None, f"the extracted data does not fit the schema: {e}") from None
        return r

    async def _page_extract(self, page_id: int, instruction: str | None, schema: Any, **o: Any) -> Any:
        """page.extract with an instruction or schema: extract on that page with the earlier defaults."""
        name, selector = o.get("model_name"), o.get("selector")
        model: Any = {"modelName": name, **o["model_client_options"]} if name and o.get("model_client_options") else name or None
        loc = (selector if selector.startswith(("xpath=", "/")) else f"xpath={selector}") if selector else None
        settle = 30_000 if o.get("dom_settle_timeout_ms") is None else o["dom_settle_timeout_ms"]
        r = await self.extract(instruction, schema, page=page_id, dom_settle_timeout_ms=settle, model=model, locator=loc, iframes=bool(o.get("iframes")))
        return r.data

    async def metrics(self) -> _wire.Metrics:
        """The thirty-two counters (act|extract|observe|total x tokens, inference time, cost, and what
        cache hits saved), as floats."""
        return parse_answer(_wire.Metrics, await self._call("metrics", {}), "metrics")

    async def experimental_batch(
        self, source: str, input: object = _OMIT, *, timeout: int | None = None, page: Page | int | None = None,
        approval: ApprovalPolicy | None = None, on_approval: ApprovalHandler | None = None,
    ) -> Any:
        """Run a trusted, self-contained JavaScript callback's `source`, `async (batch, input) => ...`,
        inside the extension's worker; `input` and the result are JSON (input omitted: undefined;
        None: null). Default timeout 30 s; risky steps wait for approval as act's do."""
        if not isinstance(source, str) or not source.strip():
            why = "experimental_batch needs the JavaScript source of a function, e.g. 'async (batch, input) => ...'"
            raise type_error(why) if not isinstance(source, str) else InvalidArgumentError(None, why)
        has_input, op_id = input is not _OMIT, str(uuid.uuid4())
        # Every call in the batch applies its own cache option over these, as the library's calls do.
        settle, prompt = self._o["dom_settle_timeout_ms"], self._o["system_prompt"]
        defaults = {"model": self._model(), **given(cache=self._cache, systemPrompt=prompt, domSettleTimeoutMs=settle)}
        params = {
            "source": source, "hasInput": has_input, **({"input": input} if has_input else {}), **given(page=page_id(page), timeout=timeout),
            "defaults": defaults, "cacheByDefault": self._cache_enabled, "opId": op_id, **given(approval=approval or self._o["approval"] or None),
        }  # fmt: skip
        r = await self._call_cancellable(op_id, "batch.run", params, on_approval)
        return r.get("value") if r.get("hasValue") else None

    @property
    def flows(self) -> Flows:
        """The saved flows: `list()`, `get(name)`, `save(flow, to='extension'|'store')`,
        `rename(name, new_name)`, `delete(name)` (see deckhand.flows)."""
        return self._flows

    async def replay(
        self, flow: str | Mapping[str, Any] | _wire.Flow, *, variables: Variables | None = None, page: Page | int | None = None,
        model: ModelSpec | None = None, step_timeout: int | None = None, timeout: int | None = None,
    ) -> _wire.FlowReplayResult:
        """Replay a saved flow step by step, with no model: by name (this client's store first, then
        the extension's) or given whole, from its start page on `page` (default: the active page),
        `variables` filling its %name% placeholders. A step whose element is gone stops it with
        ActionFailedError (`data["step"]`), unless `model` finds it again. `step_timeout` (ms,
        default 3000) bounds each step's wait, `timeout` (ms, default 2 minutes) the whole replay."""
        op_id = str(uuid.uuid4())
        params = {
            **({"name": flow} if isinstance(flow, str) else {"flow": flow_param(flow)}), "opId": op_id,
            **given(timeout=timeout, page=page_id(page), variables=variables, model=model and resolve_model(model, self._callbacks), stepTimeout=step_timeout),
        }  # fmt: skip
        r = await self._call_cancellable(op_id, "flow.replay", params)
        return parse_answer(_wire.FlowReplayResult, r, "flow.replay")

    def agent(
        self, *, model: str | CallbackModel | None = None, instructions: str | None = None, options: AgentOptions | None = None,
        provider: Literal["openai", "anthropic"] | None = None, tools: Mapping[str, AgentTool] | None = None,
        integrations: Sequence[Any] | None = None,
    ) -> Agent:
        """The earlier agent interface: `agent(model=, instructions=, options=).execute(...)`.
        `options`: api_key, base_url, organization. `tools`: name -> {"description", "input_schema"
        (a pydantic model class or a JSON Schema), "execute" (sync or async)}."""
        spec = agent_model(model, options, provider, integrations)
        if spec is not None:
            resolve_model(spec, self._callbacks)  # a bad configuration fails here, not at execute
        return Agent(self, spec, instructions, agent_tools(tools))

    async def close(self) -> None:
        """Release this instance; the browser stays open. Safe to call more than once."""
        self._closed = True
        if self._browser._claimed_by is self:
            self._browser._claimed_by = None
            self._browser._extract = None

    async def __aenter__(self) -> "Deckhand":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
