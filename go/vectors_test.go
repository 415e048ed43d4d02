package deckhand

// The shared test vectors (test/vectors/*.json), also run by the Node and Python clients: the
// same call sends byte for byte the same frame, answers are read the same way, and the
// worker's calls to the client are answered with the same bytes.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	l := &extensionLink{conn: conn, extensionID: "fake", tag: "t", state: stateUp, sessionID: "s"}
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
	On       string            `json:"on"`
	Method   string            `json:"method"`
	Args     []json.RawMessage `json:"args"`
	Options  json.RawMessage   `json:"options"`
	Locator  json.RawMessage   `json:"locator"`
	Agent    json.RawMessage   `json:"agent"`
	Function bool              `json:"function"`
}

// errZero marks an explicit 0 in a vector for a Go field whose zero value means "not given"
// (a time.Duration timeout, CacheConfig.Threshold): Go cannot pass that zero to the engine, so
// the rejected case is checked with the nearest value Go can pass, a negative one.
type errZero string

func (e errZero) Error() string { return "a zero " + string(e) + " means 'not given' in Go" }

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
		return o, fmt.Errorf("create options the Go test does not know: %v", err)
	}
	o.SystemPrompt, o.DOMSettleTimeoutMs, o.APIKey, o.APIURL = c.SystemPrompt, c.DOMSettleTimeoutMs, c.APIKey, c.APIURL
	if c.Cache != nil {
		var cc struct {
			Store     string `json:"store"`
			Threshold *int   `json:"threshold"`
		}
		if err := strictDecode(c.Cache, &cc); err != nil {
			return o, fmt.Errorf("cache options the Go test does not know: %v", err)
		}
		if cc.Threshold != nil && *cc.Threshold == 0 {
			return o, errZero("cache threshold")
		}
		o.Cache = &CacheConfig{Store: NewMemoryStore()}
		if cc.Threshold != nil {
			o.Cache.Threshold = *cc.Threshold
		}
	}
	if c.Model != nil {
		if strings.Contains(compact(c.Model), `"callback":"generate"`) {
			// A callback is a Go function; what else the vector gives goes in Model, which
			// Create refuses beside a callback.
			o.Generate = generate
			var rest ModelConfig
			json.Unmarshal(c.Model, &rest)
			if !reflect.DeepEqual(rest, ModelConfig{}) {
				o.Model = &rest
			}
		} else {
			m, err := ParseModelConfig(c.Model)
			if err != nil {
				return o, err
			}
			o.Model = m
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
	IgnoreLocators []json.RawMessage   `json:"ignoreLocators"`
	Cache          *CacheOption        `json:"cache"`
	Screenshot     bool                `json:"screenshot"`
	WaitUntil      string              `json:"waitUntil"`
	Type           string              `json:"type"`
	Quality        *int                `json:"quality"`
	FullPage       bool                `json:"fullPage"`
	Budget         int                 `json:"budget"`
	From           FlowPlace           `json:"from"`
	To             FlowPlace           `json:"to"`
	Where          FlowPlace           `json:"where"`
	Approval       *struct {
		When    []ApprovalKind `json:"when"`
		Words   []string       `json:"words"`
		Timeout int            `json:"timeout"`
	} `json:"approval"`
}

// approval is the vector's approval option as an ApprovalPolicy (nil: none).
func (o *vectorOptions) approval() *ApprovalPolicy {
	if o.Approval == nil {
		return nil
	}
	return &ApprovalPolicy{When: o.Approval.When, Words: o.Approval.Words, Timeout: time.Duration(o.Approval.Timeout) * time.Millisecond}
}

// locatorOf makes the Go Locator for a vector's locator: a selector, or {selector, nth}.
func locatorOf(p *Page, raw json.RawMessage) (*Locator, error) {
	var sel string
	if json.Unmarshal(raw, &sel) == nil {
		return p.Locator(sel), nil
	}
	var spec struct {
		Selector string `json:"selector"`
		Nth      *int   `json:"nth"`
	}
	if err := strictDecode(raw, &spec); err != nil {
		return nil, fmt.Errorf("a locator the Go test does not know: %v", err)
	}
	l := p.Locator(spec.Selector)
	if spec.Nth != nil {
		l = l.Nth(*spec.Nth)
	}
	return l, nil
}

// agentOf makes the AgentOptions for a vector's agent configuration (the Node names). A
// property AgentOptions has no field for fails the strict decoding, naming it.
func agentOf(raw json.RawMessage) (*AgentOptions, error) {
	var a struct {
		Provider     string             `json:"provider"`
		Model        string             `json:"model"`
		Instructions string             `json:"instructions"`
		Options      *AgentModelOptions `json:"options"`
	}
	if err := strictDecode(raw, &a); err != nil {
		return nil, err
	}
	o := &AgentOptions{Provider: a.Provider, Instructions: a.Instructions, Options: a.Options}
	if a.Model != "" {
		o.Model = ModelName(a.Model)
	}
	return o, nil
}

func str(raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s)
	return s
}

