package deckhand

// The shared test vectors (test/vectors/*.json), also run by the Node and Python clients: the
// same call sends byte for byte the same frame, answers are read the same way, and the
// worker's calls to the client are answered with the same bytes.

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func repoRoot(t testing.TB) string {
	wd, _ := os.Getwd()
	return filepath.Dir(wd)
}

func loadVectors(t testing.TB, name string, out any) {
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "test", "vectors", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatal(err)
	}
}

// idleTransport is a CDP transport to nothing (the fake link never uses CDP).
type idleTransport struct{ done chan struct{} }

func (t *idleTransport) send([]byte) error { return nil }
func (t *idleTransport) run(func([]byte))  { <-t.done }
func (t *idleTransport) close() error {
	select {
	case <-t.done:
	default:
		close(t.done)
	}
	return nil
}

// fakeWorker records each frame the client sends and answers it as the vector says.
type fakeWorker struct {
	mu      sync.Mutex
	frames  []string
	replies []string
	answer  json.RawMessage
	err     json.RawMessage
	link    *extensionLink
}

func (f *fakeWorker) send(raw []byte, id int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id == 0 {
		f.replies = append(f.replies, string(raw))
		return nil
	}
	var m struct {
		Method string `json:"method"`
	}
	json.Unmarshal(raw, &m)
	var reply string
	switch {
	case m.Method == "engine.ping":
		reply = `{"kind":"res","id":` + strconv.FormatInt(id, 10) + `,"result":{"version":"0.1.0","extensionId":"fake"}}`
	case f.err != nil:
		f.frames = append(f.frames, string(raw))
		reply = `{"kind":"err","id":` + strconv.FormatInt(id, 10) + `,"error":` + string(f.err) + `}`
	default:
		f.frames = append(f.frames, string(raw))
		reply = `{"kind":"res","id":` + strconv.FormatInt(id, 10) + `,"result":` + string(f.answer) + `}`
	}
	go f.link.peer.receive([]byte(reply))
	return nil
}

func (f *fakeWorker) sent() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.frames...)
}

func fakeBrowser() (*Browser, *fakeWorker) {
	f := &fakeWorker{}
	conn := newCDPConn(&idleTransport{done: make(chan struct{})})
	l := &extensionLink{conn: conn, extensionID: "fake", tag: "t", state: stateUp, sessionID: "s", unlisten: func() {}}
	l.peer = newRPCPeer(f.send, "fake worker")
	f.link = l
	return &Browser{link: l, conn: conn}, f
}

// generate is the vectors' callback model named "generate".
var generateReply json.RawMessage

func generate(ctx context.Context, req *ModelRequest) (*ModelReply, error) {
	var r struct {
		Object json.RawMessage `json:"object"`
		Usage  *ReplyUsage     `json:"usage"`
	}
	json.Unmarshal(generateReply, &r)
	return &ModelReply{Object: r.Object, Usage: r.Usage}, nil
}

type vectorCall struct {
	On      string            `json:"on"`
	Method  string            `json:"method"`
	Args    []json.RawMessage `json:"args"`
	Options json.RawMessage   `json:"options"`
}

// errSkip marks a case the Go API cannot express (its types rule it out at compile time).
type errSkip string

func (e errSkip) Error() string { return string(e) }

func createOptions(b *Browser, raw json.RawMessage) (CreateOptions, error) {
	o := CreateOptions{Browser: b}
	if len(raw) == 0 || string(raw) == "null" {
		return o, nil
	}
	var c struct {
		SystemPrompt       string          `json:"systemPrompt"`
		DOMSettleTimeoutMs *int            `json:"domSettleTimeoutMs"`
		APIKey             string          `json:"apiKey"`
		APIURL             string          `json:"apiUrl"`
		Cache              json.RawMessage `json:"cache"`
		Model              json.RawMessage `json:"model"`
	}
	if err := strictDecode(raw, &c); err != nil {
		return o, errSkip("create options: " + err.Error())
	}
	o.SystemPrompt, o.DOMSettleTimeoutMs, o.APIKey, o.APIURL = c.SystemPrompt, c.DOMSettleTimeoutMs, c.APIKey, c.APIURL
	if c.Cache != nil {
		var cc struct {
			Store     string `json:"store"`
			Threshold *int   `json:"threshold"`
		}
		if err := strictDecode(c.Cache, &cc); err != nil {
			return o, errSkip(err.Error())
		}
		if cc.Threshold != nil && *cc.Threshold == 0 {
			return o, errSkip("a zero threshold is CacheConfig's default in Go")
		}
		o.Cache = &CacheConfig{Store: NewMemoryStore()}
		if cc.Threshold != nil {
			o.Cache.Threshold = *cc.Threshold
		}
	}
	if c.Model != nil {
		var name string
		if json.Unmarshal(c.Model, &name) == nil {
			o.Model = &ModelConfig{ModelName: name}
		} else if strings.Contains(compact(c.Model), `"callback":"generate"`) {
			o.Generate = generate
			var rest ModelConfig
			json.Unmarshal(c.Model, &rest)
			if !reflect.DeepEqual(rest, ModelConfig{}) {
				o.Model = &rest // refused: a callback makes its own requests
			}
		} else {
			var m ModelConfig
			if err := strictDecode(c.Model, &m); err != nil {
				return o, errSkip("ModelConfig has no such field (" + err.Error() + ")")
			}
			o.Model = &m
		}
	}
	return o, nil
}

