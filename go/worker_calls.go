package deckhand

import (
	"context"
	"encoding/json"
	"time"
)

// The worker's calls to this client (src/client/worker-calls.ts in Go): the cache store, callback
// models, the caller's agent tools, approvals of risky steps (approval.go) and log lines.

// serveAs handles one of the worker's methods with its params decoded into P.
func serveAs[P any](p *rpcPeer, method string, f func(ctx context.Context, params *P) (any, error)) {
	p.handle(method, func(ctx context.Context, raw json.RawMessage) (any, error) {
		var params P
		if err := json.Unmarshal(raw, &params); err != nil {
			return nil, newError(CodeInvalidArgument, "invalid %s parameters: %v", method, err)
		}
		return f(ctx, &params)
	})
}

func (c *Client) serve() {
	p := c.link.peer
	// The cache store's methods, refused when the client has none.
	cache := func(f func(CacheStore) (any, error)) (any, error) {
		if c.store == nil {
			return nil, newError(CodeInvalidArgument, "this client has no cache store")
		}
		return f(c.store)
	}
	serveAs(p, "cache.lookup", func(ctx context.Context, req *struct{ Key, BaseKey string }) (any, error) {
		return cache(func(s CacheStore) (any, error) { return s.Lookup(ctx, req.Key, req.BaseKey) })
	})
	serveAs(p, "cache.record", func(ctx context.Context, req *CacheRecord) (any, error) {
		return cache(func(s CacheStore) (any, error) {
			agree, err := s.Record(ctx, req)
			return object{{"agree", agree}}, err
		})
	})
	serveAs(p, "cache.invalidate", func(ctx context.Context, req *struct{ Key string }) (any, error) {
		return cache(func(s CacheStore) (any, error) { return nil, s.Invalidate(ctx, req.Key) })
	})
	serveAs(p, "model.generate", c.generate)
	serveAs(p, "tool.call", c.toolCall)
	p.handle("approval.request", c.approvalRequest)
	p.handle("approval.settled", c.approvalSettled)
	serveAs(p, "log", func(_ context.Context, req *struct {
		Level, Message string
		Data           json.RawMessage
	}) (any, error) {
		c.recordModelCall(req.Data)
		c.log(req.Level, req.Message, req.Data)
		return nil, nil
	})
}

func (c *Client) generate(ctx context.Context, p *struct {
	CallbackID string       `json:"callbackId"`
	Request    ModelRequest `json:"request"`
}) (any, error) {
	c.mu.Lock()
	m := c.callbacks[p.CallbackID]
	c.mu.Unlock()
	if m == nil || c.isClosed() {
		return nil, newError(CodeNoModelConfigured, "the callback model is no longer registered with this client")
	}
	if p.Request.TimeoutMs > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(p.Request.TimeoutMs)*time.Millisecond)
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
	reply, err := m.Generate(ctx, &p.Request)
	if err == nil && reply == nil {
		err = newError(CodeInvalidArgument, "the generation callback must return a *ModelReply ({Object, Usage})")
	}
	return reply, err
}
