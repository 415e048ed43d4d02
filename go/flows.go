package deckhand

// Named flows (src/protocol/flows.ts): a recording kept under a name, replayed step by step
// with no model.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf16"
)

// FlowPlace says where a flow is kept.
type FlowPlace string

const (
	// FlowAnywhere (for Get) looks where a replay by name does: the client's store, then the
	// extension.
	FlowAnywhere FlowPlace = ""
	// FlowInExtension is the extension's IndexedDB: the side panel's flows, and those saved there.
	FlowInExtension FlowPlace = "extension"
	// FlowInStore is the client's own cache store (CreateOptions.Cache's, or the service's for
	// APIKey and APIURL), under FlowKey(name) with op "flow": only its tenant replays them.
	FlowInStore FlowPlace = "store"
)

// FlowKey is the key a flow is stored under in a client's cache store (op "flow"): the SHA-256,
// in hex, of JSON.stringify({v: 1, op: "flow", name}) with the name trimmed, as the worker
// computes it.
func FlowKey(name string) string {
	b, _ := marshalJS(object{{"v", 1}, {"op", "flow"}, {"name", jsTrim(name)}})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// jsTrim trims as JavaScript's String.prototype.trim: WhiteSpace and LineTerminator.
func jsTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
			return true
		}
		return r >= 0x2000 && r <= 0x200a
	})
}

// flowName checks a flow's name as the worker does (FlowNameSchema) and trims it.
func flowName(name string) (string, error) {
	n := jsTrim(name)
	if n == "" {
		return "", newError(CodeInvalidArgument, "a flow name must not be empty")
	}
	if len(utf16.Encode([]rune(n))) > 120 {
		return "", newError(CodeInvalidArgument, "a flow name is at most 120 characters")
	}
	if strings.IndexFunc(n, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return "", newError(CodeInvalidArgument, "a flow name must not contain control characters")
	}
	return n, nil
}

// prepared is a copy of f with the name trimmed and Version, Source and SavedAt filled in.
func (f *Flow) prepared() (*Flow, error) {
	if f == nil {
		return nil, newError(CodeInvalidArgument, "a flow is needed")
	}
	g := *f
	var err error
	if g.Name, err = flowName(g.Name); err != nil {
		return nil, err
	}
	if g.Version == 0 {
		g.Version = 1
	}
	if g.Source == "" {
		g.Source = "client"
	}
	if g.SavedAt == "" {
		g.SavedAt = time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	}
	if g.Recording.Version == 0 {
		g.Recording.Version = 1
	}
	if g.Recording.Steps == nil {
		g.Recording.Steps = []QaStep{}
	}
	return &g, nil
}

// Replay replays the flow saved under name, step by step, with no model: the client's own
// store is looked in first, then the extension's flows (the side panel's among them). It
// opens the flow's start page on the page (default: the active one) and performs each recorded
// step there. A step whose element is gone stops the replay with an *Error (CodeActionFailed)
// whose Data["step"] is {"index", "id", "description"}, unless a model is given
// (ReplayOptions.Model): then it is re-found with it. Cancelling ctx stops the replay in the
// worker too.
func (c *Client) Replay(ctx context.Context, name string, opts *ReplayOptions) (*FlowReplayResult, error) {
	return c.replay(ctx, object{{"name", name}}, opts)
}

// ReplayFlow replays a flow given whole (an exported one, say), as Replay does.
func (c *Client) ReplayFlow(ctx context.Context, flow *Flow, opts *ReplayOptions) (*FlowReplayResult, error) {
	f, err := flow.prepared()
	if err != nil {
		return nil, err
	}
	return c.replay(ctx, object{{"flow", f}}, opts)
}

func (c *Client) replay(ctx context.Context, params object, opts *ReplayOptions) (*FlowReplayResult, error) {
	o := ReplayOptions{}
	if opts != nil {
		o = *opts
	}
	if err := c.checkPage(o.Page); err != nil {
		return nil, err
	}
	if o.Page != nil {
		params = append(params, kv{"page", o.Page.id})
	}
	params = params.with("variables", o.Variables)
	if !isNilValue(o.Model) || o.UseClientModel {
		m, err := c.defaultModel(o.Model)
		if err != nil {
			return nil, err
		}
		params = append(params, kv{"model", m})
	}
	opID := uuid4()
	params = params.with("stepTimeout", ms(o.StepTimeout)).with("timeout", ms(o.Timeout)).with("opId", opID)
	return invoke[FlowReplayResult](ctx, c, "flow.replay", params, opID)
}

// Flows are the saved flows: the extension's and the client's own store's.
type Flows struct{ c *Client }

// Flows gives the saved flows: List, Get, Save, Rename, Delete.
func (c *Client) Flows() *Flows { return &Flows{c} }

func (f *Flows) store() (CacheStore, error) {
	if f.c.isClosed() {
		return nil, newError(CodeClosed, "cannot use the flows of a closed Deckhand client")
	}
	if f.c.store == nil {
		return nil, newError(CodeInvalidArgument, "this client has no cache store to keep flows in: create it with CreateOptions.Cache (or APIKey and APIURL)")
	}
	return f.c.store, nil
}

