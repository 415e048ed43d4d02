"""Logging of operations: level, text or JSON lines on stderr, or a callback. Worker log lines
arrive over the RPC; none of them ever holds a key or a variable's value."""

from __future__ import annotations

import datetime as _dt
import json
import sys
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ._checks import callable_or_none, known_keys
from .errors import InvalidArgumentError

if TYPE_CHECKING:
    from .options import LoggingOptions

RANK = {"debug": 10, "info": 20, "warn": 30, "error": 40, "silent": 100}


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
