package deckhand

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
)

// BrowserContext is the browser's pages, as the engine sees them (tabs). Get it with
// Client.Context.
type BrowserContext struct{ c *Client }

// Context is the browser's pages: Pages, ActivePage, NewPage and Page(id).
func (c *Client) Context() *BrowserContext { return &BrowserContext{c} }

// Page is the page with this id (the same *Page each time); nothing is sent.
func (c *Client) Page(id int) *Page { return c.Context().Page(id) }

// Page is the page with this id (the same *Page each time); nothing is sent.
func (x *BrowserContext) Page(id int) *Page {
	c := x.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pages[id] == nil {
		c.pages[id] = &Page{c: c, id: id}
	}
	return c.pages[id]
}

// Pages are the browser's open pages.
func (x *BrowserContext) Pages(ctx context.Context) ([]*Page, error) {
	infos, err := invoke[[]PageInfo](ctx, x.c, "context.pages", struct{}{}, "")
	if err != nil {
		return nil, err
	}
	out := make([]*Page, len(*infos))
	for i, info := range *infos {
		out[i] = x.Page(info.ID)
	}
	return out, nil
}

// ActivePage is the page operations use when they name none.
func (x *BrowserContext) ActivePage(ctx context.Context) (*Page, error) {
	return x.pageOf(invoke[PageInfo](ctx, x.c, "context.activePage", struct{}{}, ""))
}

func (x *BrowserContext) pageOf(info *PageInfo, err error) (*Page, error) {
	if err != nil {
		return nil, err
	}
	return x.Page(info.ID), nil
}

// NewPage opens a page at url ("": about:blank); it becomes the active page.
func (x *BrowserContext) NewPage(ctx context.Context, url string, opts *NewPageOptions) (*Page, error) {
	params := object{}.with("url", url)
	if opts != nil {
		params = params.with("timeout", ms(opts.Timeout))
	}
	params = params.with("allowSchemes", x.c.browser.allowURLSchemes)
	return x.pageOf(invoke[PageInfo](ctx, x.c, "context.newPage", params, ""))
}

// ActivePage is the page operations use when they name none.
func (c *Client) ActivePage(ctx context.Context) (*Page, error) { return c.Context().ActivePage(ctx) }

// Goto navigates a page (the active one unless opts.Page) to url.
func (c *Client) Goto(ctx context.Context, url string, opts *GotoOptions) (*PageInfo, error) {
	if opts != nil && opts.Page != nil {
		return opts.Page.Goto(ctx, url, opts)
	}
	p, err := c.ActivePage(ctx)
	if err != nil {
		return nil, err
	}
	return p.Goto(ctx, url, opts)
}

// Page is one tab of the browser, made by the client (Client.Page, Client.ActivePage) or its
// context (Pages, NewPage). Every call names the page by its id, so a Page stays valid across
// navigations; calls on a closed page fail with CodePageClosed.
type Page struct {
	c  *Client
	id int
}

// ID is the page's id in the engine.
func (p *Page) ID() int { return p.id }

// checkPage refuses a page that is not one of c's.
func (c *Client) checkPage(p *Page) error {
	if p != nil && p.c != c {
		return newError(CodeInvalidArgument, "page %d belongs to another client (make pages with this client's Page, ActivePage or Context)", p.id)
	}
	return nil
}

func (p *Page) valid() error {
	if p == nil || p.c == nil {
		return newError(CodeInvalidArgument, "no page: make one with Client.Page, Client.ActivePage or Client.Context()")
	}
	return nil
}

// pageCall runs a method on this page: its params start with the page's id. A call with an opId
// (cancellable) is one the worker stops when ctx ends first.
func pageCall[T any](ctx context.Context, p *Page, method string, params object, cancellable bool) (*T, error) {
	if err := p.valid(); err != nil {
		return nil, err
	}
	opID := ""
	// The opId goes in only when ctx can end, so a plain call sends the same frame as the Node client's.
	if cancellable && ctx.Done() != nil {
		opID = uuid4()
	}
	return invoke[T](ctx, p.c, method, append(object{{"page", p.id}}, params.with("opId", opID)...), opID)
}

// Goto navigates the page to url. opts.Page is not used here.
func (p *Page) Goto(ctx context.Context, url string, opts *GotoOptions) (*PageInfo, error) {
	params := object{{"url", url}}
	if opts != nil {
		params = params.with("options", object{}.with("waitUntil", opts.WaitUntil).with("timeout", ms(opts.Timeout)))
	}
	if err := p.valid(); err != nil {
		return nil, err
	}
	return pageCall[PageInfo](ctx, p, "page.goto", params.with("allowSchemes", p.c.browser.allowURLSchemes), true)
}

