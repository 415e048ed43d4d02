"""Logging of operations (level, text or JSON lines on stderr, or a callback) and their telemetry.
Worker log lines arrive over the RPC; none of them ever holds a key or a variable's value."""

from __future__ import annotations

import datetime as _dt
import json
import sys
import contextlib
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from ._checks import callable_or_none, given, known_keys
from .errors import DeckhandError, InvalidArgumentError

if TYPE_CHECKING:
    from .options import LoggingOptions, TelemetryOptions

RANK = {"debug": 10, "info": 20, "warn": 30, "error": 40, "silent": 100}


class Telemetry:
    """OpenTelemetry spans when opentelemetry-api is installed (a no-op otherwise): one per
    operation (deckhand.act, ...), with a child per model call the worker reports in its log lines."""

    def __init__(self, options: TelemetryOptions | Mapping[str, Any] | None) -> None:
        o = known_keys("telemetry", options, ("tracer", "tracer_name"))
        self.trace: Any = None
        with contextlib.suppress(ImportError):
            import opentelemetry.trace

            self.trace = opentelemetry.trace
        if o.get("tracer") is not None and self.trace is None:
            raise InvalidArgumentError(None, "telemetry with a tracer needs the opentelemetry-api package")
        self.tracer: Any = o.get("tracer") or (self.trace.get_tracer(o.get("tracer_name") or "deckhand") if self.trace else None)
        #: Operations' spans, by opId, while they run.
        self._spans: dict[str, Any] = {}

    @contextlib.contextmanager
    def operation(self, op: str, op_id: str, model: str | None) -> Iterator[Any]:
        if self.tracer is None:
            yield None
            return
        span = self._spans[op_id] = self.tracer.start_span(f"deckhand.{op}", attributes={"deckhand.operation": op, **given(**{"deckhand.model": model})})
        try:
            yield span
        except DeckhandError as e:
            span.record_exception(e)
            span.set_status(self.trace.Status(self.trace.StatusCode.ERROR, e.message))
            raise
        finally:
            self._spans.pop(op_id, None)
            span.end()

    def model_call(self, d: dict[str, Any]) -> None:
        """A model call's span, a child of its operation's, from the worker's log line."""
        parent = self._spans.get(str(d.get("opId"))) if d.get("span") == "model-call" and self.trace is not None else None
        if parent is not None:
            tokens = {"gen_ai.usage.input_tokens": d.get("inputTokens", 0), "gen_ai.usage.output_tokens": d.get("outputTokens", 0)}
            span = self.tracer.start_span(
                "deckhand.model_call", context=self.trace.set_span_in_context(parent), start_time=int(d.get("startedAt", 0) * 1_000_000),
                attributes={"deckhand.model": d.get("model", ""), **tokens},
            )  # fmt: skip
            span.end(end_time=int(d.get("endedAt", 0) * 1_000_000))


class Logger:
    def __init__(self, options: LoggingOptions | Mapping[str, Any] | None = None) -> None:
        o = known_keys("logging", options, ("level", "format", "callback"))
        self.level: str = o.get("level", "warn")
        if self.level not in RANK:
            raise InvalidArgumentError(None, f"logging level must be one of {', '.join(RANK)}, got {self.level!r}")
        self.format: str = o.get("format", "text")
        if self.format not in ("text", "json"):
            raise InvalidArgumentError(None, "logging format must be 'text' or 'json'")
        self.callback: Callable[[dict[str, Any]], Any] | None = callable_or_none("logging callback", o.get("callback"))

    def log(self, level: str, message: str, data: dict[str, Any] | None = None) -> None:
        if RANK.get(level, 0) < RANK[self.level]:
            return
        ts = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        line: dict[str, Any] = {"level": level, "message": message, "timestamp": ts}
        if data:
            line["data"] = data
        if self.callback is not None:
            try:
                self.callback(line)
            except Exception:  # noqa: BLE001  (a failing log callback must not fail the operation)
                pass
            return
        text = json.dumps(line, ensure_ascii=False) if self.format == "json" else f"[deckhand] {ts} {level.upper()} {message}"
        print(text, file=sys.stderr)