// run makes a vector's call with the Go API and returns what the caller gets, as JSON.
func run(ctx context.Context, c *Client, call vectorCall) (any, error) {
	var o vectorOptions
	if call.Options != nil {
		if err := strictDecode(call.Options, &o); err != nil {
			var de *Error
			if errors.As(err, &de) {
				return nil, de // a value the Go option type itself refuses (a cache option)
			}
			return nil, fmt.Errorf("options the Go test does not know: %v", err)
		}
	}
	var timeout time.Duration
	if o.Timeout != nil {
		if *o.Timeout == 0 {
			return nil, errZero("timeout")
		}
		timeout = time.Duration(*o.Timeout * float64(time.Millisecond))
	}
	page := c.Page(7)
	var pageOpt *Page
	if o.Page != nil {
		pageOpt = c.Page(*o.Page)
	}
	var locator *Locator
	if o.Locator != nil {
		locator = page.Locator(*o.Locator)
	}
	var ignore []*Locator
	for _, raw := range o.IgnoreLocators {
		l, err := locatorOf(page, raw)
		if err != nil {
			return nil, err
		}
		ignore = append(ignore, l)
	}
	args := func(n int) error {
		if len(call.Args) < n {
			return fmt.Errorf("%s.%s needs %d arguments", call.On, call.Method, n)
		}
		return nil
	}
	switch call.On {
	case "page":
		switch call.Method {
		case "goto":
			var g *GotoOptions
			if o.Timeout != nil || o.WaitUntil != "" {
				g = &GotoOptions{WaitUntil: o.WaitUntil, Timeout: timeout}
			}
			return page.Goto(ctx, str(call.Args[0]), g)
		case "title":
			return page.Title(ctx)
		case "evaluate":
			var out any
			eo := &EvaluateOptions{Timeout: timeout}
			if call.Function {
				var arg any
				if len(call.Args) > 1 {
					arg = call.Args[1]
				}
				return out, page.EvaluateFunction(ctx, str(call.Args[0]), arg, &out, eo)
			}
			return out, page.Evaluate(ctx, str(call.Args[0]), &out, eo)
		case "screenshot":
			return page.Screenshot(ctx, &ScreenshotOptions{Type: o.Type, Quality: o.Quality, FullPage: o.FullPage})
		case "snapshot":
			return page.Snapshot(ctx, &SnapshotOptions{Locator: locator, IgnoreLocators: ignore, Budget: o.Budget, Timeout: timeout})
		case "extract":
			if len(call.Args) > 0 {
				return page.Extract(ctx, str(call.Args[0]), nil)
			}
			return page.Extract(ctx, "", nil)
		case "press":
			return nil, page.Press(ctx, str(call.Args[0]), &ActionOptions{Timeout: timeout})
		}
	case "locator":
		l, err := locatorOf(page, call.Locator)
		if err != nil {
			return nil, err
		}
		ao := &ActionOptions{Timeout: timeout}
		switch call.Method {
		case "check":
			return nil, l.Check(ctx, ao)
		case "fill":
			return nil, l.Fill(ctx, str(call.Args[0]), ao)
		case "selectOption":
			var values []string
			if err := json.Unmarshal(call.Args[0], &values); err != nil {
				values = []string{str(call.Args[0])}
			}
			return nil, l.SelectOption(ctx, values, ao)
		case "count":
			return l.Count(ctx)
		}
	case "context":
		switch call.Method {
		case "newPage":
			url := ""
			if len(call.Args) > 0 {
				url = str(call.Args[0])
			}
			return c.Context().NewPage(ctx, url, nil)
		case "pages":
			return c.Context().Pages(ctx)
		}
	case "flows":
		switch call.Method {
		case "get":
			return c.Flows().Get(ctx, str(call.Args[0]), o.From)
		case "save":
			var f Flow
			if err := strictDecode(call.Args[0], &f); err != nil {
				return nil, err
			}
			return c.Flows().Save(ctx, &f, o.To)
		case "rename":
			return c.Flows().Rename(ctx, str(call.Args[0]), str(call.Args[1]), o.Where)
		case "delete":
			return c.Flows().Delete(ctx, str(call.Args[0]), o.From)
		}
	case "agent":
		ag, err := agentOf(call.Agent)
		if err != nil {
			return nil, err
		}
		if call.Method != "execute" || args(1) != nil {
			break
		}
		if s := str(call.Args[0]); s != "" {
			return c.Agent(ag).Execute(ctx, s, nil)
		}
		var x struct {
			Instruction        string `json:"instruction"`
			MaxSteps           int    `json:"maxSteps"`
			AutoScreenshot     *bool  `json:"autoScreenshot"`
			WaitBetweenActions int    `json:"waitBetweenActions"`
			Context            string `json:"context"`
		}
		if err := strictDecode(call.Args[0], &x); err != nil {
			return nil, fmt.Errorf("execute options the Go test does not know: %v", err)
		}
		return c.Agent(ag).Execute(ctx, x.Instruction, &ExecuteOptions{MaxSteps: x.MaxSteps, AutoScreenshot: x.AutoScreenshot,
			WaitBetweenActions: time.Duration(x.WaitBetweenActions) * time.Millisecond, Context: x.Context})
	case "deckhand":
		ao := &ActOptions{Cache: o.Cache, IgnoreLocators: ignore, Locator: locator, Timeout: timeout, Variables: o.Variables, Page: pageOpt, Approval: o.approval()}
		switch call.Method {
		case "act":
			if s := str(call.Args[0]); s != "" {
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
				ins = String(str(call.Args[0]))
			}
			return c.Observe(ctx, ins, ao)
		case "extract":
			eo := &ExtractOptions{Cache: o.Cache, Timeout: timeout, Screenshot: o.Screenshot, Page: pageOpt}
			var ins string
			if len(call.Args) > 0 {
				ins = str(call.Args[0])
			}
			if len(call.Args) > 1 {
				type heading struct {
					Heading string `json:"heading"`
				}
				want, _ := SchemaOf[heading]()
				if string(want) != compact(call.Args[1]) {
					return nil, fmt.Errorf("the schema %s is not the heading struct's %s", compact(call.Args[1]), want)
				}
				return Extract[heading](ctx, c, ins, eo)
			}
			return Extract[json.RawMessage](ctx, c, ins, eo)
		case "metrics":
			return c.Metrics(ctx)
		case "experimentalBatch":
			var input any
			if len(call.Args) > 1 {
				input = call.Args[1]
			}
			var out any
			err := c.ExperimentalBatch(ctx, str(call.Args[0]), input, &out, &BatchOptions{Timeout: timeout, Page: pageOpt, Approval: o.approval()})
			return out, err
		}
	}
	return nil, fmt.Errorf("the Go test has no call for %s.%s", call.On, call.Method)
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

// resolvedInFrame is the model a vector's frame carries as the Node client resolved it.
var resolvedInFrame = regexp.MustCompile(`"model":\{"kind":"provider"[^{}]*\}`)

// namedInFrame is a vector's frame as the Go client sends it: a model named by the caller goes
// as given (a NamedModel), for the worker to resolve, where the Node client sends it resolved.
func namedInFrame(frame string, create json.RawMessage) string {
	var c struct {
		Model json.RawMessage `json:"model"`
	}
	json.Unmarshal(create, &c)
	if c.Model == nil || strings.Contains(string(c.Model), `"callback"`) {
		return frame
	}
	return resolvedInFrame.ReplaceAllLiteralString(frame, `"model":{"kind":"named","model":`+compact(c.Model)+`}`)
}

// namedByCreate says whether a vector's create options name a model the worker resolves (and
// refuses, when it cannot be used: TestTheWorkerRefusesNamedModelsAsTheVectorsSay).
func namedByCreate(create json.RawMessage) bool {
	return namedInFrame(`"model":{"kind":"provider"}`, create) != `"model":{"kind":"provider"}`
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
				t.Fatal(err)
			}
			client, err := Create(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			f.answer = c.Answer
			value, err := run(context.Background(), client, c.Call)
			if err != nil {
				t.Fatal(err)
			}
			ran++
			frames := f.sent()
			if want := namedInFrame(c.Frame, c.Create); len(frames) != 1 || normalise(frames[0]) != want {
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
	if ran != len(v.Cases) {
		t.Errorf("%d of %d vector calls ran", ran, len(v.Cases))
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
			if _, err := ParseModelConfig(modelOf(c.Create)); err == nil && namedByCreate(c.Create) {
				t.Skip("the worker refuses this model: TestTheWorkerRefusesNamedModelsAsTheVectorsSay")
			}
			b, f := fakeBrowser()
			err := reject(ctx, b, c.Create, c.Call)
			var zero errZero
			if errors.As(err, &zero) {
				// Go cannot pass this zero: check the nearest value it can, a negative one.
				neg := regexp.MustCompile(`("timeout"|"threshold")\s*:\s*0\b`)
				create := json.RawMessage(neg.ReplaceAllString(string(c.Create), "$1:-1"))
				var call *vectorCall
				if c.Call != nil {
					cc := *c.Call
					cc.Options = json.RawMessage(neg.ReplaceAllString(string(cc.Options), "$1:-1"))
					call = &cc
				}
				err = reject(ctx, b, create, call)
			}
			var e *Error
			if !errors.As(err, &e) {
				// A property the Go agent options have no field for: decoding into them fails, naming it.
				m := regexp.MustCompile(`unknown field "([^"]+)"`).FindStringSubmatch(fmt.Sprint(err))
				if m == nil || c.Call == nil || !strings.Contains(string(c.Call.Agent), `"`+m[1]+`"`) {
					t.Fatalf("got %v, want %s", err, c.Code)
				}
				return
			}
			if e.Code != c.Code {
				t.Fatalf("got %v, want %s", err, c.Code)
			}
			if strings.Contains(c.Name, "unknown ModelConfig property") && !strings.Contains(e.Message, "'temperature'") {
				t.Fatalf("the error does not name the property: %v", err)
			}
			if n := len(f.sent()); n != 0 {
				t.Fatalf("%d frames were sent", n)
			}
		})
	}
}

