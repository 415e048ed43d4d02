package deckhand

// End to end in real Chromium with the extension, on the repository's fixture pages.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var (
	// afterAll run once the tests are done (browsers some tests share, their folders).
	afterAll   []func()
	shared     *Browser
	origin     string
	launchErr  error
	launchOnce sync.Once
)

func TestMain(m *testing.M) {
	for _, k := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"} {
		os.Unsetenv(k)
	}
	wd, _ := os.Getwd()
	pages := filepath.Join(filepath.Dir(wd), "test", "fixtures", "pages")
	files := http.FileServer(http.Dir(pages))
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if r.URL.Path == "/slow" { // answers after 20 s, or never when the browser gives up
			select {
			case <-r.Context().Done():
			case <-time.After(20 * time.Second):
				fmt.Fprint(w, "<title>slow</title>")
			}
			return
		}
		if r.Method == http.MethodPost && r.URL.Path == "/contact" { // the contact form's POST, recorded
			_ = r.ParseForm()
			formPosts.add(r.URL.Path, r.PostForm)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Message sent</title></head><body><h1>Thanks!</h1></body></html>`)
			return
		}
		if strings.HasSuffix(r.URL.Path, ".html") {
			body, err := os.ReadFile(filepath.Join(pages, filepath.Clean("/"+r.URL.Path)))
			if err != nil {
				http.NotFound(w, r)
				return
			}
			s := strings.ReplaceAll(string(body), "{{ORIGIN}}", srv.URL)
			s = strings.ReplaceAll(s, "{{CROSS_ORIGIN}}", srv.URL)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, s)
			return
		}
		files.ServeHTTP(w, r)
	}))
	origin = srv.URL
	code := m.Run()
	for _, f := range afterAll {
		f()
	}
	if shared != nil {
		shared.Close()
	}
	srv.Close()
	os.Exit(code)
}

func browser(t *testing.T) *Browser {
	t.Helper()
	launchOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		shared, launchErr = LaunchLocalBrowser(ctx, &LaunchOptions{ViewportWidth: 1000, ViewportHeight: 700})
	})
	if launchErr != nil {
		t.Fatalf("launch: %v", launchErr)
	}
	return shared
}

func newClient(t *testing.T, o CreateOptions) *Client {
	t.Helper()
	o.Browser = browser(t)
	c, err := Create(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func open(t *testing.T, c *Client, path string) {
	t.Helper()
	if _, err := c.Goto(context.Background(), origin+path, nil); err != nil {
		t.Fatal(err)
	}
}

// eval reads a value from the active page through a batch.
func eval[T any](t *testing.T, c *Client, expr string) T {
	t.Helper()
	var out T
	if err := c.ExperimentalBatch(context.Background(), "async (batch, input) => batch.page.evaluate(input)", expr, &out, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

func codeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return fmt.Sprintf("not a *deckhand.Error: %v", err)
}

func TestActWithAnObservedActionIsDeterministicAndTyped(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, CreateOptions{})
	open(t, c, "/form.html")
	r, err := c.Act(ctx, ObservedAction(Action{Selector: "#multi", Description: "the Multi button", Method: "click"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Data.Success || r.Data.ActionDescription != "the Multi button" || r.Metadata.Cache.Status != CacheDisabled || r.Metadata.ActionID == "" {
		t.Fatalf("%+v", r)
	}
	if len(r.Data.Actions) != 1 || r.Data.Actions[0].Selector != "#multi" || r.Data.Actions[0].Arguments == nil {
		t.Fatalf("actions: %+v", r.Data.Actions)
	}
	if r.Metadata.Usage.InputTokens != 0 || r.Metadata.Usage.InferenceTimeMs != 0 {
		t.Fatalf("usage: %+v", r.Metadata.Usage)
	}
	if _, err := c.Act(ctx, ObservedAction(Action{Selector: "#name", Description: "name", Method: "fill", Arguments: []string{"Ada"}}), nil); err != nil {
		t.Fatal(err)
	}
	if log := eval[[]string](t, c, "window.__log"); len(log) != 1 || log[0] != "click:multi" {
		t.Fatalf("log %v", log)
	}
	if v := eval[string](t, c, "document.getElementById('name').value"); v != "Ada" {
		t.Fatalf("name %q", v)
	}
}

func TestTheLocalModelByDefaultWithNoKey(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, CreateOptions{})
	open(t, c, "/form.html")
	r, err := c.Act(ctx, ActInstruction(`type "Grace Hopper" into the Full name field`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Data.Success || r.Metadata.Confidence == nil || *r.Metadata.Confidence <= 0 || r.Metadata.Usage.InputTokens != 0 {
		t.Fatalf("%+v", r)
	}
	if v := eval[string](t, c, "document.getElementById('name').value"); v != "Grace Hopper" {
		t.Fatalf("name %q", v)
	}
	refused, err := c.Act(ctx, ActInstruction("book a flight to Lisbon and then pay for it"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if refused.Data.Success || !strings.Contains(refused.Data.Message, "configure a model") {
		t.Fatalf("%+v", refused.Data)
	}
	m, err := c.Metrics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m.ActInferenceTimeMs <= 0 || m.TotalInferenceTimeMs < m.ActInferenceTimeMs || m.ActPromptTokens != 0 {
		t.Fatalf("metrics %+v", m)
	}
}

type account struct {
	FullName string `json:"full_name"`
	Email    string `json:"email"`
}

func TestObserveThenActAndExtractIntoAType(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, CreateOptions{})
	open(t, c, "/form.html")
	ins := "the Multi button"
	r, err := c.Observe(ctx, &ins, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Data) == 0 || r.Data[0].Method != "click" {
		t.Fatalf("%+v", r.Data)
	}
	done, err := c.Act(ctx, ObservedAction(r.Data[0]), nil)
	if err != nil || !done.Data.Success {
		t.Fatal(err, done)
	}
	if log := eval[[]string](t, c, "window.__log"); len(log) != 1 || log[0] != "click:multi" {
		t.Fatalf("log %v", log)
	}
	main, err := c.Observe(ctx, nil, nil)
	if err != nil || len(main.Data) <= 3 {
		t.Fatal(err, main)
	}
	for sel, v := range map[string]string{"#name": "Ada Lovelace", "#email": "ada@example.com"} {
		if _, err := c.Act(ctx, ObservedAction(Action{Selector: sel, Description: sel, Method: "fill", Arguments: []string{v}}), nil); err != nil {
			t.Fatal(err)
		}
	}
	text, err := Extract[json.RawMessage](ctx, c, "the page heading", nil)
	if err != nil || string(text.Data) != `{"extraction":"Sign up"}` {
		t.Fatal(err, string(text.Data))
	}
	typed, err := Extract[account](ctx, c, "the account", nil)
	if err != nil {
		t.Fatal(err)
	}
	if typed.Data != (account{FullName: "Ada Lovelace", Email: "ada@example.com"}) {
		t.Fatalf("%+v", typed.Data)
	}
}

func elementID(t *testing.T, req *ModelRequest, role, name string) string {
	for _, l := range req.Outline {
		if l.Kind == "element" && l.Role == role && l.Name == name {
			return l.ID
		}
	}
	t.Errorf("no %s %q in the outline", role, name)
	return ""
}

type clickAnswer struct {
	Found       bool     `json:"found"`
	ElementID   string   `json:"elementId"`
	Method      string   `json:"method"`
	Arguments   []string `json:"arguments"`
	Description string   `json:"description"`
	TwoStep     bool     `json:"twoStep"`
	Reason      string   `json:"reason"`
}

func TestAGenerateCallbackAnswersTheWorker(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var seen []*ModelRequest
	gen := func(ctx context.Context, req *ModelRequest) (*ModelReply, error) {
		mu.Lock()
		seen = append(seen, req)
		mu.Unlock()
		return &ModelReply{Object: clickAnswer{Found: true, ElementID: elementID(t, req, "textbox", "Email"), Method: "fill", Arguments: []string{"%email%"},
			Description: "Email"},
			Usage: &ReplyUsage{InputTokens: 77, OutputTokens: 7}}, nil
	}
	c := newClient(t, CreateOptions{Generate: gen, SystemPrompt: "Never submit payment forms."})
	open(t, c, "/form.html")
	r, err := c.Act(ctx, ActInstruction("type my email into the email field"), &ActOptions{
		Variables: map[string]Variable{"email": {Value: "ada@example.com", Description: "login email"}},
		Timeout:   30 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Data.Success || r.Metadata.Usage.InputTokens != 77 {
		t.Fatalf("%+v", r)
	}
	if v := eval[string](t, c, "document.getElementById('email').value"); v != "ada@example.com" {
		t.Fatalf("email %q", v)
	}
	mu.Lock()
	first := seen[0]
	mu.Unlock()
	if !strings.Contains(first.System, "Never submit payment forms.") || strings.Contains(first.Prompt, "ada@example.com") || !strings.Contains(first.Prompt,
		"%email%") {
		t.Fatalf("request: %+v", first)
	}
	if len(r.Data.Actions) != 1 || len(r.Data.Actions[0].Arguments) != 1 || r.Data.Actions[0].Arguments[0] != "%email%" {
		t.Fatalf("actions %+v", r.Data.Actions)
	}
	// Locator scopes what the model reads.
	page, err := c.ActivePage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := page.Act(ctx, ActInstruction("type my email"), &ActOptions{Variables: map[string]Variable{"email": {Value: "x@y.z"}},
		Locator: page.Locator("#signup")}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	last := seen[len(seen)-1]
	mu.Unlock()
	if strings.Contains(last.Prompt, "Multi") {
		t.Fatal("the locator did not scope the prompt")
	}
	// An observed action's placeholders are filled as it runs: a number as its text.
	fill := ObservedAction(Action{Selector: "#age", Description: "age", Method: "fill", Arguments: []string{"%age%"}})
	if _, err := page.Act(ctx, fill, &ActOptions{Variables: map[string]Variable{"age": {Value: 42}}}); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, c, "document.getElementById('age').value"); got != "42" {
		t.Fatalf("age field %q", got)
	}
	m, err := c.Metrics(ctx)
	if err != nil || m.ActPromptTokens < 77 || m.ActCompletionTokens < 7 {
		t.Fatal(err, m)
	}
}

func TestCancellingTheContextAbandonsTheCall(t *testing.T) {
	started := make(chan struct{}, 1)
	released := make(chan error, 1)
	gen := func(ctx context.Context, req *ModelRequest) (*ModelReply, error) {
		started <- struct{}{}
		select {
		case <-ctx.Done():
			released <- ctx.Err()
			return nil, ctx.Err()
		case <-time.After(30 * time.Second):
			released <- nil
			return &ModelReply{Object: map[string]any{}}, nil
		}
	}
	c := newClient(t, CreateOptions{Generate: gen})
	open(t, c, "/form.html")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Act(ctx, ActInstruction("click the Multi button"), nil)
		errc <- err
	}()
	select {
	case <-started:
	case <-time.After(20 * time.Second):
		t.Fatal("the callback was never called")
	}
	t0 := time.Now()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Act did not return promptly after cancel")
	}
	if d := time.Since(t0); d > time.Second {
		t.Fatalf("took %s", d)
	}
	select {
	case err := <-released:
		if err == nil {
			t.Fatal("the callback ran to its end")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the callback's context was not cancelled")
	}
	// The client stays usable.
	r, err := c.Act(context.Background(), ObservedAction(Action{Selector: "#multi", Description: "Multi"}), nil)
	if err != nil || !r.Data.Success {
		t.Fatal(err, r)
	}
	// A context already done sends nothing.
	if _, err := c.Metrics(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

func TestErrorsAreTypedWithTheNodeCodes(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, CreateOptions{})
	open(t, c, "/form.html")
	_, err := c.Act(ctx, ObservedAction(Action{Selector: "//div[", Description: "broken"}), nil)
	if codeOf(err) != CodeInvalidSelector {
		t.Fatalf("got %v", err)
	}
	_, err = c.Act(ctx, ObservedAction(Action{Selector: "#multi", Description: "x", Method: "smash"}), nil)
	if codeOf(err) != CodeUnsupportedMethod {
		t.Fatalf("got %v", err)
	}
	if !errors.Is(err, &Error{Code: CodeUnsupportedMethod}) || !strings.HasPrefix(err.Error(), "UNSUPPORTED_METHOD: ") {
		t.Fatalf("errors.Is / Error(): %v", err)
	}
	_, err = c.Goto(ctx, "file:///etc/passwd", nil)
	if codeOf(err) != CodeURLNotAllowed {
		t.Fatalf("got %v", err)
	}
	// Refused before anything is sent.
	for _, err := range []error{
		func() error {
			_, e := c.Act(ctx, ActInstruction("click"), &ActOptions{Timeout: 600_001 * time.Millisecond})
			return e
		}(),
		func() error {
			_, e := c.Act(ctx, ActInstruction("click"), &ActOptions{Timeout: 1500 * time.Microsecond})
			return e
		}(),
		func() error {
			_, e := c.Act(ctx, ActInstruction("click"), &ActOptions{Cache: CacheWithThreshold(0)})
			return e
		}(),
		func() error { _, e := c.Act(ctx, nil, nil); return e }(),
		c.ExperimentalBatch(ctx, " ", nil, nil, nil),
		c.ExperimentalBatch(ctx, "() => 1", func() {}, nil, nil),
	} {
		if codeOf(err) != CodeInvalidArgument {
			t.Errorf("got %v, want INVALID_ARGUMENT", err)
		}
	}
	if log := eval[[]string](t, c, "window.__log"); len(log) != 0 {
		t.Fatalf("the page was touched: %v", log)
	}
	var stack *Error
	err = c.ExperimentalBatch(ctx, "async () => { throw new Error('exploded in the worker') }", nil, nil, nil)
	if !errors.As(err, &stack) || stack.Code != CodeBatchFailed || !strings.Contains(stack.Message, "exploded") {
		t.Fatalf("got %v", err)
	}
}

func TestExperimentalBatchInputAndResult(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, CreateOptions{})
	open(t, c, "/form.html")
	kind := "async (batch, input) => ({kind: input === undefined ? 'undefined' : input === null ? 'null' : typeof input})"
	for _, tc := range []struct {
		input any
		want  string
	}{{nil, "undefined"}, {json.RawMessage("null"), "null"}, {0, "number"}, {map[string]int{"a": 1}, "object"}} {
		var out struct {
			Kind string `json:"kind"`
		}
		if err := c.ExperimentalBatch(ctx, kind, tc.input, &out, nil); err != nil || out.Kind != tc.want {
			t.Fatalf("%v: %v %q", tc.input, err, out.Kind)
		}
	}
	var title string
	if err := c.ExperimentalBatch(ctx, "async (batch, input) => (await batch.page.title()) + input", "!", &title,
		&BatchOptions{Timeout: 10 * time.Second}); err != nil || title != "Sign up!" {
		t.Fatal(err, title)
	}
	// undefined decodes as JSON null.
	out := &struct{}{}
	var p *struct{} = out
	if err := c.ExperimentalBatch(ctx, "async () => undefined", nil, &p, nil); err != nil || p != nil {
		t.Fatal(err, p)
	}
	// A nil result pointer: the value is dropped.
	if err := c.ExperimentalBatch(ctx, "async () => 42", nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	e := c.ExperimentalBatch(ctx, "async () => new Promise(r => setTimeout(r, 5000))", nil, nil, &BatchOptions{Timeout: 300 * time.Millisecond})
	if codeOf(e) != CodeTimeout {
		t.Fatalf("got %v", e)
	}
}

func TestOneHandleBacksOneClientAndCloseRunsOnce(t *testing.T) {
	ctx := context.Background()
	b := browser(t)
	c, err := Create(ctx, CreateOptions{Browser: b})
	if err != nil {
		t.Fatal(err)
	}
	if c.Browser() != b || !c.Initialized() {
		t.Fatal("Browser() / Initialized()")
	}
	if _, err := Create(ctx, CreateOptions{Browser: b}); codeOf(err) != CodeAlreadyInUse {
		t.Fatalf("got %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if c.Initialized() {
		t.Fatal("still initialized")
	}
	if _, err := c.Metrics(ctx); codeOf(err) != CodeClosed {
		t.Fatalf("got %v", err)
	}
	// Closing released the handle.
	c2, err := Create(ctx, CreateOptions{Browser: b})
	if err != nil {
		t.Fatal(err)
	}
	c2.Close()
	if _, err := Create(ctx, CreateOptions{}); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("got %v", err)
	}
}

func TestCacheReplaysWithAMemoryStore(t *testing.T) {
	ctx := context.Background()
	store := NewMemoryStore()
	calls := 0
	var mu sync.Mutex
	gen := func(ctx context.Context, req *ModelRequest) (*ModelReply, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		return &ModelReply{Object: clickAnswer{Found: true, ElementID: elementID(t, req, "button", "Multi"), Method: "click", Arguments: []string{},
			Description: "Multi"}, Usage: &ReplyUsage{InputTokens: 77, OutputTokens: 7}}, nil
	}
	c := newClient(t, CreateOptions{Generate: gen, Cache: &CacheConfig{Store: store}})
	open(t, c, "/form.html")
	first, err := c.Act(ctx, ActInstruction("click the Multi button"), nil)
	if err != nil || first.Metadata.Cache.Status != CacheMiss || first.Metadata.Cache.MissReason == "" {
		t.Fatal(err, first)
	}
	open(t, c, "/form.html")
	second, err := c.Act(ctx, ActInstruction("click the Multi button"), nil)
	if err != nil || second.Metadata.Cache.Status != CacheHit || second.Metadata.Cache.TokensSaved == nil {
		t.Fatalf("%v %+v", err, second)
	}
	mu.Lock()
	n := calls
	mu.Unlock()
	if n != 1 {
		t.Fatalf("the model was called %d times", n)
	}
	off, err := c.Act(ctx, ActInstruction("click the Multi button"), &ActOptions{Cache: CacheEnabled(false)})
	if err != nil || off.Metadata.Cache.Status != CacheDisabled {
		t.Fatal(err, off)
	}
}

func TestLaunchCloseRemovesTheProfileAndLaterCallsFail(t *testing.T) {
	ctx := context.Background()
	b, err := LaunchLocalBrowser(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Create(ctx, CreateOptions{Browser: b})
	if err != nil {
		t.Fatal(err)
	}
	profile := b.profile
	if _, err := os.Stat(profile); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(profile); !os.IsNotExist(err) {
		t.Fatalf("the profile is still there: %v", err)
	}
	if _, err := c.Metrics(ctx); codeOf(err) != CodeBrowserClosed {
		t.Fatalf("got %v", err)
	}
	if b.Connected() {
		t.Fatal("still connected")
	}
	// A cancelled launch returns ctx.Err().
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := LaunchLocalBrowser(cctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if _, err := LaunchLocalBrowser(ctx, &LaunchOptions{ExecutablePath: "/nonexistent/chromium"}); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("got %v", err)
	}
}

// chromiumWithPort starts Chromium by hand with a debugging port (as a person would), with or
// without the extension; it is killed when the test ends.
func chromiumWithPort(t *testing.T, extension bool) (*exec.Cmd, string) {
	t.Helper()
	profile := t.TempDir()
	args := []string{"--headless", "--remote-debugging-port=0", "--user-data-dir=" + profile, "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync"}
	if extension {
		ext, err := extensionDir()
		if err != nil {
			t.Fatal(err)
		}
		ext, _ = filepath.Abs(ext)
		args = append(args, "--disable-extensions-except="+ext, "--load-extension="+ext)
	}
	cmd := exec.Command(findChromium(), append(args, "about:blank")...)
	cmd.SysProcAttr = newProcessGroup()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		killProcessTree(cmd.Process)
		cmd.Wait()
	})
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort")); err == nil && len(strings.TrimSpace(string(b))) > 0 {
			return cmd, "http://127.0.0.1:" + strings.Split(string(b), "\n")[0]
		}
	}
	t.Fatal("Chromium did not open its debugging port")
	return nil, ""
}

func TestConnectAttachesToARunningChromiumWithTheExtension(t *testing.T) {
	ctx := context.Background()
	cmd, url := chromiumWithPort(t, true)
	b, err := ConnectLocalBrowser(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Create(ctx, CreateOptions{Browser: b})
	if err != nil {
		t.Fatal(err)
	}
	open(t, c, "/form.html")
	var title string
	if err := c.ExperimentalBatch(ctx, "async (batch) => batch.page.title()", nil, &title, nil); err != nil || title != "Sign up" {
		t.Fatal(err, title)
	}
	c.Close()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	// Disconnecting leaves the browser running.
	if !processAlive(cmd.Process.Pid) {
		t.Fatal("the browser was closed by a disconnect")
	}
	if _, err := ConnectLocalBrowser(ctx, "ftp://x"); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("got %v", err)
	}
}

// stopWorker stops the extension's service worker, as Chromium does when it is idle.
func stopWorker(t *testing.T, b *Browser) {
	t.Helper()
	ctx := context.Background()
	var r struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}
	if err := b.conn.send(ctx, "Target.getTargets", nil, "", &r); err != nil {
		t.Fatal(err)
	}
	var page string
	for _, ti := range r.TargetInfos {
		if ti.Type == "page" {
			page = ti.TargetID
			break
		}
	}
	var a struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.conn.send(ctx, "Target.attachToTarget", map[string]any{"targetId": page, "flatten": true}, "", &a); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"ServiceWorker.enable", "ServiceWorker.stopAllWorkers"} {
		if err := b.conn.send(ctx, m, nil, a.SessionID, nil); err != nil {
			t.Fatal(err)
		}
	}
	_ = b.conn.send(ctx, "Target.detachFromTarget", map[string]any{"sessionId": a.SessionID}, "", nil)
}

func TestACallInFlightWhenTheWorkerStopsFailsAndTheNextRestartsIt(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, CreateOptions{})
	open(t, c, "/form.html")
	errc := make(chan error, 1)
	go func() {
		_, err := c.Act(ctx, ObservedAction(Action{Selector: "#never-there", Description: "x"}), &ActOptions{Timeout: 20 * time.Second})
		errc <- err
	}()
	time.Sleep(200 * time.Millisecond)
	t0 := time.Now()
	stopWorker(t, c.Browser())
	select {
	case err := <-errc:
		if codeOf(err) != CodeWorkerGone {
			t.Fatalf("got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not fail within 5 s")
	}
	t.Logf("WORKER_GONE after %s", time.Since(t0))
	t1 := time.Now()
	if _, err := c.Act(ctx, ObservedAction(Action{Selector: "#terms", Description: "after restart", Method: "check"}), nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("restart and act: %s", time.Since(t1))
	if !eval[bool](t, c, "document.getElementById('terms').checked") {
		t.Fatal("not checked")
	}
	// And again while idle: stop, then call.
	stopWorker(t, c.Browser())
	time.Sleep(300 * time.Millisecond)
	var title string
	if err := c.ExperimentalBatch(ctx, "async (batch) => batch.page.title()", nil, &title, nil); err != nil || title != "Sign up" {
		t.Fatal(err, title)
	}
}

func TestACallInFlightWhenTheBrowserClosesFailsAtOnce(t *testing.T) {
	ctx := context.Background()
	b, err := LaunchLocalBrowser(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Create(ctx, CreateOptions{Browser: b})
	if err != nil {
		t.Fatal(err)
	}
	open(t, c, "/form.html")
	errc := make(chan error, 1)
	go func() {
		_, err := c.Act(ctx, ObservedAction(Action{Selector: "#never-there", Description: "x"}), &ActOptions{Timeout: 20 * time.Second})
		errc <- err
	}()
	time.Sleep(200 * time.Millisecond)
	t0 := time.Now()
	b.Close()
	select {
	case err := <-errc:
		if codeOf(err) != CodeBrowserClosed {
			t.Fatalf("got %v", err)
		}
	case <-time.After(6 * time.Second):
		t.Fatal("the call did not fail within 6 s")
	}
	if d := time.Since(t0); d > 6*time.Second {
		t.Fatalf("took %s", d)
	}
	if _, err := c.Metrics(ctx); codeOf(err) != CodeBrowserClosed {
		t.Fatalf("got %v", err)
	}
}

func TestTheEnginesLogLinesReachTheLoggingFunc(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var lines []string
	c := newClient(t, CreateOptions{Logging: &LoggingOptions{Level: "debug", Func: func(level, message string, data map[string]any) {
		mu.Lock()
		lines = append(lines, level+": "+message)
		mu.Unlock()
	}}})
	open(t, c, "/form.html")
	if _, err := c.Act(ctx, ActInstruction("click the Multi button"), nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	n := len(lines)
	mu.Unlock()
	if n == 0 {
		t.Fatal("no log lines")
	}
	t.Logf("%d lines, e.g. %q", n, lines[0])
	if _, err := Create(ctx, CreateOptions{Browser: browser(t), Logging: &LoggingOptions{Level: "loud"}}); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("got %v", err)
	}
}

func TestCancellingAGotoStopsTheNavigation(t *testing.T) {
	c := newClient(t, CreateOptions{})
	open(t, c, "/form.html")
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, err := c.Goto(ctx, origin+"/slow", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Fatalf("took %s", d)
	}
	// The worker stopped it: the next navigation runs at once.
	t1 := time.Now()
	p, err := c.Goto(context.Background(), origin+"/form.html", nil)
	if err != nil || p.Title != "Sign up" {
		t.Fatal(err, p)
	}
	if d := time.Since(t1); d > 5*time.Second {
		t.Fatalf("the next goto took %s", d)
	}
}

func TestConnectFailsAtOnceWithoutTheExtension(t *testing.T) {
	_, url := chromiumWithPort(t, false)
	t0 := time.Now()
	_, err := ConnectLocalBrowser(context.Background(), url)
	if codeOf(err) != CodeExtensionMissing {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(t0); d > 6*time.Second {
		t.Fatalf("took %s", d)
	}
	if _, err := ConnectLocalBrowser(context.Background(), "http://127.0.0.1:1"); codeOf(err) != CodeBrowserClosed {
		t.Fatalf("got %v", err)
	}
}

func TestAChromiumThatDiesAtStartSaysWhy(t *testing.T) {
	script := filepath.Join(t.TempDir(), "chromium")
	os.WriteFile(script, []byte("#!/bin/sh\necho 'this is not a browser' >&2\nexit 3\n"), 0o755)
	_, err := LaunchLocalBrowser(context.Background(), &LaunchOptions{ExecutablePath: script})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeBrowserClosed || !strings.Contains(e.Message, "this is not a browser") || !strings.Contains(e.Message,
		"exited during launch") {
		t.Fatalf("got %v", err)
	}
}

// fakeCacheService answers /v1/cache/* as the Deckhand service does, from a MemoryStore.
func fakeCacheService(t *testing.T, key string) (*httptest.Server, *[]string) {
	store := NewMemoryStore()
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		if r.Header.Get("x-dh-api-key") != key {
			w.WriteHeader(401)
			fmt.Fprint(w, `{"error":{"code":"UNAUTHORIZED","message":"bad key"}}`)
			return
		}
		var out any
		var err error
		switch r.URL.Path {
		case "/v1/cache/lookup":
			var p struct{ Key, BaseKey string }
			json.NewDecoder(r.Body).Decode(&p)
			out, err = store.Lookup(r.Context(), p.Key, p.BaseKey)
		case "/v1/cache/record":
			var p CacheRecord
			json.NewDecoder(r.Body).Decode(&p)
			var agree int
			agree, err = store.Record(r.Context(), &p)
			out = map[string]int{"agree": agree}
		case "/v1/cache/invalidate":
			var p struct{ Key string }
			json.NewDecoder(r.Body).Decode(&p)
			err = store.Invalidate(r.Context(), p.Key)
		default:
			http.NotFound(w, r)
			return
		}
		if err != nil {
			w.WriteHeader(500)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"data": out})
	}))
	t.Cleanup(srv.Close)
	return srv, &paths
}

func TestAPIKeyAndAPIURLUseTheServicesCache(t *testing.T) {
	ctx := context.Background()
	srv, paths := fakeCacheService(t, "dh-key")
	var calls atomic.Int32
	gen := func(ctx context.Context, req *ModelRequest) (*ModelReply, error) {
		calls.Add(1)
		return &ModelReply{Object: clickAnswer{Found: true, ElementID: elementID(t, req, "button", "Multi"), Method: "click", Arguments: []string{},
			Description: "Multi"}}, nil
	}
	c := newClient(t, CreateOptions{Generate: gen, APIKey: "dh-key", APIURL: srv.URL})
	open(t, c, "/form.html")
	first, err := c.Act(ctx, ActInstruction("click the Multi button"), nil)
	if err != nil || first.Metadata.Cache.Status != CacheMiss {
		t.Fatal(err, first)
	}
	second, err := c.Act(ctx, ActInstruction("click the Multi button"), nil)
	if err != nil || second.Metadata.Cache.Status != CacheHit || calls.Load() != 1 {
		t.Fatalf("%v %+v calls=%d", err, second, calls.Load())
	}
	if !strings.Contains(strings.Join(*paths, " "), "/v1/cache/record") {
		t.Fatalf("paths %v", *paths)
	}
	// A wrong key: the service refuses, and the store says so.
	_, err = NewRemoteStore(srv.URL, "wrong").Lookup(ctx, "k", "b")
	if codeOf(err) != CodeInvalidArgument || !strings.Contains(err.Error(), "401") {
		t.Fatalf("got %v", err)
	}
}

func TestCancellingABatchStopsItInTheWorker(t *testing.T) {
	c := newClient(t, CreateOptions{})
	open(t, c, "/form.html")
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	src := `async (b) => {
		await b.page.locator('#never-there').click({ timeout: 20000 });
		await b.page.locator('#name').fill('after the cancel');
	}`
	t0 := time.Now()
	err := c.ExperimentalBatch(ctx, src, nil, nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Fatalf("took %s", d)
	}
	// The worker stopped too: the element appearing now is not clicked, and the fill never runs.
	bg := context.Background()
	add := `async (b) => b.page.evaluate(() => document.body.insertAdjacentHTML('beforeend',
		'<button id="never-there" onclick="window.__late = (window.__late || 0) + 1">Late</button>'))`
	if err := c.ExperimentalBatch(bg, add, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(800 * time.Millisecond)
	var state struct {
		Late int    `json:"late"`
		Name string `json:"name"`
	}
	read := `async (b) => b.page.evaluate(() => ({ late: window.__late ?? 0, name: document.getElementById('name').value }))`
	if err := c.ExperimentalBatch(bg, read, nil, &state, nil); err != nil {
		t.Fatal(err)
	}
	if state.Late != 0 || state.Name != "" {
		t.Fatalf("the cancelled batch went on: %+v", state)
	}
}
