package deckhand

// Pages, locators, page.Extract and the agent, end to end in real Chromium on the fixture pages.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestPageAndLocatorsFillTheFormAndReadItBack(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := newClient(t, CreateOptions{})
	page, err := c.ActivePage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if same := c.Page(page.ID()); same != page {
		t.Fatal("Page(id) should give the same *Page")
	}
	info, err := page.Goto(ctx, origin+"/form.html", &GotoOptions{WaitUntil: "load", Timeout: 10 * time.Second})
	if err != nil || info.Title != "Sign up" || info.ID != page.ID() {
		t.Fatal(err, info)
	}
	if title, err := page.Title(ctx); err != nil || title != "Sign up" {
		t.Fatal(err, title)
	}
	if u, err := page.URL(ctx); err != nil || u != origin+"/form.html" {
		t.Fatal(err, u)
	}

	steps := []struct {
		what string
		do   func() error
	}{
		{"fill", func() error { return page.Locator("#name").Fill(ctx, "Ada Lovelace", nil) }},
		{"type", func() error {
			return page.Locator("#bio").Type(ctx, "Analyst", &ActionOptions{Timeout: 5 * time.Second})
		}},
		{"check", func() error { return page.Locator("#terms").Check(ctx, nil) }},
		{"uncheck", func() error { return page.Locator("#news").Uncheck(ctx, nil) }},
		{"nth radio", func() error { return page.Locator("input[type=radio]").Nth(1).Check(ctx, nil) }},
		{"select one", func() error { return page.Locator("#country").SelectOption(ctx, []string{"fr"}, nil) }},
		{"select several", func() error { return page.Locator("#langs").SelectOption(ctx, []string{"en", "de"}, nil) }},
		{"hover", func() error { return page.Locator("#hover-target").Hover(ctx, nil) }},
		{"dblclick", func() error { return page.Locator("#multi").Dblclick(ctx, nil) }},
		{"scroll", func() error { return page.Locator("#submit").ScrollIntoView(ctx, nil) }},
		{"fill the email", func() error { return page.Locator("#email").Fill(ctx, "ada@example.com", nil) }},
		{"press in a field", func() error { return page.Locator("#email").Press(ctx, "End", nil) }},
		{"press on the page", func() error { return page.Press(ctx, "Control+A", nil) }},
		{"submit", func() error { return page.Locator("#submit").First().Click(ctx, nil) }},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.what, err)
		}
	}

	var result struct {
		Name    string   `json:"name"`
		Email   string   `json:"email"`
		Bio     string   `json:"bio"`
		Terms   bool     `json:"terms"`
		News    bool     `json:"news"`
		Plan    string   `json:"plan"`
		Country string   `json:"country"`
		Langs   []string `json:"langs"`
	}
	var text string
	if err := page.Evaluate(ctx, "document.getElementById('result').textContent", &text, nil); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(text), &result); err != nil {
		t.Fatalf("%v: %q", err, text)
	}
	if result.Name != "Ada Lovelace" || result.Email != "ada@example.com" || result.Bio != "Analyst" || !result.Terms || result.News || result.Plan != "pro" ||
		result.Country != "fr" || strings.Join(result.Langs, ",") != "en,de" {
		t.Fatalf("the form holds %+v", result)
	}
	var log []string
	if err := page.EvaluateFunction(ctx, "(n) => window.__log.slice(-n)", 100, &log, &EvaluateOptions{Timeout: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(log, " ")
	for _, want := range []string{"mouseenter:hover-target", "dblclick:multi", "keydown:End", "keydown:Control+a"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the page's log lacks %s: %v", want, log)
		}
	}
	var sum float64
	if err := page.EvaluateFunction(ctx, "(x) => x.a + x.b", map[string]int{"a": 2, "b": 3}, &sum, nil); err != nil || sum != 5 {
		t.Fatal(err, sum)
	}

	if n, err := page.Locator("input[type=radio]").Count(ctx); err != nil || n != 2 {
		t.Fatal(err, n)
	}
	if n, err := page.Locator("input[type=radio]").Nth(5).Count(ctx); err != nil || n != 0 {
		t.Fatal(err, n)
	}

	png, err := page.Screenshot(ctx, nil)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("png: %v %d bytes", err, len(png))
	}
	jpeg, err := page.Screenshot(ctx, &ScreenshotOptions{Type: "jpeg", Quality: Int(40)})
	if err != nil || !bytes.HasPrefix(jpeg, []byte{0xff, 0xd8}) {
		t.Fatalf("jpeg: %v %d bytes", err, len(jpeg))
	}

	snap, err := page.Snapshot(ctx, &SnapshotOptions{Locator: page.Locator("#signup"), IgnoreLocators: []*Locator{page.Locator("#country")}, Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(snap.Text, "Full name") || strings.Contains(snap.Text, "Multi") || strings.Contains(snap.Text, "Germany") ||
		snap.URL != origin+"/form.html" {
		t.Fatalf("scoped snapshot: %s", snap.Text)
	}

	// Failures are typed and name what was wrong; the bad ones are refused before anything is sent.
	err = page.Locator("#gone").Click(ctx, &ActionOptions{Timeout: 300 * time.Millisecond})
	if code := codeOf(err); code != CodeElementNotFound && code != CodeTimeout {
		t.Fatalf("a missing element: %v", err)
	}
	if err := page.Locator("  ").Click(ctx, nil); codeOf(err) != CodeInvalidSelector {
		t.Fatalf("an empty selector: %v", err)
	}
	if _, err := page.Locator("input").Nth(-1).Count(ctx); codeOf(err) != CodeInvalidArgument || !strings.Contains(err.Error(), "-1") {
		t.Fatalf("a negative nth: %v", err)
	}
	if err := page.Locator("#name").Fill(ctx, "x", &ActionOptions{Timeout: -time.Second}); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("a negative timeout: %v", err)
	}
}