func modelOf(create json.RawMessage) json.RawMessage {
	var c struct {
		Model json.RawMessage `json:"model"`
	}
	json.Unmarshal(create, &c)
	return c.Model
}

// The models the vectors' clients refuse before sending, the Go client sends by name: the
// worker refuses them, with the same codes.
func TestTheWorkerRefusesNamedModelsAsTheVectorsSay(t *testing.T) {
	noProviderKeys(t)
	var v struct {
		Rejected []struct {
			Name   string          `json:"name"`
			Create json.RawMessage `json:"create"`
			Code   string          `json:"code"`
		} `json:"rejected"`
	}
	loadVectors(t, "errors.json", &v)
	ran := 0
	for _, c := range v.Rejected {
		m, err := ParseModelConfig(modelOf(c.Create))
		if err != nil || !namedByCreate(c.Create) {
			continue
		}
		ran++
		t.Run(c.Name, func(t *testing.T) {
			client := newClient(t, CreateOptions{Model: m})
			open(t, client, "/form.html")
			if _, err := client.Act(context.Background(), ActInstruction("click the Multi button"), nil); codeOf(err) != c.Code {
				t.Errorf("got %v, want %s", err, c.Code)
			}
		})
	}
	if ran == 0 {
		t.Fatal("no vector names a model the worker refuses")
	}
}

// reject makes a rejected case's client and call, and returns the error it met.
func reject(ctx context.Context, b *Browser, create json.RawMessage, call *vectorCall) error {
	o, err := createOptions(b, create)
	if err != nil {
		return err
	}
	client, err := Create(ctx, o)
	if err != nil {
		return err
	}
	defer client.Close()
	if call == nil {
		return nil
	}
	_, err = run(ctx, client, *call)
	return err
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
