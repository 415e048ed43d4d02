"""The Python end of the WebSocket bridge (src/client/bridge.ts in Python): a server on
127.0.0.1 that the extension's worker dials out to once a person enters the pairing token in
the side panel. Who may pair, and how guesses are slowed, is docs/guides/attach.md; frames, close
codes, limits and messages are the Node client's, so the worker cannot tell the clients apart.
"""

from __future__ import annotations

import asyncio
import base64
import errno
import functools
import hashlib
import hmac
import http
import inspect
import json
import logging
import os
import re
import secrets
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from . import _wire
from ._checks import spawn
from ._link import check_ms
from ._rpc import RpcPeer, dumps
from .errors import BrowserClosedError, ClosedError, DeckhandError, DeckhandTimeoutError, InvalidArgumentError, UnavailableError, WorkerGoneError, type_error

#: How long a fresh socket has to say hello (ms); how long close() waits for the goodbye to be acknowledged (s).
HELLO_TIMEOUT_MS = 5_000
CLOSE_GRACE_S = 1.0
#: Results such as full-page screenshots are large; CDP allows 512 MB, this is plenty.
MAX_PAYLOAD = 256 * 1024 * 1024
#: After n refused pairing attempts in a row the next is judged 100 ms x 2^(n-1) after the last,
#: at most 5 s: a token guesser gets one guess per 5 s, a person who mistyped barely waits. A hello
#: whose turn is further off than PAIRING_HOLD_MAX_MS (below the worker's 5 s wait for welcome) is
#: closed with BRIDGE_TRY_LATER at once.
PAIRING_BACKOFF_FIRST_MS = 100
PAIRING_BACKOFF_MAX_MS = 5_000
PAIRING_HOLD_MAX_MS = 4_000
#: Close codes: a refused pairing (wrong or spent token, unknown secret); "try again later".
BRIDGE_REFUSED = 4001
BRIDGE_TRY_LATER = 1013
#: The `bye` reason the worker gives when the person disconnects in the side panel.
BRIDGE_BYE_FROM_PANEL = "disconnected from the side panel"

_TOKEN = re.compile(r"^[A-Za-z0-9_-]{6,128}$")
_TOKEN_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"
_log = logging.getLogger("deckhand.bridge")
_CONTROL_KINDS: dict[str, type[_wire.WireModel]] = {
    "hello": _wire.BridgeFrameHello,
    "welcome": _wire.BridgeFrameWelcome,
    "ping": _wire.BridgeFramePing,
    "pong": _wire.BridgeFramePong,
    "bye": _wire.BridgeFrameBye,
}


@dataclass(frozen=True)
class PairingInfo:
    """What a person enters in the side panel under "Connect to a local client"."""

    port: int
    token: str
    #: The address the client listens on (always loopback).
    host: str


def refuse_upgrade(origin: str | None, host: str | None, extension_id: str, port: int) -> str | None:
    """Why an upgrade request is refused, or None to accept it."""
    if origin != f"chrome-extension://{extension_id}":
        return f"Origin {origin or '(none)'} is refused: only the Deckhand extension may connect"
    # A page that rebinds its own host name to 127.0.0.1 would also show up here with a foreign Host.
    if (host or "").lower() not in (f"127.0.0.1:{port}", f"localhost:{port}"):
        return f"Host {host or '(none)'} is refused"
    return None


def _same_secret(a: str, b: str) -> bool:
    """Compare secrets in constant time (hashing first makes the lengths equal)."""
    return hmac.compare_digest(hashlib.sha256(a.encode()).digest(), hashlib.sha256(b.encode()).digest())


def read_bridge_message(data: Any) -> tuple[str, Any] | None:
    """One bridge message: ("frame", a control frame), ("rpc", the parsed RPC message), or None
    for anything unusable (dropped). Control frames are read as strictly as the Node client's
    zod schemas: no unknown keys, no nulls where a string goes."""
    try:
        msg = json.loads(data) if isinstance(data, str) else None
    except ValueError:
        return None
    kind = msg.get("kind") if isinstance(msg, dict) else None
    model = _CONTROL_KINDS.get(kind) if isinstance(kind, str) else None
    if model is None:
        return ("rpc", msg) if msg is not None else None
    assert isinstance(msg, dict)
    if not set(msg) <= {f.alias or n for n, f in model.model_fields.items()} or any(v is None for v in msg.values()):
        return None
    try:
        return ("frame", model.model_validate(msg, strict=True))
    except ValueError:
        return None


