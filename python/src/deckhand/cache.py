"""The result cache's stores on this side (src/client/cache/ in Python); the policy runs in the
worker, which asks the store over `cache.lookup`, `cache.record` and `cache.invalidate`. The SQLite
store runs the declared migrations and statements, so Node and Python share `$DECKHAND_HOME/cache.db`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Callable, Protocol, TypeVar, cast

from ._rpc import dumps
from ._wire import CACHE_BOUNDS, SQLITE_CACHE_MIGRATIONS, SQLITE_CACHE_STATEMENTS
from .errors import DeckhandTimeoutError, InternalError, InvalidArgumentError

DEFAULT_MAX_ENTRIES_PER_TENANT = CACHE_BOUNDS["maxEntriesPerTenant"]

T = TypeVar("T")


class CacheStore(Protocol):
    """A store of cache entries, answering the worker's `cache.lookup`, `cache.record` and
    `cache.invalidate` (MemoryStore, SqliteStore and RemoteStore are the ones shipped)."""

    def lookup(self, key: str, base_key: str) -> dict[str, Any]: ...
    def record(self, req: dict[str, Any]) -> dict[str, Any]: ...
    def invalidate(self, key: str) -> None: ...


def next_agree(prev: dict[str, Any] | None, req: dict[str, Any]) -> int:
    """Agreement after recording `req` over `prev`: the same result again adds one, a different
    one starts over, and a self-healed replacement keeps it (src/protocol/cache.ts)."""
    if req.get("replace"):
        return max(1, prev["agree"] if prev else 1)
    if prev is not None and dumps(prev.get("result")) == dumps(req.get("result")):
        return int(prev["agree"]) + 1
    return 1


def _run(db: sqlite3.Connection, name: str, values: dict[str, Any]) -> sqlite3.Cursor:
    """One of the declared statements (x-deckhand.sqliteCacheStatements), its parameters by name."""
    s = SQLITE_CACHE_STATEMENTS[name]
    return db.execute(s["sql"], [values[p] for p in s["params"]])


class SqliteStore:
    """SQLite on disk, shareable between sessions and processes (and with the Node client)."""

    def __init__(self, path: str | os.PathLike[str], max_entries_per_tenant: int = DEFAULT_MAX_ENTRIES_PER_TENANT, tenant: str = "") -> None:
        self.path = str(path)
        self._max = max_entries_per_tenant
        self._tenant = tenant
        self._lock = threading.Lock()
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            Path(self.path).touch(mode=0o600)
        # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE), as better-sqlite3's .immediate();
        # SQLite itself waits up to 10 s for another process's lock (its busy timeout).
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._tx(self._migrate)

    def _tx(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as e:
                raise DeckhandTimeoutError(None, f"the cache database {self.path} stayed locked by another process for 10 s: {e}") from e
            try:
                out = fn(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return out

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = db.execute("SELECT version FROM schema_version").fetchone()
        if not row:
            db.execute("INSERT INTO schema_version (version) VALUES (0)")
        v = row[0] if row else 0
        for migration in SQLITE_CACHE_MIGRATIONS[v:]:
            # Whole statements: a trigger's body holds semicolons of its own.
            buf = ""
            for line in migration.splitlines(keepends=True):
                buf += line
                if sqlite3.complete_statement(buf):
                    db.execute(buf)
                    buf = ""
        db.execute("UPDATE schema_version SET version = ?", (len(SQLITE_CACHE_MIGRATIONS),))

    def lookup(self, key: str, base_key: str) -> dict[str, Any]:
        v = {"now": int(time.time() * 1000), "tenant": self._tenant, "key": key, "baseKey": base_key}

        def f(db: sqlite3.Connection) -> dict[str, Any]:
            _run(db, "touch", v)
            row = _run(db, "get", v).fetchone()
            entry = None if not row else {"key": key, "op": row[0], "result": json.loads(row[1]), "usage": json.loads(row[2]), "agree": row[3]}
            changed = entry is None and _run(db, "sibling", v).fetchone() is not None
            return {"count": row[4] if row else 1, "entry": entry, "pageChanged": changed}

        return self._tx(f)

    def record(self, req: dict[str, Any]) -> dict[str, Any]:
        v = {**req, "now": int(time.time() * 1000), "tenant": self._tenant, "result": dumps(req.get("result")), "usage": dumps(req["usage"])}

        def f(db: sqlite3.Connection) -> dict[str, Any]:
            prev = _run(db, "prev", v).fetchone()
            v["agree"] = next_agree({"result": json.loads(prev[0]), "agree": prev[1]} if prev else None, req)
            _run(db, "put", v)
            n = 0 if prev else (_run(db, "size", v).fetchone() or [0])[0]
            if n > self._max:
                # Down to keepPercent of the bound: the cost of an eviction is spread over the next new keys.
                kept = self._max - self._max * (100 - CACHE_BOUNDS["keepPercent"]) // 100
                _run(db, "evict", {**v, "count": n - kept})
            return {"agree": v["agree"]}

        return self._tx(f)

    def invalidate(self, key: str) -> None:
        self._tx(lambda db: _run(db, "drop", {"tenant": self._tenant, "key": key}))

    def close(self) -> None:
        self._db.close()


class MemoryStore(SqliteStore):
    """The same store in this process's memory, gone when it ends."""

    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES_PER_TENANT) -> None:
        super().__init__(":memory:", max_entries)


class RemoteStore:
    """A Deckhand cache service over HTTP (`deckhand serve`), authenticated with its API key."""

    def __init__(self, api_url: str, api_key: str) -> None:
        self._url = api_url if api_url.endswith("/") else api_url + "/"
        self._key = api_key

    def _post(self, path: str, body: Any) -> Any:
        headers = {"content-type": "application/json", "x-dh-api-key": self._key}
        req = urllib.request.Request(self._url + path, data=dumps(body).encode("utf-8"), method="POST", headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=10) as res:  # noqa: S310
                return json.loads(res.read().decode("utf-8"))["data"]
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8", "replace")
            with contextlib.suppress(ValueError, AttributeError):
                text = json.loads(text).get("error", {}).get("message", text)
            raise (InvalidArgumentError if e.code == 401 else InternalError)(None, f"the cache service answered {e.code}: {text}") from None
        except OSError as e:
            raise InternalError(None, f"the cache service at {self._url} could not be reached: {e}") from None

    def lookup(self, key: str, base_key: str) -> dict[str, Any]:
        return cast(dict[str, Any], self._post("v1/cache/lookup", {"key": key, "baseKey": base_key}))

    def record(self, req: dict[str, Any]) -> dict[str, Any]:
        return cast(dict[str, Any], self._post("v1/cache/record", req))

    def invalidate(self, key: str) -> None:
        self._post("v1/cache/invalidate", {"key": key})


async def call_store(fn: Any, *args: Any) -> Any:
    """Run a store operation; a store that does I/O beyond the local disk runs in a thread."""
    if isinstance(getattr(fn, "__self__", None), RemoteStore):
        return await asyncio.to_thread(fn, *args)
    return fn(*args)
