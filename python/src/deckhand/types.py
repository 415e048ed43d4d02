"""The public result and request types: pydantic models generated from the JSON Schema (see
_wire.py), and ExtractResult, generic in the type of its `data`."""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import Field

from . import _wire
from ._wire import (
    Action, ActionTarget, ActResult, ActResultData, AgentResult, AgentStep, AgentUsage, ApprovalRequest, CacheInfo, CacheInfoTokensSaved, Flow,
    FlowReplayResult, FlowStepOutcome, FlowSummary, GenericModelConfig, Metrics, ModelConfig, ModelReply, ModelReplyUsage, ModelRequest,
    ObserveResult, OutlineLine, PageInfo, QaRecording, QaStep, ResultMetadata, SnapshotResult, Usage, WireModel,
)  # fmt: skip

T = TypeVar("T")

class ExtractResult(_wire.ExtractResult, Generic[T]):
    """What `extract` returns: `data` and `metadata`.

    `extract(schema=Model)` with a pydantic model class gives an `ExtractResult[Model]`, whose
    `data` is an instance of Model (validated here; data that does not fit is
    ModelOutputInvalidError). With a JSON Schema dict, `data` is the JSON the model produced
    (`ExtractResult[Any]`); with no schema, `{"extraction": str}`. It is still a
    `_wire.ExtractResult`, the wire shape.
    """

    # None only when the wire leaves `data` out, which extract's answer does not (a pydantic
    # schema's data is always validated into the model).
    data: T = Field(default=None)  # type: ignore[assignment]


__all__ = [
    "Action", "ActionTarget", "ActResult", "ActResultData", "AgentResult", "AgentStep", "AgentUsage", "ApprovalRequest", "CacheInfo",
    "CacheInfoTokensSaved", "ExtractResult", "Flow", "FlowReplayResult", "FlowStepOutcome", "FlowSummary", "GenericModelConfig", "Metrics",
    "ModelConfig", "ModelReply", "ModelReplyUsage", "ModelRequest", "ObserveResult", "OutlineLine", "PageInfo", "QaRecording", "QaStep",
    "ResultMetadata", "SnapshotResult", "Usage", "WireModel",
]  # fmt: skip