class BridgeLink:
    """The worker link over the bridge: the same calls as the CDP link (call, serve, close)."""

    def __init__(self, host: str, token: str, extension_id: str, reconnect_timeout_ms: float, client_name: str) -> None:
        self._host, self._token, self.extension_id = host, token, extension_id
        self._reconnect_timeout_ms = reconnect_timeout_ms
        self._client_name = client_name
        self.port = 0
        self._server: Server | None = None
        self._state = "pairing"  # pairing | up | down | closed
        #: The paired worker's socket, while it is connected.
        self._socket: ServerConnection | None = None
        self._secret: str | None = None
        self._token_spent = False
        self._closed_error: DeckhandError | None = None
        self._closing: asyncio.Future[None] | None = None
        #: Set while a worker is paired, and once this client is closed: what waiting calls wait for.
        self._up = asyncio.Event()
        #: Pairing attempts refused since the last pairing, on any connection; hellos held for their
        #: turn; when the next hello may be judged (ms, monotonic).
        self._refusals = 0
        self._held_hellos = 0
        self._next_turn_at = 0.0
        self._turn_timers: set[asyncio.TimerHandle] = set()
        self._connections: set[ServerConnection] = set()
        self._tasks: set[asyncio.Future[Any]] = set()
        self.peer = RpcPeer(self._send, "extension's service worker (over the bridge)")
        self.peer.handle("ping", lambda _params: None)

    async def listen(self, port: int) -> None:
        """Start listening. UnavailableError when the port is taken."""
        try:
            self._server = await serve(
                self._on_connection, self._host, port, process_request=self._process_request, max_size=MAX_PAYLOAD, compression=None,
                # The worker's own ping frames keep it alive; the Node client sends no protocol pings either.
                ping_interval=None, close_timeout=CLOSE_GRACE_S, server_header=None, logger=_log,
            )  # fmt: skip
        except OSError as e:
            why = "the port is in use" if e.errno == errno.EADDRINUSE else (e.strerror or str(e))
            raise UnavailableError(None, f"cannot listen on {self._host}:{port}: {why}") from e
        self.port = int(next(iter(self._server.sockets)).getsockname()[1])

    @property
    def is_connected(self) -> bool:
        # A worker restarting is expected back (its pairing is stored): still connected until bye or close.
        return self._state != "closed"

    def _spawn(self, coro: Any) -> None:
        spawn(coro, self._tasks)

    def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        h = request.headers
        if "websocket" not in h.get("Upgrade", "").lower():
            # Plain HTTP requests get a short answer; only upgrades matter.
            return connection.respond(http.HTTPStatus.UPGRADE_REQUIRED, "Deckhand bridge: WebSocket connections from the Deckhand extension only\n")
        closed = "this client is closed" if self._state == "closed" else None
        refusal = closed or refuse_upgrade(h.get("Origin"), h.get("Host"), self.extension_id, self.port)
        return None if refusal is None else connection.respond(http.HTTPStatus.FORBIDDEN, f"{refusal}\n")

    async def _on_connection(self, ws: ServerConnection) -> None:
        self._connections.add(ws)
        stage = "hello"  # hello | judging | paired
        hello_timer = asyncio.get_running_loop().call_later(
            HELLO_TIMEOUT_MS / 1000, lambda: self._spawn(ws.close(1008, f"no hello within {HELLO_TIMEOUT_MS} ms"))
        )

        def judge(text: str) -> None:
            nonlocal stage
            refusal = self._admit(read_bridge_message(text))
            if refusal is not None:
                if self._state != "closed":
                    self._refusals += 1
                # A close reason fits in 123 bytes of UTF-8.
                self._spawn(ws.close(BRIDGE_REFUSED, refusal.encode()[:123].decode("utf-8", "ignore")))
                return
            self._refusals = 0
            self._next_turn_at = time.monotonic() * 1000
            stage = "paired"
            self._install(ws)

        try:
            async for data in ws:
                if not isinstance(data, str):
                    continue
                if stage == "paired" and ws is self._socket:
                    self._route(ws, data)
                elif stage == "hello":
                    # One hello per connection: nothing else is expected before welcome.
                    stage = "judging"
                    hello_timer.cancel()
                    self._in_turn(ws, functools.partial(judge, data))
        except ConnectionClosed:
            pass
        finally:
            hello_timer.cancel()
            self._connections.discard(ws)
            if ws is self._socket:
                self._on_drop()

    def _in_turn(self, ws: ServerConnection, judge: Callable[[], None]) -> None:
        """Run `judge` on this hello's turn: at once when no attempt was refused lately, else one
        backoff after the turn before it. Each turn is booked as if it will be refused too, so
        hellos sent together are judged one backoff apart; a turn more than PAIRING_HOLD_MAX_MS
        away is not booked (BRIDGE_TRY_LATER), which bounds every wait."""
        now = time.monotonic() * 1000
        at = max(now, self._next_turn_at)
        if at - now > PAIRING_HOLD_MAX_MS:
            self._spawn(ws.close(BRIDGE_TRY_LATER, f"too many refused pairing attempts; try again in {int(-(-(at - now) // 1000))} s"))
            return
        self._held_hellos += 1
        n = self._refusals + self._held_hellos
        self._next_turn_at = at + min(PAIRING_BACKOFF_FIRST_MS * 2 ** max(0, n - 1), PAIRING_BACKOFF_MAX_MS)
        handles: list[asyncio.TimerHandle] = []

        def run() -> None:
            self._turn_timers.difference_update(handles)
            self._held_hellos -= 1
            # A hello whose socket went away while held is not judged: it guessed nothing.
            if ws.state is State.OPEN:
                judge()

        if at <= now:
            return run()
        handles.append(asyncio.get_running_loop().call_later((at - now) / 1000, run))
        self._turn_timers.update(handles)

    def _admit(self, message: tuple[str, Any] | None) -> str | None:
        """Check the first frame; returns why it is refused, or None (and the secret is set)."""
        frame = message[1] if message is not None else None
        if self._state == "closed":
            return "this client is closed"
        if not isinstance(frame, _wire.BridgeFrameHello):
            return "the first frame must be hello"
        if frame.extension_id != self.extension_id:
            return f"extension {frame.extension_id} is not the Deckhand extension"
        if frame.token is not None:
            # The token is spent by the first pairing; only the secret issued then gets back in.
            if self._token_spent or not _same_secret(frame.token.strip(), self._token):
                return "the pairing token is wrong or already used"
            self._token_spent = True
            self._secret = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
            return None
        if frame.secret is not None:
            return None if self._secret and _same_secret(frame.secret, self._secret) else "unknown pairing; pair again with a new token"
        return "hello carries neither a token nor a secret"

    def _install(self, ws: ServerConnection) -> None:
        old = self._socket
        if old is not None and old is not ws:
            # The worker restarted before its old socket reported closing: calls sent to the old one are lost.
            self._socket = None
            old.transport.abort()
            self.peer.fail_all(WorkerGoneError(None, "the extension's service worker restarted before answering; the next call goes to the new one"))
        self._spawn(ws.send(dumps({"kind": "welcome", "secret": self._secret, "client": self._client_name})))
        self._socket = ws
        self._state = "up"
        self._up.set()

    def _route(self, ws: ServerConnection, text: str) -> None:
        kind, value = read_bridge_message(text) or (None, None)
        if kind == "rpc":
            self.peer.receive_parsed(value)
        elif isinstance(value, _wire.BridgeFramePing):
            self._spawn(ws.send(dumps({"kind": "pong"})))
        elif isinstance(value, _wire.BridgeFrameBye):
            said = "" if value.reason == BRIDGE_BYE_FROM_PANEL else f" ({value.reason})"
            message = f"the person disconnected this client in the Deckhand side panel{said}"
            self._spawn(self._shutdown(BrowserClosedError(None, message, {"reason": value.reason}), None))

    def _on_drop(self) -> None:
        self._socket = None
        if self._state != "closed":
            self._state = "down"
            self._up.clear()
            why = "the extension's service worker disconnected from the bridge before answering; the next call waits for it to reconnect"
            self.peer.fail_all(WorkerGoneError(None, why))

    def _send(self, raw: str, _rid: int | None) -> None:
        ws = self._socket
        if ws is None or ws.state is not State.OPEN:
            raise self._closed_error or WorkerGoneError(None, "the extension's service worker is not connected to the bridge")
        # The frame is written before send() first yields, so frames leave in the order of these calls.
        self._spawn(ws.send(raw))

    async def _wait_up(self, timeout_ms: float, on_timeout: Callable[[], DeckhandError]) -> None:
        """Wait until a worker is paired (or paired again), with a deadline."""
        try:
            await asyncio.wait_for(self._up.wait(), timeout_ms / 1000)
        except asyncio.TimeoutError:
            raise on_timeout() from None
        if self._closed_error is not None:
            raise self._closed_error

    async def paired(self, timeout_ms: float) -> None:
        """Return once the extension has paired with the token; DeckhandTimeoutError after timeout_ms."""
        how = 'open the Deckhand side panel, choose "Connect to a local client" and enter the port and token'
        why = f"waited {timeout_ms:g} ms for the Deckhand extension to pair on port {self.port}; {how}"
        await self._wait_up(timeout_ms, lambda: DeckhandTimeoutError(None, why, {"port": self.port, "timeoutMs": timeout_ms}))

    async def call(self, method: str, params: Any) -> Any:
        if self._state != "up":
            ms = self._reconnect_timeout_ms
            where = f"{self._host}:{self.port}"
            why = f"'{method}' waited {ms:g} ms for the extension's service worker to reconnect to the bridge on {where}, and it did not"
            await self._wait_up(ms, lambda: WorkerGoneError(None, why, {"method": method, "timeoutMs": ms}))
        return await self.peer.request(method, params)

    def serve(self, method: str, handler: Callable[[Any], Any]) -> None:
        self.peer.handle(method, handler)

    async def close(self, reason: DeckhandError | None = None) -> None:
        """Say goodbye to the worker (it forgets the pairing) and stop listening. Safe to call twice."""
        await self._shutdown(reason or ClosedError(None, "the client was closed"), "the program closed it")

    async def _shutdown(self, error: DeckhandError, bye_reason: str | None) -> None:
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._do_shutdown(error, bye_reason))
        await asyncio.shield(self._closing)

    async def _do_shutdown(self, error: DeckhandError, bye_reason: str | None) -> None:
        self._state = "closed"
        self._closed_error = error
        self.peer.fail_all(error, True)
        self._up.set()
        for t in self._turn_timers:
            t.cancel()
        ws, self._socket = self._socket, None
        if ws is not None and bye_reason is not None and ws.state is State.OPEN:
            try:
                await ws.send(dumps({"kind": "bye", "reason": bye_reason}))
            except ConnectionClosed:
                pass
        # Every socket closes with a handshake (the paired one after its goodbye, and any still
        # saying hello), cut after CLOSE_GRACE_S; then the server stops.
        await asyncio.gather(*(c.close(1000, "bye") for c in list(self._connections)), return_exceptions=True)
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


