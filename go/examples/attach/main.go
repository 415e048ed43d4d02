// Command attach drives your own Chrome from Go: it waits for the Deckhand extension to pair
// with it, opens a page there and carries out one instruction with the built-in local model.
//
//	go run ./examples/attach <url> "<instruction>"
//
// It prints the port and token to enter in Chrome's Deckhand side panel (Settings, "Connect to
// a local client"), waits up to two minutes for that, then opens <url> in the tab the person is
// on, acts and prints the result as JSON. Nothing but the extension can connect: the program
// listens on 127.0.0.1 only and the token works once.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/deckhand-dev/deckhand/go"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, `usage: go run ./examples/attach <url> "<instruction>"`)
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		log.Fatal(err)
	}
}

// run returns its error rather than exiting, so the deferred Close still says goodbye.
func run(url, instruction string) error {
	ctx := context.Background()
	browser, err := deckhand.AttachLocalBrowser(ctx, &deckhand.AttachOptions{
		Name: "the attach example",
		OnPairing: func(p deckhand.PairingInfo) {
			fmt.Printf("In Chrome, open the Deckhand side panel, choose \"Connect to a local client\" and enter port %d and token %s\n", p.Port, p.Token)
		},
	})
	if err != nil {
		return err
	}
	// Closing says goodbye: the side panel shows the program left, and the pairing is forgotten.
	defer browser.Close()
	client, err := deckhand.Create(ctx, deckhand.CreateOptions{Browser: browser}) // the local model: no key needed
	if err != nil {
		return err
	}
	defer client.Close()
	// A tab of its own, so the person's tabs are left as they were.
	page, err := client.Context().NewPage(ctx, url, nil)
	if err != nil {
		return err
	}
	result, err := page.Act(ctx, deckhand.ActInstruction(instruction), nil)
	if err != nil {
		return err
	}
	title, err := page.Title(ctx)
	if err != nil {
		return err
	}
	out, err := json.Marshal(map[string]any{"success": result.Data.Success, "action": result.Data.ActionDescription, "title": title})
	if err != nil {
		return err
	}
	fmt.Println(string(out))
	return nil
}
