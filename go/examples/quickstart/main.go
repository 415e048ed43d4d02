// The README's Go quick start: launch Chromium with the extension, act with the local model,
// extract into a struct.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/deckhand-dev/deckhand/go"
)

type Page struct {
	Heading string `json:"heading"`
}

func main() {
	ctx := context.Background()
	browser, err := deckhand.LaunchLocalBrowser(ctx, nil) // headless, local Chromium
	if err != nil {
		log.Fatal(err)
	}
	defer browser.Close()
	client, err := deckhand.Create(ctx, deckhand.CreateOptions{Browser: browser}) // the local model: no key needed
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	if _, err := client.Goto(ctx, "data:text/html,<h1>Hello</h1><label>Name <input id=n></label>", nil); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Act(ctx, deckhand.ActInstruction(`type "Ada" into the Name field`), nil); err != nil {
		log.Fatal(err)
	}
	var name string
	if err := client.ExperimentalBatch(ctx, "async (batch) => batch.page.evaluate(\"document.getElementById('n').value\")", nil, &name, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println(name) // Ada
	r, err := deckhand.Extract[Page](ctx, client, "the page heading", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Data.Heading) // Hello
}
