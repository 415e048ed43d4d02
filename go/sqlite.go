package deckhand

import (
	"context"
	"database/sql"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the SQLite driver (pure Go)
)

// DeckhandHome is DECKHAND_HOME, else ~/.deckhand: where the default cache file is.
func DeckhandHome() string {
	if v := os.Getenv("DECKHAND_HOME"); v != "" {
		return v
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".deckhand")
}

// SqliteStore keeps the cache in a SQLite file in the Node client's format (the same migrations
// and statements, from the schema; WAL mode, immediate transactions), so Node, Python and Go
// programs share it.
type SqliteStore struct {
	path   string
	db     *sql.DB
	mu     sync.Mutex
	tenant string
	err    error // why the store cannot be used
}

// MemoryStore keeps the cache in this process: an SQLite database in memory, answering as the
// file does (the least recently used entries dropped first past the tenant's bound).
type MemoryStore = SqliteStore

// NewMemoryStore makes an empty in-memory store.
func NewMemoryStore() *MemoryStore {
	s, err := openSqlite(":memory:", "file::memory:")
	if err != nil {
		// Only a broken SQLite fails here; the store's calls then return why.
		return &SqliteStore{path: ":memory:", err: err}
	}
	return s
}

// NewSqliteStore opens (or creates) the cache file at path.
func NewSqliteStore(path string) (*SqliteStore, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, newError(CodeInvalidArgument, "cannot make the folder of %s: %v", path, err)
	}
	if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		f.Close()
	}
	return openSqlite(path, "file:"+path+"?_pragma=busy_timeout(5000)")
}

func openSqlite(path, dsn string) (*SqliteStore, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, newError(CodeInternal, "cannot open %s: %v", path, err)
	}
	s := &SqliteStore{path: path, db: db}
	ctx := context.Background()
	if path == ":memory:" {
		db.SetMaxOpenConns(1) // every connection to :memory: is a database of its own
	} else if err := s.retry(func() error { _, err := db.ExecContext(ctx, "PRAGMA journal_mode=WAL"); return err }); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.tx(ctx, s.migrate); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// retry runs f again while another process holds the file locked, for up to 10 s.
func (s *SqliteStore) retry(f func() error) error {
	deadline := time.Now().Add(10 * time.Second)
	for attempt := 0; ; attempt++ {
		err := f()
		if err == nil {
			return nil
		}
		if msg := err.Error(); !strings.Contains(msg, "locked") && !strings.Contains(msg, "busy") {
			if _, ok := err.(*Error); ok {
				return err
			}
			return newError(CodeInternal, "the cache database %s: %v", s.path, err)
		}
		if time.Now().After(deadline) {
			return newError(CodeTimeout, "the cache database %s stayed locked by another process for 10 s", s.path)
		}
		time.Sleep(time.Duration(float64(min(200, 10<<min(attempt, 5))) * (0.5 + rand.Float64()) * float64(time.Millisecond)))
	}
}

