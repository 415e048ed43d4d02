"""The public result and request types: pydantic models generated from the JSON Schema (see
_wire.py), and ExtractResult, generic in the type of its `data`."""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import Field

from . import _wire
from ._wire import (
    Action, ActionTarget, ActResult, ActResultData, AgentResult, AgentStep, AgentUsage, ApprovalRequest, CacheInfo, CacheInfoTokensSaved,
    CallToolResult, Flow, FlowReplayResult, FlowStepOutcome, FlowSummary, GenericModelConfig, Metrics, ModelConfig, ModelReply, ModelReplyUsage,
    ModelRequest, ObserveResult, OutlineLine, PageInfo, PageTool, QaRecording, QaStep, ResultMetadata, SnapshotResult, Usage, WireModel,
)  # fmt: skip

T = TypeVar("T")

class ExtractResult(_wire.ExtractResult, Generic[T]):
    """What `extract` returns: `data` and `metadata`. With a pydantic model class as the schema,
    `data` is an instance of it (ModelOutputInvalidError when the data does not fit); with a JSON
    Schema dict, the JSON the model produced; with none, `{"extraction": str}`."""

    # None only when the wire leaves `data` out, which extract's answer does not (a pydantic
    # schema's data is always validated into the model).
    data: T = Field(default=None)  # type: ignore[assignment]


__all__ = [
    "Action", "ActionTarget", "ActResult", "ActResultData", "AgentResult", "AgentStep", "AgentUsage", "ApprovalRequest", "CacheInfo",
    "CacheInfoTokensSaved", "CallToolResult", "ExtractResult", "Flow", "FlowReplayResult", "FlowStepOutcome", "FlowSummary", "GenericModelConfig",
    "Metrics", "ModelConfig", "ModelReply", "ModelReplyUsage", "ModelRequest", "ObserveResult", "OutlineLine", "PageInfo", "PageTool", "QaRecording",
    "QaStep", "ResultMetadata", "SnapshotResult", "Usage", "WireModel",
]  # fmt: skip
