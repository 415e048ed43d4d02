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

// SqliteStore keeps the cache in a SQLite file in the Node client's format (same tables and
// migrations, WAL mode, immediate transactions), so Node, Python and Go programs share it.
type SqliteStore struct {
	path   string
	db     *sql.DB
	mu     sync.Mutex
	max    int
	tenant string
	err    error // why the store cannot be used
}

// MemoryStore keeps the cache in this process: an SQLite database in memory, answering as the
// file does (at most 10,000 entries, least recently used dropped first).
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
	if _, err := os.Stat(path); os.IsNotExist(err) {
		if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			f.Close()
		}
	}
	return openSqlite(path, "file:"+path+"?_pragma=busy_timeout(5000)")
}

func openSqlite(path, dsn string) (*SqliteStore, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, newError(CodeInternal, "cannot open %s: %v", path, err)
	}
	s := &SqliteStore{path: path, db: db, max: 10_000}
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

func (s *SqliteStore) retry(f func() error) error {
	deadline := time.Now().Add(10 * time.Second)
	for attempt := 0; ; attempt++ {
		err := f()
		if err == nil {
			return nil
		}
		msg := err.Error()
		if !strings.Contains(msg, "locked") && !strings.Contains(msg, "busy") {
			if _, ok := err.(*Error); ok {
				return err
			}
			return newError(CodeInternal, "the cache database %s: %v", s.path, err)
		}
		if time.Now().After(deadline) {
			return newError(CodeTimeout, "the cache database %s stayed locked by another process for 10 s", s.path)
		}
		d := time.Duration(float64(min(200, 10<<min(attempt, 5))) * (0.5 + rand.Float64()) * float64(time.Millisecond))
		time.Sleep(d)
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
	if _, err := db.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"); err != nil {
		return err
	}
	v := 0
	err := db.QueryRowContext(ctx, "SELECT version FROM schema_version").Scan(&v)
	if err == sql.ErrNoRows {
		if _, err := db.ExecContext(ctx, "INSERT INTO schema_version (version) VALUES (0)"); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	for ; v < len(sqliteMigrations); v++ {
		for _, stmt := range sqlStatements(sqliteMigrations[v]) {
			if _, err := db.ExecContext(ctx, stmt); err != nil {
				return err
			}
		}
	}
	_, err = db.ExecContext(ctx, "UPDATE schema_version SET version = ?", v)
	return err
}

func nowMs() int64 { return time.Now().UnixMilli() }

// Lookup implements CacheStore.
func (s *SqliteStore) Lookup(ctx context.Context, key, baseKey string) (*CacheLookup, error) {
	var out CacheLookup
	err := s.tx(ctx, func(db *sql.Conn) error {
		out = CacheLookup{}
		if _, err := db.ExecContext(ctx, "UPDATE entries SET count = count + 1, used_at = ? WHERE tenant = ? AND key = ?", nowMs(), s.tenant, key); err != nil {
			return err
		}
		var op, result, usage string
		var agree, count int
		err := db.QueryRowContext(ctx, "SELECT op, result, usage, agree, count FROM entries WHERE tenant = ? AND key = ?", s.tenant, key).Scan(&op, &result, &usage, &agree, &count)
		if err == sql.ErrNoRows {
			out.Count = 1
			var one int
			e := db.QueryRowContext(ctx, "SELECT 1 FROM entries WHERE tenant = ? AND base_key = ? AND key != ? LIMIT 1", s.tenant, baseKey, key).Scan(&one)
			if e != nil && e != sql.ErrNoRows {
				return e
			}
			out.PageChanged = e == nil
			return nil
		}
		if err != nil {
			return err
		}
		out.Count = count
		out.Entry = &CacheEntry{Key: key, Op: op, Result: json.RawMessage(result), Usage: json.RawMessage(usage), Agree: agree}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
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
		var prevResult string
		var prevAgree int
		var prev *CacheEntry
		e := db.QueryRowContext(ctx, "SELECT result, agree FROM entries WHERE tenant = ? AND key = ?", s.tenant, r.Key).Scan(&prevResult, &prevAgree)
		if e == nil {
			prev = &CacheEntry{Result: json.RawMessage(prevResult), Agree: prevAgree}
		} else if e != sql.ErrNoRows {
			return e
		}
		agree = NextAgree(prev, r)
		if _, err := db.ExecContext(ctx, `INSERT INTO entries (tenant, key, base_key, op, result, usage, agree, count, used_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)
                   ON CONFLICT(tenant, key) DO UPDATE SET op = excluded.op, result = excluded.result, usage = excluded.usage,
                   agree = excluded.agree, used_at = excluded.used_at`,
			s.tenant, r.Key, r.BaseKey, r.Op, string(result), string(usage), agree, nowMs()); err != nil {
			return err
		}
		if prev == nil {
			_, err := db.ExecContext(ctx, `DELETE FROM entries WHERE tenant = ? AND key IN (
                         SELECT key FROM entries WHERE tenant = ? ORDER BY used_at DESC, rowid DESC LIMIT -1 OFFSET ?)`, s.tenant, s.tenant, s.max)
			return err
		}
		return nil
	})
	return agree, err
}

// Invalidate implements CacheStore.
func (s *SqliteStore) Invalidate(ctx context.Context, key string) error {
	return s.tx(ctx, func(db *sql.Conn) error {
		_, err := db.ExecContext(ctx, "DELETE FROM entries WHERE tenant = ? AND key = ?", s.tenant, key)
		return err
	})
}

// Close closes the file.
func (s *SqliteStore) Close() error {
	if s.db == nil {
		return nil
	}
	return s.db.Close()
}

// sqlStatements splits one migration into whole statements: a trigger's body (BEGIN ... END)
// holds semicolons of its own.
func sqlStatements(sql string) []string {
	var out []string
	var buf strings.Builder
	depth := 0
	for _, part := range strings.SplitAfter(sql, ";") {
		buf.WriteString(part)
		for _, w := range strings.Fields(strings.ToUpper(part)) {
			switch strings.Trim(w, ";") {
			case "BEGIN":
				depth++
			case "END":
				depth--
			}
		}
		if depth <= 0 {
			if s := strings.TrimSpace(buf.String()); s != "" && s != ";" {
				out = append(out, s)
			}
			buf.Reset()
			depth = 0
		}
	}
	if s := strings.TrimSpace(buf.String()); s != "" {
		out = append(out, s)
	}
	return out
}
