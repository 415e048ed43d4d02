"""Errors: every failure is a DeckhandError with the same `code` the Node client uses.

Each code has its own subclass (ElementNotFoundError for ELEMENT_NOT_FOUND, ...), so a
caller can catch one kind or branch on `code`. An error that crossed the RPC is rebuilt
here from its wire form `{code, message, data?}`; a code this client does not know (a newer
worker's) is read as INTERNAL, as the Node client does.

An argument of the wrong type (a number where an instruction goes, say) raises
InvalidArgumentTypeError: it is an InvalidArgumentError (code INVALID_ARGUMENT, as in every
client) and a TypeError, so both `except TypeError` and `except InvalidArgumentError` catch it.

CANCELLED is OperationCancelledError. It used to be called `CancelledError`, a name that reads
as asyncio's own; that name is kept as a deprecated alias of the same class (it warns when
used) and is not exported by `from deckhand.errors import *`.
"""

from __future__ import annotations

import builtins
import warnings
from typing import TYPE_CHECKING, Any, get_args

from . import _wire

#: Every error code, from the generated JSON Schema (src/protocol/errors.ts).
ERROR_CODES: tuple[str, ...] = get_args(_wire.ErrorCode)

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


class InvalidArgumentError(DeckhandError, ValueError, code="INVALID_ARGUMENT"):
    """An argument the call cannot take (a bad value, an unknown option)."""


class InvalidArgumentTypeError(InvalidArgumentError, TypeError):
    """An argument of the wrong type: INVALID_ARGUMENT, and a TypeError as Python expects."""


class InvalidSelectorError(DeckhandError, ValueError, code="INVALID_SELECTOR"):
    """A CSS or XPath selector that does not parse, or an empty one."""


class ElementNotFoundError(DeckhandError, code="ELEMENT_NOT_FOUND"):
    """No element matches (the selector, or what the model was asked for)."""


class ElementNotActionableError(DeckhandError, code="ELEMENT_NOT_ACTIONABLE"):
    """The element is there but cannot take the action (hidden, disabled, detached)."""


class ElementCoveredError(DeckhandError, code="ELEMENT_COVERED"):
    """Another element covers the point a click would land on."""


class UnsupportedMethodError(DeckhandError, ValueError, code="UNSUPPORTED_METHOD"):
    """An Action's method is not one the engine performs."""


class ActionFailedError(DeckhandError, code="ACTION_FAILED"):
    """The action ran and failed (a replayed flow's step whose element is gone, say)."""


class DeckhandTimeoutError(DeckhandError, builtins.TimeoutError, code="TIMEOUT"):
    """A deadline passed; also a builtins.TimeoutError."""


class PageClosedError(DeckhandError, code="PAGE_CLOSED"):
    """The page was closed before or during the call."""


class FrameDetachedError(DeckhandError, code="FRAME_DETACHED"):
    """The frame acted in went away."""


class PageError(DeckhandError, code="PAGE_ERROR"):
    """The page shows Chromium's error page for a failed navigation: no document to act on."""


class NavigationFailedError(DeckhandError, code="NAVIGATION_FAILED"):
    """A navigation failed (the address did not answer, the load was aborted)."""


class UrlNotAllowedError(DeckhandError, code="URL_NOT_ALLOWED"):
    """A URL whose scheme the operator has not opened (file:, chrome:, ...)."""


class EvaluationFailedError(DeckhandError, code="EVALUATION_FAILED"):
    """JavaScript given to page.evaluate threw or did not compile."""


class WorkerGoneError(DeckhandError, ConnectionError, code="WORKER_GONE"):
    """The extension's service worker stopped before answering; the next call starts it again."""


class BrowserClosedError(DeckhandError, ConnectionError, code="BROWSER_CLOSED"):
    """The browser is closed, or its connection dropped."""


class BrowserUnavailableError(DeckhandError, ConnectionError, code="BROWSER_UNAVAILABLE"):
    """No browser could be had (a Selenium Grid refused, is full or is down)."""


class ExtensionMissingError(DeckhandError, code="EXTENSION_MISSING"):
    """The browser has no Deckhand extension, or the extension is not built."""


class NotInitializedError(DeckhandError, code="NOT_INITIALIZED"):
    """Used before it was set up."""


class AlreadyInUseError(DeckhandError, code="ALREADY_IN_USE"):
    """The browser handle already backs a Deckhand instance (or a name is taken)."""


class ClosedError(DeckhandError, code="CLOSED"):
    """This Deckhand instance or connection is closed."""