func TestContextPagesNewPageDragBringToFrontAndClose(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := newClient(t, CreateOptions{})
	first, err := c.ActivePage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Context().NewPage(ctx, origin+"/drag.html", &NewPageOptions{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if second.ID() == first.ID() {
		t.Fatal("NewPage gave the same page")
	}
	if active, err := c.ActivePage(ctx); err != nil || active != second {
		t.Fatalf("the new page is not the active one: %v %v", err, active)
	}
	pages, err := c.Context().Pages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range pages {
		found = found || p == second
	}
	if !found {
		t.Fatalf("Pages lacks the new page %d", second.ID())
	}
	if err := second.Locator("#drag-src").DragTo(ctx, second.Locator("#drop-zone"), nil); err != nil {
		t.Fatal(err)
	}
	var zone string
	if err := second.Evaluate(ctx, "document.getElementById('drop-zone').textContent", &zone, nil); err != nil || zone != "dropped: drag-src" {
		t.Fatalf("%v %q", err, zone)
	}
	if err := first.BringToFront(ctx); err != nil {
		t.Fatal(err)
	}
	if active, err := c.ActivePage(ctx); err != nil || active != first {
		t.Fatalf("BringToFront: %v %v", err, active)
	}
	if err := second.Close(ctx); err != nil {
		t.Fatal(err)
	}
	pages, err = c.Context().Pages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if p == second {
			t.Fatal("the closed page is still listed")
		}
	}
	if _, err := second.Title(ctx); codeOf(err) != CodePageClosed {
		t.Fatalf("a call on a closed page: %v", err)
	}
}

func TestPageExtractInItsThreeForms(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := newClient(t, CreateOptions{})
	open(t, c, "/form.html")
	page, err := c.ActivePage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// No instruction: the page's text, and no model is asked.
	text, err := page.Extract(ctx, "", nil)
	if err != nil || !strings.Contains(text.PageText, "Sign up") || !strings.Contains(text.PageText, "Multi") || text.Extraction != "" {
		t.Fatalf("%v %+v", err, text)
	}
	scoped, err := page.Extract(ctx, "", &PageExtractOptions{Selector: "#signup"})
	if err != nil || !strings.Contains(scoped.PageText, "Full name") || strings.Contains(scoped.PageText, "Multi") {
		t.Fatalf("%v %+v", err, scoped)
	}
	m, err := c.Metrics(ctx)
	if err != nil || m.ExtractPromptTokens != 0 {
		t.Fatal(err, m)
	}
	// An instruction: the model's text.
	r, err := page.Extract(ctx, "the page heading", nil)
	if err != nil || !strings.Contains(r.Extraction, "Sign up") {
		t.Fatalf("%v %+v", err, r)
	}
	// Into a type of the caller's: its schema is sent and the data decoded into it.
	var h struct {
		Heading string `json:"heading"`
	}
	if _, err := page.Extract(ctx, "the page heading", &PageExtractOptions{Into: &h}); err != nil || h.Heading != "Sign up" {
		t.Fatalf("%v %+v", err, h)
	}
	if _, err := page.Extract(ctx, "x", &PageExtractOptions{Into: h}); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("Into that is not a pointer: %v", err)
	}
}

