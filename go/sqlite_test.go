package deckhand

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

const (
	keyA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	keyB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	keyC = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
)

func TestSqliteStoreAnswersAsTheMemoryStoreDoes(t *testing.T) {
	ctx := context.Background()
	sq, err := NewSqliteStore(filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer sq.Close()
	for _, s := range []CacheStore{NewMemoryStore(), sq} {
		rec := &CacheRecord{Key: keyA, BaseKey: keyB, Op: "act", Result: json.RawMessage(`[{"selector":"#multi","description":"the Multi button","method":"click"}]`),
			Usage: json.RawMessage(`{"inputTokens":77,"outputTokens":7,"reasoningTokens":0,"cachedInputTokens":0,"inferenceTimeMs":12}`)}
		l, _ := s.Lookup(ctx, keyA, keyB)
		if l.Count != 1 || l.Entry != nil || l.PageChanged {
			t.Fatalf("%T first lookup %+v", s, l)
		}
		for want := 1; want <= 2; want++ {
			if a, err := s.Record(ctx, rec); err != nil || a != want {
				t.Fatalf("%T record: %v %d", s, err, a)
			}
		}
		l, _ = s.Lookup(ctx, keyA, keyB)
		b, _ := marshalJS(l)
		want := `{"count":2,"entry":{"key":"` + keyA + `","op":"act","result":[{"selector":"#multi","description":"the Multi button","method":"click"}],` +
			`"usage":{"inputTokens":77,"outputTokens":7,"reasoningTokens":0,"cachedInputTokens":0,"inferenceTimeMs":12},"agree":2},"pageChanged":false}`
		if string(b) != want {
			t.Fatalf("%T hit:\n got %s\nwant %s", s, b, want)
		}
		if l, _ = s.Lookup(ctx, keyC, keyB); !l.PageChanged || l.Entry != nil {
			t.Fatalf("%T changed page %+v", s, l)
		}
		s.Invalidate(ctx, keyA)
		if l, _ = s.Lookup(ctx, keyA, keyB); l.Entry != nil {
			t.Fatalf("%T after invalidate %+v", s, l)
		}
	}
}

// The file is the Node client's format: the Python client (which shares it with Node) reads
// what Go recorded, and Go reads what Python recorded.
func TestTheSqliteFileIsSharedWithThePythonClient(t *testing.T) {
	py := filepath.Join(repoRoot(t), ".venv", "bin", "python")
	if _, err := os.Stat(py); err != nil {
		t.Skip("no .venv/bin/python (npm run setup installs the Python client there)")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cache.db")
	s, err := NewSqliteStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Record(ctx, &CacheRecord{Key: keyA, BaseKey: keyB, Op: "act", Result: json.RawMessage(`["from go"]`),
		Usage: json.RawMessage(`{"inputTokens":1,"outputTokens":2,"reasoningTokens":0,"cachedInputTokens":0,"inferenceTimeMs":3}`)}); err != nil {
		t.Fatal(err)
	}
	script := `
import json, sys
from deckhand.cache import SqliteStore
s = SqliteStore(sys.argv[1])
print(json.dumps(s.lookup(sys.argv[2], sys.argv[3])))
s.record({"key": sys.argv[4], "baseKey": sys.argv[3], "op": "extract", "result": {"from": "python"}, "usage": {"inputTokens": 5, "outputTokens": 6,
	"reasoningTokens": 0, "cachedInputTokens": 0, "inferenceTimeMs": 7}})
s.close()
`
	out, err := exec.Command(py, "-c", script, path, keyA, keyB, keyC).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.Contains(string(out), `"result": ["from go"]`) || !strings.Contains(string(out), `"agree": 1`) {
		t.Fatalf("python read %s", out)
	}
	l, err := s.Lookup(ctx, keyC, keyB)
	if err != nil || l.Entry == nil || string(l.Entry.Result) != `{"from":"python"}` || l.Entry.Op != "extract" {
		t.Fatalf("%v %+v", err, l)
	}
	s.Close()
}

func TestTheDefaultCacheIsTheSqliteFileInDeckhandHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("DECKHAND_HOME", home)
	ctx := context.Background()
	var calls atomic.Int32
	gen := func(ctx context.Context, req *ModelRequest) (*ModelReply, error) {
		calls.Add(1)
		return &ModelReply{Object: clickAnswer{Found: true, ElementID: elementID(t, req, "button", "Multi"), Method: "click", Arguments: []string{},
			Description: "Multi"}}, nil
	}
	c := newClient(t, CreateOptions{Generate: gen, Cache: &CacheConfig{}})
	open(t, c, "/form.html")
	for i, want := range []CacheStatus{CacheMiss, CacheHit} {
		r, err := c.Act(ctx, ActInstruction("click the Multi button"), nil)
		if err != nil || r.Metadata.Cache.Status != want {
			t.Fatalf("act %d: %v %+v", i, err, r)
		}
	}
	if calls.Load() != 1 {
		t.Fatalf("the model was called %d times", calls.Load())
	}
	if _, err := os.Stat(filepath.Join(home, "cache.db")); err != nil {
		t.Fatal(err)
	}
}
