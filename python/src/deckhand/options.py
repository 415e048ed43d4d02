"""The shapes of the options Deckhand takes, for type checkers and readers.

Each option is a TypedDict or a union of the forms it accepts, named after the Node client's
types (`CacheOption`, `LoggingOptions`, `ModelSpec`, ...). At run time the dicts are plain
dicts, checked when they are given: an unknown key or a value of the wrong kind raises
InvalidArgumentError (InvalidArgumentTypeError, also a TypeError, for a wrong type).
"""

from __future__ import annotations

import os
from typing import Any, Awaitable, Callable, Literal, Mapping, NotRequired, Protocol, Required, Sequence, TypedDict, Union

from pydantic import BaseModel

from . import _wire
from .cache import CacheStore as CacheStore
from .page import LocatorDict as LocatorDict
from .page import LocatorLike as LocatorLike
from .page import Page

# -- the result cache ----------------------------------------------------------------------


class SqlitePath(TypedDict):
    """`{"path": ...}`: a SQLite cache file of your choosing."""

    path: str | os.PathLike[str]


class CacheOptions(TypedDict, total=False):
    """`Deckhand.create(cache={...})`."""

    #: Identical results needed before hits are served (default 1).
    threshold: int
    #: 'local' ($DECKHAND_HOME/cache.db, the default), 'memory', {'path': ...} or a store.
    store: Literal["local", "memory"] | SqlitePath | CacheStore
    #: False: keep the store (for flows) but do not look results up by default.
    enabled: bool


#: `Deckhand.create(cache=)`: True (the local SQLite file), False, a store, or CacheOptions.
CacheOption = Union[bool, CacheStore, CacheOptions]


class CacheThreshold(TypedDict):
    """`{"threshold": n}`: this call's own threshold (a positive integer)."""

    threshold: int


#: `act/observe/extract(cache=)`: False (no lookup), True, or {'threshold': n}.
CacheCallOption = Union[bool, CacheThreshold]

# -- locators ------------------------------------------------------------------------------


# Declared beside Locator in page.py (which must not import this module back) and named here
# with the other options: LocatorDict is `{"selector": css_or_xpath, "nth": i}`; LocatorLike,
# where an operation looks, is a CSS or XPath selector, a Locator, or a LocatorDict.

# -- models --------------------------------------------------------------------------------

#: A generation callback: gets a ModelRequest (system, prompt, json_schema, images, and for act,
#: observe and extract the instruction and the outline lines) and returns a ModelReply or a
#: dict `{"object": ..., "usage": {...}}`. Sync or async; sync callbacks run in a worker thread.
CallbackModel = Callable[[_wire.ModelRequest], Union[_wire.ModelReply, Mapping[str, Any], Awaitable[Union[_wire.ModelReply, Mapping[str, Any]]]]]


class CallbackModelDict(TypedDict):
    """`{"callback": fn, "model_name": name}`: a callback under a name of your choosing (the
    name shows in results, logs, metrics and the cache key)."""

    callback: CallbackModel
    model_name: NotRequired[str]


class ModelConfigDict(TypedDict, total=False):
    """A model by name with its own settings: `{"model_name": "openai/gpt-4.1-mini", "api_key": ...}`,
    or any OpenAI-compatible endpoint with `base_url`. The endpoint settings left out are decided by
    the worker: `openai_endpoint_format` (the Responses API on OpenAI's own endpoint, Chat
    Completions on any other base_url), `structured_output` ('auto': the strongest JSON shape the
    server takes) and `vision` (whether the model reads screenshots)."""

    model_name: Required[str]
    api_key: str
    base_url: str
    headers: Mapping[str, str]
    openai_endpoint_format: _wire.OpenAIEndpointFormat
    structured_output: _wire.StructuredOutputMode
    vision: bool
    provider: str


class AzureEntraAuth(TypedDict):
    type: Literal["azureEntraId"]
    token: str


class AzureModelConfigDict(TypedDict, total=False):
    """Azure OpenAI: `{"provider": "azure", "model_name": deployment, "resource_name": ...,
    "api_key": ...}`, or `"auth": {"type": "azureEntraId", "token": ...}` instead of a key."""

    provider: Required[Literal["azure"]]
    model_name: Required[str]
    resource_name: str
    base_url: str
    api_version: str
    headers: Mapping[str, str]
    api_key: str
    auth: AzureEntraAuth


class ServiceAccountDict(TypedDict):
    client_email: str
    private_key: str
    private_key_id: NotRequired[str]


class VertexLocation(TypedDict):
    project: str
    location: str
    base_url: NotRequired[str]
    headers: NotRequired[Mapping[str, str]]


class VertexProviderOptions(TypedDict):
    vertex: VertexLocation


class VertexModelConfigDict(TypedDict):
    """Google Vertex AI with a service account."""

    provider: Literal["vertex"]
    model_name: str
    auth: ServiceAccountDict
    provider_options: VertexProviderOptions


#: A model: a 'provider/model' name (or 'deckhand/local'), a ModelConfig (pydantic model or
#: dict), a generation callback, or a named callback.
ModelSpec = Union[
    str,
    _wire.GenericModelConfig,
    _wire.AzureApiKeyModelConfig,
    _wire.AzureEntraModelConfig,
    _wire.VertexModelConfig,
    ModelConfigDict,
    AzureModelConfigDict,
    VertexModelConfigDict,
    CallbackModelDict,
    CallbackModel,
]

