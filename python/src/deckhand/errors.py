"""Errors: every failure is a DeckhandError with the same `code` the Node client uses.

Each code has its own subclass (ElementNotFoundError for ELEMENT_NOT_FOUND, ...), so a
caller can catch one kind or branch on `code`. An error that crossed the RPC is rebuilt
here from its wire form `{code, message, data?}`; a code this client does not know (a newer
worker's) is read as INTERNAL, as the Node client does.
"""

from __future__ import annotations

import builtins
from typing import Any, get_args

from . import _wire

#: Every error code, from the generated JSON Schema (src/protocol/errors.ts).
ERROR_CODES: tuple[str, ...] = get_args(_wire.ErrorCode)


class DeckhandError(Exception):
    """A Deckhand failure: `code` (e.g. 'ELEMENT_NOT_FOUND'), `message` and optional `data`."""

    code: str = "INTERNAL"

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


def _cls(code: str, name: str, *bases: type) -> type[DeckhandError]:
    return type(name, (DeckhandError, *bases), {"code": code, "__doc__": f"Deckhand error {code}."})


InvalidArgumentError = _cls("INVALID_ARGUMENT", "InvalidArgumentError", ValueError)
InvalidSelectorError = _cls("INVALID_SELECTOR", "InvalidSelectorError", ValueError)
ElementNotFoundError = _cls("ELEMENT_NOT_FOUND", "ElementNotFoundError")
ElementNotActionableError = _cls("ELEMENT_NOT_ACTIONABLE", "ElementNotActionableError")
ElementCoveredError = _cls("ELEMENT_COVERED", "ElementCoveredError")
UnsupportedMethodError = _cls("UNSUPPORTED_METHOD", "UnsupportedMethodError", ValueError)
ActionFailedError = _cls("ACTION_FAILED", "ActionFailedError")
DeckhandTimeoutError = _cls("TIMEOUT", "DeckhandTimeoutError", builtins.TimeoutError)
PageClosedError = _cls("PAGE_CLOSED", "PageClosedError")
FrameDetachedError = _cls("FRAME_DETACHED", "FrameDetachedError")
PageError = _cls("PAGE_ERROR", "PageError")
NavigationFailedError = _cls("NAVIGATION_FAILED", "NavigationFailedError")
UrlNotAllowedError = _cls("URL_NOT_ALLOWED", "UrlNotAllowedError")
EvaluationFailedError = _cls("EVALUATION_FAILED", "EvaluationFailedError")
WorkerGoneError = _cls("WORKER_GONE", "WorkerGoneError", ConnectionError)
BrowserClosedError = _cls("BROWSER_CLOSED", "BrowserClosedError", ConnectionError)
BrowserUnavailableError = _cls("BROWSER_UNAVAILABLE", "BrowserUnavailableError", ConnectionError)
ExtensionMissingError = _cls("EXTENSION_MISSING", "ExtensionMissingError")
NotInitializedError = _cls("NOT_INITIALIZED", "NotInitializedError")
AlreadyInUseError = _cls("ALREADY_IN_USE", "AlreadyInUseError")
ClosedError = _cls("CLOSED", "ClosedError")
NoModelConfiguredError = _cls("NO_MODEL_CONFIGURED", "NoModelConfiguredError")
ModelAuthFailedError = _cls("MODEL_AUTH_FAILED", "ModelAuthFailedError")
ModelRateLimitedError = _cls("MODEL_RATE_LIMITED", "ModelRateLimitedError")
ModelProviderError = _cls("MODEL_PROVIDER_ERROR", "ModelProviderError")
ModelUnreachableError = _cls("MODEL_UNREACHABLE", "ModelUnreachableError")
ModelOutputInvalidError = _cls("MODEL_OUTPUT_INVALID", "ModelOutputInvalidError")
ModelRefusedError = _cls("MODEL_REFUSED", "ModelRefusedError")
BatchFailedError = _cls("BATCH_FAILED", "BatchFailedError")
UnavailableError = _cls("UNAVAILABLE", "UnavailableError")
CancelledError = _cls("CANCELLED", "CancelledError")
ProtocolError = _cls("PROTOCOL_ERROR", "ProtocolError")
InternalError = _cls("INTERNAL", "InternalError")
UnauthorizedError = _cls("UNAUTHORIZED", "UnauthorizedError")
SessionNotFoundError = _cls("SESSION_NOT_FOUND", "SessionNotFoundError")
InvalidSessionIdError = _cls("INVALID_SESSION_ID", "InvalidSessionIdError")
SessionBusyError = _cls("SESSION_BUSY", "SessionBusyError")
TooManySessionsError = _cls("TOO_MANY_SESSIONS", "TooManySessionsError")
NotFoundError = _cls("NOT_FOUND", "NotFoundError")
MethodNotAllowedError = _cls("METHOD_NOT_ALLOWED", "MethodNotAllowedError")
InvalidJsonError = _cls("INVALID_JSON", "InvalidJsonError")
InvalidHeaderError = _cls("INVALID_HEADER", "InvalidHeaderError")
BodyTooLargeError = _cls("BODY_TOO_LARGE", "BodyTooLargeError")
UnsupportedMediaTypeError = _cls("UNSUPPORTED_MEDIA_TYPE", "UnsupportedMediaTypeError")
HostNotAllowedError = _cls("HOST_NOT_ALLOWED", "HostNotAllowedError")
OriginNotAllowedError = _cls("ORIGIN_NOT_ALLOWED", "OriginNotAllowedError")
CdpHostNotAllowedError = _cls("CDP_HOST_NOT_ALLOWED", "CdpHostNotAllowedError")

#: code -> exception class; every code of the schema has one (python/tests/test_types.py checks).
ERROR_CLASSES: dict[str, type[DeckhandError]] = {
    c.code: c for c in list(globals().values()) if isinstance(c, type) and issubclass(c, DeckhandError) and c is not DeckhandError
}


def error(code: str, message: str, data: dict[str, Any] | None = None) -> DeckhandError:
    """The exception for a code (unknown codes are INTERNAL)."""
    cls = ERROR_CLASSES.get(code)
    if cls is None:
        return InternalError(None, message, data)
    return cls(None, message, data)


def from_wire(e: Any) -> DeckhandError:
    """Rebuild an error received as `{code, message, data?}`."""
    if not isinstance(e, dict):
        return InternalError(None, f"a malformed error arrived: {e!r}")
    data = e.get("data")
    return error(str(e.get("code")), str(e.get("message", "")), data if isinstance(data, dict) else None)


__all__ = ["DeckhandError", "ERROR_CODES", "ERROR_CLASSES", "error", "from_wire"] + sorted(
    c.__name__ for c in ERROR_CLASSES.values()
)
