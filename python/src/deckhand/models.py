"""Models as the worker gets them: a generation callback is registered with this client, and a
`provider/model` name or a ModelConfig goes as a NamedModel with the environment variables its
provider reads (x-deckhand.providerEnv); the worker resolves it by the Node client's rule
(src/protocol/resolve-model.ts). With no model and no key, the built-in `deckhand/local` runs.
"""

from __future__ import annotations

import os
import uuid
from typing import Any, Callable, Mapping

from pydantic import BaseModel, ValidationError

from . import _wire
from .errors import InvalidArgumentError, type_error

LOCAL_MODEL = "deckhand/local"

#: A generation callback: gets a ModelRequest (system, prompt, json_schema, images, and for act,
#: observe and extract the instruction and the outline lines) and returns a ModelReply or a dict
#: `{"object": ..., "usage": {...}}`. Sync or async; sync callbacks run in a worker thread.
GenerateCallback = Callable[[_wire.ModelRequest], Any]


def default_model(env: Mapping[str, str] | None = None) -> str:
    """A provider's default model when its key is in the environment (providerEnv.defaults), else the local model."""
    env, keys = os.environ if env is None else env, _wire.PROVIDER_ENV_KEYS
    return next((m for p, m in _wire.PROVIDER_DEFAULT_MODELS if any(env.get(n, "").strip() for n in keys.get(p, []))), LOCAL_MODEL)


class CallbackRegistry:
    """Callbacks by the id the worker names them by; each is kept, so its id() stays its own."""

    def __init__(self) -> None:
        self._by_id: dict[str, GenerateCallback] = {}
        self._id_of: dict[int, str] = {}

    def register(self, fn: GenerateCallback) -> str:
        cid = self._id_of.setdefault(id(fn), str(uuid.uuid4()))
        self._by_id[cid] = fn
        return cid

    def get(self, cid: str) -> GenerateCallback | None:
        return self._by_id.get(cid)


def _callback_name(fn: Any) -> str:
    name = getattr(fn, "__name__", "") or ""
    return "callback" if not name or name == "<lambda>" else name


def model_config(spec: Any) -> dict[str, Any]:
    """A ModelConfig (a pydantic model, or a dict with snake_case or wire names) in its wire names,
    its shape checked by the generated model of its provider."""
    raw = spec.model_dump(by_alias=True, exclude_unset=True) if isinstance(spec, BaseModel) else dict(spec)
    azure = _wire.AzureEntraModelConfig if "auth" in raw else _wire.AzureApiKeyModelConfig
    shapes: dict[Any, type[_wire.WireModel]] = {"vertex": _wire.VertexModelConfig, "azure": azure}
    try:
        c: dict[str, Any] = shapes.get(raw.get("provider"), _wire.GenericModelConfig).model_validate(raw).model_dump(by_alias=True, exclude_none=True)
    except ValidationError as e:
        parts = [f"unknown property '{'.'.join(map(str, x['loc']))}'" if x["type"] == "extra_forbidden" else f"{'.'.join(map(str, x['loc']))}: {x['msg']}"
                 for x in e.errors()]  # fmt: skip
        raise InvalidArgumentError(None, f"invalid model configuration: {'; '.join(parts)}") from None
    return c


def resolve_model(spec: Any, callbacks: CallbackRegistry, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The wire form of a model: local, a registered callback, or a NamedModel for the worker to
    resolve (it refuses a name of no provider, or without its key, at the first call)."""
    env = os.environ if env is None else env
    if callable(spec) and not isinstance(spec, (BaseModel, type)):
        return {"kind": "callback", "name": _callback_name(spec), "callbackId": callbacks.register(spec)}
    if isinstance(spec, Mapping) and "callback" in spec:
        rest = [k for k in spec if k not in ("callback", "model_name", "modelName")]
        secrets = [k for k in rest if k in ("api_key", "apiKey", "headers", "auth", "base_url", "baseURL")]
        if secrets:
            raise InvalidArgumentError(None, f"a callback model cannot also take {', '.join(secrets)}: the callback makes its own requests")
        if rest:
            raise InvalidArgumentError(None, f"unknown {'properties' if len(rest) > 1 else 'property'} {', '.join(map(repr, rest))} in a callback model")
        if not callable(spec["callback"]):
            raise type_error("model['callback'] must be a function")
        label = spec.get("model_name") or spec.get("modelName") or _callback_name(spec["callback"])
        return {"kind": "callback", "name": label, "callbackId": callbacks.register(spec["callback"])}
    if not isinstance(spec, (str, Mapping, BaseModel)):
        raise type_error(f"model must be a 'provider/model' name, a ModelConfig or a generation callback, got {type(spec).__name__}")
    c = {"modelName": spec} if isinstance(spec, str) else model_config(spec)
    if c == {"modelName": LOCAL_MODEL}:
        return {"kind": "local", "name": LOCAL_MODEL}
    # The provider's variables: its provider field, else its name's prefix (splitModelName's rule).
    name: str = c["modelName"]
    i = name.find("/")
    provider = (c.get("provider") or (name[:i] if 0 < i < len(name) - 1 else "")).lower()
    found = {n: env[n] for n in _wire.PROVIDER_ENV_NAMES.get(provider, []) if env.get(n)}
    return {"kind": "named", "model": spec if isinstance(spec, str) else c, **({"env": found} if found else {})}


def combine_model(model: Any, api_key: str | None, headers: Mapping[str, str] | None) -> Any:
    """`model` with `model_api_key` / `model_headers`: a ModelConfig; with a callback: refused."""
    if api_key is None and headers is None:
        return model
    given = ", ".join(n for n, v in (("model_api_key", api_key), ("model_headers", headers)) if v is not None)
    if model is None:
        raise InvalidArgumentError(None, f"{given} needs model= (a model name such as 'openai/gpt-4.1-mini')")
    if callable(model) and not isinstance(model, (str, BaseModel, type)) or isinstance(model, Mapping) and "callback" in model:
        raise InvalidArgumentError(None, f"a generation callback cannot be combined with {given}: the callback makes its own requests")
    cfg: dict[str, Any] = {"modelName": model} if isinstance(model, str) else model_config(model)
    return {**cfg, **({"apiKey": api_key} if api_key is not None else {}), **({"headers": dict(headers)} if headers is not None else {})}
