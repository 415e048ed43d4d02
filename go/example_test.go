package deckhand_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/deckhand-dev/deckhand/go"
)

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

// Act on a plain-language instruction; the built-in local model picks the element when no
// model or key is configured.
func ExampleClient_Act() {
	ctx := context.Background()
	browser, err := deckhand.LaunchLocalBrowser(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer browser.Close()
	client, err := deckhand.Create(ctx, deckhand.CreateOptions{Browser: browser})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	client.Goto(ctx, "https://example.com/signup", nil)
	r, err := client.Act(ctx, deckhand.ActInstruction(`type %email% into the Email field`), &deckhand.ActOptions{
		Variables: map[string]deckhand.Variable{"email": {Value: "ada@example.com"}},
		Timeout:   20 * time.Second,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Data.Message)
}

// Observe lists the actions a page offers for an instruction; any of them can be acted on
// later without a model.
func ExampleClient_Observe() {
	ctx := context.Background()
	var client *deckhand.Client // from deckhand.Create
	r, err := client.Observe(ctx, deckhand.String("the sign-up button"), nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range r.Data {
		fmt.Println(a.Selector, a.Description)
	}
	if len(r.Data) > 0 {
		client.Act(ctx, deckhand.ObservedAction(r.Data[0]), nil)
	}
}

// Extract into a Go type: its JSON Schema is derived from the struct (json tags name the
// fields, jsonschema tags describe them).
func ExampleExtract() {
	ctx := context.Background()
	var client *deckhand.Client // from deckhand.Create
	type Product struct {
		Name  string  `json:"name"`
		Price float64 `json:"price" jsonschema:"description=the price in euros"`
	}
	type Page struct {
		Products []Product `json:"products"`
	}
	r, err := deckhand.Extract[Page](ctx, client, "every product with its price", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range r.Data.Products {
		fmt.Printf("%s: %.2f\n", p.Name, p.Price)
	}
}

// With a cache, an act, observe or extract seen before is replayed without asking the model;
// the SQLite file is shared with the Node and Python clients. Metadata.Cache says what happened.
func ExampleCreate_cache() {
	ctx := context.Background()
	var browser *deckhand.Browser // from deckhand.LaunchLocalBrowser
	client, err := deckhand.Create(ctx, deckhand.CreateOptions{
		Browser: browser,
		Cache:   &deckhand.CacheConfig{Store: deckhand.NewMemoryStore()}, // nil Store: $DECKHAND_HOME/cache.db
	})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	for i := 0; i < 2; i++ {
		r, err := client.Act(ctx, deckhand.ActInstruction("click Sign up"), nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.Metadata.Cache.Status) // MISS, then HIT
	}
	// Per call: skip the cache, or ask for more sightings before a replay.
	client.Act(ctx, deckhand.ActInstruction("click Sign up"), &deckhand.ActOptions{Cache: deckhand.CacheEnabled(false)})
	client.Act(ctx, deckhand.ActInstruction("click Sign up"), &deckhand.ActOptions{Cache: deckhand.CacheWithThreshold(3)})
}

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

// A Go function as the model: the engine sends each request (a prompt, the page outline and
// the JSON Schema the answer must fit) to it. This stand-in clicks the first button of the
// outline; a real one would call a model with req.System, req.Prompt and req.Schema.
func ExampleGenerateFunc() {
	ctx := context.Background()
	var browser *deckhand.Browser // from deckhand.LaunchLocalBrowser
	generate := func(ctx context.Context, req *deckhand.ModelRequest) (*deckhand.ModelReply, error) {
		for _, l := range req.Outline {
			if l.Kind == "element" && l.Role == "button" {
				return &deckhand.ModelReply{
					Object: map[string]any{"found": true, "elementId": l.ID, "method": "click", "arguments": []string{}, "description": l.Name, "twoStep": false, "reason": ""},
					Usage:  &deckhand.ReplyUsage{InputTokens: 120, OutputTokens: 20},
				}, nil
			}
		}
		return &deckhand.ModelReply{Object: map[string]any{"found": false, "elementId": "", "method": "", "arguments": []string{}, "description": "", "twoStep": false, "reason": "no button"}}, nil
	}
	client, err := deckhand.Create(ctx, deckhand.CreateOptions{Browser: browser, Generate: generate})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	client.Act(ctx, deckhand.ActInstruction("click the first button"), nil)
}

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