func strictDecode(raw json.RawMessage, out any) error {
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.DisallowUnknownFields()
	return d.Decode(out)
}

type vectorOptions struct {
	Timeout        *float64            `json:"timeout"`
	Variables      map[string]Variable `json:"variables"`
	Page           *int                `json:"page"`
	Locator        *string             `json:"locator"`
	IgnoreLocators []LocatorSpec       `json:"ignoreLocators"`
	Cache          json.RawMessage     `json:"cache"`
	Screenshot     bool                `json:"screenshot"`
	WaitUntil      string              `json:"waitUntil"`
}

// run makes a vector's call with the Go API and returns what the caller gets, as JSON.
func run(ctx context.Context, c *Client, call vectorCall) (any, error) {
	var o vectorOptions
	if call.Options != nil {
		if err := strictDecode(call.Options, &o); err != nil {
			return nil, errSkip("options: " + err.Error())
		}
	}
	var timeout time.Duration
	if o.Timeout != nil {
		if *o.Timeout == 0 {
			return nil, errSkip("a zero timeout is the default in Go")
		}
		timeout = time.Duration(*o.Timeout * float64(time.Millisecond))
	}
	var cache *CacheOption
	if o.Cache != nil {
		var on bool
		var th struct {
			Threshold int `json:"threshold"`
		}
		if json.Unmarshal(o.Cache, &on) == nil {
			cache = CacheEnabled(on)
		} else if strictDecode(o.Cache, &th) == nil {
			cache = CacheWithThreshold(th.Threshold)
		} else {
			return nil, errSkip("CacheOption can only be CacheEnabled or CacheWithThreshold")
		}
	}
	var locator *LocatorSpec
	if o.Locator != nil {
		locator = &LocatorSpec{Selector: *o.Locator}
	}
	ao := &ActOptions{Cache: cache, IgnoreLocators: o.IgnoreLocators, Locator: locator, Timeout: timeout, Variables: o.Variables, Page: o.Page}
	if call.On == "page" && call.Method == "goto" {
		var url string
		json.Unmarshal(call.Args[0], &url)
		var g *GotoOptions
		if o.Timeout != nil || o.WaitUntil != "" {
			g = &GotoOptions{WaitUntil: o.WaitUntil, Timeout: timeout}
		}
		if g == nil {
			g = &GotoOptions{}
		}
		g.Page = Int(7)
		return c.Goto(ctx, url, g)
	}
	if call.On != "deckhand" {
		return nil, errSkip(call.On + "." + call.Method + " is not in the Go client")
	}
	switch call.Method {
	case "act":
		var s string
		if json.Unmarshal(call.Args[0], &s) == nil {
			return c.Act(ctx, ActInstruction(s), ao)
		}
		var a Action
		if err := strictDecode(call.Args[0], &a); err != nil {
			return nil, err
		}
		return c.Act(ctx, ObservedAction(a), ao)
	case "observe":
		var ins *string
		if len(call.Args) > 0 {
			var s string
			json.Unmarshal(call.Args[0], &s)
			ins = &s
		}
		return c.Observe(ctx, ins, ao)
	case "extract":
		eo := &ExtractOptions{Cache: cache, Timeout: timeout, Screenshot: o.Screenshot, Page: o.Page}
		var ins string
		if len(call.Args) > 0 {
			json.Unmarshal(call.Args[0], &ins)
		}
		if len(call.Args) > 1 {
			type heading struct {
				Heading string `json:"heading"`
			}
			want, _ := SchemaOf[heading]()
			if string(want) != compact(call.Args[1]) {
				return nil, errSkip("a schema other than the heading struct's")
			}
			return Extract[heading](ctx, c, ins, eo)
		}
		return Extract[json.RawMessage](ctx, c, ins, eo)
	case "metrics":
		return c.Metrics(ctx)
	case "experimentalBatch":
		var src string
		json.Unmarshal(call.Args[0], &src)
		var input any
		if len(call.Args) > 1 {
			input = call.Args[1]
		}
		var out any
		err := c.ExperimentalBatch(ctx, src, input, &out, &BatchOptions{Timeout: timeout, Page: o.Page})
		return out, err
	}
	return nil, errSkip("no such method in the Go client: " + call.Method)
}

