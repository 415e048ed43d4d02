// Package deckhand drives the Deckhand browser-automation runtime from Go: Chromium with the
// Deckhand extension, whose service worker hosts the engine, reached over CDP (or the bridge a
// person's own Chrome dials) with the same RPC protocol as the Node and Python clients. The
// built extension is embedded in the module and unpacked on first use (ExtensionDir).
//
//	b, _ := deckhand.LaunchLocalBrowser(ctx, nil)
//	c, _ := deckhand.Create(ctx, deckhand.CreateOptions{Browser: b})
//	page, _ := c.Context().NewPage(ctx, "https://example.com/signup", nil)
//	page.Locator("#email").Fill(ctx, "ada@example.com", nil)
//	page.Act(ctx, deckhand.ActInstruction("accept the terms"), nil)
//	r, _ := c.Agent(nil).Execute(ctx, `Type "Ada" into Name and press Save`, nil)
//
// The worker owns every rule: the defaults and deadlines of each call, and the checks of its
// parameters (an INVALID_ARGUMENT *Error naming the field). The guide is docs/guides/go.md.
package deckhand

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"
)

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
	ownStore  *SqliteStore // opened by Create, closed by Close

	mu        sync.Mutex
	closed    bool
	closeOnce sync.Once
	bg        sync.WaitGroup
	ops       int                              // operations in flight
	gens      map[*context.CancelFunc]struct{} // Generate calls in flight
	tracer    trace.Tracer
	spans     map[string]trace.Span         // operation spans by opId, parents of the model_call spans
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
	c := &Client{browser: o.Browser, link: o.Browser.link, o: o, threshold: 1, gens: map[*context.CancelFunc]struct{}{}, spans: map[string]trace.Span{},
		callbacks: map[string]*CallbackModel{}, cbIDs: map[*CallbackModel]string{}, tools: map[string]AgentTool{}, pages: map[int]*Page{},
		approvers: map[string]ApprovalFunc{}, asking: map[string]context.CancelFunc{}, tracer: tracerFor(o.Telemetry)}
	if isNilValue(o.Model) {
		c.o.Model = nil
	}
	switch {
	case o.Generate != nil && c.o.Model != nil:
		return nil, newError(CodeInvalidArgument, "give Model or Generate, not both: a callback makes its own requests, so it takes no model configuration")
	case o.Generate != nil:
		c.genModel = Callback("", o.Generate)
		c.callback = c.register(c.genModel)
	case c.o.Model != nil:
		if _, err := resolveModel(c.o.Model, nil); err != nil {
			return nil, err
		}
	}
	if o.DOMSettleTimeoutMs != nil && (*o.DOMSettleTimeoutMs < 0 || *o.DOMSettleTimeoutMs > maxTimeoutMs) {
		return nil, newError(CodeInvalidArgument, "DOMSettleTimeoutMs must be a whole number of milliseconds from 0 to %d (10 minutes), got %d",
			maxTimeoutMs, *o.DOMSettleTimeoutMs)
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
		c.threshold = max(o.Cache.Threshold, 1)
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
	if err := checkLogging(o.Logging); err != nil {
		return nil, c.release(err)
	}
	b := o.Browser
	b.mu.Lock()
	claimed, connected := b.claimedBy != nil, b.Connected()
	if !claimed && connected {
		b.claimedBy = c
	}
	b.mu.Unlock()
	if claimed {
		return nil, c.release(newError(CodeAlreadyInUse, "this browser handle already backs a Deckhand client; close that client first or launch another browser"))
	}
	if !connected {
		return nil, c.release(newError(CodeBrowserClosed, "the browser is closed"))
	}
	c.serve()
	// Names this program in a side panel watching the browser.
	if _, err := c.call(ctx, "engine.ping", map[string]any{"client": map[string]string{"kind": "go"}}); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// release closes what Create opened before it failed with err.
func (c *Client) release(err error) error {
	if c.ownStore != nil {
		c.ownStore.Close()
	}
	return err
}

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

// Browser is the handle this client uses.
func (c *Client) Browser() *Browser { return c.browser }

// Initialized reports whether the client is open (created and not closed).
func (c *Client) Initialized() bool { return !c.isClosed() }

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
		c.release(nil)
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

func (c *Client) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if c.isClosed() {
		return nil, newError(CodeClosed, "cannot call %s: this Deckhand client is closed", method)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c.link.call(ctx, method, params)
}

// send runs a call the worker can stop by its opId: when ctx ends first, op.cancel stops it
// there too (its model request included) and the caller gets ctx's error.
func (c *Client) send(ctx context.Context, method string, params any, opID string) (json.RawMessage, error) {
	raw, err := c.call(ctx, method, params)
	if err != nil && opID != "" && ctx.Err() != nil {
		c.cancelOp(opID)
		return nil, ctx.Err()
	}
	return raw, err
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
		_, _ = c.link.call(cctx, "op.cancel", object{{"opId", opID}})
	}()
}

