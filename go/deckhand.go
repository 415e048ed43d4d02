// Package deckhand drives the Deckhand browser-automation runtime from Go: Chromium with the
// Deckhand extension, whose service worker hosts the engine, reached over CDP with the same
// RPC protocol as the Node and Python clients (the worker's calls to the client included).
//
// # The extension
//
// The built extension is embedded in the module and unpacked on first use into the user's
// cache folder (ExtensionDir says where); DECKHAND_EXTENSION_DIR or LaunchOptions.ExtensionDir
// loads another build. The module needs Go 1.24 and builds on Linux, macOS and Windows; on
// Windows a launched Chromium is reached over a debugging port on 127.0.0.1 instead of a pipe.
//
// # Pages, locators and the agent
//
// Client.Context gives the browser's pages (Pages, ActivePage, NewPage; Client.Page(id) names
// one). A *Page navigates (Goto), reads (Info, URL, Title, Evaluate, EvaluateFunction,
// Screenshot, Snapshot), presses keys, and runs Act, Observe and Extract on itself; its
// Locator(selector) clicks, fills, checks, selects and drags without a model, and scopes an
// operation (ActOptions.Locator). Page.Extract is the earlier page.extract: the page's text with
// no model, a model's extraction, or data into a type of yours (PageExtractOptions.Into).
//
//	page, _ := c.Context().NewPage(ctx, "https://example.com/signup", nil)
//	page.Locator("#email").Fill(ctx, "ada@example.com", nil)
//	page.Act(ctx, deckhand.ActInstruction("accept the terms"), nil)
//	r, _ := c.Agent(nil).Execute(ctx, `Type "Ada" into Name and press Save`, nil)
//
// Client.Agent(&AgentOptions{...}).Execute runs the autonomous agent; AgentOptions.Tools are Go
// functions the model may call (Tool derives a tool's input schema from a type).
//
// # Models
//
// A ModelSpec is a ModelName ("openai/gpt-4.1-mini", LocalModel), a *ModelConfig (a key,
// headers, an OpenAI-compatible BaseURL), a *VertexModelConfig, an *AzureModelConfig (an API
// key or an Entra ID token) or Callback(name, fn); ParseModelConfig reads the Node client's
// JSON shapes. With no model and no provider key the built-in local model runs in the worker.
//
// # Saved flows
//
// A flow is a recording (made in the side panel, or an agent run's) saved under a name.
// Client.Replay runs it step by step with no model call: it opens the flow's start page and
// performs each recorded action, %name% placeholders in the recorded arguments filled from
// ReplayOptions.Variables. By name, it looks in the client's own cache store first, then in the
// extension's saved flows (the side panel's). A step whose element is gone returns an *Error
// with CodeActionFailed whose Data["step"] holds its index, id and description; with
// ReplayOptions.Model (or UseClientModel) the step is found again with that model instead.
// Client.ReplayFlow takes a Flow given whole.
//
//	r, err := c.Replay(ctx, "checkout", &deckhand.ReplayOptions{
//		Variables: map[string]deckhand.Variable{"email": {Value: "ada@example.com"}},
//	})
//
// Client.Flows lists, gets, saves, renames and deletes them: in the extension
// (FlowInExtension), or in the client's own store (FlowInStore), under FlowKey(name), the key
// the Node and Python clients compute too.
package deckhand

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"
)

const defaultBatchTimeout = 30 * time.Second

// operationDeadlineMs is the deadline an operation without a timeout is held to when it may wait
// on a model (OPERATIONS); 0 leaves the call the navigation default. instruction says whether the
// call carries an instruction rather than an Action.
func operationDeadlineMs(method string, instruction bool) int64 {
	switch operationDeadlines[method] {
	case "model":
		return modelOperationTimeoutMs
	case "instruction":
		if instruction {
			return modelOperationTimeoutMs
		}
	}
	return 0
}