// Info is the page's id, URL and title.
func (p *Page) Info(ctx context.Context) (*PageInfo, error) {
	return pageCall[PageInfo](ctx, p, "page.info", nil, false)
}

// URL is the page's address.
func (p *Page) URL(ctx context.Context) (string, error) {
	info, err := p.Info(ctx)
	if err != nil {
		return "", err
	}
	return info.URL, nil
}

// Title is the page's title.
func (p *Page) Title(ctx context.Context) (string, error) {
	info, err := p.Info(ctx)
	if err != nil {
		return "", err
	}
	return info.Title, nil
}

// Evaluate runs a JavaScript expression in the page; result, when a non-nil pointer, receives
// its value decoded from JSON (undefined decodes as null).
func (p *Page) Evaluate(ctx context.Context, expression string, result any, opts *EvaluateOptions) error {
	return p.evaluate(ctx, expression, false, nil, result, opts)
}

// EvaluateFunction calls a JavaScript function's source (e.g. "(x) => x.a + x.b") in the page
// with arg (JSON; nil: undefined); result receives its value as Evaluate's does.
func (p *Page) EvaluateFunction(ctx context.Context, fn string, arg any, result any, opts *EvaluateOptions) error {
	return p.evaluate(ctx, fn, true, arg, result, opts)
}

func (p *Page) evaluate(ctx context.Context, source string, isFunction bool, arg, result any, opts *EvaluateOptions) error {
	params := object{{"source", source}, {"isFunction", isFunction}}
	if arg != nil {
		a, err := marshalJS(arg)
		if err != nil {
			return newError(CodeInvalidArgument, "the evaluate argument must be JSON-serialisable: %v", err)
		}
		params = append(params, kv{"arg", json.RawMessage(a)})
	}
	if opts != nil {
		params = params.with("timeout", ms(opts.Timeout))
	}
	r, err := pageCall[struct {
		Value json.RawMessage `json:"value"`
	}](ctx, p, "page.evaluate", params, false)
	if err != nil {
		return err
	}
	return decodeInto("the evaluated value", r.Value, result, nil)
}

// Screenshot is an image of the page (PNG unless opts.Type is "jpeg"); with opts.Path it is
// also written to that file.
func (p *Page) Screenshot(ctx context.Context, opts *ScreenshotOptions) ([]byte, error) {
	o := ScreenshotOptions{}
	if opts != nil {
		o = *opts
	}
	r, err := pageCall[struct {
		Data []byte `json:"data"` // base64, as encoding/json reads []byte
	}](ctx, p, "page.screenshot", object{{"options", o}}, false)
	if err != nil {
		return nil, err
	}
	if o.Path != "" {
		if err := os.WriteFile(o.Path, r.Data, 0o644); err != nil {
			return nil, newError(CodeInvalidArgument, "screenshot: cannot write %s: %v", o.Path, err)
		}
	}
	return r.Data, nil
}

// Snapshot is the text a model reads for this page: an outline of its elements with their ids.
func (p *Page) Snapshot(ctx context.Context, opts *SnapshotOptions) (*SnapshotResult, error) {
	o := SnapshotOptions{}
	if opts != nil {
		o = *opts
	}
	locator, err := specOf(o.Locator)
	if err != nil {
		return nil, err
	}
	ignore, err := specsOf(o.IgnoreLocators)
	if err != nil {
		return nil, err
	}
	params := object{}.with("locator", locator).with("ignoreLocators", ignore)
	return pageCall[SnapshotResult](ctx, p, "page.snapshot", params.with("budget", o.Budget).with("timeout", ms(o.Timeout)), false)
}

func (o *ActionOptions) timeout() float64 {
	if o == nil {
		return 0
	}
	return ms(o.Timeout)
}

// Press presses keys ("Enter", "Control+A") on whatever has focus in the page.
func (p *Page) Press(ctx context.Context, keys string, opts *ActionOptions) error {
	_, err := pageCall[json.RawMessage](ctx, p, "page.press", object{{"keys", keys}}.with("timeout", opts.timeout()), true)
	return err
}

// Tools are the page's own tools (WebMCP), as the snapshot lists them: name, description, input
// schema. None when the page declares none or the browser offers none.
func (p *Page) Tools(ctx context.Context) ([]PageTool, error) {
	r, err := pageCall[PageToolsResult](ctx, p, "page.tools", nil, false)
	if err != nil {
		return nil, err
	}
	return r.Tools, nil
}