// tx runs f in an immediate transaction on one connection.
func (s *SqliteStore) tx(ctx context.Context, f func(*sql.Conn) error) error {
	if s.err != nil {
		return newError(CodeInternal, "the in-memory cache: %v", s.err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.retry(func() error {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
			return err
		}
		if err := f(conn); err != nil {
			conn.ExecContext(context.Background(), "ROLLBACK")
			return err
		}
		_, err = conn.ExecContext(ctx, "COMMIT")
		return err
	})
}

func (s *SqliteStore) migrate(db *sql.Conn) error {
	ctx := context.Background()
	v := 0
	_, err := db.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
	if err == nil {
		if err = db.QueryRowContext(ctx, "SELECT version FROM schema_version").Scan(&v); err == sql.ErrNoRows {
			_, err = db.ExecContext(ctx, "INSERT INTO schema_version (version) VALUES (0)")
		}
	}
	for ; err == nil && v < len(sqliteMigrations); v++ {
		_, err = db.ExecContext(ctx, sqliteMigrations[v])
	}
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE schema_version SET version = ?", v)
	return err
}

// statement is a declared statement with its parameters taken from vals, in their order.
func (s *SqliteStore) statement(name string, vals map[string]any) (string, []any) {
	st := sqliteStatements[name]
	vals["tenant"], vals["now"] = s.tenant, time.Now().UnixMilli()
	args := make([]any, len(st.params))
	for i, p := range st.params {
		args[i] = vals[p]
	}
	return st.sql, args
}

func (s *SqliteStore) exec(ctx context.Context, db *sql.Conn, name string, vals map[string]any) error {
	q, args := s.statement(name, vals)
	_, err := db.ExecContext(ctx, q, args...)
	return err
}

// scan reads the one row of a declared query into dest; found is false when there is none.
func (s *SqliteStore) scan(ctx context.Context, db *sql.Conn, name string, vals map[string]any, dest ...any) (found bool, err error) {
	q, args := s.statement(name, vals)
	err = db.QueryRowContext(ctx, q, args...).Scan(dest...)
	if err == sql.ErrNoRows {
		return false, nil
	}
	return err == nil, err
}

// Lookup implements CacheStore.
func (s *SqliteStore) Lookup(ctx context.Context, key, baseKey string) (*CacheLookup, error) {
	out := &CacheLookup{Count: 1}
	err := s.tx(ctx, func(db *sql.Conn) error {
		vals := map[string]any{"key": key, "baseKey": baseKey}
		var e CacheEntry
		var result, usage string
		if err := s.exec(ctx, db, "touch", vals); err != nil {
			return err
		}
		found, err := s.scan(ctx, db, "get", vals, &e.Op, &result, &usage, &e.Agree, &out.Count)
		if found {
			e.Key, e.Result, e.Usage = key, json.RawMessage(result), json.RawMessage(usage)
			out.Entry = &e
		} else if err == nil {
			var one int
			out.PageChanged, err = s.scan(ctx, db, "sibling", vals, &one)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Record implements CacheStore.
func (s *SqliteStore) Record(ctx context.Context, r *CacheRecord) (int, error) {
	var agree int
	result, err := marshalJS(r.Result)
	if err != nil || r.Result == nil {
		result = []byte("null")
	}
	usage, err := marshalJS(r.Usage)
	if err != nil || r.Usage == nil {
		usage = []byte("null")
	}
	err = s.tx(ctx, func(db *sql.Conn) error {
		vals := map[string]any{"key": r.Key, "baseKey": r.BaseKey, "op": r.Op, "result": string(result), "usage": string(usage)}
		var prev CacheEntry
		var prevResult string
		found, err := s.scan(ctx, db, "prev", vals, &prevResult, &prev.Agree)
		if err != nil {
			return err
		}
		prev.Result = json.RawMessage(prevResult)
		if agree = NextAgree(nil, r); found {
			agree = NextAgree(&prev, r)
		}
		vals["agree"] = agree
		if err := s.exec(ctx, db, "put", vals); err != nil || found {
			return err
		}
		// A new key: keep the tenant within its bound, the least recently used evicted first,
		// down to cacheKeepPercent of it so the cost is spread over the next new keys.
		var n int
		if _, err := s.scan(ctx, db, "size", vals, &n); err != nil || n <= cacheMaxEntriesPerTenant {
			return err
		}
		vals["count"] = n - (cacheMaxEntriesPerTenant - cacheMaxEntriesPerTenant*(100-cacheKeepPercent)/100)
		return s.exec(ctx, db, "evict", vals)
	})
	return agree, err
}

// Invalidate implements CacheStore.
func (s *SqliteStore) Invalidate(ctx context.Context, key string) error {
	return s.tx(ctx, func(db *sql.Conn) error { return s.exec(ctx, db, "drop", map[string]any{"key": key}) })
}

// Close closes the file.
func (s *SqliteStore) Close() error {
	if s.db == nil {
		return nil
	}
	return s.db.Close()
}