// Client drives the extension's engine. Make one with Create.
type Client struct {
	browser   *Browser
	link      *extensionLink
	o         CreateOptions
	genModel  *CallbackModel // CreateOptions.Generate as a model
	callback  string         // genModel's callback id
	callbacks map[string]*CallbackModel
	cbIDs     map[*CallbackModel]string
	tools     map[string]AgentTool // the running agents' own tools, by name
	logMu     sync.Mutex           // one written log line at a time
	pages     map[int]*Page
	store     CacheStore
	cacheOn   bool
	threshold int
	selfHeal  bool
	ownStore  *SqliteStore // opened by Create, closed by Close

	mu        sync.Mutex
	closed    bool
	closeOnce sync.Once
	bg        sync.WaitGroup
	ops       int                              // operations in flight
	gens      map[*context.CancelFunc]struct{} // Generate calls in flight
	tracer    trace.Tracer
	spans     map[string]trace.Span // operation spans by opId, parents of the model_call spans
	approvers map[string]ApprovalFunc       // calls' own approval handlers, by opId, while they run
	asking    map[string]context.CancelFunc // approval requests still open, by id
}

func uuid4() string {
	b := make([]byte, 16)
	rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// Int returns a pointer to n (for options such as CreateOptions.DOMSettleTimeoutMs).
func Int(n int) *int { return &n }

// String returns a pointer to s (for Observe's instruction).
func String(s string) *string { return &s }

// Bool returns a pointer to b.
func Bool(b bool) *bool { return &b }

// Create makes a client on a browser handle and checks the engine answers.
func Create(ctx context.Context, o CreateOptions) (*Client, error) {
	if o.Browser == nil {
		return nil, newError(CodeInvalidArgument, "Create needs CreateOptions.Browser from LaunchLocalBrowser or ConnectLocalBrowser")
	}
	c := &Client{browser: o.Browser, link: o.Browser.link, o: o, threshold: 1, selfHeal: true, gens: map[*context.CancelFunc]struct{}{}, spans: map[string]trace.Span{},
		callbacks: map[string]*CallbackModel{}, cbIDs: map[*CallbackModel]string{}, tools: map[string]AgentTool{}, pages: map[int]*Page{},
		approvers: map[string]ApprovalFunc{}, asking: map[string]context.CancelFunc{}}
	c.tracer = tracerFor(o.Telemetry)
	if isNilSpec(o.Model) {
		c.o.Model = nil
	}
	if o.Generate != nil {
		if c.o.Model != nil {
			return nil, newError(CodeInvalidArgument, "give Model or Generate, not both: a callback makes its own requests, so it takes no model configuration")
		}
		c.genModel = Callback("", o.Generate)
		c.callback = c.register(c.genModel)
	} else if c.o.Model != nil {
		if _, err := resolveModel(c.o.Model, nil); err != nil {
			return nil, err
		}
	}
	if o.DOMSettleTimeoutMs != nil && (*o.DOMSettleTimeoutMs < 0 || *o.DOMSettleTimeoutMs > maxTimeoutMs) {
		return nil, newError(CodeInvalidArgument, "DOMSettleTimeoutMs must be a whole number of milliseconds from 0 to %d (10 minutes), got %d", maxTimeoutMs, *o.DOMSettleTimeoutMs)
	}
	if o.SelfHeal != nil {
		c.selfHeal = *o.SelfHeal
	}
	if (o.APIKey == "") != (o.APIURL == "") {
		return nil, newError(CodeInvalidArgument, "APIKey and APIURL go together: give both to use a Deckhand service")
	}
	if o.APIKey != "" {
		// The service's cache, on unless Cache says otherwise.
		c.store, c.cacheOn = NewRemoteStore(o.APIURL, o.APIKey), true
	}
	if o.Cache != nil {
		if o.Cache.Threshold < 0 {
			return nil, newError(CodeInvalidArgument, "the cache threshold must be a positive integer, got %d", o.Cache.Threshold)
		}
		if o.Cache.Threshold > 0 {
			c.threshold = o.Cache.Threshold
		}
		if o.Cache.Store != nil {
			c.store = o.Cache.Store
		} else if c.store == nil {
			st, err := NewSqliteStore(filepath.Join(DeckhandHome(), "cache.db"))
			if err != nil {
				return nil, err
			}
			c.store, c.ownStore = st, st
		}
		c.cacheOn = !o.Cache.Disabled
	}
	if o.Logging != nil && o.Logging.Level != "" {
		if _, ok := logLevels[o.Logging.Level]; !ok {
			return nil, newError(CodeInvalidArgument, "the logging level must be debug, info, warn, error or silent, got '%s'", o.Logging.Level)
		}
	}
	if o.Logging != nil && o.Logging.Format != "" && o.Logging.Format != "text" && o.Logging.Format != "json" {
		return nil, newError(CodeInvalidArgument, "the logging format must be 'text' or 'json', got '%s'", o.Logging.Format)
	}
	b := o.Browser
	b.mu.Lock()
	if b.claimedBy != nil {
		b.mu.Unlock()
		if c.ownStore != nil {
			c.ownStore.Close()
		}
		return nil, newError(CodeAlreadyInUse, "this browser handle already backs a Deckhand client; close that client first or launch another browser")
	}
	if !b.Connected() {
		b.mu.Unlock()
		if c.ownStore != nil {
			c.ownStore.Close()
		}
		return nil, newError(CodeBrowserClosed, "the browser is closed")
	}
	b.claimedBy = c
	b.mu.Unlock()
	c.serve()
	// Names this program in a side panel watching the browser.
	if _, err := c.call(ctx, "engine.ping", map[string]any{"client": map[string]string{"kind": "go"}}, 0); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

var logLevels = map[string]int{"debug": 0, "info": 1, "warn": 2, "error": 3, "silent": 100}

// register gives a callback model its id, the same one each time for the same *CallbackModel.
func (c *Client) register(m *CallbackModel) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id, ok := c.cbIDs[m]; ok {
		return id
	}
	id := uuid4()
	c.cbIDs[m], c.callbacks[id] = id, m
	return id
}

// resolve is a model's wire form, its callback registered with this client.
func (c *Client) resolve(spec ModelSpec) (*wireModel, error) { return resolveModel(spec, c.register) }

// Browser is the handle this client uses.
func (c *Client) Browser() *Browser { return c.browser }

// Initialized reports whether the client is open (created and not closed).
func (c *Client) Initialized() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.closed
}