async def pair(
    *, extension_id: str, port: Any = None, token: Any = None, host: Any = None, timeout: Any = None, reconnect_timeout: Any = None, name: Any = None,
    on_pairing: Any = None,
) -> BridgeLink:
    """Check attach()'s options, listen, offer the pairing and wait for the worker to pair."""
    if host is not None and not (isinstance(host, str) and host.lower() in ("127.0.0.1", "localhost")):
        why = f"host must be a loopback address, and the extension dials 127.0.0.1 only (localhost is the same), got {host!r}"
        raise InvalidArgumentError(None, f"{why}: the bridge never listens on a network interface")
    p = 0 if port is None else port
    if isinstance(p, bool) or not isinstance(p, int) or p != 0 and not 1024 <= p <= 65535:
        raise InvalidArgumentError(None, f"port must be 0 (a free port) or 1024 to 65535, got {port!r}")
    tok = "-".join("".join(secrets.choice(_TOKEN_ALPHABET) for _ in range(4)) for _ in range(4))  # about 82 bits, easy to type
    if token is not None:
        if not isinstance(token, str) or not _TOKEN.match(token.strip()):
            raise InvalidArgumentError(None, "token: the pairing token is 6 to 128 letters, digits, - or _")
        tok = token.strip()
    timeout_ms = _wire.DEFAULTS["attachTimeoutMs"] if timeout is None else check_ms("timeout", timeout, whole=False)
    reconnect_ms = _wire.DEFAULTS["attachReconnectTimeoutMs"] if reconnect_timeout is None else check_ms("reconnect_timeout", reconnect_timeout, whole=False)
    if on_pairing is not None and not callable(on_pairing):
        raise type_error(f"on_pairing must be a function that takes a PairingInfo, got {on_pairing!r}")
    if name is not None and not isinstance(name, str):
        raise type_error(f"name must be a string, got {name!r}")
    script = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
    link = BridgeLink("127.0.0.1", tok, extension_id, reconnect_ms, name if name is not None else f"{script} (pid {os.getpid()})")
    await link.listen(p)
    try:
        info = PairingInfo(port=link.port, token=tok, host="127.0.0.1")
        if on_pairing is None:
            how = f'open the Deckhand side panel, choose "Connect to a local client" and enter port {info.port} and token {info.token}'
            print(f"Deckhand: in Chrome, {how}", file=sys.stderr, flush=True)
        elif inspect.isawaitable(offered := on_pairing(info)):
            await offered
        await link.paired(timeout_ms)
    except BaseException as e:
        await link.close(e if isinstance(e, DeckhandError) else ClosedError(None, f"attach() failed: {e}"))
        raise
    return link
