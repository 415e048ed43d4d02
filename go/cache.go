package deckhand

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
)

// CacheEntry is a recorded result the engine may replay.
type CacheEntry struct {
	Key    string          `json:"key"`
	Op     string          `json:"op"`
	Result json.RawMessage `json:"result"`
	Usage  json.RawMessage `json:"usage"`
	Agree  int             `json:"agree"`
}

// CacheLookup answers a lookup: how often the key was asked for, its entry if any, and whether
// the page changed under an entry recorded for the same instruction (baseKey).
type CacheLookup struct {
	Count       int         `json:"count"`
	Entry       *CacheEntry `json:"entry"`
	PageChanged bool        `json:"pageChanged"`
}

// CacheRecord is what the engine records.
type CacheRecord struct {
	Key     string          `json:"key"`
	BaseKey string          `json:"baseKey"`
	Op      string          `json:"op"`
	Result  json.RawMessage `json:"result,omitempty"`
	Usage   json.RawMessage `json:"usage"`
	Replace bool            `json:"replace,omitempty"`
}

// CacheStore keeps the result cache on the client side; the engine's cache policy (lookups,
// thresholds, replay, self-heal) asks it over cache.lookup, cache.record and cache.invalidate.
type CacheStore interface {
	Lookup(ctx context.Context, key, baseKey string) (*CacheLookup, error)
	Record(ctx context.Context, r *CacheRecord) (agree int, err error)
	Invalidate(ctx context.Context, key string) error
}

// NextAgree is the agreement after recording r over prev: the same result again adds one, a
// different one starts over, a self-healed replacement keeps it (src/protocol/cache.ts).
func NextAgree(prev *CacheEntry, r *CacheRecord) int {
	if r.Replace {
		if prev != nil && prev.Agree > 1 {
			return prev.Agree
		}
		return 1
	}
	if prev != nil && sameJSON(prev.Result, r.Result) {
		return prev.Agree + 1
	}
	return 1
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y bytes.Buffer
	if json.Compact(&x, a) != nil || json.Compact(&y, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}

type memEntry struct {
	CacheEntry
	baseKey string
}

// MemoryStore keeps the cache in this process (at most 10,000 entries, least recently used
// dropped first).
type MemoryStore struct {
	mu      sync.Mutex
	counts  map[string]int
	entries map[string]*memEntry
	order   []string
	bases   map[string]bool
	max     int
}

// NewMemoryStore makes an empty in-memory store.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{counts: map[string]int{}, entries: map[string]*memEntry{}, bases: map[string]bool{}, max: 10_000}
}

func (s *MemoryStore) touch(key string) {
	for i, k := range s.order {
		if k == key {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
	s.order = append(s.order, key)
}

// Lookup implements CacheStore.
func (s *MemoryStore) Lookup(_ context.Context, key, baseKey string) (*CacheLookup, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[key]
	count := s.counts[key] + 1
	out := &CacheLookup{Count: count}
	if e != nil {
		s.counts[key] = count
		s.touch(key)
		c := e.CacheEntry
		out.Entry = &c
	} else {
		out.PageChanged = s.bases[baseKey]
	}
	return out, nil
}

// Record implements CacheStore.
func (s *MemoryStore) Record(_ context.Context, r *CacheRecord) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var prev *CacheEntry
	if e := s.entries[r.Key]; e != nil {
		prev = &e.CacheEntry
	}
	agree := NextAgree(prev, r)
	result := r.Result
	if result == nil {
		result = json.RawMessage("null")
	}
	s.entries[r.Key] = &memEntry{CacheEntry: CacheEntry{Key: r.Key, Op: r.Op, Result: result, Usage: r.Usage, Agree: agree}, baseKey: r.BaseKey}
	s.touch(r.Key)
	if _, ok := s.counts[r.Key]; !ok {
		s.counts[r.Key] = 1
	}
	s.bases[r.BaseKey] = true
	for len(s.order) > s.max {
		old := s.order[0]
		s.order = s.order[1:]
		delete(s.entries, old)
		delete(s.counts, old)
	}
	return agree, nil
}

// Invalidate implements CacheStore.
func (s *MemoryStore) Invalidate(_ context.Context, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.entries, key)
	delete(s.counts, key)
	for i, k := range s.order {
		if k == key {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
	return nil
}
