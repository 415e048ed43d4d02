package deckhand

// Named flows (src/protocol/flows.ts): a recording kept under a name, replayed step by step
// with no model. The worker keeps them, in the extension or in the client's own store (which it
// reaches through the cache calls it makes back to this client): these calls say where.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// FlowPlace says where a flow is kept.
type FlowPlace string

const (
	// FlowAnywhere (for Get) looks where a replay by name does: the client's store, then the
	// extension. For Save, Rename and Delete it is the worker's default, the extension.
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

// flowParam is f on the wire as the caller filled it in: a zero Version, Source, SavedAt or
// Recording.Version is left out (the worker fills them in), a nil Steps is an empty list.
func flowParam(f *Flow) (object, error) {
	if f == nil {
		return nil, newError(CodeInvalidArgument, "a flow is needed")
	}
	r := f.Recording
	if r.Steps == nil {
		r.Steps = []QaStep{}
	}
	rec := append(object{}.with("version", r.Version), kv{"title", r.Title}, kv{"startUrl", r.StartURL}, kv{"steps", r.Steps})
	o := append(object{}.with("version", f.Version), kv{"name", f.Name})
	return append(o.with("source", f.Source).with("savedAt", f.SavedAt), kv{"recording", rec}), nil
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
	f, err := flowParam(flow)
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
	return invoke[Flow](ctx, f.c, "flow.get", object{{"name", name}}.with("from", string(where)), "")
}

// Save saves (or replaces) a flow under its name: in the extension (FlowInExtension, or ""),
// where the side panel lists it, or in the client's own store (FlowInStore), where only its
// tenant replays it. The worker fills in Version, Source ("client"), SavedAt (now) and
// Recording.Version when they are empty, and trims the name.
func (f *Flows) Save(ctx context.Context, flow *Flow, to FlowPlace) (*FlowSummary, error) {
	fl, err := flowParam(flow)
	if err != nil {
		return nil, err
	}
	return invoke[FlowSummary](ctx, f.c, "flow.save", object{{"flow", fl}}.with("to", string(to)), "")
}

// Rename renames a saved flow (in the extension for ""). In the extension, a name already
// taken is an *Error with CodeAlreadyInUse; in a store, a flow under the new name is replaced.
func (f *Flows) Rename(ctx context.Context, from, to string, where FlowPlace) (*FlowSummary, error) {
	return invoke[FlowSummary](ctx, f.c, "flow.rename", object{{"from", from}, {"to", to}}.with("where", string(where)), "")
}

// Delete deletes a saved flow (from the extension for ""); false when there was none.
func (f *Flows) Delete(ctx context.Context, name string, where FlowPlace) (bool, error) {
	r, err := invoke[struct {
		Deleted bool `json:"deleted"`
	}](ctx, f.c, "flow.delete", object{{"name", name}}.with("from", string(where)), "")
	if err != nil {
		return false, err
	}
	return r.Deleted, nil
}
