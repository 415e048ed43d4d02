package deckhand

import (
	"context"
	"encoding/json"
	"time"
)

// The worker's calls to this client (src/client/worker-calls.ts in Go): the cache store, callback
// models, the caller's agent tools, approvals of risky steps (approval.go) and log lines.

func (c *Client) serve() {
	l := c.link
	store := func() (CacheStore, error) {
		if c.store == nil {
			return nil, newError(CodeInvalidArgument, "this client has no cache store")
		}
		return c.store, nil
	}
	l.peer.handle("cache.lookup", func(ctx context.Context, p json.RawMessage) (any, error) {
		s, err := store()
		if err != nil {
			return nil, err
		}
		var req struct {
			Key     string `json:"key"`
			BaseKey string `json:"baseKey"`
		}
		if err := json.Unmarshal(p, &req); err != nil || req.Key == "" {
			return nil, newError(CodeInvalidArgument, "invalid cache.lookup parameters")
		}
		return s.Lookup(ctx, req.Key, req.BaseKey)
	})
	l.peer.handle("cache.record", func(ctx context.Context, p json.RawMessage) (any, error) {
		s, err := store()
		if err != nil {
			return nil, err
		}
		var req CacheRecord
		if err := json.Unmarshal(p, &req); err != nil || req.Key == "" {
			return nil, newError(CodeInvalidArgument, "invalid cache.record parameters")
		}
		agree, err := s.Record(ctx, &req)
		if err != nil {
			return nil, err
		}
		return struct {
			Agree int `json:"agree"`
		}{agree}, nil
	})
	l.peer.handle("cache.invalidate", func(ctx context.Context, p json.RawMessage) (any, error) {
		s, err := store()
		if err != nil {
			return nil, err
		}
		var req struct {
			Key string `json:"key"`
		}
		if err := json.Unmarshal(p, &req); err != nil {
			return nil, newError(CodeInvalidArgument, "invalid cache.invalidate parameters")
		}
		return nil, s.Invalidate(ctx, req.Key)
	})
	l.peer.handle("model.generate", c.generate)
	l.peer.handle("tool.call", c.toolCall)
	l.peer.handle("approval.request", c.approvalRequest)
	l.peer.handle("approval.settled", c.approvalSettled)
	l.peer.handle("log", func(_ context.Context, p json.RawMessage) (any, error) {
		var req struct {
			Level   string          `json:"level"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(p, &req); err != nil {
			return nil, newError(CodeInvalidArgument, "invalid log parameters: %v", err)
		}
		c.recordModelCall(req.Data)
		c.log(req.Level, req.Message, req.Data)
		return nil, nil
	})
}

func (c *Client) generate(ctx context.Context, p json.RawMessage) (any, error) {
	var params struct {
		CallbackID string          `json:"callbackId"`
		Request    json.RawMessage `json:"request"`
	}
	if err := json.Unmarshal(p, &params); err != nil {
		return nil, newError(CodeInvalidArgument, "invalid model.generate parameters: %v", err)
	}
	c.mu.Lock()
	m := c.callbacks[params.CallbackID]
	c.mu.Unlock()
	if m == nil || c.isClosed() {
		return nil, newError(CodeNoModelConfigured, "the callback model is no longer registered with this client")
	}
	var req ModelRequest
	if err := json.Unmarshal(params.Request, &req); err != nil {
		return nil, newError(CodeInvalidArgument, "invalid model.generate parameters: %v", err)
	}
	if req.TimeoutMs > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(req.TimeoutMs)*time.Millisecond)
		defer cancel()
	}
	// The callback's ctx also ends when the caller abandons the operation it serves.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.mu.Lock()
	c.gens[&cancel] = struct{}{}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.gens, &cancel)
		c.mu.Unlock()
	}()
	reply, err := m.Generate(ctx, &req)
	if err != nil {
		return nil, err
	}
	if reply == nil {
		return nil, newError(CodeInvalidArgument, "the generation callback must return a *ModelReply ({Object, Usage})")
	}
	return reply, nil
}