# -- logging and telemetry -----------------------------------------------------------------

LogLevel = Literal["debug", "info", "warn", "error", "silent"]


class LogLine(TypedDict):
    """What a logging callback receives."""

    level: Literal["debug", "info", "warn", "error"]
    message: str
    timestamp: str
    data: NotRequired[dict[str, Any]]


class LoggingOptions(TypedDict, total=False):
    """`Deckhand.create(logging={...})`."""

    #: Lowest level reported; default 'warn'.
    level: LogLevel
    #: How lines are written to stderr when there is no callback; default 'text'.
    format: Literal["text", "json"]
    #: Receives every line at or above the level instead of stderr.
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


# -- the agent ----------------------------------------------------------------------------


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


# -- approval of risky steps ----------------------------------------------------------------

#: The kinds of step that can wait for approval: submitting a form; deleting or removing
#: something; paying, buying, ordering; going to another site; choosing a file to upload.
ApprovalKind = _wire.ApprovalKind


class ApprovalPolicy(TypedDict, total=False):
    """`approval={...}` on Deckhand.create, act, the agent's execute and experimental_batch:
    steps that wait for a person (the side panel) or the caller's `on_approval` before they are
    carried out. At least one kind in `when` or one word in `words`."""

    #: The kinds of step that wait.
    when: list[ApprovalKind]
    #: Also any step whose element or instruction says one of these words (whole words, any case).
    words: list[str]
    #: How long a step waits for a decision (ms, default 120000, at most 600000); then it is refused.
    timeout: int


#: approve: carry it out; skip: do not, and go on (an agent is told it was skipped); stop: do
#: not, and end the run. None: this handler cannot decide (the side panel or the deadline will).
ApprovalDecision = Literal["approve", "skip", "stop"]

#: Decides one step that waits for approval: gets the ApprovalRequest (what will be done, to
#: which element, on which page, why) and returns a decision or None. Sync or async; an async
#: one is cancelled when the request ends another way (decided in the side panel, timed out).
ApprovalHandler = Callable[
    [_wire.ApprovalRequest],
    Union[ApprovalDecision, None, Awaitable[Union[ApprovalDecision, None]]],
]

# -- variables -----------------------------------------------------------------------------


#: A variable's value: a number or a boolean is filled in as its text (3, 2.5, true).
VariableValue = Union[str, int, float, bool]


class VariableDict(TypedDict):
    """A variable with a description the model may read (the value itself is never sent to it)."""

    value: VariableValue
    description: NotRequired[str]


#: Values for %name% placeholders: name -> value, or name -> {'value': ..., 'description': ...}.
Variables = Mapping[str, Union[VariableValue, VariableDict]]


# -- the options of act, observe and extract -----------------------------------------------


class CallOptions(TypedDict, total=False):
    """The keyword options of act, observe and extract. Those this client does not read itself
    go to the worker in camelCase (OperationOptions), which checks them."""

    #: False: no cache lookup; True; or {'threshold': n}.
    cache: CacheCallOption | None
    #: Parts of the page the model does not read.
    ignore_locators: Sequence[LocatorLike] | None
    #: The part of the page the model reads.
    locator: LocatorLike | None
    #: This call's model instead of the instance's.
    model: ModelSpec | None
    #: How long the call may take (ms, at most 600000).
    timeout: int | None
    #: Values for %name% placeholders in the instruction (never sent to the model).
    variables: Variables | None
    #: The page to work on (default: the active page).
    page: Page | int | None
    #: Longest wait for the page to settle before it is read (ms).
    dom_settle_timeout_ms: int | None
    #: A frame of the page, by its id in the snapshot.
    frame_id: int | None


class ActOptions(CallOptions, total=False):
    """act's options: CallOptions, and the approval of its risky steps."""

    approval: ApprovalPolicy | None
    on_approval: ApprovalHandler | None


class ExtractOptions(CallOptions, total=False):
    """extract's options: CallOptions, a screenshot for the model, and the page's iframes."""

    screenshot: bool | None
    iframes: bool | None


__all__ = [
    "ActOptions",
    "CallOptions",
    "ExtractOptions",
    "AgentOptions",
    "ApprovalDecision",
    "ApprovalHandler",
    "ApprovalKind",
    "ApprovalPolicy",
    "AgentTool",
    "AzureEntraAuth",
    "AzureModelConfigDict",
    "CacheCallOption",
    "CacheOption",
    "CacheOptions",
    "CacheStore",
    "CacheThreshold",
    "CallbackModel",
    "CallbackModelDict",
    "LocatorDict",
    "LocatorLike",
    "LogLevel",
    "LogLine",
    "LoggingOptions",
    "ModelConfigDict",
    "ModelSpec",
    "ServiceAccountDict",
    "SqlitePath",
    "TelemetryOptions",
    "Tracer",
    "VariableDict",
    "Variables",
    "VertexLocation",
    "VertexModelConfigDict",
    "VertexProviderOptions",
]
