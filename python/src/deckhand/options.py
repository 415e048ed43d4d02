"""The shapes of the options Deckhand takes, for type checkers and readers, named after the Node
client's types; those the worker also reads (a ModelConfig, an approval policy, a locator) are
generated from its schema. At run time they are plain dicts.
"""

from __future__ import annotations

import os
from typing import Any, Awaitable, Callable, Literal, Mapping, NotRequired, Protocol, Sequence, TypedDict, Union

from pydantic import BaseModel

from . import _wire
from .cache import CacheStore as CacheStore
from .page import LocatorDict as LocatorDict
from .page import LocatorLike as LocatorLike
from .page import Page

# LocatorDict (`{"selector": css_or_xpath, "nth": i}`) and LocatorLike (a selector, a Locator or a
# LocatorDict) are declared beside Locator in page.py, which must not import this module back.


class SqlitePath(TypedDict):
    """`{"path": ...}`: a SQLite cache file of your choosing."""

    path: str | os.PathLike[str]


class CacheOptions(TypedDict, total=False):
    """`Deckhand.create(cache={...})`: `threshold`, identical results needed before hits are served
    (default 1); `store`, 'local' ($DECKHAND_HOME/cache.db, the default), 'memory', {'path': ...} or
    a store; `enabled` False keeps the store (for flows) but looks nothing up by default."""

    threshold: int
    store: Literal["local", "memory"] | SqlitePath | CacheStore
    enabled: bool


#: `Deckhand.create(cache=)`: True (the local SQLite file), False, a store, or CacheOptions.
CacheOption = Union[bool, CacheStore, CacheOptions]


class CacheThreshold(TypedDict):
    """`{"threshold": n}`: this call's own threshold (a positive integer)."""

    threshold: int


#: `act/observe/extract(cache=)`: False (no lookup), True, or {'threshold': n}.
CacheCallOption = Union[bool, CacheThreshold]

#: A generation callback: gets a ModelRequest (system, prompt, json_schema, images, and for act,
#: observe and extract the instruction and the outline lines) and returns a ModelReply or a
#: dict `{"object": ..., "usage": {...}}`. Sync or async; sync callbacks run in a worker thread.
CallbackModel = Callable[[_wire.ModelRequest], Union[_wire.ModelReply, Mapping[str, Any], Awaitable[Union[_wire.ModelReply, Mapping[str, Any]]]]]


class CallbackModelDict(TypedDict):
    """`{"callback": fn, "model_name": name}`: a callback under a name of your choosing (the
    name shows in results, logs, metrics and the cache key)."""

    callback: CallbackModel
    model_name: NotRequired[str]


#: A model by name with its own settings (`{"model_name": "openai/gpt-4.1-mini", "api_key": ...}`),
#: or an OpenAI-compatible endpoint with `base_url`; the endpoint settings left out
#: (openai_endpoint_format, structured_output, vision) are the worker's to decide.
ModelConfigDict = _wire.GenericModelConfigDict
#: Azure OpenAI: `{"provider": "azure", "model_name": deployment, "resource_name": ..., "api_key": ...}`,
#: or `"auth": {"type": "azureEntraId", "token": ...}` instead of a key.
AzureModelConfigDict = Union[_wire.AzureApiKeyModelConfigDict, _wire.AzureEntraModelConfigDict]
AzureEntraAuth = _wire.AzureEntraModelConfigAuthDict
#: Google Vertex AI with a service account.
VertexModelConfigDict = _wire.VertexModelConfigDict
ServiceAccountDict = _wire.ServiceAccount1Dict
VertexProviderOptions = _wire.VertexModelConfigProviderOptionsDict
VertexLocation = _wire.VertexModelConfigProviderOptionsVertexDict

#: A model: a 'provider/model' name (or 'deckhand/local'), a ModelConfig (pydantic model or
#: dict), a generation callback, or a named callback.
ModelSpec = Union[
    str, _wire.GenericModelConfig, _wire.AzureApiKeyModelConfig, _wire.AzureEntraModelConfig, _wire.VertexModelConfig,
    ModelConfigDict, AzureModelConfigDict, VertexModelConfigDict, CallbackModelDict, CallbackModel,
]  # fmt: skip

LogLevel = Literal["debug", "info", "warn", "error", "silent"]


class LogLine(TypedDict):
    """What a logging callback receives."""

    level: Literal["debug", "info", "warn", "error"]
    message: str
    timestamp: str
    data: NotRequired[dict[str, Any]]


class LoggingOptions(TypedDict, total=False):
    """`Deckhand.create(logging={...})`: the lowest `level` reported (default 'warn'); the `format`
    of lines on stderr (default 'text'); or a `callback` that receives them instead."""

    level: LogLevel
    format: Literal["text", "json"]
    callback: Callable[[LogLine], object]