// CallTool calls one of the page's own tools with input (checked against its input schema first;
// nil: no input). A tool a form declares fills the form and submits it. Output is the tool's answer
// as text (JSON text for an object), empty when it answered nothing (a form that navigated the page:
// Navigated). Errors: CodeToolNotFound, CodeToolFailed, CodeToolChanged, CodeToolOutputTooLarge,
// CodeInvalidArgument (input the schema refuses) and CodeTimeout.
func (p *Page) CallTool(ctx context.Context, name string, input map[string]any, opts *CallToolOptions) (*CallToolResult, error) {
	// Input only as the caller gave it: the worker decides what none means.
	params := object{{"name", name}}.with("input", input)
	if opts != nil {
		params = params.with("timeout", ms(opts.Timeout)).with("approval", opts.Approval)
	}
	// Cancellable: a page's tool may never answer, and ending ctx tells it the call is over.
	return pageCall[CallToolResult](ctx, p, "page.callTool", params, true)
}

// Close closes the page.
func (p *Page) Close(ctx context.Context) error {
	_, err := pageCall[json.RawMessage](ctx, p, "page.close", nil, false)
	return err
}

// BringToFront makes the page the active one.
func (p *Page) BringToFront(ctx context.Context) error {
	_, err := pageCall[PageInfo](ctx, p, "page.bringToFront", nil, false)
	return err
}

// Locator is the elements of this page that selector (CSS, or XPath with "xpath=" or a leading
// "/") matches. Nothing is sent until one of its actions; an empty selector fails there with
// CodeInvalidSelector.
func (p *Page) Locator(selector string) *Locator {
	l := &Locator{page: p, selector: selector}
	if strings.TrimSpace(selector) == "" {
		l.err = newError(CodeInvalidSelector, "a locator needs a non-empty CSS or XPath selector")
	}
	return l
}

// on is opts with Page set to p.
func (p *Page) on(opts *ActOptions) *ActOptions {
	var o ActOptions
	if opts != nil {
		o = *opts
	}
	o.Page = p
	return &o
}

// Act does one thing on this page (see Client.Act).
func (p *Page) Act(ctx context.Context, input ActInput, opts *ActOptions) (*ActResult, error) {
	return p.c.Act(ctx, input, p.on(opts))
}

// Observe finds elements of this page (see Client.Observe).
func (p *Page) Observe(ctx context.Context, instruction *string, opts *ObserveOptions) (*ObserveResult, error) {
	return p.c.Observe(ctx, instruction, p.on(opts))
}

// ModelClientOptions are a model's own settings in Page.Extract's earlier form.
type ModelClientOptions struct {
	APIKey  string
	BaseURL string
	Headers map[string]string
}

// PageExtractOptions configure Page.Extract (nil for defaults).
type PageExtractOptions struct {
	// Into, a non-nil pointer, receives the data: its type gives the JSON Schema sent (as
	// SchemaOf does for Extract). Without it the result is PageExtraction.Extraction.
	Into any
	// Selector is an XPath that scopes the extraction.
	Selector string
	// Iframes includes the content of iframes.
	Iframes bool
	// ModelName and ModelClientOptions pick the model (default: the client's).
	ModelName          string
	ModelClientOptions *ModelClientOptions
	// DOMSettleTimeoutMs is how long to wait for the page to settle first (default 30000).
	DOMSettleTimeoutMs *int
}

// Extract is the earlier page.extract, in its three forms: no instruction and no opts.Into
// gives the page's text with no model (PageText); an instruction gives the model's text
// (Extraction); opts.Into receives data of its own type.
//
//	text, _ := page.Extract(ctx, "", nil)                       // text.PageText
//	r, _ := page.Extract(ctx, "the page heading", nil)          // r.Extraction
//	var h struct{ Heading string `json:"heading"` }
//	page.Extract(ctx, "the heading", &deckhand.PageExtractOptions{Into: &h})
func (p *Page) Extract(ctx context.Context, instruction string, opts *PageExtractOptions) (*PageExtraction, error) {
	o := PageExtractOptions{}
	if opts != nil {
		o = *opts
	}
	if instruction == "" && o.Into == nil {
		params := object{}
		if o.Selector != "" {
			params = append(params, kv{"locator", LocatorSpec{Selector: o.Selector}})
		}
		// The whole text: a budget no page reaches.
		s, err := pageCall[SnapshotResult](ctx, p, "page.snapshot", append(params, kv{"budget", 50_000_000}), false)
		if err != nil {
			return nil, err
		}
		return &PageExtraction{PageText: s.Text}, nil
	}
	var schema json.RawMessage
	if o.Into != nil {
		t := reflect.TypeOf(o.Into)
		if t.Kind() != reflect.Pointer || reflect.ValueOf(o.Into).IsNil() {
			return nil, newError(CodeInvalidArgument, "page.Extract: Into must be a non-nil pointer, got %T", o.Into)
		}
		var err error
		if schema, err = schemaOfType(t.Elem()); err != nil {
			return nil, err
		}
	}
	eo := &ExtractOptions{Page: p, DOMSettleTimeoutMs: cmpOr(o.DOMSettleTimeoutMs, Int(30_000)), Iframes: o.Iframes}
	if m := o.ModelClientOptions; o.ModelName != "" && m != nil && (m.APIKey != "" || m.BaseURL != "" || m.Headers != nil) {
		eo.Model = &ModelConfig{ModelName: o.ModelName, APIKey: m.APIKey, BaseURL: m.BaseURL, Headers: m.Headers}
	} else if o.ModelName != "" {
		eo.Model = ModelName(o.ModelName)
	}
	if sel := o.Selector; sel != "" {
		if !strings.HasPrefix(sel, "xpath=") && !strings.HasPrefix(sel, "/") {
			sel = "xpath=" + sel
		}
		eo.Locator = p.Locator(sel)
	}
	if err := p.valid(); err != nil {
		return nil, err
	}
	r, err := p.c.extract(ctx, instruction, schema, eo)
	if err != nil {
		return nil, err
	}
	var out PageExtraction
	into := o.Into
	if into == nil {
		into = &out
	}
	if err := json.Unmarshal(orNull(r.Data), into); err != nil {
		return nil, newError(CodeModelOutputInvalid, "the extracted data does not fit %T: %v", into, err)
	}
	return &out, nil
}