// Close releases the client (the browser stays open). It runs once; later calls return the
// first call's result.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		for f := range c.gens {
			(*f)()
		}
		c.mu.Unlock()
		c.bg.Wait()
		if c.ownStore != nil {
			c.ownStore.Close()
		}
		c.browser.mu.Lock()
		if c.browser.claimedBy == c {
			c.browser.claimedBy = nil
		}
		c.browser.mu.Unlock()
	})
	return nil
}

func (c *Client) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

func (c *Client) call(ctx context.Context, method string, params any, opMs int64) (json.RawMessage, error) {
	if c.isClosed() {
		return nil, newError(CodeClosed, "cannot call %s: this Deckhand client is closed", method)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c.link.call(ctx, method, params, opMs)
}

// -- operations ---------------------------------------------------------------------------------
// timeoutMs checks a caller's duration: a whole number of milliseconds up to 10 minutes.
func timeoutMs(what string, d time.Duration) (int64, error) {
	if d == 0 {
		return 0, nil
	}
	if d < time.Millisecond || d > maxTimeoutMs*time.Millisecond || d%time.Millisecond != 0 {
		return 0, newError(CodeInvalidArgument, "%s must be a whole number of milliseconds from 1 to %d (10 minutes), got %s", what, maxTimeoutMs, d)
	}
	return d.Milliseconds(), nil
}

type opOptions struct {
	cache          *CacheOption
	ignoreLocators []*Locator
	locator        *Locator
	model          ModelSpec
	timeout        time.Duration
	variables      map[string]Variable
	page           *Page
	settle         *int
	screenshot     bool
	iframes        bool
	approval       *ApprovalPolicy // act's own policy
	clientApproval *ApprovalPolicy // else the client's
	onApproval     ApprovalFunc
}

// kv is one member of an object written in a fixed order.
type kv struct {
	k string
	v any
}

type object []kv

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshalJS(m.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshalJS(m.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (c *Client) cacheBase(threshold int) object {
	if c.store == nil {
		return nil
	}
	if threshold == 0 {
		threshold = c.threshold
	}
	return object{{"threshold", threshold}, {"selfHeal", c.selfHeal}, {"store", "caller"}}
}

// defaultModel is per's wire form, else the client's model's.
func (c *Client) defaultModel(per ModelSpec) (*wireModel, error) {
	if !isNilSpec(per) {
		return c.resolve(per)
	}
	if c.genModel != nil {
		return c.resolve(c.genModel)
	}
	return c.resolve(c.o.Model)
}

func (c *Client) operation(ctx context.Context, op string, params object, o opOptions, needsModel bool) (json.RawMessage, error) {
	t, err := timeoutMs(op+": timeout", o.timeout)
	if err != nil {
		return nil, err
	}
	if err := checkCache(o.cache); err != nil {
		return nil, err
	}
	if o.settle != nil && (*o.settle < 0 || *o.settle > maxTimeoutMs) {
		return nil, newError(CodeInvalidArgument, "DOMSettleTimeoutMs must be from 0 to %d, got %d", maxTimeoutMs, *o.settle)
	}
	if err := checkVariables(o.variables); err != nil {
		return nil, err
	}
	if err := c.checkPage(o.page); err != nil {
		return nil, err
	}
	var locator *LocatorSpec
	if o.locator != nil {
		s, err := o.locator.wire()
		if err != nil {
			return nil, err
		}
		locator = &s
	}
	var ignore []LocatorSpec
	if o.ignoreLocators != nil {
		ignore = []LocatorSpec{}
	}
	for _, l := range o.ignoreLocators {
		s, err := l.wire()
		if err != nil {
			return nil, err
		}
		ignore = append(ignore, s)
	}
	var model *wireModel
	if needsModel {
		if model, err = c.defaultModel(o.model); err != nil {
			return nil, err
		}
	}
	opID := uuid4()
	var w object
	if t > 0 {
		w = append(w, kv{"timeout", t})
	}
	if o.variables != nil {
		w = append(w, kv{"variables", o.variables})
	}
	if o.screenshot {
		w = append(w, kv{"screenshot", true})
	}
	if o.settle != nil {
		w = append(w, kv{"domSettleTimeoutMs", *o.settle})
	}
	if o.iframes {
		w = append(w, kv{"iframes", true})
	}
	// The call's own policy is among its options; the client's comes after the opId, as Node writes it.
	if o.approval != nil {
		w = append(w, kv{"approval", o.approval})
	}
	w = append(w, kv{"opId", opID})
	if o.clientApproval != nil {
		w = append(w, kv{"approval", o.clientApproval})
	}
	wanted := c.cacheOn
	threshold := 0
	if o.cache != nil {
		wanted = o.cache.enabled
		threshold = o.cache.threshold
	}
	if base := c.cacheBase(threshold); base != nil && wanted && needsModel {
		w = append(w, kv{"cache", base})
	}
	if model != nil {
		w = append(w, kv{"model", model})
	}
	if c.o.SystemPrompt != "" {
		w = append(w, kv{"systemPrompt", c.o.SystemPrompt})
	}
	if o.settle == nil && c.o.DOMSettleTimeoutMs != nil {
		w = append(w, kv{"domSettleTimeoutMs", *c.o.DOMSettleTimeoutMs})
	}
	if o.page != nil {
		w = append(w, kv{"page", o.page.id})
	}
	if locator != nil {
		w = append(w, kv{"locator", locator})
	}
	if ignore != nil {
		w = append(w, kv{"ignoreLocators", ignore})
	}
	params = append(params, kv{"options", w})
	deadline := t
	if deadline == 0 {
		deadline = operationDeadlineMs(op, needsModel)
	}
	span := c.startOperationSpan(ctx, op, opID, model)
	defer c.withApprover(opID, o.onApproval)()
	c.mu.Lock()
	c.ops++
	c.mu.Unlock()
	r, err := c.call(ctx, op, params, deadline)
	c.endOperationSpan(span, opID, r, err)
	c.mu.Lock()
	c.ops--
	if err != nil && ctx.Err() != nil && c.ops == 0 {
		// No other operation is running: the Generate calls in flight served this one.
		for f := range c.gens {
			(*f)()
		}
	}
	c.mu.Unlock()
	if err != nil && ctx.Err() != nil {
		// The caller gave up: stop the operation in the worker too (its model request included).
		c.cancelOp(opID)
		return nil, ctx.Err()
	}
	return r, err
}

// cancelOp tells the worker to stop an operation (op.cancel), in the background; Close waits
// for it.
func (c *Client) cancelOp(opID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = c.link.call(cctx, "op.cancel", object{{"opId", opID}}, 5000)
	}()
}

func checkCache(o *CacheOption) error {
	if o != nil && o.set && o.threshold < 1 {
		return newError(CodeInvalidArgument, "invalid cache option: CacheWithThreshold(%d) (the threshold must be a positive integer)", o.threshold)
	}
	return nil
}

func decodeAnswer(method string, raw json.RawMessage, out any, check func() error) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(out); err != nil {
		return newError(CodeProtocolError, "invalid answer to '%s': %v", method, err)
	}
	if check != nil {
		if err := check(); err != nil {
			return newError(CodeProtocolError, "invalid answer to '%s': %v", method, err)
		}
	}
	return nil
}

func checkMetadata(m *ResultMetadata) error {
	switch m.Cache.Status {
	case CacheHit, CacheMiss, CacheDisabled:
		return nil
	}
	return fmt.Errorf("metadata.cache.status: '%s' is not HIT, MISS or DISABLED", m.Cache.Status)
}

func actOptions(o *ActOptions) opOptions {
	if o == nil {
		return opOptions{}
	}
	return opOptions{cache: o.Cache, ignoreLocators: o.IgnoreLocators, locator: o.Locator, model: o.Model, timeout: o.Timeout, variables: o.Variables, page: o.Page, settle: o.DOMSettleTimeoutMs, onApproval: o.OnApproval}
}

// Act does one thing on the page: an ObservedAction runs deterministically (no model); an
// ActInstruction is carried out by the model (or replayed from the cache).
func (c *Client) Act(ctx context.Context, input ActInput, opts *ActOptions) (*ActResult, error) {
	if input == nil {
		return nil, newError(CodeInvalidArgument, "Act takes ActInstruction(text) or ObservedAction(action)")
	}
	o := actOptions(opts)
	if opts != nil && opts.Approval != nil {
		o.approval = opts.Approval
	} else {
		o.clientApproval = c.o.Approval
	}
	var raw json.RawMessage
	var err error
	switch x := input.(type) {
	case ActInstruction:
		if x == "" {
			return nil, newError(CodeInvalidArgument, "act: the instruction must not be empty")
		}
		raw, err = c.operation(ctx, "act", object{{"input", string(x)}}, o, true)
	case observedAction:
		if x.a.Selector == "" {
			return nil, newError(CodeInvalidSelector, "an Action needs a selector")
		}
		if err := checkCache(o.cache); err != nil {
			return nil, err
		}
		o.cache, o.model = nil, nil
		raw, err = c.operation(ctx, "act", object{{"input", x.a}}, o, false)
	default:
		return nil, newError(CodeInvalidArgument, "Act takes ActInstruction(text) or ObservedAction(action)")
	}
	if err != nil {
		return nil, err
	}
	var r ActResult
	if err := decodeAnswer("act", raw, &r, func() error { return checkMetadata(&r.Metadata) }); err != nil {
		return nil, err
	}
	return &r, nil
}

// Observe finds elements that match the instruction (nil: the page's main controls), as
// Actions Act can run.
func (c *Client) Observe(ctx context.Context, instruction *string, opts *ObserveOptions) (*ObserveResult, error) {
	if opts != nil && (opts.Approval != nil || opts.OnApproval != nil) {
		return nil, newError(CodeInvalidArgument, "observe does nothing that needs approval: Approval and OnApproval are for Act")
	}
	params := object{}
	if instruction != nil {
		params = append(params, kv{"instruction", *instruction})
	}
	raw, err := c.operation(ctx, "observe", params, actOptions(opts), true)
	if err != nil {
		return nil, err
	}
	var r ObserveResult
	if err := decodeAnswer("observe", raw, &r, func() error { return checkMetadata(&r.Metadata) }); err != nil {
		return nil, err
	}
	return &r, nil
}

// Extract reads data from the page into a T: its JSON Schema is derived from T (see
// SchemaOf). An instruction of "" sends none. With T = json.RawMessage no schema is sent and
// the engine returns {"extraction": text}.
func Extract[T any](ctx context.Context, c *Client, instruction string, opts *ExtractOptions) (*ExtractResult[T], error) {
	if c == nil {
		return nil, newError(CodeInvalidArgument, "Extract needs a client")
	}
	schema, err := SchemaOf[T]()
	if err != nil {
		return nil, err
	}
	var w struct {
		Data     json.RawMessage `json:"data"`
		Metadata ResultMetadata  `json:"metadata"`
	}
	raw, err := c.extractRaw(ctx, instruction, schema, opts)
	if err != nil {
		return nil, err
	}
	if err := decodeAnswer("extract", raw, &w, func() error { return checkMetadata(&w.Metadata) }); err != nil {
		return nil, err
	}
	r := &ExtractResult[T]{Metadata: w.Metadata}
	if len(w.Data) > 0 {
		if err := json.Unmarshal(w.Data, &r.Data); err != nil {
			return nil, newError(CodeModelOutputInvalid, "the extracted data does not fit the schema: %v", err)
		}
	}
	return r, nil
}

// extract is an extract's data, as JSON.
func (c *Client) extract(ctx context.Context, instruction string, schema json.RawMessage, opts *ExtractOptions) (json.RawMessage, error) {
	raw, err := c.extractRaw(ctx, instruction, schema, opts)
	if err != nil {
		return nil, err
	}
	var w struct {
		Data     json.RawMessage `json:"data"`
		Metadata ResultMetadata  `json:"metadata"`
	}
	if err := decodeAnswer("extract", raw, &w, func() error { return checkMetadata(&w.Metadata) }); err != nil {
		return nil, err
	}
	return w.Data, nil
}

func (c *Client) extractRaw(ctx context.Context, instruction string, schema json.RawMessage, opts *ExtractOptions) (json.RawMessage, error) {
	params := object{}
	if instruction != "" {
		params = append(params, kv{"instruction", instruction})
	}
	if schema != nil {
		params = append(params, kv{"schema", schema})
	}
	var o opOptions
	if opts != nil {
		o = opOptions{cache: opts.Cache, ignoreLocators: opts.IgnoreLocators, locator: opts.Locator, model: opts.Model, timeout: opts.Timeout,
			variables: opts.Variables, page: opts.Page, settle: opts.DOMSettleTimeoutMs, screenshot: opts.Screenshot, iframes: opts.Iframes}
	}
	return c.operation(ctx, "extract", params, o, true)
}

// Metrics are the instance's counters.
func (c *Client) Metrics(ctx context.Context) (*Metrics, error) {
	return callAs[Metrics](ctx, c, "metrics", struct{}{}, 0)
}

// BatchOptions configure ExperimentalBatch (nil for defaults).
type BatchOptions struct {
	// Timeout bounds the batch (default 30 s, at most 10 minutes).
	Timeout time.Duration
	// Page is the page the callback's batch.page is (nil: the active page).
	Page *Page
	// Approval makes the batch's risky steps wait for approval (nil: the client's policy).
	Approval *ApprovalPolicy
	// OnApproval decides the batch's steps that wait (nil: the client's OnApproval).
	OnApproval ApprovalFunc
}

// ExperimentalBatch runs a trusted, self-contained JavaScript callback
// `async (batch, input) => ...` inside the extension's worker. input must be JSON (nil: the
// callback gets undefined; json.RawMessage("null") gives null). When result is a non-nil
// pointer it receives the callback's value decoded from JSON (undefined decodes as null).
func (c *Client) ExperimentalBatch(ctx context.Context, source string, input any, result any, opts *BatchOptions) error {
	if len(bytes.TrimSpace([]byte(source))) == 0 {
		return newError(CodeInvalidArgument, "ExperimentalBatch needs the JavaScript source of a function, e.g. 'async (batch, input) => ...'")
	}
	o := BatchOptions{}
	if opts != nil {
		o = *opts
	}
	if o.Timeout == 0 {
		o.Timeout = defaultBatchTimeout
	}
	t, err := timeoutMs("the batch timeout", o.Timeout)
	if err != nil {
		return err
	}
	params := object{{"source", source}, {"hasInput", input != nil}}
	if input != nil {
		in, err := marshalJS(input)
		if err != nil {
			return newError(CodeInvalidArgument, "the batch input must be JSON-serialisable: %v", err)
		}
		params = append(params, kv{"input", json.RawMessage(in)})
	}
	if o.Page != nil {
		if err := c.checkPage(o.Page); err != nil {
			return err
		}
		params = append(params, kv{"page", o.Page.id})
	}
	model, err := c.defaultModel(nil)
	if err != nil {
		return err
	}
	defaults := object{{"model", model}}
	if base := c.cacheBase(0); base != nil {
		defaults = append(defaults, kv{"cache", base})
	}
	if c.o.SystemPrompt != "" {
		defaults = append(defaults, kv{"systemPrompt", c.o.SystemPrompt})
	}
	if c.o.DOMSettleTimeoutMs != nil {
		defaults = append(defaults, kv{"domSettleTimeoutMs", *c.o.DOMSettleTimeoutMs})
	}
	// The opId lets a cancelled context stop the batch in the worker: its running operation
	// ends and no later one starts.
	opID := uuid4()
	params = append(params, kv{"timeout", t}, kv{"defaults", defaults}, kv{"cacheByDefault", c.cacheOn}, kv{"opId", opID})
	if approval := c.approvalFor(o.Approval); approval != nil {
		params = append(params, kv{"approval", approval})
	}
	defer c.withApprover(opID, o.OnApproval)()
	raw, err := c.call(ctx, "batch.run", params, t+10_000)
	if err != nil {
		if ctx.Err() != nil {
			c.cancelOp(opID)
			return ctx.Err()
		}
		return err
	}
	var r struct {
		HasValue *bool           `json:"hasValue"`
		Value    json.RawMessage `json:"value"`
	}
	if err := decodeAnswer("batch.run", raw, &r, func() error {
		if r.HasValue == nil {
			return fmt.Errorf("hasValue is missing")
		}
		return nil
	}); err != nil {
		return err
	}
	if result == nil {
		return nil
	}
	value := json.RawMessage("null")
	if *r.HasValue && len(r.Value) > 0 {
		value = r.Value
	}
	if err := json.Unmarshal(value, result); err != nil {
		return newError(CodeInvalidArgument, "the batch's value does not decode into %T: %v", result, err)
	}
	return nil
}

// callAs runs one method in the worker and decodes its answer into T (PROTOCOL_ERROR, naming the
// method, when the answer does not fit).
func callAs[T any](ctx context.Context, c *Client, method string, params any, opMs int64) (*T, error) {
	raw, err := c.call(ctx, method, params, opMs)
	if err != nil {
		return nil, err
	}
	var v T
	if err := decodeAnswer(method, raw, &v, nil); err != nil {
		return nil, err
	}
	return &v, nil
}