func compact(raw json.RawMessage) string {
	n, _ := parseOrdered(raw)
	b, _ := marshalJS(n)
	return string(b)
}

var (
	reqID    = regexp.MustCompile(`^\{"kind":"req","id":\d+,`)
	opID     = regexp.MustCompile(`"opId":"[0-9a-f-]{36}"`)
	callback = regexp.MustCompile(`"callbackId":"[0-9a-f-]{36}"`)
)

func normalise(f string) string {
	f = reqID.ReplaceAllString(f, `{"kind":"req","id":%ID%,`)
	f = opID.ReplaceAllString(f, `"opId":"%OPID%"`)
	return callback.ReplaceAllString(f, `"callbackId":"%CALLBACK%"`)
}

// at follows a wire-name path into the caller's value (its JSON form: Go fields carry the
// wire names as json tags).
func at(t *testing.T, v any, path string) any {
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	json.Unmarshal(raw, &x)
	if path == "" {
		return x
	}
	for _, seg := range strings.Split(path, ".") {
		switch y := x.(type) {
		case []any:
			i, _ := strconv.Atoi(seg)
			x = y[i]
		case map[string]any:
			x = y[seg]
		default:
			t.Fatalf("cannot follow %q into %v", seg, x)
		}
	}
	return x
}

func noProviderKeys(t *testing.T) {
	for _, k := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"} {
		t.Setenv(k, "")
	}
}