func cmpOr[T any](p, fallback *T) *T {
	if p == nil {
		return fallback
	}
	return p
}

func orNull(v json.RawMessage) json.RawMessage {
	if len(v) == 0 {
		return json.RawMessage("null")
	}
	return v
}

// Locator is the elements of a page that a selector matches, or one of them (Nth, First). Make
// one with Page.Locator; pass it to an operation's Locator option to scope the operation.
type Locator struct {
	page     *Page
	selector string
	nth      *int
	err      error // why the locator cannot be used; returned by each call
}

// Nth is the i-th match (from 0) of the locator's selector.
func (l *Locator) Nth(i int) *Locator {
	if l == nil {
		return nil
	}
	n := &Locator{page: l.page, selector: l.selector, nth: &i, err: l.err}
	if n.err == nil && i < 0 {
		n.err = newError(CodeInvalidArgument, "Nth takes a whole number from 0, got %d", i)
	}
	return n
}

// First is the first match.
func (l *Locator) First() *Locator { return l.Nth(0) }

// Selector is the locator's CSS or XPath selector.
func (l *Locator) Selector() string { return l.selector }

// Page is the page the locator looks in.
func (l *Locator) Page() *Page { return l.page }

// specOf is a locator's wire form (nil: none).
func specOf(l *Locator) (*LocatorSpec, error) {
	if l == nil {
		return nil, nil
	}
	s, err := l.wire()
	return &s, err
}

// specsOf is locators' wire forms (nil: none).
func specsOf(ls []*Locator) ([]LocatorSpec, error) {
	if ls == nil {
		return nil, nil
	}
	out := []LocatorSpec{}
	for _, l := range ls {
		s, err := l.wire()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// wire is the locator as the wire's LocatorSpec, or why it cannot be used.
func (l *Locator) wire() (LocatorSpec, error) {
	if l == nil {
		return LocatorSpec{}, newError(CodeInvalidArgument, "no locator: make one with Page.Locator(selector)")
	}
	return LocatorSpec{Selector: l.selector, Nth: l.nth}, l.err
}

func (l *Locator) act(ctx context.Context, method string, args []string, opts *ActionOptions) error {
	spec, err := l.wire()
	if err != nil {
		return err
	}
	params := object{{"locator", spec}, {"method", method}, {"arguments", nonNil(args)}}.with("timeout", opts.timeout())
	_, err = pageCall[json.RawMessage](ctx, l.page, "locator.act", params, true)
	return err
}

// DragTo drags the element onto target's.
func (l *Locator) DragTo(ctx context.Context, target *Locator, opts *ActionOptions) error {
	ts, err := target.wire()
	if err != nil {
		return err
	}
	return l.act(ctx, "dragAndDrop", []string{ts.Selector}, opts)
}

// Count is how many elements match (for Nth(i): 1 when there is an i-th match, else 0).
func (l *Locator) Count(ctx context.Context) (int, error) {
	if _, err := l.wire(); err != nil {
		return 0, err
	}
	r, err := pageCall[struct {
		Count int `json:"count"`
	}](ctx, l.page, "locator.count", object{{"locator", LocatorSpec{Selector: l.selector}}}, false)
	switch {
	case err != nil:
		return 0, err
	case l.nth == nil:
		return r.Count, nil
	case r.Count > *l.nth:
		return 1, nil
	}
	return 0, nil
}