class Tracer(Protocol):
    """What Deckhand uses of an OpenTelemetry tracer (opentelemetry.trace.Tracer has it)."""

    def start_span(self, *args: Any, **kwargs: Any) -> Any: ...


class TelemetryOptions(TypedDict, total=False):
    """`Deckhand.create(telemetry={...})`: spans (deckhand.act, ..., each with a child
    deckhand.model_call per model call) go to `tracer`, or to the global provider's tracer named
    `tracer_name` (default 'deckhand'). Needs opentelemetry-api (the `telemetry` extra)."""

    tracer: Tracer
    tracer_name: str


class AgentOptions(TypedDict, total=False):
    """`deckhand.agent(options={...})`: the provider settings of a model given by name."""

    api_key: str
    base_url: str
    organization: str


class AgentTool(TypedDict):
    """A tool of your own for the agent: `execute` (sync or async) gets the arguments (an
    instance of `input_schema` when it is a pydantic model class) and returns text or JSON."""

    execute: Callable[[Any], Any]
    description: NotRequired[str]
    input_schema: NotRequired[type[BaseModel] | Mapping[str, Any]]


#: The kinds of step that can wait for approval: submitting a form; deleting or removing
#: something; paying, buying, ordering; going to another site; choosing a file to upload.
ApprovalKind = _wire.ApprovalKind
#: `approval={...}` on Deckhand.create, act, the agent's execute and experimental_batch: steps of
#: these kinds (`when`), or whose element or instruction says one of these `words`, wait for a
#: person (the side panel) or the caller's `on_approval` up to `timeout` ms (default 120000).
ApprovalPolicy = _wire.ApprovalPolicyDict
#: approve: carry it out; skip: do not, and go on (an agent is told it was skipped); stop: do
#: not, and end the run. None: this handler cannot decide (the side panel or the deadline will).
ApprovalDecision = Literal["approve", "skip", "stop"]
#: Decides one step that waits for approval: gets the ApprovalRequest (what will be done, to
#: which element, on which page, why) and returns a decision or None. Sync or async; an async
#: one is cancelled when the request ends another way (decided in the side panel, timed out).
ApprovalHandler = Callable[[_wire.ApprovalRequest], Union[ApprovalDecision, None, Awaitable[Union[ApprovalDecision, None]]]]

#: A variable's value: a number or a boolean is filled in as its text (3, 2.5, true).
VariableValue = Union[str, int, float, bool]


class VariableDict(TypedDict):
    """A variable with a description the model may read (the value itself is never sent to it)."""

    value: VariableValue
    description: NotRequired[str]


#: Values for %name% placeholders: name -> value, or name -> {'value': ..., 'description': ...}.
Variables = Mapping[str, Union[VariableValue, VariableDict]]


class CallOptions(TypedDict, total=False):
    """The keyword options of act, observe and extract: `cache` (False: no lookup; True; or
    {'threshold': n}), the part of the page the model reads (`locator`) or does not
    (`ignore_locators`), this call's `model`, `timeout` (ms, at most 600000), `variables` for
    %name% placeholders (never sent to the model), the `page` (default: the active page),
    `dom_settle_timeout_ms`, a `frame_id` and an `idempotency_key` (the same on a call's retries:
    the worker runs it once). Those this client does not read itself go to the worker in
    camelCase (OperationOptions), which checks them."""

    cache: CacheCallOption | None
    ignore_locators: Sequence[LocatorLike] | None
    locator: LocatorLike | None
    model: ModelSpec | None
    timeout: int | None
    variables: Variables | None
    page: Page | int | None
    dom_settle_timeout_ms: int | None
    frame_id: int | None
    idempotency_key: str | None


class ActOptions(CallOptions, total=False):
    """act's options: CallOptions, and the approval of its risky steps."""

    approval: ApprovalPolicy | None
    on_approval: ApprovalHandler | None


class ExtractOptions(CallOptions, total=False):
    """extract's options: CallOptions, a screenshot for the model, and the page's iframes."""

    screenshot: bool | None
    iframes: bool | None


__all__ = [
    "ActOptions", "AgentOptions", "AgentTool", "ApprovalDecision", "ApprovalHandler", "ApprovalKind", "ApprovalPolicy",
    "AzureEntraAuth", "AzureModelConfigDict", "CacheCallOption", "CacheOption", "CacheOptions", "CacheStore", "CacheThreshold",
    "CallbackModel", "CallbackModelDict", "CallOptions", "ExtractOptions", "LocatorDict", "LocatorLike", "LogLevel", "LogLine",
    "LoggingOptions", "ModelConfigDict", "ModelSpec", "ServiceAccountDict", "SqlitePath", "TelemetryOptions", "Tracer",
    "VariableDict", "Variables", "VertexLocation", "VertexModelConfigDict", "VertexProviderOptions",
]  # fmt: skip
