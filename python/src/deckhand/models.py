"""Model resolution (src/client/models.ts in Python): a `provider/model` name, a ModelConfig or
a generation callback becomes the ResolvedModel the worker gets with each call. Keys come from
the config, else from the provider's usual environment variable; they are read here and never
stored in the browser.

With no model and no provider key in the environment, the built-in local model
`deckhand/local` runs in the extension's worker: no network, no key.
"""

from __future__ import annotations

import os
import uuid
from typing import Any, Callable, Mapping

from pydantic import BaseModel, ValidationError

from . import _wire
from .errors import InvalidArgumentError, NoModelConfiguredError, type_error

LOCAL_MODEL = "deckhand/local"
KNOWN_PROVIDERS = ("openai", "anthropic", "google", "vertex", "azure", "bedrock")

ENV_KEYS = _wire.PROVIDER_ENV_KEYS
ENV_BASE_URLS = _wire.PROVIDER_ENV_BASE_URLS

#: A generation callback: gets a ModelRequest (system, prompt, json_schema, images, and for act,
#: observe and extract the instruction and the outline lines) and returns a ModelReply or a dict
#: `{"object": ..., "usage": {...}}`. Sync or async; sync callbacks run in a worker thread.
GenerateCallback = Callable[[_wire.ModelRequest], Any]


def _from_env(env: Mapping[str, str], names: list[str]) -> str | None:
    for n in names:
        v = env.get(n)
        if v and v.strip():
            return v
    return None


def default_model(env: Mapping[str, str] | None = None) -> str:
    """A provider's default model when its key is in the environment, else the local model."""
    env = os.environ if env is None else env
    if _from_env(env, ENV_KEYS["openai"]):
        return "openai/gpt-4.1-mini"
    if _from_env(env, ENV_KEYS["anthropic"]):
        return "anthropic/claude-sonnet-4-5"
    if _from_env(env, ENV_KEYS["google"]):
        return "google/gemini-2.5-flash"
    return LOCAL_MODEL


class CallbackRegistry:
    def __init__(self) -> None:
        self._by_id: dict[str, GenerateCallback] = {}
        self._id_of: dict[int, str] = {}

    def register(self, fn: GenerateCallback) -> str:
        cid = self._id_of.get(id(fn))
        if cid is None or self._by_id.get(cid) is not fn:
            cid = str(uuid.uuid4())
            self._id_of[id(fn)] = cid
            self._by_id[cid] = fn
        return cid

    def get(self, cid: str) -> GenerateCallback | None:
        return self._by_id.get(cid)


def _split(name: str) -> tuple[str, str] | None:
    i = name.find("/")
    if i <= 0 or i == len(name) - 1:
        return None
    return name[:i].lower(), name[i + 1 :]


def _same(a: str, b: str) -> bool:
    return a.strip().rstrip("/").lower() == b.strip().rstrip("/").lower()


def _refuse_env_credential(provider: str, model_name: str, endpoint: str) -> None:
    raise InvalidArgumentError(
        None,
        f"model '{model_name}' names its own endpoint ({endpoint}) but no api_key: credentials from this machine's environment "
        f"are only sent to {provider}'s own endpoint, so pass api_key with a base_url",
    )


def _caller_endpoint(provider: str, base_url: str | None, env: Mapping[str, str]) -> str | None:
    if not base_url:
        return None
    operator = env.get(ENV_BASE_URLS[provider]) if provider in ENV_BASE_URLS else None
    return None if operator and _same(operator, base_url) else base_url


def _callback_name(fn: Any) -> str:
    name = getattr(fn, "__name__", "") or ""
    return "callback" if not name or name == "<lambda>" else name


def _config_dict(spec: Any) -> dict[str, Any]:
    """A ModelConfig given as a pydantic model, or a dict with snake_case or wire names."""
    if isinstance(spec, BaseModel):
        return spec.model_dump(by_alias=True, exclude_unset=True)
    return dict(spec)


def _config_model(c: dict[str, Any]) -> type[_wire.WireModel]:
    if c.get("provider") == "vertex":
        return _wire.VertexModelConfig
    if c.get("provider") == "azure":
        return _wire.AzureEntraModelConfig if "auth" in c else _wire.AzureApiKeyModelConfig
    return _wire.GenericModelConfig


