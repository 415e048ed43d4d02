package deckhand

// A page's own tools (WebMCP) on the fixture store, end to end in real Chromium: listed, called,
// their typed errors, a form tool that navigates, cancelling a call, and Act with the built-in
// model calling one.

import (
	"context"
	"errors"
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
