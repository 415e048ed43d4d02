package deckhand_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/deckhand-dev/deckhand/go"
)

// #region example

// Launch Chromium with the extension, create a client and act with an Action: a selector and
// a method, so no model is asked. This example runs in `go test` with a real browser.
func Example() {
	ctx := context.Background()
	browser, err := deckhand.LaunchLocalBrowser(ctx, nil) // headless; the extension embedded in the module
	if err != nil {
		log.Fatal(err)
	}
	defer browser.Close()
	client, err := deckhand.Create(ctx, deckhand.CreateOptions{Browser: browser})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	page := `data:text/html,<button id=go onclick="this.textContent='Done'">Go</button>`
	if _, err := client.Goto(ctx, page, nil); err != nil {
		log.Fatal(err)
	}
	r, err := client.Act(ctx, deckhand.ObservedAction(deckhand.Action{Selector: "#go", Description: "the Go button", Method: "click"}), nil)
	if err != nil {
		log.Fatal(err)
	}
	var label string
	if err := client.ExperimentalBatch(ctx, `async (batch) => batch.page.evaluate("document.getElementById('go').textContent")`, nil, &label, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Data.Success, label)
	// Output: true Done
}

// #endregion example

// launchClient launches Chromium with the extension and creates a client on it, as Example
// does; the examples below start with it.
func launchClient(o deckhand.CreateOptions) (*deckhand.Client, func()) {
	ctx := context.Background()
	browser, err := deckhand.LaunchLocalBrowser(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	o.Browser = browser
	client, err := deckhand.Create(ctx, o)
	if err != nil {
		browser.Close()
		log.Fatal(err)
	}
	return client, func() { client.Close(); browser.Close() }
}

const signupPage = `data:text/html,<title>Sign up</title><h1>Sign up</h1>
<label>Name <input id=name></label> <label>Email <input id=email type=email></label>
<label><input type=checkbox id=terms> I accept the terms</label>
<button id=save onclick="this.textContent='Saved'">Save</button>`

// #region act

// Act on a plain-language instruction; the built-in local model picks the element when no
// model or key is configured. Variables keep a value from the model: it reads %email%.
func ExampleClient_Act() {
	ctx := context.Background()
	client, done := launchClient(deckhand.CreateOptions{})
	defer done()
	if _, err := client.Goto(ctx, signupPage, nil); err != nil {
		log.Fatal(err)
	}
	r, err := client.Act(ctx, deckhand.ActInstruction(`type %email% into the Email field`), &deckhand.ActOptions{
		Variables: map[string]deckhand.Variable{"email": {Value: "ada@example.com"}},
		Timeout:   20 * time.Second,
	})
	if err != nil {
		log.Fatal(err)
	}
	page, _ := client.ActivePage(ctx)
	var email string
	page.Evaluate(ctx, "document.getElementById('email').value", &email, nil)
	fmt.Println(r.Data.Success, email)
	// Output: true ada@example.com
}

// #endregion act

// Observe lists the actions a page offers for an instruction; any of them can be acted on
// later without a model.
func ExampleClient_Observe() {
	ctx := context.Background()
	client, done := launchClient(deckhand.CreateOptions{})
	defer done()
	if _, err := client.Goto(ctx, signupPage, nil); err != nil {
		log.Fatal(err)
	}
	r, err := client.Observe(ctx, deckhand.String("the Save button"), nil)
	if err != nil {
		log.Fatal(err)
	}
	a := r.Data[0]
	fmt.Println(a.Method, a.Description)
	if _, err := client.Act(ctx, deckhand.ObservedAction(a), nil); err != nil { // no model asked
		log.Fatal(err)
	}
	page, _ := client.ActivePage(ctx)
	label, _ := page.Locator("#save").Count(ctx)
	var text string
	page.Evaluate(ctx, "document.getElementById('save').textContent", &text, nil)
	fmt.Println(label, text)
	// Output:
	// click Save button
	// 1 Saved
}

// #region extract

// Extract into a Go type: its JSON Schema is derived from the struct (json tags name the
// fields, jsonschema tags describe them).
func ExampleExtract() {
	ctx := context.Background()
	client, done := launchClient(deckhand.CreateOptions{})
	defer done()
	if _, err := client.Goto(ctx, signupPage, nil); err != nil {
		log.Fatal(err)
	}
	type Heading struct {
		Heading string `json:"heading" jsonschema:"description=the page's main heading"`
	}
	r, err := deckhand.Extract[Heading](ctx, client, "the page heading", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Data.Heading)
	// Output: Sign up
}

// #endregion extract

// #region cache

// With a cache, an act, observe or extract seen before is replayed without asking the model;
// the SQLite file is shared with the Node and Python clients. Metadata.Cache says what happened.
func ExampleCreate_cache() {
	ctx := context.Background()
	client, done := launchClient(deckhand.CreateOptions{
		Cache: &deckhand.CacheConfig{Store: deckhand.NewMemoryStore()}, // nil Store: $DECKHAND_HOME/cache.db
	})
	defer done()
	for i := 0; i < 2; i++ {
		if _, err := client.Goto(ctx, signupPage, nil); err != nil {
			log.Fatal(err)
		}
		r, err := client.Act(ctx, deckhand.ActInstruction("click Save"), nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.Metadata.Cache.Status)
	}
	// Per call, ActOptions.Cache skips the cache (CacheEnabled(false)) or asks for more
	// sightings before a replay (CacheWithThreshold(3)).

	// Output:
	// MISS
	// HIT
}

// #endregion cache

// Replay a flow saved under a name (recorded in the side panel, by an agent, or saved by a
// client), filling its %name% placeholders; no model is needed unless a step must be healed.
func ExampleClient_Replay() {
	ctx := context.Background()
	var client *deckhand.Client // from deckhand.Create
	r, err := client.Replay(ctx, "sign up", &deckhand.ReplayOptions{
		Variables:   map[string]deckhand.Variable{"email": {Value: "ada@example.com"}},
		StepTimeout: 5 * time.Second,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(r.Steps), "steps, ended at", r.URL)
}

// #region custom-model

// A Go function as the model: the engine sends each request (a prompt, the page outline and
// the JSON Schema the answer must fit) to it. This stand-in clicks the first button of the
// outline; a real one would call a model with req.System, req.Prompt and req.Schema.
func ExampleGenerateFunc() {
	ctx := context.Background()
	generate := func(ctx context.Context, req *deckhand.ModelRequest) (*deckhand.ModelReply, error) {
		for _, l := range req.Outline {
			if l.Kind == "element" && l.Role == "button" {
				return &deckhand.ModelReply{
					Object: map[string]any{"found": true, "elementId": l.ID, "method": "click", "arguments": []string{}, "description": l.Name, "twoStep": false,
						"reason": ""},
					Usage: &deckhand.ReplyUsage{InputTokens: 120, OutputTokens: 20},
				}, nil
			}
		}
		return &deckhand.ModelReply{Object: map[string]any{"found": false, "elementId": "", "method": "", "arguments": []string{}, "description": "",
			"twoStep": false, "reason": "no button"}}, nil
	}
	// Model: deckhand.Callback("my-model", generate) names it; ActOptions.Model takes one per call.
	client, done := launchClient(deckhand.CreateOptions{Generate: generate})
	defer done()
	if _, err := client.Goto(ctx, signupPage, nil); err != nil {
		log.Fatal(err)
	}
	r, err := client.Act(ctx, deckhand.ActInstruction("click the first button"), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Data.Actions[0].Description, r.Metadata.Usage.InputTokens)
	// Output: Save 120
}

// #endregion custom-model

// The engine's log lines go to a function of yours (or, with no Func, to stderr as text or JSON
// lines: Format "json").
func ExampleLoggingOptions() {
	ctx := context.Background()
	levels := map[string]bool{}
	client, done := launchClient(deckhand.CreateOptions{Logging: &deckhand.LoggingOptions{
		Level: "debug",
		Func:  func(level, message string, data map[string]any) { levels[level] = true },
	}})
	defer done()
	if _, err := client.Goto(ctx, signupPage, nil); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Act(ctx, deckhand.ActInstruction("click Save"), nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println(levels["debug"] || levels["info"])
	// Output: true
}

// #region batch

// ExperimentalBatch runs a JavaScript callback inside the extension's worker, so its calls
// (batch.page, batch.act, batch.extract, ...) make no round trip to Go.
func ExampleClient_ExperimentalBatch() {
	ctx := context.Background()
	client, done := launchClient(deckhand.CreateOptions{})
	defer done()
	if _, err := client.Goto(ctx, signupPage, nil); err != nil {
		log.Fatal(err)
	}
	var out struct {
		Heading string `json:"heading"`
		Saved   string `json:"saved"`
	}
	err := client.ExperimentalBatch(ctx, `async (batch, input) => {
		await batch.act({ selector: input.button, description: 'the Save button', method: 'click' });
		return { heading: await batch.page.evaluate('document.querySelector("h1").textContent'),
			saved: await batch.page.evaluate('document.querySelector("#save").textContent') };
	}`, map[string]string{"button": "#save"}, &out, &deckhand.BatchOptions{Timeout: 10 * time.Second})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Heading, out.Saved)
	// Output: Sign up Saved
}

// #endregion batch

// #region agent

// The agent takes a task of several steps; with no model configured the built-in one plans
// it, grounds each step on the page and carries it out.
func ExampleAgent_Execute() {
	ctx := context.Background()
	client, done := launchClient(deckhand.CreateOptions{})
	defer done()
	if _, err := client.Goto(ctx, signupPage, nil); err != nil {
		log.Fatal(err)
	}
	agent := client.Agent(&deckhand.AgentOptions{Instructions: "Stay on the form."})
	r, err := agent.Execute(ctx, `Type "Ada" into Name and "ada@example.com" into Email`, &deckhand.ExecuteOptions{MaxSteps: 5})
	if err != nil {
		log.Fatal(err)
	}
	page, _ := client.ActivePage(ctx)
	var values []string
	page.Evaluate(ctx, "[document.getElementById('name').value, document.getElementById('email').value]", &values, nil)
	fmt.Println(r.Success, values)
	// Output: true [Ada ada@example.com]
}

// #endregion agent

// #region approval

// Risky steps wait for approval: here a form's submit, decided by the caller's handler (without
// one, a person decides in the side panel). Stop refuses the step: nothing is submitted, and
// the call fails with CodeNotApproved.
func ExampleApprovalPolicy() {
	ctx := context.Background()
	client, done := launchClient(deckhand.CreateOptions{})
	defer done()
	form := `data:text/html,<title>Contact</title><form onsubmit="event.preventDefault(); document.title='Sent'">
<label>Name <input id=name></label> <button id=send>Send</button></form>`
	if _, err := client.Goto(ctx, form, nil); err != nil {
		log.Fatal(err)
	}
	_, err := client.Act(ctx, deckhand.ObservedAction(deckhand.Action{Selector: "#send", Method: "click", Description: "Send"}), &deckhand.ActOptions{
		Approval: &deckhand.ApprovalPolicy{When: []deckhand.ApprovalKind{deckhand.ApprovalSubmit}, Timeout: time.Minute},
		OnApproval: func(ctx context.Context, req *deckhand.ApprovalRequest) (deckhand.ApprovalDecision, error) {
			fmt.Println("asked:", req.Kinds, req.Method)
			return deckhand.DecisionStop, nil // or DecisionApprove, DecisionSkip, NoDecision (leave it to the side panel)
		},
	})
	var de *deckhand.Error
	if errors.As(err, &de) && de.Code == deckhand.CodeNotApproved {
		fmt.Println("refused:", de.Data["decision"])
	}
	var title string
	if err := client.ExperimentalBatch(ctx, `async (batch) => batch.page.evaluate("document.title")`, nil, &title, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println(title)
	// Output:
	// asked: [submit] click
	// refused: stop
	// Contact
}

// #endregion approval

// #region page

// Pages and locators: open a page, fill and check elements by selector, read it back. Every
// call names its page, so a *Page stays valid across navigations.
func ExamplePage() {
	ctx := context.Background()
	client, done := launchClient(deckhand.CreateOptions{})
	defer done()
	page, err := client.Context().NewPage(ctx, signupPage, nil)
	if err != nil {
		log.Fatal(err)
	}
	page.Locator("#name").Fill(ctx, "Ada", nil)
	page.Locator("input").Nth(2).Check(ctx, &deckhand.ActionOptions{Timeout: 5 * time.Second})
	page.Locator("#save").Click(ctx, nil)
	inputs, _ := page.Locator("input").Count(ctx)
	var state []any
	page.EvaluateFunction(ctx, "(ids) => ids.map((id) => document.getElementById(id)).map((e) => e.type === 'checkbox' ? e.checked : e.value || e.textContent)",
		[]string{"name", "terms", "save"}, &state, nil)
	text, _ := page.Extract(ctx, "", nil) // the page's text, no model
	fmt.Println(inputs, state, strings.Contains(text.PageText, `heading "Sign up"`))
	// Output: 3 [Ada true Saved] true
}

// #endregion page

// Attach to a Chromium that is already running with the extension loaded, through its
// DevTools address, with a header for the proxy in front of it.
func ExampleConnectLocalBrowserWith() {
	ctx := context.Background()
	browser, err := deckhand.ConnectLocalBrowserWith(ctx, "http://127.0.0.1:9222", &deckhand.ConnectOptions{
		Headers:         map[string]string{"Authorization": "Bearer token"},
		Timeout:         5 * time.Second,
		AllowURLSchemes: []string{"file"},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer browser.Close() // disconnects; the browser goes on running
	fmt.Println(browser.ExtensionID())
}

// Every failure is a *deckhand.Error with a code.
func ExampleError() {
	ctx := context.Background()
	var client *deckhand.Client // from deckhand.Create
	_, err := client.Act(ctx, deckhand.ObservedAction(deckhand.Action{Selector: "#missing", Description: "a button", Method: "click"}), nil)
	var de *deckhand.Error
	if errors.As(err, &de) && de.Code == deckhand.CodeElementNotFound {
		fmt.Println("no such element:", de.Message)
	}
	if errors.Is(err, &deckhand.Error{Code: deckhand.CodeTimeout}) {
		fmt.Println("timed out")
	}
}
