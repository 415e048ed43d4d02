package deckhand

// A page's own tools (WebMCP) on the fixture store, end to end in real Chromium: listed, called,
// their typed errors, a form tool that navigates, cancelling a call, and Act calling one with the
// built-in model and with a provider model (the scripted server of test/fixtures/model-server-cli.ts).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// toolsPage opens the fixture store in the shared browser and gives its page.
func toolsPage(t *testing.T, ctx context.Context) (*Client, *Page) {
	t.Helper()
	c := newClient(t, CreateOptions{})
	open(t, c, "/tools.html")
	page, err := c.ActivePage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return c, page
}

func evalOn[T any](t *testing.T, ctx context.Context, page *Page, expr string) T {
	t.Helper()
	var out T
	if err := page.Evaluate(ctx, expr, &out, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPageToolsListedCalledAndTheirErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, page := toolsPage(t, ctx)
	tools, err := page.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]PageTool{}
	for _, tool := range tools {
		byName[tool.Name] = tool
	}
	for _, want := range []string{"add_to_cart", "cart_contents", "search_catalogue", "subscribe_newsletter"} {
		if _, ok := byName[want]; !ok {
			t.Errorf("no tool %s among %v", want, tools)
		}
	}
	if _, ok := byName["hidden_form_tool"]; ok {
		t.Error("a form nobody can see is listed")
	}
	if add := byName["add_to_cart"]; add.Form || !strings.Contains(string(add.InputSchema), `"sku"`) {
		t.Errorf("add_to_cart: %+v", add)
	}
	if s := byName["search_catalogue"]; !s.Form || s.Autosubmit == nil || !*s.Autosubmit {
		t.Errorf("search_catalogue: %+v", s)
	}

	r, err := page.CallTool(ctx, "add_to_cart", map[string]any{"sku": "C2", "qty": 2}, nil)
	if err != nil || !strings.Contains(r.Output, "C2") || r.Navigated != "" {
		t.Fatal(err, r)
	}
	if n := evalOn[string](t, ctx, page, "document.getElementById('cart-count').textContent"); n != "2 items" {
		t.Fatalf("the cart count reads %q", n)
	}

	// Input the tool's schema refuses never reaches the page.
	if _, err := page.CallTool(ctx, "add_to_cart", map[string]any{"sku": "ZZ"}, nil); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("a SKU the schema refuses: %v", err)
	}
	if calls := evalOn[[]string](t, ctx, page, "window.toolCalls"); !reflect.DeepEqual(calls, []string{"add_to_cart"}) {
		t.Fatalf("the page's tools were called %v", calls)
	}
	if _, err := page.CallTool(ctx, "no_such_tool", nil, nil); codeOf(err) != CodeToolNotFound {
		t.Fatalf("an unknown tool: %v", err)
	}
	if _, err := page.CallTool(ctx, "broken", nil, nil); codeOf(err) != CodeToolFailed {
		t.Fatalf("a tool that throws: %v", err)
	}
	start := time.Now()
	if _, err := page.CallTool(ctx, "never_answers", nil, &CallToolOptions{Timeout: time.Second}); codeOf(err) != CodeTimeout {
		t.Fatalf("a tool that never answers: %v", err)
	}
	if d := time.Since(start); d > 3500*time.Millisecond {
		t.Fatalf("a 1 s timeout took %v", d)
	}

	r, err = page.CallTool(ctx, "subscribe_newsletter", map[string]any{"email": "ada@example.com"}, nil)
	if err != nil || r.Output != "subscribed ada@example.com" {
		t.Fatal(err, r)
	}
	if s := evalOn[string](t, ctx, page, "document.getElementById('subscribed').textContent"); s != "Subscribed ada@example.com" {
		t.Fatalf("the page shows %q", s)
	}
}