class NoModelConfiguredError(DeckhandError, code="NO_MODEL_CONFIGURED"):
    """A model operation with no usable model (a provider name without its key, say)."""


class ModelAuthFailedError(DeckhandError, code="MODEL_AUTH_FAILED"):
    """The model provider refused the credentials."""


class ModelRateLimitedError(DeckhandError, code="MODEL_RATE_LIMITED"):
    """The model provider is rate limiting."""


class ModelProviderError(DeckhandError, code="MODEL_PROVIDER_ERROR"):
    """The model provider answered with an error."""


class ModelUnreachableError(DeckhandError, code="MODEL_UNREACHABLE"):
    """The model provider could not be reached."""


class ModelOutputInvalidError(DeckhandError, code="MODEL_OUTPUT_INVALID"):
    """The model's answer does not fit what was asked (extract's schema, say)."""


class ModelRefusedError(DeckhandError, code="MODEL_REFUSED"):
    """The model declined the request."""


class BatchFailedError(DeckhandError, code="BATCH_FAILED"):
    """An experimental_batch callback threw; `stack` has its JavaScript stack."""


class UnavailableError(DeckhandError, code="UNAVAILABLE"):
    """Not available here: a feature this client or platform does not have."""


class OperationCancelledError(DeckhandError, code="CANCELLED"):
    """CANCELLED: the operation was stopped in the worker before it finished (another caller
    cancelled it, or a batch stopped the operations it was running).

    It is deliberately not an asyncio.CancelledError. That exception means "this task is being
    cancelled" and asyncio acts on it: a task whose coroutine raises one ends up cancelled
    (awaiting it then raises a bare CancelledError, without this code and message), and
    `asyncio.timeout`, `TaskGroup` and `wait_for` would take it for their own cancellation. It
    would also escape `except Exception`, which catches every other Deckhand error. When your
    own task is cancelled (task.cancel(), a timeout around the call), you get asyncio's
    CancelledError, as always; the operation is stopped in the worker as well.

    `deckhand.errors.CancelledError` is a deprecated alias of this class.
    """


class NotApprovedError(DeckhandError, code="NOT_APPROVED"):
    """A step the call asked to approve was refused: Stop or Skip was chosen, or nobody answered
    by the approval's deadline; it was not done. `data["decision"]` says which."""
class PausedError(DeckhandError, code="PAUSED"):
    """The person at the browser pressed Pause in Deckhand's side panel and did not press Resume
    before the operation's own timeout ran out; nothing was done. Run it again once they resume."""


class ProtocolError(DeckhandError, code="PROTOCOL_ERROR"):
    """A message that does not follow the protocol (an answer of the wrong shape, say)."""


class InternalError(DeckhandError, code="INTERNAL"):
    """A failure with no more specific code (and any code this client does not know)."""


class UnauthorizedError(DeckhandError, code="UNAUTHORIZED"):
    """The Deckhand service refused the API key."""


class SessionNotFoundError(DeckhandError, code="SESSION_NOT_FOUND"):
    """The Deckhand service has no such session."""


class InvalidSessionIdError(DeckhandError, code="INVALID_SESSION_ID"):
    """A session id that is not well formed."""


class SessionBusyError(DeckhandError, code="SESSION_BUSY"):
    """The session is running another call."""


class TooManySessionsError(DeckhandError, code="TOO_MANY_SESSIONS"):
    """The Deckhand service runs as many sessions as it may."""


class NotFoundError(DeckhandError, code="NOT_FOUND"):
    """Nothing under that name or path (a saved flow, an HTTP route)."""


class MethodNotAllowedError(DeckhandError, code="METHOD_NOT_ALLOWED"):
    """An HTTP method the route does not take."""


class InvalidJsonError(DeckhandError, code="INVALID_JSON"):
    """A request body that is not JSON."""


class InvalidHeaderError(DeckhandError, code="INVALID_HEADER"):
    """A request header that is not well formed."""


class BodyTooLargeError(DeckhandError, code="BODY_TOO_LARGE"):
    """A request body over the service's limit."""


class UnsupportedMediaTypeError(DeckhandError, code="UNSUPPORTED_MEDIA_TYPE"):
    """A request body of a type the service does not read."""


class HostNotAllowedError(DeckhandError, code="HOST_NOT_ALLOWED"):
    """A Host header the service does not answer to."""


class OriginNotAllowedError(DeckhandError, code="ORIGIN_NOT_ALLOWED"):
    """A browser Origin the service does not answer to."""


class CdpHostNotAllowedError(DeckhandError, code="CDP_HOST_NOT_ALLOWED"):
    """A DevTools address (cdp_url) whose host the operator has not opened."""


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
