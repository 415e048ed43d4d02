"""The Python types come from the generated JSON Schema and stay in step with it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import get_args

import pytest
from pydantic import ValidationError

from deckhand import _wire, errors

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "scripts"))
import gen_sync  # noqa: E402
import gen_types  # noqa: E402

SCHEMA = json.loads((ROOT / "schema" / "deckhand.schema.json").read_text())


def test_generated_types_are_up_to_date_with_the_schema() -> None:
    assert gen_types.OUT.read_text() == gen_types.generate(), "python/src/deckhand/_wire.py is stale: run `python python/scripts/gen_types.py`"


def test_the_blocking_api_is_generated_from_the_async_one() -> None:
    assert gen_sync.OUT.read_text() == gen_sync.generate(), "python/src/deckhand/sync.py is stale: run `python python/scripts/gen_sync.py`"


def test_the_blocking_api_has_every_public_method_of_the_async_one() -> None:
    import inspect

    import deckhand
    import deckhand.sync as blocking

    for name in ("Locator", "Page", "BrowserContext", "Browser", "Agent", "Flows", "Deckhand"):
        async_cls, view = getattr(deckhand, name), getattr(blocking, name)
        public = {n for n, _ in inspect.getmembers(async_cls) if not n.startswith("_")}
        missing = public - set(dir(view))
        assert not missing, f"deckhand.sync.{name} lacks {sorted(missing)}"


def test_the_launch_switches_are_the_schemas() -> None:
    assert _wire.CHROMIUM_FLAGS == SCHEMA["x-deckhand"]["chromiumFlags"]
    assert _wire.SHARED_CHROMIUM_FLAGS == SCHEMA["x-deckhand"]["sharedChromiumFlags"]


def test_every_definition_has_a_python_type() -> None:
    assert _wire.DEFINITIONS == sorted(SCHEMA["definitions"])
    for name in SCHEMA["definitions"]:
        assert hasattr(_wire, name), name


def test_every_error_code_has_an_exception_class() -> None:
    codes = SCHEMA["definitions"]["ErrorCode"]["enum"]
    assert list(errors.ERROR_CODES) == codes
    assert sorted(errors.ERROR_CLASSES) == sorted(codes)
    for code, cls in errors.ERROR_CLASSES.items():
        e = errors.error(code, "m", {"k": 1})
        assert type(e) is cls and e.code == code and isinstance(e, errors.DeckhandError)
    assert errors.from_wire({"code": "NEWER", "message": "x"}).code == "INTERNAL"


def test_snake_case_fields_with_wire_aliases() -> None:
    r = _wire.ActResult.model_validate(
        {
            "data": {"success": True, "message": "m", "actionDescription": "d", "actions": []},
            "metadata": {
                "actionId": "a",
                "cache": {"status": "HIT", "count": 2, "threshold": 1, "tokensSaved": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3}},
                "usage": {"inputTokens": 1, "outputTokens": 2, "reasoningTokens": 0, "cachedInputTokens": 0, "inferenceTimeMs": 3},
            },
        }
    )
    assert r.metadata.action_id == "a" and r.data.action_description == "d"
    assert r.metadata.cache.tokens_saved.total_tokens == 3
    assert r.to_wire()["metadata"]["cache"]["tokensSaved"] == {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3}
    counters = (
        "PromptTokens", "CompletionTokens", "ReasoningTokens", "CachedInputTokens", "InferenceTimeMs", "CostUsd", "CacheSavedTokens", "CacheSavedCostUsd"
    )
    m = _wire.Metrics.model_validate({f"{o}{c}": 1 for o in ("act", "extract", "observe", "total") for c in counters})
    assert m.act_prompt_tokens == 1.0 and isinstance(m.total_inference_time_ms, float)
    assert m.total_cost_usd == 1.0 and m.act_cache_saved_cost_usd == 1.0
    # What a call cost, and what a hit saved, when the model's price is known; absent otherwise.
    priced = _wire.ResultMetadata.model_validate({**r.metadata.to_wire(), "costUsd": 0.0025, "cache": {"status": "HIT", "costSavedUsd": 0.001}})
    assert priced.cost_usd == 0.0025 and priced.cache.cost_saved_usd == 0.001
    assert r.metadata.cost_usd is None and "costUsd" not in r.metadata.to_wire()
    # Objects the schema closes (zod's .strict()) refuse unknown fields; bounds hold.
    with pytest.raises(ValidationError):
        _wire.Action.model_validate({"selector": "#a", "description": "", "extra": 1})
    with pytest.raises(ValidationError):
        _wire.Action.model_validate({"selector": "", "description": ""})
    with pytest.raises(ValidationError):
        _wire.ResultMetadata.model_validate({"actionId": "a", "cache": {"status": "DISABLED"}, "usage": r.metadata.usage.to_wire(), "confidence": 1.5})
    assert get_args(_wire.CacheStatus) == ("HIT", "MISS", "DISABLED")