// invoke runs one method in the worker and decodes its answer into T (PROTOCOL_ERROR, naming the
// method, when the answer does not fit); opID makes it a call ctx can stop in the worker.
func invoke[T any](ctx context.Context, c *Client, method string, params any, opID string) (*T, error) {
	raw, err := c.send(ctx, method, params, opID)
	if err != nil {
		return nil, err
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, newError(CodeProtocolError, "invalid answer to '%s': %v", method, err)
	}
	return &v, nil
}

func metadataOf(v any) *ResultMetadata {
	switch r := v.(type) {
	case *ActResult:
		return &r.Metadata
	case *ObserveResult:
		return &r.Metadata
	case *ExtractResult[json.RawMessage]:
		return &r.Metadata
	}
	return nil
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
		k, _ := marshalJS(m.k)
		v, err := marshalJS(m.v)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// with is o with k set to v unless v is empty (nil, a nil pointer, map or slice, "", false, 0
// or an empty object).
func (o object) with(k string, v any) object {
	x, isObject := v.(object)
	if r := reflect.ValueOf(v); !r.IsValid() || r.IsZero() || isObject && len(x) == 0 {
		return o
	}
	return append(o, kv{k, v})
}

// ms is a duration as the wire's milliseconds (a fraction stays, for the worker to refuse).
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (c *Client) cacheBase(threshold int) object {
	if c.store == nil {
		return nil
	}
	if threshold == 0 {
		threshold = c.threshold
	}
	return object{{"threshold", threshold}, {"selfHeal", c.o.SelfHeal == nil || *c.o.SelfHeal}, {"store", "caller"}}
}

// defaultModel is per's wire form, else the client's model's.
func (c *Client) defaultModel(per ModelSpec) (any, error) {
	switch {
	case !isNilValue(per):
		return resolveModel(per, c.register)
	case c.genModel != nil:
		return resolveModel(c.genModel, c.register)
	}
	return resolveModel(c.o.Model, c.register)
}

// opOptions are the options of act, observe and extract.
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
	idempotencyKey string
}

// operation sends act, observe or extract with its options in the order the Node client writes
// them: the caller's own, then what the client adds.
func operation[T any](ctx context.Context, c *Client, op string, params object, o opOptions, needsModel bool) (*T, error) {
	if err := o.cache.check(); err != nil {
		return nil, err
	}
	if err := c.checkPage(o.page); err != nil {
		return nil, err
	}
	locator, err := specOf(o.locator)
	if err != nil {
		return nil, err
	}
	ignore, err := specsOf(o.ignoreLocators)
	if err != nil {
		return nil, err
	}
	var model any
	if needsModel {
		if model, err = c.defaultModel(o.model); err != nil {
			return nil, err
		}
	}
	opID := uuid4()
	w := object{}.with("timeout", ms(o.timeout)).with("variables", o.variables).with("screenshot", o.screenshot)
	if o.settle != nil {
		w = append(w, kv{"domSettleTimeoutMs", *o.settle})
	}
	// The call's own policy is among its options; the client's comes after the opId.
	w = w.with("iframes", o.iframes).with("approval", o.approval).with("idempotencyKey", o.idempotencyKey).with("opId", opID)
	w = w.with("approval", o.clientApproval)
	wanted, threshold := c.cacheOn, 0
	if o.cache != nil {
		wanted, threshold = o.cache.enabled, o.cache.threshold
	}
	if needsModel && wanted {
		w = w.with("cache", c.cacheBase(threshold))
	}
	w = w.with("model", model).with("systemPrompt", c.o.SystemPrompt)
	if o.settle == nil && c.o.DOMSettleTimeoutMs != nil {
		w = append(w, kv{"domSettleTimeoutMs", *c.o.DOMSettleTimeoutMs})
	}
	if o.page != nil {
		w = append(w, kv{"page", o.page.id})
	}
	w = w.with("locator", locator).with("ignoreLocators", ignore)
	span := c.startOperationSpan(ctx, op, opID, model)
	defer c.withApprover(opID, o.onApproval)()
	c.mu.Lock()
	c.ops++
	c.mu.Unlock()
	r, err := invoke[T](ctx, c, op, append(params, kv{"options", w}), opID)
	c.endOperationSpan(span, opID, r, err)
	c.mu.Lock()
	if c.ops--; err != nil && ctx.Err() != nil && c.ops == 0 {
		// No other operation is running: the Generate calls in flight served this one.
		for f := range c.gens {
			(*f)()
		}
	}
	c.mu.Unlock()
	return r, err
}

func actOptions(o *ActOptions) opOptions {
	if o == nil {
		return opOptions{}
	}
	return opOptions{cache: o.Cache, ignoreLocators: o.IgnoreLocators, locator: o.Locator, model: o.Model, timeout: o.Timeout, variables: o.Variables,
		page: o.Page, settle: o.DOMSettleTimeoutMs, onApproval: o.OnApproval, idempotencyKey: o.IdempotencyKey}
}

