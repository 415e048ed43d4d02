package deckhand

// Values as the person means them, from Go: the shared vectors (test/vectors/values.json, also
// run by test/e2e/values.test.ts and python/tests/test_values.py) through act and the agent with
// the built-in local model in real Chromium, then what the fields hold.

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

type valueCase struct {
	Name    string                     `json:"name"`
	Page    string                     `json:"page"`
	Run     string                     `json:"run"`
	Say     string                     `json:"say"`
	Success bool                       `json:"success"`
	Expect  map[string]json.RawMessage `json:"expect"`
	Clicked *[]string                  `json:"clicked"`
}

// dateIn is the page's date plus days, written in format (YYYY, MM, DD and the separators).
func dateIn(today [3]int, days int, format string) string {
	d := time.Date(today[0], time.Month(today[1]), today[2], 12, 0, 0, 0, time.UTC).AddDate(0, 0, days)
	parts := strings.NewReplacer("YYYY", fmt.Sprintf("%04d", d.Year()), "MM", fmt.Sprintf("%02d", int(d.Month())), "DD", fmt.Sprintf("%02d", d.Day()))
	return parts.Replace(format)
}

func TestValuesAsThePersonMeansThem(t *testing.T) {
	var vectors struct {
		Cases []valueCase `json:"cases"`
	}
	loadVectors(t, "values.json", &vectors)
	c := newClient(t, CreateOptions{})
	for _, vc := range vectors.Cases {
		t.Run(vc.Run+": "+vc.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			open(t, c, vc.Page)
			today := eval[[3]int](t, c, "[new Date().getFullYear(), new Date().getMonth() + 1, new Date().getDate()]")
			var success bool
			var message string
			if vc.Run == "act" {
				r, err := c.Act(ctx, ActInstruction(vc.Say), nil)
				if err != nil {
					t.Fatal(err)
				}
				success, message = r.Data.Success, r.Data.Message
			} else {
				r, err := c.Agent(nil).Execute(ctx, vc.Say, nil)
				if err != nil {
					t.Fatal(err)
				}
				success, message = r.Success, r.Message
			}
			if success != vc.Success {
				t.Fatalf("success %v, want %v: %s", success, vc.Success, message)
			}
			for sel, raw := range vc.Expect {
				var want any
				var date struct {
					Days   *int   `json:"days"`
					Format string `json:"format"`
				}
				if json.Unmarshal(raw, &date) == nil && date.Days != nil {
					want = dateIn(today, *date.Days, date.Format)
				} else if err := json.Unmarshal(raw, &want); err != nil {
					t.Fatal(err)
				}
				q, _ := json.Marshal(sel)
				read := "(() => { const el = document.querySelector(%s); return el.type === 'checkbox' || el.type === 'radio' ? el.checked : el.value; })()"
				got := eval[any](t, c, fmt.Sprintf(read, q))
				if got != want {
					t.Errorf("%s holds %#v after %q, want %#v (%s)", sel, got, vc.Say, want, message)
				}
			}
			if vc.Clicked != nil {
				if clicked := eval[[]string](t, c, "window.__clicked"); !reflect.DeepEqual(clicked, *vc.Clicked) && !(len(clicked) == 0 && len(*vc.Clicked) == 0) {
					t.Errorf("clicked %v, want %v", clicked, *vc.Clicked)
				}
			}
		})
	}
}