def _describe(e: ValidationError, what: str) -> str:
    parts = []
    for err in e.errors():
        loc = ".".join(str(x) for x in err["loc"])
        if err["type"] == "extra_forbidden":
            parts.append(f"unknown property '{loc}'")
        else:
            parts.append(f"{loc or what}: {err['msg']}")
    return f"invalid {what}: {'; '.join(parts)}"


def resolve_model(spec: Any, callbacks: CallbackRegistry, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The wire form (ResolvedModel) of a model name, a ModelConfig or a callback."""
    env = os.environ if env is None else env
    if spec == LOCAL_MODEL:
        return {"kind": "local", "name": LOCAL_MODEL}
    if callable(spec) and not isinstance(spec, (BaseModel, type)):
        return {"kind": "callback", "name": _callback_name(spec), "callbackId": callbacks.register(spec)}
    if isinstance(spec, Mapping) and "callback" in spec:
        rest = {k: v for k, v in spec.items() if k not in ("callback", "model_name", "modelName")}
        fn = spec["callback"]
        if not callable(fn):
            raise type_error("model['callback'] must be a function")
        secrets = [k for k in ("api_key", "apiKey", "headers", "auth", "base_url", "baseURL") if k in rest]
        if secrets:
            raise InvalidArgumentError(None, f"a callback model cannot also take {', '.join(secrets)}: the callback makes its own requests")
        if rest:
            raise InvalidArgumentError(None, f"unknown {'properties' if len(rest) > 1 else 'property'} {', '.join(repr(k) for k in rest)} in a callback model")
        name = spec.get("model_name") or spec.get("modelName") or _callback_name(fn)
        return {"kind": "callback", "name": name, "callbackId": callbacks.register(fn)}
    if isinstance(spec, str):
        raw: dict[str, Any] = {"modelName": spec}
    elif isinstance(spec, (Mapping, BaseModel)):
        raw = _config_dict(spec)
    else:
        raise type_error(f"model must be a 'provider/model' name, a ModelConfig or a generation callback, got {type(spec).__name__}")
    schema = _config_model(raw)
    try:
        c = schema.model_validate(raw).model_dump(by_alias=True, exclude_none=True)
    except ValidationError as e:
        raise InvalidArgumentError(None, _describe(e, "model configuration")) from None
    if c.get("modelName") == LOCAL_MODEL and len(c) == 1:
        return {"kind": "local", "name": LOCAL_MODEL}

    def clean(d: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in d.items() if v is not None}

    if c.get("provider") == "vertex":
        a = c["auth"]
        v = c["providerOptions"]["vertex"]
        return clean(
            {
                "kind": "provider",
                "name": f"vertex/{c['modelName']}",
                "provider": "vertex",
                "modelId": c["modelName"],
                "baseURL": v.get("baseURL"),
                "headers": v.get("headers"),
                "vertex": clean(
                    {
                        "project": v["project"],
                        "location": v["location"],
                        "clientEmail": a.get("clientEmail", a.get("client_email")),
                        "privateKey": a.get("privateKey", a.get("private_key")),
                        "privateKeyId": a.get("privateKeyId", a.get("private_key_id")),
                    }
                ),
            }
        )
    if c.get("provider") == "azure":
        return clean(
            {
                "kind": "provider",
                "name": f"azure/{c['modelName']}",
                "provider": "azure",
                "modelId": c["modelName"],
                "apiKey": c.get("apiKey"),
                "baseURL": c.get("baseURL"),
                "headers": c.get("headers"),
                "azure": clean(
                    {"resourceName": c.get("resourceName") or env.get("AZURE_RESOURCE_NAME"), "apiVersion": c.get("apiVersion"), "token": (c.get("auth") or {}).get("token")}
                ),
            }
        )

    model_name: str = c["modelName"]
    split = _split(model_name)
    provider = (c.get("provider") or (split[0] if split else "")).lower()
    known = provider in KNOWN_PROVIDERS
    model_id = split[1] if split and split[0] == provider and known else model_name
    base_url = c.get("baseURL")
    api_key = c.get("apiKey")
    if not known and not base_url:
        raise InvalidArgumentError(
            None,
            f"unknown model provider in '{model_name}': name a model as provider/model with one of {', '.join(KNOWN_PROVIDERS)}, "
            "or give base_url for an OpenAI-compatible endpoint",
        )
    if provider in ("vertex", "azure"):
        if provider == "azure" and (_from_env(env, ENV_KEYS["azure"]) or api_key):
            if not api_key and _caller_endpoint("azure", base_url, env):
                _refuse_env_credential("azure", model_name, base_url)  # type: ignore[arg-type]
            return clean(
                {
                    "kind": "provider",
                    "name": model_name,
                    "provider": "azure",
                    "modelId": model_id,
                    "apiKey": api_key or _from_env(env, ENV_KEYS["azure"]),
                    "baseURL": base_url or (None if api_key else env.get("AZURE_BASE_URL")),
                    "headers": c.get("headers"),
                    "azure": clean({"resourceName": env.get("AZURE_RESOURCE_NAME")}),
                }
            )
        if provider == "vertex" and env.get("GOOGLE_VERTEX_PROJECT") and env.get("GOOGLE_CLIENT_EMAIL") and env.get("GOOGLE_PRIVATE_KEY"):
            if base_url:
                _refuse_env_credential("vertex", model_name, base_url)
            return clean(
                {
                    "kind": "provider",
                    "name": model_name,
                    "provider": "vertex",
                    "modelId": model_id,
                    "headers": c.get("headers"),
                    "vertex": {
                        "project": env["GOOGLE_VERTEX_PROJECT"],
                        "location": env.get("GOOGLE_VERTEX_LOCATION", "us-central1"),
                        "clientEmail": env["GOOGLE_CLIENT_EMAIL"],
                        "privateKey": env["GOOGLE_PRIVATE_KEY"].replace("\\n", "\n"),
                    },
                }
            )
        raise InvalidArgumentError(
            None,
            f"'{model_name}' needs the {provider} ModelConfig shape (credentials and "
            f"{'project/location' if provider == 'vertex' else 'resource'}), or the provider's environment variables",
        )
    if provider == "bedrock":
        region = env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
        kid, secret = env.get("AWS_ACCESS_KEY_ID"), env.get("AWS_SECRET_ACCESS_KEY")
        if not region or not kid or not secret:
            raise NoModelConfiguredError(None, f"'{model_name}' needs AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        if base_url:
            _refuse_env_credential("bedrock", model_name, base_url)
        return clean(
            {
                "kind": "provider",
                "name": model_name,
                "provider": "bedrock",
                "modelId": model_id,
                "headers": c.get("headers"),
                "bedrock": clean({"region": region, "accessKeyId": kid, "secretAccessKey": secret, "sessionToken": env.get("AWS_SESSION_TOKEN")}),
            }
        )
    env_key = _from_env(env, ENV_KEYS[provider]) if known and not api_key and provider in ENV_KEYS else None
    foreign = _caller_endpoint(provider, base_url, env) if provider in ENV_BASE_URLS else base_url
    if env_key and foreign:
        _refuse_env_credential(provider, model_name, foreign)
    key = api_key or env_key
    compatible = not known or (provider == "openai" and bool(base_url) and not key)
    if not key and known and not base_url:
        raise NoModelConfiguredError(None, f"model '{model_name}' needs an API key: pass api_key (model_api_key=) or set {' or '.join(ENV_KEYS[provider])}")
    operator_base = (env.get(ENV_BASE_URLS[provider]) or "").strip() or None if env_key and provider in ENV_BASE_URLS else None
    return clean(
        {
            "kind": "provider",
            "name": model_name,
            "provider": "openai-compatible" if compatible else provider,
            "modelId": model_id,
            "apiKey": key,
            "baseURL": base_url or operator_base,
            "headers": c.get("headers"),
            "openaiEndpointFormat": c.get("openaiEndpointFormat"),
            "structuredOutput": c.get("structuredOutput"),
            "vision": c.get("vision"),
        }
    )