func TestVectorCalls(t *testing.T) {
	noProviderKeys(t)
	var v struct {
		Cases []struct {
			Name   string                     `json:"name"`
			Create json.RawMessage            `json:"create"`
			Call   vectorCall                 `json:"call"`
			Frame  string                     `json:"frame"`
			Answer json.RawMessage            `json:"answer"`
			Checks map[string]json.RawMessage `json:"checks"`
		} `json:"cases"`
	}
	loadVectors(t, "calls.json", &v)
	ran := 0
	for _, c := range v.Cases {
		t.Run(c.Name, func(t *testing.T) {
			b, f := fakeBrowser()
			o, err := createOptions(b, c.Create)
			if err != nil {
				t.Skip(err)
			}
			client, err := Create(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			f.answer = c.Answer
			value, err := run(context.Background(), client, c.Call)
			var skip errSkip
			if errors.As(err, &skip) {
				t.Skip(skip)
			}
			if err != nil {
				t.Fatal(err)
			}
			ran++
			frames := f.sent()
			if len(frames) != 1 || normalise(frames[0]) != c.Frame {
				t.Fatalf("frames:\n got %q\nwant %q", frames, c.Frame)
			}
			checkRequestFrame(t, frames[0], false)
			for path, want := range c.Checks {
				var w any
				json.Unmarshal(want, &w)
				if got := at(t, value, path); !reflect.DeepEqual(got, w) {
					t.Errorf("%s: got %#v, want %#v", path, got, w)
				}
			}
		})
	}
	if ran < 18 {
		t.Errorf("only %d vector calls ran", ran)
	}
}

func TestVectorErrors(t *testing.T) {
	noProviderKeys(t)
	var v struct {
		Received []struct {
			Name  string          `json:"name"`
			Error json.RawMessage `json:"error"`
			Code  string          `json:"code"`
		} `json:"received"`
		InvalidAnswers []struct {
			Name   string          `json:"name"`
			Call   vectorCall      `json:"call"`
			Answer json.RawMessage `json:"answer"`
			Code   string          `json:"code"`
		} `json:"invalidAnswers"`
		Rejected []struct {
			Name   string          `json:"name"`
			Create json.RawMessage `json:"create"`
			Call   *vectorCall     `json:"call"`
			Code   string          `json:"code"`
		} `json:"rejected"`
	}
	loadVectors(t, "errors.json", &v)
	ctx := context.Background()
	for _, c := range v.Received {
		t.Run("received/"+c.Name, func(t *testing.T) {
			b, f := fakeBrowser()
			client, err := Create(ctx, CreateOptions{Browser: b})
			if err != nil {
				t.Fatal(err)
			}
			f.err = c.Error
			_, err = client.Metrics(ctx)
			var e *Error
			if !errors.As(err, &e) || e.Code != c.Code {
				t.Fatalf("got %v, want %s", err, c.Code)
			}
			var w struct {
				Message string         `json:"message"`
				Data    map[string]any `json:"data"`
			}
			json.Unmarshal(c.Error, &w)
			if e.Message != w.Message || !reflect.DeepEqual(e.Data, w.Data) {
				t.Fatalf("got %q %v, want %q %v", e.Message, e.Data, w.Message, w.Data)
			}
		})
	}
	for _, c := range v.InvalidAnswers {
		t.Run("invalid/"+c.Name, func(t *testing.T) {
			b, f := fakeBrowser()
			client, err := Create(ctx, CreateOptions{Browser: b})
			if err != nil {
				t.Fatal(err)
			}
			f.answer = c.Answer
			_, err = run(ctx, client, c.Call)
			var e *Error
			if !errors.As(err, &e) || e.Code != c.Code {
				t.Fatalf("got %v, want %s", err, c.Code)
			}
		})
	}
	for _, c := range v.Rejected {
		t.Run("rejected/"+c.Name, func(t *testing.T) {
			b, f := fakeBrowser()
			o, err := createOptions(b, c.Create)
			var skip errSkip
			if errors.As(err, &skip) {
				t.Skip(skip)
			}
			client, err := Create(ctx, o)
			if err == nil && c.Call != nil {
				_, err = run(ctx, client, *c.Call)
			}
			if errors.As(err, &skip) {
				t.Skip(skip)
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != c.Code {
				t.Fatalf("got %v, want %s", err, c.Code)
			}
			if n := len(f.sent()); n != 0 {
				t.Fatalf("%d frames were sent", n)
			}
		})
	}
}

func TestVectorClientCalls(t *testing.T) {
	noProviderKeys(t)
	var v struct {
		Generate json.RawMessage `json:"generate"`
		Cases    []struct {
			Name      string          `json:"name"`
			Create    json.RawMessage `json:"create"`
			Exchanges [][2]string     `json:"exchanges"`
		} `json:"cases"`
	}
	loadVectors(t, "client-calls.json", &v)
	generateReply = v.Generate
	for _, c := range v.Cases {
		t.Run(c.Name, func(t *testing.T) {
			b, f := fakeBrowser()
			o, err := createOptions(b, c.Create)
			if err != nil {
				t.Fatal(err)
			}
			client, err := Create(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			for _, ex := range c.Exchanges {
				f.mu.Lock()
				f.replies = nil
				f.mu.Unlock()
				b.link.peer.receive([]byte(strings.ReplaceAll(ex[0], "%CALLBACK%", client.callback)))
				var got []string
				for i := 0; i < 400; i++ {
					f.mu.Lock()
					got = append([]string(nil), f.replies...)
					f.mu.Unlock()
					if len(got) > 0 {
						break
					}
					time.Sleep(5 * time.Millisecond)
				}
				if len(got) != 1 || got[0] != ex[1] {
					t.Fatalf("reply to %s:\n got %q\nwant %q", ex[0], got, ex[1])
				}
			}
		})
	}
}

func TestFramesAreWrittenAsJSONStringifyWritesThem(t *testing.T) {
	var v struct {
		Cases []struct {
			Frame string `json:"frame"`
		} `json:"cases"`
	}
	loadVectors(t, "calls.json", &v)
	for _, c := range v.Cases {
		raw := strings.Replace(c.Frame, "%ID%", "1", 1)
		n, err := parseOrdered([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := marshalJS(n)
		if strings.Replace(string(b), `"id":1,`, `"id":%ID%,`, 1) != c.Frame {
			t.Errorf("got %s\nwant %s", b, c.Frame)
		}
	}
	for in, want := range map[string]string{"a\u2028b": "\"a\u2028b\"", "<&>": `"<&>"`, "é\n": "\"é\\n\""} {
		if b, _ := marshalJS(in); string(b) != want {
			t.Errorf("%q: got %s want %s", in, b, want)
		}
	}
	for in, want := range map[float64]string{1: "1", 1e21: "1e+21", 1e-7: "1e-7", 0.5: "0.5", 12.5: "12.5"} {
		if b, _ := marshalJS(in); string(b) != want {
			t.Errorf("%v: got %s want %s", in, b, want)
		}
	}
}