func TestAgentExecuteFillsTheFormWithTheLocalModel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c := newClient(t, CreateOptions{})
	open(t, c, "/form.html")
	page, err := c.ActivePage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Agent(&AgentOptions{Instructions: "Stay on the form."}).Execute(ctx, `Type "Ada Lovelace" into Full name and "ada@example.com" into Email`,
		&ExecuteOptions{MaxSteps: 6, AutoScreenshot: Bool(false), Page: page})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Success || !r.Completed || len(r.Actions) == 0 || r.Usage == nil {
		t.Fatalf("%+v", r)
	}
	var values []string
	if err := page.Evaluate(ctx, "[document.getElementById('name').value, document.getElementById('email').value]", &values, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Join(values, "|") != "Ada Lovelace|ada@example.com" {
		t.Fatalf("the form holds %q after %q", values, r.Message)
	}
	// A configuration that cannot be used is refused before anything is sent, naming what is wrong.
	_, err = c.Agent(&AgentOptions{Provider: "martian", Model: ModelName("x")}).Execute(ctx, "do it", nil)
	if codeOf(err) != CodeInvalidArgument || !strings.Contains(err.Error(), "martian") {
		t.Fatalf("an unknown provider: %v", err)
	}
	if _, err := c.Agent(nil).Execute(ctx, "do it", &ExecuteOptions{MaxSteps: 500}); codeOf(err) != CodeInvalidArgument || !strings.Contains(err.Error(),
		"maxSteps") {
		t.Fatalf("too many steps: %v", err)
	}
}

// agentStep is one step object an agent's model answers with.
func agentStep(tool string, args map[string]any) *ModelReply {
	o := map[string]any{"reasoning": "next: " + tool, "tool": tool, "instruction": nil, "url": nil, "direction": nil, "ms": nil, "keys": nil, "x": nil, "y": nil,
		"text": nil, "toX": nil, "toY": nil, "query": nil, "answer": nil, "success": nil, "toolInput": nil, "taskCompleted": tool == "done"}
	for k, v := range args {
		o[k] = v
	}
	return &ModelReply{Object: o, Usage: &ReplyUsage{InputTokens: 40, OutputTokens: 8}}
}

func TestAgentToolsRunInGoWhenTheModelCallsThem(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := newClient(t, CreateOptions{})
	open(t, c, "/store.html")
	var seen []float64
	turn := 0
	var prompts []string
	scripted := Callback("scripted", func(ctx context.Context, req *ModelRequest) (*ModelReply, error) {
		turn++
		prompts = append(prompts, req.System+"\n"+req.Prompt)
		switch turn {
		case 1:
			return agentStep("currency", map[string]any{"toolInput": `{"usd":9.5}`}), nil
		default:
			return agentStep("done", map[string]any{"answer": "The trowel costs 8.55 EUR", "success": true}), nil
		}
	})
	type usd struct {
		USD float64 `json:"usd"`
	}
	agent := c.Agent(&AgentOptions{
		Model:        scripted,
		Instructions: "Convert prices with the currency tool.",
		Tools: map[string]AgentTool{"currency": Tool("Convert USD to EUR", func(ctx context.Context, in usd) (any, error) {
			seen = append(seen, in.USD)
			return fmt.Sprintf("%.2f EUR", in.USD*0.9), nil
		})},
	})
	r, err := agent.Execute(ctx, "how much is the trowel in euros?", &ExecuteOptions{MaxSteps: 4, AutoScreenshot: Bool(false), Context: "Be brief."})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Success || r.Message != "The trowel costs 8.55 EUR" || len(r.Actions) != 2 || r.Actions[0].Type != "currency" || r.Actions[1].Type != "done" {
		t.Fatalf("%+v", r)
	}
	if len(seen) != 1 || seen[0] != 9.5 {
		t.Fatalf("the tool saw %v", seen)
	}
	if !strings.Contains(prompts[0], "currency(toolInput)") || !strings.Contains(prompts[0], "Convert prices with the currency tool.") ||
		!strings.Contains(prompts[0], "Be brief.") {
		t.Fatalf("first prompt: %s", prompts[0])
	}
	if !strings.Contains(prompts[1], "8.55 EUR") {
		t.Fatalf("the tool's answer is not in the next prompt: %s", prompts[1])
	}
	if r.Usage == nil || r.Usage.InputTokens != 80 {
		t.Fatalf("usage %+v", r.Usage)
	}
}
