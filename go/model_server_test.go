package deckhand

// A real OpenAI-compatible server (llama-cpp-python with the Gemma 3 270M GGUF behind a recording
// proxy, test/fixtures/llama-cli.ts; npm run setup installs both) driven by Act, Observe, Extract
// with a schema and the agent, once per structured-output mode, with nothing configured but
// BaseURL and a model name. What is asserted is the wire (what was sent, that the server took it,
// that an abandoned call stops generating), never the tiny model's accuracy: each operation ends
// in a result or in a typed error that shows the model's reply.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	msPage = `data:text/html,<h1>Garden shop</h1><p>Trowel: 12 EUR</p><button onclick="document.title='saved'">Save</button>`
	msChat = "/v1/chat/completions"
	// Each operation's bound: most calls take 5 to 30 s, but the tiny model may run on to the output
	// budget (minutes: text in text mode, an endless array in tool mode, the agent's retries). A
	// call still going at its deadline must be stopped there, on the server too. The first call of
	// auto has time to finish: the worker remembers the shape a server takes once a reply is complete.
	msOp     = 45 * time.Second
	msFirst  = 90 * time.Second
	msTextOp = 25 * time.Second
	msAgent  = 30 * time.Second
)

type msPrice struct {
	Item  string `json:"item"`
	Price string `json:"price"`
}

// msLong is long to write, and grammar-constrained in json_object: generating it takes the tiny
// model minutes.
type msLong struct {
	Items []string `json:"items" jsonschema:"minItems=300"`
}

// exchange is one request the recording proxy passed on (test/fixtures/llama.ts).
type exchange struct {
	Method      string         `json:"method"`
	Path        string         `json:"path"`
	Body        map[string]any `json:"body"`
	Status      int            `json:"status"`
	Reply       string         `json:"reply"`
	Abandoned   bool           `json:"abandoned"`
	StartedAt   int64          `json:"startedAt"`
	FirstByteAt int64          `json:"firstByteAt"`
	EndedAt     int64          `json:"endedAt"`
}

type llamaServer struct{ url, origin string }

// startLlama starts the model server; it stops when the test ends (llama-cli stops it when its
// stdin closes).
func startLlama(t *testing.T) *llamaServer {
	t.Helper()
	root := repoRoot(t)
	for _, f := range []string{"venv/bin/python", "gemma-3-270m-q4_k_m.gguf"} {
		if _, err := os.Stat(filepath.Join(root, ".tools", "llama", f)); err != nil {
			t.Fatalf("the model server is not installed (.tools/llama/%s): run npm run setup", f)
		}
	}
	url := startFixtureCLI(t, "the model server (run npm run setup)", "llama-cli.ts", nil, 120*time.Second, 30*time.Second)
	return &llamaServer{url: url, origin: strings.TrimSuffix(url, "/v1")}
}