// Act does one thing on the page: an ObservedAction runs deterministically (no model); an
// ActInstruction is carried out by the model (or replayed from the cache).
func (c *Client) Act(ctx context.Context, input ActInput, opts *ActOptions) (*ActResult, error) {
	o := actOptions(opts)
	if opts != nil && opts.Approval != nil {
		o.approval = opts.Approval
	} else {
		o.clientApproval = c.o.Approval
	}
	switch x := input.(type) {
	case ActInstruction:
		return operation[ActResult](ctx, c, "act", object{{"input", string(x)}}, o, true)
	case observedAction:
		if err := o.cache.check(); err != nil {
			return nil, err
		}
		o.cache, o.model = nil, nil
		return operation[ActResult](ctx, c, "act", object{{"input", x.a}}, o, false)
	}
	return nil, newError(CodeInvalidArgument, "Act takes ActInstruction(text) or ObservedAction(action)")
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
	return operation[ObserveResult](ctx, c, "observe", params, actOptions(opts), true)
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
	raw, err := c.extract(ctx, instruction, schema, opts)
	if err != nil {
		return nil, err
	}
	r := &ExtractResult[T]{Metadata: raw.Metadata}
	if len(raw.Data) > 0 {
		if err := json.Unmarshal(raw.Data, &r.Data); err != nil {
			return nil, newError(CodeModelOutputInvalid, "the extracted data does not fit the schema: %v", err)
		}
	}
	return r, nil
}

func (c *Client) extract(ctx context.Context, instruction string, schema json.RawMessage, opts *ExtractOptions) (*ExtractResult[json.RawMessage], error) {
	params := object{}.with("instruction", instruction)
	if schema != nil {
		params = append(params, kv{"schema", schema})
	}
	var o opOptions
	if opts != nil {
		o = opOptions{cache: opts.Cache, ignoreLocators: opts.IgnoreLocators, locator: opts.Locator, model: opts.Model, timeout: opts.Timeout,
			variables: opts.Variables, page: opts.Page, settle: opts.DOMSettleTimeoutMs, screenshot: opts.Screenshot, iframes: opts.Iframes,
			idempotencyKey: opts.IdempotencyKey}
	}
	return operation[ExtractResult[json.RawMessage]](ctx, c, "extract", params, o, true)
}

// Metrics are the instance's counters.
func (c *Client) Metrics(ctx context.Context) (*Metrics, error) {
	return invoke[Metrics](ctx, c, "metrics", struct{}{}, "")
}

// ExperimentalBatch runs a trusted, self-contained JavaScript callback
// `async (batch, input) => ...` inside the extension's worker. input must be JSON (nil: the
// callback gets undefined; json.RawMessage("null") gives null). When result is a non-nil
// pointer it receives the callback's value decoded from JSON (undefined decodes as null).
// Cancelling ctx stops the batch in the worker: its running operation ends and no later one starts.
func (c *Client) ExperimentalBatch(ctx context.Context, source string, input any, result any, opts *BatchOptions) error {
	if strings.TrimSpace(source) == "" {
		return newError(CodeInvalidArgument, "ExperimentalBatch needs the JavaScript source of a function, e.g. 'async (batch, input) => ...'")
	}
	o := BatchOptions{}
	if opts != nil {
		o = *opts
	}
	params := object{{"source", source}, {"hasInput", input != nil}}
	if input != nil {
		in, err := marshalJS(input)
		if err != nil {
			return newError(CodeInvalidArgument, "the batch input must be JSON-serialisable: %v", err)
		}
		params = append(params, kv{"input", json.RawMessage(in)})
	}
	if err := c.checkPage(o.Page); err != nil {
		return err
	}
	if o.Page != nil {
		params = append(params, kv{"page", o.Page.id})
	}
	model, err := c.defaultModel(nil)
	if err != nil {
		return err
	}
	defaults := object{{"model", model}}.with("cache", c.cacheBase(0)).with("systemPrompt", c.o.SystemPrompt)
	if c.o.DOMSettleTimeoutMs != nil {
		defaults = append(defaults, kv{"domSettleTimeoutMs", *c.o.DOMSettleTimeoutMs})
	}
	opID := uuid4()
	params = params.with("timeout", ms(o.Timeout))
	params = append(params, kv{"defaults", defaults}, kv{"cacheByDefault", c.cacheOn}, kv{"opId", opID})
	defer c.withApprover(opID, o.OnApproval)()
	r, err := invoke[struct {
		HasValue bool            `json:"hasValue"`
		Value    json.RawMessage `json:"value"`
	}](ctx, c, "batch.run", params.with("approval", c.approvalFor(o.Approval)), opID)
	if err != nil || !r.HasValue {
		return decodeInto("the batch's value", nil, result, err)
	}
	return decodeInto("the batch's value", r.Value, result, nil)
}

// decodeInto decodes a JSON value (absent: null) into result, a non-nil pointer (nil: dropped).
func decodeInto(what string, value json.RawMessage, result any, err error) error {
	if err != nil || result == nil {
		return err
	}
	if len(value) == 0 {
		value = json.RawMessage("null")
	}
	if err := json.Unmarshal(value, result); err != nil {
		return newError(CodeInvalidArgument, "%s does not decode into %T: %v", what, result, err)
	}
	return nil
}
