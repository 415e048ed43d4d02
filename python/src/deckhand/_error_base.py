"""DeckhandError, the base of every error: its subclasses, one per code, are generated into
_wire.py from the error table, and deckhand.errors gathers them."""

from __future__ import annotations

from typing import Any

#: code -> exception class; every code of the schema has one (python/tests/test_types.py checks).
ERROR_CLASSES: dict[str, type[DeckhandError]] = {}


class DeckhandError(Exception):
    """A Deckhand failure: `code` (e.g. 'ELEMENT_NOT_FOUND'), `message` and optional `data`."""

    code: str = "INTERNAL"

    def __init_subclass__(cls, code: str | None = None, **kwargs: Any) -> None:
        """A subclass that names a `code` is that code's class (ERROR_CLASSES, `error()`)."""
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.code = code
            ERROR_CLASSES[code] = cls

    def __init__(self, code: str | None = None, message: str = "", data: dict[str, Any] | None = None) -> None:
        if code is not None:
            self.code = code
        self.message = message
        self.data = data
        super().__init__(message)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"

    @property
    def stack(self) -> str | None:
        """For BATCH_FAILED: the callback's JavaScript stack, when the worker sent it."""
        s = (self.data or {}).get("stack")
        return s if isinstance(s, str) else None

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data:
            out["data"] = self.data
        return out