func (l *llamaServer) call(t *testing.T, method string) []exchange {
	t.Helper()
	req, _ := http.NewRequest(method, l.origin+"/recorded", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var xs []exchange
	if err := json.NewDecoder(res.Body).Decode(&xs); err != nil {
		t.Fatal(err)
	}
	return xs
}

func (l *llamaServer) clear(t *testing.T) { l.call(t, http.MethodDelete) }

// settled is what the proxy recorded once each exchange has ended or been abandoned (a cancel
// reaches the worker a moment after the call returns).
func (l *llamaServer) settled(t *testing.T) []exchange {
	t.Helper()
	xs := l.call(t, http.MethodGet)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); xs = l.call(t, http.MethodGet) {
		busy := false
		for _, x := range xs {
			busy = busy || !x.Abandoned && x.EndedAt == 0
		}
		if !busy {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	return xs
}

func lastContent(x exchange) any {
	msgs, _ := x.Body["messages"].([]any)
	if len(msgs) == 0 {
		return nil
	}
	m, _ := msgs[len(msgs)-1].(map[string]any)
	return m["content"]
}

func responseFormat(x exchange) map[string]any {
	f, _ := x.Body["response_format"].(map[string]any)
	return f
}

// checkChats: only streamed chat requests with an output budget and text content, each taken by
// the server unless the call gave up on it before it answered.
func checkChats(t *testing.T, name string, xs []exchange) {
	t.Helper()
	if len(xs) == 0 {
		t.Fatalf("%s: no request reached the server", name)
	}
	for _, x := range xs {
		if x.Method != "POST" || x.Path != msChat {
			t.Errorf("%s: %s %s", name, x.Method, x.Path)
		}
		if x.Body["stream"] != true {
			t.Errorf("%s: stream %v", name, x.Body["stream"])
		}
		if n, ok := x.Body["max_tokens"].(float64); !ok || n <= 0 || n != float64(int(n)) {
			t.Errorf("%s: max_tokens %v", name, x.Body["max_tokens"])
		}
		// No screenshot (the agent's dom steps carry none): plain text, not an array of parts.
		if _, ok := lastContent(x).(string); !ok {
			t.Errorf("%s: the user message's content is %T", name, lastContent(x))
		}
	}
}

func checkTaken(t *testing.T, name string, xs []exchange) {
	t.Helper()
	for _, x := range xs {
		if x.Status != 200 && !(x.Abandoned && x.Status == 0) {
			t.Errorf("%s: HTTP %d: %.300s", name, x.Status, x.Reply)
		}
	}
}

// checkEnded: a result; or the model's reply shown in a MODEL_OUTPUT_INVALID error; or, at the
// deadline (TIMEOUT, or the test's own bound on the agent), the request abandoned so that the
// server stops.
func checkEnded(t *testing.T, name string, err error, xs []exchange) {
	t.Helper()
	last := xs[len(xs)-1]
	switch {
	case err == nil:
		if last.Status != 200 {
			t.Errorf("%s: a result, but the last request got HTTP %d", name, last.Status)
		}
	case codeOf(err) == CodeTimeout || errors.Is(err, context.DeadlineExceeded):
		if !last.Abandoned {
			t.Errorf("%s: %v, but the request was not abandoned", name, err)
		}
	case codeOf(err) != CodeModelOutputInvalid || !strings.Contains(err.Error(), "its reply began"):
		t.Errorf("%s: %v", name, err)
	}
}

// checkShape: a request in the shape mode asks for ("" is auto, settled on json_object).
func checkShape(t *testing.T, name, mode string, x exchange) {
	t.Helper()
	f := responseFormat(x)
	tools, hasTools := x.Body["tools"].([]any)
	switch mode {
	case "", StructuredOutputJSONObject:
		schema, _ := f["schema"].(map[string]any)
		if f["type"] != "json_object" || schema["type"] != "object" || hasTools {
			t.Errorf("%s: response_format %v, tools %v", name, f, hasTools)
		}
	case StructuredOutputText:
		if f != nil || hasTools || !strings.Contains(toString(lastContent(x)), "JSON Schema") {
			t.Errorf("%s: response_format %v, tools %v, the schema in the prompt: %v", name, f, hasTools, strings.Contains(toString(lastContent(x)), "JSON Schema"))
		}
	case StructuredOutputTool:
		var names []string
		for _, tl := range tools {
			m, _ := tl.(map[string]any)
			fn, _ := m["function"].(map[string]any)
			names = append(names, toString(fn["name"]))
		}
		choice, _ := json.Marshal(x.Body["tool_choice"])
		if f != nil || strings.Join(names, ", ") != "answer" || string(choice) != `{"function":{"name":"answer"},"type":"function"}` {
			t.Errorf("%s: response_format %v, tools %v, tool_choice %s", name, f, names, choice)
		}
	}
}

func TestModelServer(t *testing.T) {
	llama := startLlama(t)
	ctx := context.Background()

	for _, mode := range []string{"", StructuredOutputJSONObject, StructuredOutputText, StructuredOutputTool} {
		label := mode
		if label == "" {
			label = "auto"
		}
		t.Run("structuredOutput "+label+": act, observe, extract and the agent reach the server in its shape", func(t *testing.T) {
			// Only a name and BaseURL: the default run (auto) sets nothing else.
			c := newClient(t, CreateOptions{Model: &ModelConfig{ModelName: "gemma-3-270m", BaseURL: llama.url, StructuredOutput: mode}})
			if _, err := c.Goto(ctx, msPage, nil); err != nil {
				t.Fatal(err)
			}
			timeout := msOp
			if mode == StructuredOutputText {
				timeout = msTextOp
			}
			ops := []struct {
				name string
				run  func() error
			}{
				{"act", func() error {
					first := timeout
					if mode == "" {
						first = msFirst
					}
					_, err := c.Act(ctx, ActInstruction("click the Save button"), &ActOptions{Timeout: first})
					return err
				}},
				{"observe", func() error {
					_, err := c.Observe(ctx, String("the Save button"), &ObserveOptions{Timeout: timeout})
					return err
				}},
				{"extract", func() error {
					_, err := Extract[msPrice](ctx, c, "the item and its price", &ExtractOptions{Timeout: timeout})
					return err
				}},
				// The agent takes no timeout: the test bounds it, and a cancelled context cancels the run.
				{"agent", func() error {
					actx, cancel := context.WithTimeout(ctx, msAgent)
					defer cancel()
					_, err := c.Agent(nil).Execute(actx, "Click the Save button", &ExecuteOptions{MaxSteps: 2})
					return err
				}},
			}
			for _, op := range ops {
				llama.clear(t)
				t0 := time.Now()
				err := op.run()
				xs := llama.settled(t)
				logOp(t, op.name, time.Since(t0), err, xs)
				checkChats(t, op.name, xs)
				checkEnded(t, op.name, err, xs)
				if mode == "" && op.name == "act" {
					// A fresh endpoint: strict json_schema and json_schema are refused (HTTP 500 naming
					// response_format), json_object is taken, and remembered for what follows.
					var got []string
					for _, x := range xs {
						got = append(got, strings.TrimSpace(strings.Join([]string{toString(responseFormat(x)["type"]), http.StatusText(x.Status)}, " ")))
					}
					want := []string{"json_schema Internal Server Error", "json_schema Internal Server Error", "json_object OK"}
					if len(got) < 3 || strings.Join(got[:3], ", ") != strings.Join(want, ", ") {
						t.Fatalf("auto on a fresh endpoint: %v, want %v", got, want)
					}
					strict0, _ := responseFormat(xs[0])["json_schema"].(map[string]any)
					strict1, _ := responseFormat(xs[1])["json_schema"].(map[string]any)
					if _, has := strict1["strict"]; strict0["strict"] != true || has {
						t.Errorf("strict: %v then %v", strict0["strict"], strict1["strict"])
					}
					xs = xs[2:]
				}
				checkTaken(t, op.name, xs)
				if op.name == "act" && !strings.Contains(toString(lastContent(xs[0])), "click the Save button") {
					t.Errorf("act: the instruction is not in the prompt")
				}
				for _, x := range xs {
					checkShape(t, op.name, mode, x)
				}
			}
		})
	}

	t.Run("a forced shape the server refuses is a typed error naming the setting and the path", func(t *testing.T) {
		c := newClient(t, CreateOptions{Model: &ModelConfig{ModelName: "gemma-3-270m", BaseURL: llama.url, StructuredOutput: StructuredOutputJSONSchema}})
		if _, err := c.Goto(ctx, msPage, nil); err != nil {
			t.Fatal(err)
		}
		llama.clear(t)
		_, err := c.Act(ctx, ActInstruction("click the Save button"), &ActOptions{Timeout: msOp})
		if codeOf(err) != CodeModelProviderError || !strings.Contains(err.Error(), "structuredOutput") || !strings.Contains(err.Error(), msChat) {
			t.Fatalf("got %v, want MODEL_PROVIDER_ERROR naming structuredOutput and %s", err, msChat)
		}
		xs := llama.settled(t)
		if len(xs) != 1 || xs[0].Path != msChat || responseFormat(xs[0])["type"] != "json_schema" || xs[0].Status != 500 {
			t.Fatalf("%+v", xs)
		}
	})

	t.Run("a call that times out stops the generation, and the next call is answered at once", func(t *testing.T) {
		c := newClient(t, CreateOptions{Model: &ModelConfig{ModelName: "gemma-3-270m", BaseURL: llama.url, StructuredOutput: StructuredOutputJSONObject}})
		if _, err := c.Goto(ctx, msPage, nil); err != nil {
			t.Fatal(err)
		}
		llama.clear(t)
		t0 := time.Now()
		// 10 s: past the prompt's reading, which llama.cpp-class servers finish before they look at the socket.
		_, err := Extract[msLong](ctx, c, "list 300 garden tools", &ExtractOptions{Timeout: 10 * time.Second})
		if codeOf(err) != CodeTimeout || time.Since(t0) > 20*time.Second {
			t.Fatalf("got %v after %s, want TIMEOUT", err, time.Since(t0))
		}
		xs := llama.settled(t)
		logOp(t, "extract", time.Since(t0), err, xs)
		if len(xs) != 1 || !xs[0].Abandoned {
			t.Fatalf("the long request was not abandoned: %+v", xs)
		}
		gone := xs[0]
		t0 = time.Now()
		_, err = c.Act(ctx, ActInstruction("click the Save button"), &ActOptions{Timeout: msOp})
		xs = llama.settled(t)[1:]
		logOp(t, "act", time.Since(t0), err, xs)
		checkChats(t, "act", xs)
		checkTaken(t, "act", xs)
		checkEnded(t, "act", err, xs)
		next := xs[0]
		// Left running, the 300 items take the server minutes; stopped, the next request waits for
		// nothing but the reading of its own prompt.
		if next.FirstByteAt == 0 || next.FirstByteAt-next.StartedAt >= 15_000 {
			t.Errorf("the next request's first byte came %d ms after it was sent", next.FirstByteAt-next.StartedAt)
		}
		if gone.EndedAt >= next.StartedAt+1000 {
			t.Errorf("the abandoned request ended at %d, the next started at %d", gone.EndedAt, next.StartedAt)
		}
	})
}

// logOp says how an operation went, for reading a run (go test -v).
func logOp(t *testing.T, name string, took time.Duration, err error, xs []exchange) {
	t.Helper()
	var sent []string
	for _, x := range xs {
		s := fmt.Sprintf("%s HTTP %d, first byte %d ms, %d bytes", toString(responseFormat(x)["type"]), x.Status, max(x.FirstByteAt-x.StartedAt, -1), len(x.Reply))
		if x.Abandoned {
			s += ", abandoned"
		}
		if strings.Contains(x.Reply, "data: [DONE]") {
			s += ", [DONE]"
		}
		sent = append(sent, s)
	}
	out := "a result"
	if err != nil {
		out = fmt.Sprintf("%.160s", err)
	}
	t.Logf("%s: %.1f s, %s; %s", name, took.Seconds(), out, strings.Join(sent, "; "))
}

func toString(v any) string {
	s, _ := v.(string)
	return s
}
