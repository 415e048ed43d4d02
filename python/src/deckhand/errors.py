"""Errors: every failure is a DeckhandError with the same `code` the Node client uses, and each
code has its own subclass, generated from the error table (ElementNotFoundError is
ELEMENT_NOT_FOUND); a code this client does not know is read as INTERNAL. A wrong argument type is
InvalidArgumentTypeError, also a TypeError. CANCELLED is OperationCancelledError, deliberately not
asyncio's CancelledError; `CancelledError` is its deprecated alias (docs/guides/python.md).
"""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING, Any, get_args

from . import _wire
from ._error_base import ERROR_CLASSES as ERROR_CLASSES, DeckhandError as DeckhandError
from ._wire import *  # noqa: F403  (the generated class of each code)
from ._wire import InternalError, InvalidArgumentError, OperationCancelledError

#: Every error code, from the generated JSON Schema (src/protocol/errors.ts).
ERROR_CODES: tuple[str, ...] = get_args(_wire.ErrorCode)
# Named where callers meet them.
for _c in (DeckhandError, *ERROR_CLASSES.values()):
    _c.__module__ = __name__


_WRONG_TYPE = re.compile(r": Expected \w+, received \w+")


class InvalidArgumentTypeError(InvalidArgumentError, TypeError):
    """An argument of the wrong type: INVALID_ARGUMENT, and a TypeError as Python expects."""


def error(code: str, message: str, data: dict[str, Any] | None = None) -> DeckhandError:
    """The exception for a code (unknown codes are INTERNAL)."""
    return ERROR_CLASSES.get(code, InternalError)(None, message, data)


def from_wire(e: Any) -> DeckhandError:
    """Rebuild an error received as `{code, message, data?}`. The worker's refusal of a value of
    the wrong type (zod's words) is an InvalidArgumentTypeError, as a refusal here would be."""
    if not isinstance(e, dict):
        return InternalError(None, f"a malformed error arrived: {e!r}")
    data, message = e.get("data"), str(e.get("message", ""))
    if e.get("code") == "INVALID_ARGUMENT" and _WRONG_TYPE.search(message):
        return InvalidArgumentTypeError(None, message, data if isinstance(data, dict) else None)
    return error(str(e.get("code")), message, data if isinstance(data, dict) else None)


def type_error(message: str) -> InvalidArgumentTypeError:
    """The error for an argument of the wrong type."""
    return InvalidArgumentTypeError(None, message)


if TYPE_CHECKING:
    #: Deprecated: OperationCancelledError.
    CancelledError = OperationCancelledError
else:

    def __getattr__(name: str) -> Any:
        if name == "CancelledError":
            warnings.warn(
                "deckhand.errors.CancelledError is deprecated: use deckhand.errors.OperationCancelledError "
                "(asyncio.CancelledError is a different exception)",
                DeprecationWarning,
                stacklevel=2,
            )
            return OperationCancelledError
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DeckhandError", "InvalidArgumentTypeError", "ERROR_CODES", "ERROR_CLASSES", "error", "from_wire"] + sorted(
    c.__name__ for c in ERROR_CLASSES.values()
)
