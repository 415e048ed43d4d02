package deckhand

// Named flows from Go: a flow recorded in the side panel replays by name with no model call,
// its %name% placeholders filled from Variables; a step that no longer applies stops the
// replay with an *Error naming it; a flow saved in the client's own store replays by name; the
// extension's flows are listed, renamed and deleted.
//
// The flow is recorded by test/fixtures/record-flow.ts (the side panel, the built-in local
// model) into a profile folder; the browser these tests use then opens that same profile.

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

const goFlow = "go order"

var flowInstructions = []string{"type %email% into the Email field", "click the Place order button"}

var (
	flowOnce    sync.Once
	flowShared  *Browser
	flowErr     error
	flowProfile string
)

// flowBrowser is a browser on a profile whose extension has goFlow saved, shared by the flow
// tests and closed after them (TestMain).
func flowBrowser(t *testing.T) (*Browser, string) {
	t.Helper()
	url := origin + "/flow-order.html"
	flowOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		if flowProfile, flowErr = os.MkdirTemp("", "deckhand-flow-profile-"); flowErr != nil {
			return
		}
		afterAll = append(afterAll, func() {
			if flowShared != nil {
				flowShared.Close()
			}
			os.RemoveAll(flowProfile)
		})
		// Recorded in the side panel, as a person would (typed instructions, the built-in model, Save as flow).
		recorder := filepath.Join(repoRoot(t), "test", "fixtures", "record-flow.ts")
		args := []string{"--import", "tsx", recorder, "--profile", flowProfile, "--name", goFlow, "--url", url}
		for _, i := range flowInstructions {
			args = append(args, "--instruction", i)
		}
		cmd := exec.CommandContext(ctx, "node", args...)
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			flowErr = errors.New("record-flow.ts failed: " + err.Error() + ": " + tail(string(out), 2000))
			return
		}
		// The folder the recorder loaded (the Node library's: DECKHAND_EXTENSION_DIR, else the
		// checkout's build), so the profile sees its extension where it was installed.
		ext := os.Getenv("DECKHAND_EXTENSION_DIR")
		if ext == "" {
			ext = filepath.Join(repoRoot(t), ".output", "chrome-mv3")
		}
		flowShared, flowErr = LaunchLocalBrowser(ctx, &LaunchOptions{UserDataDir: flowProfile, ExtensionDir: ext, ViewportWidth: 1000, ViewportHeight: 700})
	})
	if flowErr != nil {
		t.Fatalf("the flow's browser: %v", flowErr)
	}
	return flowShared, url
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func flowClient(t *testing.T, o CreateOptions) (*Client, string) {
	t.Helper()
	b, url := flowBrowser(t)
	o.Browser = b
	c, err := Create(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, url
}

type orderState struct {
	Result string   `json:"result"`
	Log    []string `json:"log"`
	Email  string   `json:"email"`
}

func orderPage(t *testing.T, c *Client) orderState {
	t.Helper()
	return eval[orderState](t, c, "({ result: document.getElementById('result').textContent, log: window.__log, email: document.getElementById('email').value })")
}

func TestFlowRecordedReplaysByNameWithNoModelCall(t *testing.T) {
	ctx := context.Background()
	var calls []string
	c, url := flowClient(t, CreateOptions{Generate: func(_ context.Context, req *ModelRequest) (*ModelReply, error) {
		calls = append(calls, req.Instruction)
		return nil, errors.New("a replay with no model given must not call one")
	}})
	list, err := c.Flows().List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var listed *FlowSummary
	for i := range list {
		if list[i].Name == goFlow {
			listed = &list[i]
		}
	}
	if listed == nil || listed.Source != "panel" || listed.StartURL != url {
		t.Fatalf("list: %+v", list)
	}
	flow, err := c.Flows().Get(ctx, goFlow, FlowAnywhere)
	if err != nil {
		t.Fatal(err)
	}
	var fill *Action
	for _, s := range flow.Recording.Steps {
		for i, a := range s.Actions {
			if a.Method == "fill" || a.Method == "type" {
				fill = &s.Actions[i]
			}
		}
	}
	if fill == nil || !reflect.DeepEqual(fill.Arguments, []string{"%email%"}) {
		t.Fatalf("the recorded fill step keeps the placeholder: %+v", flow.Recording.Steps)
	}
	before, err := c.Metrics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Replay(ctx, goFlow, &ReplayOptions{Variables: map[string]Variable{"email": {Value: "ada@example.com"}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != goFlow || !strings.HasPrefix(r.URL, url) || len(r.Steps) != len(flow.Recording.Steps) {
		t.Fatalf("%+v", r)
	}
	for i, s := range r.Steps {
		if s.Status != "done" || s.ID != flow.Recording.Steps[i].ID {
			t.Fatalf("step %d: %+v", i, s)
		}
	}
	if r.Usage != (Usage{}) || len(calls) != 0 {
		t.Fatalf("usage %+v, model calls %v", r.Usage, calls)
	}
	if after, err := c.Metrics(ctx); err != nil || *after != *before {
		t.Fatalf("metrics changed: %+v -> %+v (%v)", before, after, err)
	}
	if got := orderPage(t, c); got.Result != "Order placed for ada@example.com" || !reflect.DeepEqual(got.Log, []string{"place:ada@example.com"}) {
		t.Fatalf("page: %+v", got)
	}
}

func TestFlowStepGoneStopsWithATypedErrorNamingIt(t *testing.T) {
	ctx := context.Background()
	var calls []string
	c, url := flowClient(t, CreateOptions{Generate: func(_ context.Context, req *ModelRequest) (*ModelReply, error) {
		calls = append(calls, req.Instruction)
		return &ModelReply{Object: map[string]any{"found": false, "elementId": "", "method": "click", "arguments": []string{}, "description": "", "twoStep": false,
			"reason": "no such button"},
			Usage: &ReplyUsage{InputTokens: 10, OutputTokens: 2}}, nil
	}})
	flow, err := c.Flows().Get(ctx, goFlow, FlowInExtension)
	if err != nil {
		t.Fatal(err)
	}
	at := -1
	for i, s := range flow.Recording.Steps {
		for _, a := range s.Actions {
			if s.Kind == "act" && a.Method == "click" && at < 0 {
				at = i
			}
		}
	}
	if at < 0 {
		t.Fatalf("no click step: %+v", flow.Recording.Steps)
	}
	open := func() {
		if _, err := c.Goto(ctx, url, nil); err != nil {
			t.Fatal(err)
		}
	}
	open()
	eval[any](t, c, "localStorage.setItem('flow-order:variant', 'no-button')")
	t.Cleanup(func() { eval[any](t, c, "localStorage.removeItem('flow-order:variant')") })
	started := time.Now()
	_, err = c.Replay(ctx, goFlow, &ReplayOptions{Variables: map[string]Variable{"email": {Value: "ada@example.com"}}, StepTimeout: 500 * time.Millisecond})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeActionFailed {
		t.Fatalf("want ACTION_FAILED, got %v", err)
	}
	want := map[string]any{"index": float64(at + 1), "id": flow.Recording.Steps[at].ID, "description": flow.Recording.Steps[at].Description}
	if !reflect.DeepEqual(e.Data["step"], want) {
		t.Fatalf("data.step %v, want %v", e.Data["step"], want)
	}
	if !strings.Contains(e.Message, `of flow "`+goFlow+`"`) || time.Since(started) > 10*time.Second {
		t.Fatalf("%v after %v", e, time.Since(started))
	}
	if got := orderPage(t, c); got.Email != "ada@example.com" || len(got.Log) != 0 || len(calls) != 0 {
		t.Fatalf("the steps before it ran, not the click, and no model: %+v, %v", got, calls)
	}
	// With the client's model, the step is looked for again with it: here it finds nothing either.
	_, err = c.Replay(ctx, goFlow, &ReplayOptions{Variables: map[string]Variable{"email": {Value: "ada@example.com"}}, StepTimeout: 500 * time.Millisecond,
		UseClientModel: true})
	if !errors.As(err, &e) || e.Code != CodeActionFailed || !reflect.DeepEqual(e.Data["step"], want) {
		t.Fatalf("with a model: %v", err)
	}
	if len(calls) != 1 || !strings.Contains(calls[0], "Place order") {
		t.Fatalf("model calls: %v", calls)
	}
}

func TestFlowInTheClientsStoreReplaysByName(t *testing.T) {
	ctx := context.Background()
	store := NewMemoryStore()
	c, _ := flowClient(t, CreateOptions{Cache: &CacheConfig{Store: store}})
	const mine = "go order (mine)"
	recorded, err := c.Flows().Get(ctx, goFlow, FlowInExtension)
	if err != nil {
		t.Fatal(err)
	}
	cp := *recorded
	cp.Name, cp.Source = "  "+mine+" ", "client"
	s, err := c.Flows().Save(ctx, &cp, FlowInStore)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != mine || s.Source != "client" || s.Steps != len(recorded.Recording.Steps) {
		t.Fatalf("%+v", s)
	}
	look, err := store.Lookup(ctx, FlowKey(mine), FlowKey(mine))
	if err != nil || look.Entry == nil || look.Entry.Op != "flow" {
		t.Fatalf("not in the store under FlowKey: %+v %v", look, err)
	}
	if _, err := c.Flows().Get(ctx, mine, FlowInExtension); codeOf(err) != CodeNotFound {
		t.Fatalf("in the extension too: %v", err)
	}
	before, _ := c.Metrics(ctx)
	r, err := c.Replay(ctx, mine, &ReplayOptions{Variables: map[string]Variable{"email": {Value: "grace@example.com"}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != mine || r.Usage != (Usage{}) {
		t.Fatalf("%+v", r)
	}
	if after, _ := c.Metrics(ctx); *after != *before {
		t.Fatalf("metrics changed")
	}
	if got := orderPage(t, c); got.Result != "Order placed for grace@example.com" {
		t.Fatalf("page: %+v", got)
	}
	if s, err := c.Flows().Rename(ctx, mine, "go order (renamed)", FlowInStore); err != nil || s.Name != "go order (renamed)" {
		t.Fatalf("rename: %+v %v", s, err)
	}
	if ok, err := c.Flows().Delete(ctx, "go order (renamed)", FlowInStore); !ok || err != nil {
		t.Fatalf("delete: %v %v", ok, err)
	}
	if ok, _ := c.Flows().Delete(ctx, "go order (renamed)", FlowInStore); ok {
		t.Fatal("deleted twice")
	}
	// No Version, Source, SavedAt or Recording.Version: the worker fills them in.
	rec := recorded.Recording
	bare := &Flow{Name: "go bare", Recording: QaRecording{Title: rec.Title, StartURL: rec.StartURL, Steps: rec.Steps}}
	if s, err := c.Flows().Save(ctx, bare, FlowInStore); err != nil || s.Source != "client" {
		t.Fatalf("save bare: %+v %v", s, err)
	}
	if g, err := c.Flows().Get(ctx, "go bare", FlowInStore); err != nil || g.Version != 1 || g.Source != "client" || g.SavedAt == "" || g.Recording.Version != 1 {
		t.Fatalf("get bare: %+v %v", g, err)
	}
	if _, err := c.Flows().Rename(ctx, "no such flow", "x", FlowInStore); codeOf(err) != CodeNotFound {
		t.Fatalf("rename of no flow: %v", err)
	}
	c.Close()
	// Another client, with no store of its own, has no such flow.
	c2, _ := flowClient(t, CreateOptions{})
	if _, err := c2.Replay(ctx, mine, nil); codeOf(err) != CodeNotFound {
		t.Fatalf("want NOT_FOUND, got %v", err)
	}
	_, err = c2.Flows().Save(ctx, recorded, FlowInStore)
	if codeOf(err) != CodeInvalidArgument || !strings.Contains(err.Error(), "no cache store to keep flows in") {
		t.Fatalf("no store: %v", err)
	}
}

func TestFlowsInTheExtensionSavedRenamedDeleted(t *testing.T) {
	ctx := context.Background()
	c, _ := flowClient(t, CreateOptions{})
	f, err := c.Flows().Get(ctx, goFlow, FlowAnywhere)
	if err != nil {
		t.Fatal(err)
	}
	cp := *f
	cp.Name = "go copy"
	if s, err := c.Flows().Save(ctx, &cp, ""); err != nil || s.Name != "go copy" {
		t.Fatalf("save: %+v %v", s, err)
	}
	if _, err := c.Flows().Rename(ctx, "go copy", goFlow, ""); codeOf(err) != CodeAlreadyInUse {
		t.Fatalf("rename onto a taken name: %v", err)
	}
	if s, err := c.Flows().Rename(ctx, "go copy", "go copy 2", FlowInExtension); err != nil || s.Name != "go copy 2" {
		t.Fatalf("rename: %+v %v", s, err)
	}
	if ok, err := c.Flows().Delete(ctx, "go copy 2", ""); !ok || err != nil {
		t.Fatalf("delete: %v %v", ok, err)
	}
	if ok, err := c.Flows().Delete(ctx, "go copy 2", ""); ok || err != nil {
		t.Fatalf("delete again: %v %v", ok, err)
	}
	if _, err := c.Flows().Get(ctx, "no such flow", ""); codeOf(err) != CodeNotFound {
		t.Fatalf("get: %v", err)
	}
	if _, err := c.Flows().Get(ctx, " \t", ""); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("empty name: %v", err)
	}
	if _, err := c.Flows().Save(ctx, &cp, "elsewhere"); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("bad place: %v", err)
	}
}

func TestFlowGivenWholeAndItsTimeout(t *testing.T) {
	ctx := context.Background()
	c, url := flowClient(t, CreateOptions{})
	waits := &Flow{Name: "waits", Recording: QaRecording{Title: "t", StartURL: url, Steps: []QaStep{{Kind: "wait", ID: "w", Description: "wait", Ms: 5000}}}}
	started := time.Now()
	_, err := c.ReplayFlow(ctx, waits, &ReplayOptions{Timeout: 400 * time.Millisecond})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeTimeout || time.Since(started) > 3*time.Second {
		t.Fatalf("want TIMEOUT within 3 s, got %v after %v", err, time.Since(started))
	}
	waits.Recording.Steps[0].Ms = 10
	r, err := c.ReplayFlow(ctx, waits, nil)
	if err != nil || r.Name != "waits" || len(r.Steps) != 1 || r.Steps[0].Status != "done" {
		t.Fatalf("%+v %v", r, err)
	}
	// A cancelled context stops it too.
	waits.Recording.Steps[0].Ms = 5000
	cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := c.ReplayFlow(cctx, waits, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the context's error, got %v", err)
	}
	if _, err := c.Replay(ctx, goFlow, &ReplayOptions{StepTimeout: time.Nanosecond}); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("bad StepTimeout: %v", err)
	}
}

func TestFlowKeyIsTheWorkers(t *testing.T) {
	// Computed with flowKey in src/protocol/flows.ts.
	for name, want := range map[string]string{
		"checkout": "b58ec35cb9b3fd9cb98ce115f52cd00c9c309ab258f0d2749a17e7b22305c296",
		"\u00a0 Ünïcødé 💳 \"q\" \\ back\\slash \u2028\ufeff": "a3cb3927d9306cd7094bdad462fceef750c088a8fde2ce5d6969f7172994f726",
		"Place order\u3000": "3edd9dfa106320581dbb9af513bdce8ae1ac364df0f66e0405021053fd0d9b27",
		" checkout\n":       "b58ec35cb9b3fd9cb98ce115f52cd00c9c309ab258f0d2749a17e7b22305c296",
	} {
		if got := FlowKey(name); got != want {
			t.Errorf("FlowKey(%q) = %s, want %s", name, got, want)
		}
	}
}

func TestFlowStepsAreWrittenByKind(t *testing.T) {
	b, err := marshalJS([]QaStep{
		{Kind: "act", ID: "a", Description: "d", Actions: []Action{{Selector: "#x", Description: "x"}}},
		{Kind: "wait", ID: "w", Description: "d", Ms: 0},
		{Kind: "goto", ID: "g", Description: "d", URL: "http://a/", URLAfter: "http://a/"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"kind":"act","id":"a","description":"d","actions":[{"selector":"#x","description":"x"}],"urlAfter":""},` +
		`{"kind":"wait","id":"w","description":"d","ms":0},{"kind":"goto","id":"g","description":"d","url":"http://a/","urlAfter":"http://a/"}]`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}
