// The Go side of bench/go-act.ts: a deterministic act (a click by selector, no model) from the
// Go client, timed as the Node side times it. Prints one JSON line.
//
//	go run ./examples/bench-act URL SELECTOR COUNT
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strconv"
	"time"

	"github.com/deckhand-dev/deckhand/go"
)

func main() {
	if len(os.Args) != 4 {
		log.Fatal("usage: bench-act URL SELECTOR COUNT")
	}
	url, selector := os.Args[1], os.Args[2]
	count, err := strconv.Atoi(os.Args[3])
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	browser, err := deckhand.LaunchLocalBrowser(ctx, &deckhand.LaunchOptions{ViewportWidth: 1280, ViewportHeight: 800})
	if err != nil {
		log.Fatal(err)
	}
	defer browser.Close()
	client, err := deckhand.Create(ctx, deckhand.CreateOptions{Browser: browser})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	if _, err := client.Goto(ctx, url, nil); err != nil {
		log.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if _, err := client.Act(ctx, deckhand.ObservedAction(deckhand.Action{Selector: selector, Description: "warm", Method: "click"}), nil); err != nil {
			log.Fatal(err)
		}
	}
	times := make([]float64, 0, count)
	for i := 0; i < count; i++ {
		t := time.Now()
		if _, err := client.Act(ctx, deckhand.ObservedAction(deckhand.Action{Selector: selector, Description: "bench click", Method: "click"}), nil); err != nil {
			log.Fatal(err)
		}
		times = append(times, float64(time.Since(t).Microseconds())/1000)
	}
	out, _ := json.Marshal(map[string]any{"times": times})
	fmt.Println(string(out))
}
