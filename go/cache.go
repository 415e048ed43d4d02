package deckhand

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
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

// RemoteStore is the cache of a Deckhand service (`deckhand serve`) over HTTP, authenticated
// with its API key; CreateOptions.APIKey and APIURL make one.
type RemoteStore struct {
	url    string
	key    string
	client *http.Client
}

// NewRemoteStore is a store at apiURL (the service's address) with apiKey.
func NewRemoteStore(apiURL, apiKey string) *RemoteStore {
	if !strings.HasSuffix(apiURL, "/") {
		apiURL += "/"
	}
	return &RemoteStore{url: apiURL, key: apiKey, client: &http.Client{Timeout: 10 * time.Second}}
}

// post sends body to the service and decodes the data of its answer into out (nil: dropped).
func (s *RemoteStore) post(ctx context.Context, path string, body, out any) error {
	raw, err := marshalJS(body)
	req, _ := http.NewRequestWithContext(ctx, "POST", s.url+path, bytes.NewReader(raw))
	if err != nil || req == nil {
		return newError(CodeInvalidArgument, "cannot ask the cache service at %s: %v", s.url, err)
	}
	req.Header.Set("content-type", "application/json")
	req.Header.Set("x-dh-api-key", s.key)
	res, err := s.client.Do(req)
	if err != nil {
		return newError(CodeInternal, "the cache service at %s could not be reached: %v", s.url, err)
	}
	defer res.Body.Close()
	var answer struct {
		Data  json.RawMessage `json:"data"`
		Error struct{ Message string }
	}
	text, _ := io.ReadAll(res.Body)
	jsonErr := json.Unmarshal(text, &answer)
	switch {
	case res.StatusCode/100 != 2:
		code := CodeInternal
		if res.StatusCode == 401 {
			code = CodeInvalidArgument
		}
		return newError(code, "the cache service answered %d: %s", res.StatusCode, cmp.Or(answer.Error.Message, string(text)))
	case jsonErr != nil:
		return newError(CodeInternal, "the cache service answered something that is not JSON: %v", jsonErr)
	case out != nil && json.Unmarshal(answer.Data, out) != nil:
		return newError(CodeInternal, "the cache service's answer to %s does not fit", path)
	}
	return nil
}

// Lookup implements CacheStore.
func (s *RemoteStore) Lookup(ctx context.Context, key, baseKey string) (*CacheLookup, error) {
	var out CacheLookup
	err := s.post(ctx, "v1/cache/lookup", object{{"key", key}, {"baseKey", baseKey}}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Record implements CacheStore.
func (s *RemoteStore) Record(ctx context.Context, r *CacheRecord) (int, error) {
	var out struct {
		Agree int `json:"agree"`
	}
	if err := s.post(ctx, "v1/cache/record", r, &out); err != nil {
		return 0, err
	}
	return out.Agree, nil
}

// Invalidate implements CacheStore.
func (s *RemoteStore) Invalidate(ctx context.Context, key string) error {
	return s.post(ctx, "v1/cache/invalidate", object{{"key", key}}, nil)
}