// fromStore is the flow under name in the client's store (nil: none); NOT_FOUND when must.
func (f *Flows) fromStore(ctx context.Context, name string, must bool) (*Flow, error) {
	s, err := f.store()
	if err != nil {
		return nil, err
	}
	key := FlowKey(name)
	look, err := s.Lookup(ctx, key, key)
	if err != nil {
		return nil, err
	}
	var fl Flow
	// Not a flow this client can read: as the worker, take it for absent.
	if look != nil && look.Entry != nil && look.Entry.Op == "flow" && json.Unmarshal(look.Entry.Result, &fl) == nil && fl.Version == 1 {
		return &fl, nil
	}
	if must {
		return nil, &Error{Code: CodeNotFound, Message: fmt.Sprintf("no flow named \"%s\" is saved in this client's store", name), Data: map[string]any{"flow": name}}
	}
	return nil, nil
}

func place(p FlowPlace, what string, anywhere bool) (FlowPlace, error) {
	switch {
	case p == FlowInExtension || p == FlowInStore || p == FlowAnywhere && anywhere:
		return p, nil
	case p == FlowAnywhere:
		return FlowInExtension, nil
	}
	return "", newError(CodeInvalidArgument, "%s must be FlowInExtension or FlowInStore, got %q", what, string(p))
}

// List returns the extension's saved flows (the side panel's and those saved there), newest
// first. A store keeps flows by key and cannot list them.
func (f *Flows) List(ctx context.Context) ([]FlowSummary, error) {
	out, err := invoke[[]FlowSummary](ctx, f.c, "flow.list", struct{}{}, "")
	if err != nil {
		return nil, err
	}
	return *out, nil
}

// Get returns a saved flow. FlowAnywhere looks where a replay by name does: the client's store
// (when it has one), then the extension. An *Error with CodeNotFound when it is not there.
func (f *Flows) Get(ctx context.Context, name string, where FlowPlace) (*Flow, error) {
	where, err := place(where, "where", true)
	if err != nil {
		return nil, err
	}
	if where == FlowInStore || (where == FlowAnywhere && f.c.store != nil) {
		n, err := flowName(name)
		if err != nil {
			return nil, err
		}
		if fl, err := f.fromStore(ctx, n, where == FlowInStore); err != nil || fl != nil {
			return fl, err
		}
	}
	return invoke[Flow](ctx, f.c, "flow.get", object{{"name", name}}, "")
}

// Save saves (or replaces) a flow under its name: in the extension (FlowInExtension, or ""),
// where the side panel lists it, or in the client's own store (FlowInStore), where only its
// tenant replays it. Version, Source ("client") and SavedAt (now) are filled in when empty.
func (f *Flows) Save(ctx context.Context, flow *Flow, to FlowPlace) (*FlowSummary, error) {
	fl, err := flow.prepared()
	if err != nil {
		return nil, err
	}
	if to, err = place(to, "to", false); err != nil {
		return nil, err
	}
	if to == FlowInExtension {
		return invoke[FlowSummary](ctx, f.c, "flow.save", object{{"flow", fl}}, "")
	}
	s, err := f.store()
	if err != nil {
		return nil, err
	}
	result, err := marshalJS(fl)
	if err != nil {
		return nil, err
	}
	usage, _ := marshalJS(Usage{})
	key := FlowKey(fl.Name)
	if _, err := s.Record(ctx, &CacheRecord{Key: key, BaseKey: key, Op: "flow", Result: result, Usage: usage}); err != nil {
		return nil, err
	}
	r := fl.Recording
	return &FlowSummary{Name: fl.Name, Title: r.Title, Source: fl.Source, SavedAt: fl.SavedAt, StartURL: r.StartURL, Steps: len(r.Steps)}, nil
}

// Rename renames a saved flow (in the extension for ""). In the extension, a name already
// taken is an *Error with CodeAlreadyInUse; in a store, a flow under the new name is replaced.
func (f *Flows) Rename(ctx context.Context, from, to string, where FlowPlace) (*FlowSummary, error) {
	where, err := place(where, "where", false)
	if err != nil {
		return nil, err
	}
	if where == FlowInExtension {
		return invoke[FlowSummary](ctx, f.c, "flow.rename", object{{"from", from}, {"to", to}}, "")
	}
	old, err := flowName(from)
	if err != nil {
		return nil, err
	}
	fl, err := f.fromStore(ctx, old, true)
	if err != nil {
		return nil, err
	}
	fl.Name = to
	s, err := f.Save(ctx, fl, FlowInStore)
	if err == nil && FlowKey(old) != FlowKey(s.Name) {
		err = f.c.store.Invalidate(ctx, FlowKey(old))
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Delete deletes a saved flow (from the extension for ""); false when there was none.
func (f *Flows) Delete(ctx context.Context, name string, where FlowPlace) (bool, error) {
	where, err := place(where, "where", false)
	if err != nil {
		return false, err
	}
	if where == FlowInExtension {
		r, err := invoke[struct {
			Deleted bool `json:"deleted"`
		}](ctx, f.c, "flow.delete", object{{"name", name}}, "")
		if err != nil {
			return false, err
		}
		return r.Deleted, nil
	}
	n, err := flowName(name)
	if err != nil {
		return false, err
	}
	fl, err := f.fromStore(ctx, n, false)
	if err != nil || fl == nil {
		return false, err
	}
	return true, f.c.store.Invalidate(ctx, FlowKey(n))
}