func TestPageToolCallCancelledWithTheContextTellsTheTool(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, page := toolsPage(t, ctx)
	callCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := page.CallTool(callCtx, "never_answers", nil, nil)
		done <- err
	}()
	for i := 0; i < 100 && len(evalOn[[]string](t, ctx, page, "window.toolCalls")) == 0; i++ {
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("a cancelled call returned %v", err)
		}
	case <-time.After(time.Second):
		t.Fatal("a cancelled call did not return at once")
	}
	// op.cancel reaches the worker, which cancels the tool's call in the page.
	want := []string{"never_answers", "cancelled"}
	var calls []string
	for i := 0; i < 60; i++ {
		if calls = evalOn[[]string](t, ctx, page, "window.toolCalls"); reflect.DeepEqual(calls, want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the page's tool calls are %v, want %v", calls, want)
}

func TestPageToolFormThatSubmitsItselfNavigates(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, page := toolsPage(t, ctx)
	r, err := page.CallTool(ctx, "search_catalogue", map[string]any{"q": "rope"}, nil)
	if err != nil || r.Output != "" || !strings.Contains(r.Navigated, "tools-results.html") {
		t.Fatal(err, r)
	}
	u, err := page.URL(ctx)
	if err != nil || !strings.HasPrefix(u, origin+"/tools-results.html") || !strings.Contains(u, "q=rope") {
		t.Fatal(err, u)
	}
	if q := evalOn[string](t, ctx, page, "document.getElementById('query').textContent"); q != "Results for rope" {
		t.Fatalf("the results page shows %q", q)
	}
}

func TestPageToolCalledByActWithTheLocalModel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, page := toolsPage(t, ctx)
	r, err := c.Act(ctx, ActInstruction("add 3 of R10 to the cart"), nil)
	if err != nil || !r.Data.Success || !strings.Contains(r.Data.Message, "called the page's tool 'add_to_cart'") {
		t.Fatal(err, r)
	}
	if cart := evalOn[string](t, ctx, page, "document.getElementById('cart').textContent"); !strings.Contains(cart, "R10") {
		t.Fatalf("the cart holds %q", cart)
	}
	if n := evalOn[string](t, ctx, page, "document.getElementById('cart-count').textContent"); n != "3 items" {
		t.Fatalf("the cart count reads %q", n)
	}
}

// scriptedServer is the scripted OpenAI-compatible server: its replies are queued and its requests
// read over HTTP.
type scriptedServer struct{ url, origin string }

// scriptedRequest is one request the scripted server received.
type scriptedRequest struct {
	Path   string         `json:"path"`
	Body   map[string]any `json:"body"`
	Prompt string         `json:"prompt"`
}

// startScriptedServer starts the server; it stops when the test ends (the CLI stops when its stdin
// closes).
func startScriptedServer(t *testing.T) *scriptedServer {
	t.Helper()
	url := startFixtureCLI(t, "the scripted model server", "model-server-cli.ts", nil, 30*time.Second, 10*time.Second)
	return &scriptedServer{url: url, origin: strings.TrimSuffix(url, "/v1")}
}

func (s *scriptedServer) call(t *testing.T, method, path string, body, out any) {
	t.Helper()
	var in io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		in = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, s.origin+path, in)
	req.Header.Set("content-type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("%s %s: HTTP %d: %s", method, path, res.StatusCode, b)
	}
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPageToolCalledByActWithAProviderModel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ms := startScriptedServer(t)
	c, page := toolsPage(t, ctx)
	// A fake key, sent only to the scripted server on 127.0.0.1.
	model := &ModelConfig{ModelName: "openai/gpt-4.1-mini", APIKey: "sk-tools", BaseURL: ms.url}
	ms.call(t, http.MethodDelete, "/recorded", nil, nil)
	ms.call(t, http.MethodPost, "/script", []any{map[string]any{
		"object": map[string]any{
			"found":       true,
			"elementId":   "page",
			"method":      "callTool",
			"arguments":   []string{"add_to_cart", `{"sku":"L1","qty":2}`},
			"description": "add two lanterns",
			"twoStep":     false,
			"reason":      "",
		},
		"usage": map[string]int{"input": 100, "output": 20},
	}}, nil)
	r, err := c.Act(ctx, ActInstruction("add two lanterns to the cart"), &ActOptions{Model: model})
	want := `called the page's tool 'add_to_cart'; it answered "added 2 × L1; the cart holds 2 items"`
	if err != nil || !r.Data.Success || r.Data.Message != want {
		t.Fatal(err, r)
	}
	if cart := evalOn[string](t, ctx, page, "document.getElementById('cart').textContent"); cart != "L1 × 2" {
		t.Fatalf("the cart holds %q", cart)
	}
	var xs []scriptedRequest
	ms.call(t, http.MethodGet, "/recorded", nil, &xs)
	if len(xs) == 0 || !strings.Contains(xs[0].Prompt, "- tool page_add_to_cart(") {
		t.Fatalf("the model was not shown the page's tools: %+v", xs)
	}
}
