package deckhand

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"time"
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
	p := c.pages[id]
	if p == nil {
		p = &Page{c: c, id: id}
		c.pages[id] = p
	}
	return p
}

// Pages are the browser's open pages.
func (x *BrowserContext) Pages(ctx context.Context) ([]*Page, error) {
	infos, err := callAs[[]PageInfo](ctx, x.c, "context.pages", struct{}{}, 0)
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
	info, err := callAs[PageInfo](ctx, x.c, "context.activePage", struct{}{}, 0)
	if err != nil {
		return nil, err
	}
	return x.Page(info.ID), nil
}

// NewPageOptions configure NewPage (nil for defaults).
type NewPageOptions struct {
	// Timeout bounds the page's load (default 30 s).
	Timeout time.Duration
}

// NewPage opens a page at url ("": about:blank); it becomes the active page.
func (x *BrowserContext) NewPage(ctx context.Context, url string, opts *NewPageOptions) (*Page, error) {
	var o NewPageOptions
	if opts != nil {
		o = *opts
	}
	t, err := timeoutMs("newPage: timeout", o.Timeout)
	if err != nil {
		return nil, err
	}
	params := object{}
	if url != "" {
		params = append(params, kv{"url", url})
	}
	if t > 0 {
		params = append(params, kv{"timeout", t})
	}
	if len(x.c.browser.allowURLSchemes) > 0 {
		params = append(params, kv{"allowSchemes", x.c.browser.allowURLSchemes})
	}
	info, err := callAs[PageInfo](ctx, x.c, "context.newPage", params, t)
	if err != nil {
		return nil, err
	}
	return x.Page(info.ID), nil
}

// ActivePage is the page operations use when they name none.
func (c *Client) ActivePage(ctx context.Context) (*Page, error) { return c.Context().ActivePage(ctx) }

// GotoOptions configure Goto (nil for defaults).
type GotoOptions struct {
	// Page is the page Client.Goto navigates (nil: the active page); Page.Goto navigates its own.
	Page *Page
	// WaitUntil is "load" (default), "domcontentloaded" or "commit".
	WaitUntil string
	Timeout   time.Duration
}

// Goto navigates a page (the active one unless opts.Page) to url.
func (c *Client) Goto(ctx context.Context, url string, opts *GotoOptions) (*PageInfo, error) {
	p := (*Page)(nil)
	if opts != nil {
		p = opts.Page
	}
	if p == nil {
		var err error
		if p, err = c.ActivePage(ctx); err != nil {
			return nil, err
		}
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
	if p == nil {
		return nil
	}
	if p.c != c {
		return newError(CodeInvalidArgument, "page %d belongs to another client (make pages with this client's Page, ActivePage or Context)", p.id)
	}
	if p.id < 0 {
		return newError(CodeInvalidArgument, "a page id is a whole number from 0, got %d", p.id)
	}
	return nil
}

func (p *Page) valid() error {
	if p == nil || p.c == nil {
		return newError(CodeInvalidArgument, "no page: make one with Client.Page, Client.ActivePage or Client.Context()")
	}
	return p.c.checkPage(p)
}

func (p *Page) info(ctx context.Context, method string) (*PageInfo, error) {
	if err := p.valid(); err != nil {
		return nil, err
	}
	return callAs[PageInfo](ctx, p.c, method, object{{"page", p.id}}, 0)
}

// cancellable sends a call the worker stops (op.cancel) when ctx ends first. The opId goes in
// only when ctx can end, so a plain call sends the same frame as the Node client's.
func (c *Client) cancellable(ctx context.Context, method string, params object, opMs int64) (json.RawMessage, error) {
	opID := ""
	if ctx.Done() != nil {
		opID = uuid4()
		params = append(params, kv{"opId", opID})
	}
	raw, err := c.call(ctx, method, params, opMs)
	if err != nil && opID != "" && ctx.Err() != nil {
		c.cancelOp(opID)
		return nil, ctx.Err()
	}
	return raw, err
}

// Goto navigates the page to url. opts.Page is not used here.
func (p *Page) Goto(ctx context.Context, url string, opts *GotoOptions) (*PageInfo, error) {
	if err := p.valid(); err != nil {
		return nil, err
	}
	o := GotoOptions{}
	if opts != nil {
		o = *opts
	}
	t, err := timeoutMs("goto: timeout", o.Timeout)
	if err != nil {
		return nil, err
	}
	if o.WaitUntil != "" && o.WaitUntil != "load" && o.WaitUntil != "domcontentloaded" && o.WaitUntil != "commit" {
		return nil, newError(CodeInvalidArgument, "goto: WaitUntil must be load, domcontentloaded or commit, got '%s'", o.WaitUntil)
	}
	params := object{{"page", p.id}, {"url", url}}
	var po object
	if o.WaitUntil != "" {
		po = append(po, kv{"waitUntil", o.WaitUntil})
	}
	if t > 0 {
		po = append(po, kv{"timeout", t})
	}
	if po != nil {
		params = append(params, kv{"options", po})
	}
	if len(p.c.browser.allowURLSchemes) > 0 {
		params = append(params, kv{"allowSchemes", p.c.browser.allowURLSchemes})
	}
	raw, err := p.c.cancellable(ctx, "page.goto", params, t)
	if err != nil {
		return nil, err
	}
	var info PageInfo
	if err := decodeAnswer("page.goto", raw, &info, nil); err != nil {
		return nil, err
	}
	return &info, nil
}

// Info is the page's id, URL and title.
func (p *Page) Info(ctx context.Context) (*PageInfo, error) { return p.info(ctx, "page.info") }

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

// EvaluateOptions configure Evaluate and EvaluateFunction (nil for defaults).
type EvaluateOptions struct {
	// Timeout bounds the evaluation (default 30 s; a promise is awaited).
	Timeout time.Duration
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
	if err := p.valid(); err != nil {
		return err
	}
	if strings.TrimSpace(source) == "" {
		return newError(CodeInvalidArgument, "evaluate takes JavaScript source: a function or an expression")
	}
	var o EvaluateOptions
	if opts != nil {
		o = *opts
	}
	t, err := timeoutMs("evaluate: timeout", o.Timeout)
	if err != nil {
		return err
	}
	params := object{{"page", p.id}, {"source", source}, {"isFunction", isFunction}}
	if arg != nil {
		a, err := marshalJS(arg)
		if err != nil {
			return newError(CodeInvalidArgument, "the evaluate argument must be JSON-serialisable: %v", err)
		}
		params = append(params, kv{"arg", json.RawMessage(a)})
	}
	if t > 0 {
		params = append(params, kv{"timeout", t})
	}
	raw, err := p.c.call(ctx, "page.evaluate", params, t)
	if err != nil {
		return err
	}
	var r struct {
		Value json.RawMessage `json:"value"`
	}
	if err := decodeAnswer("page.evaluate", raw, &r, nil); err != nil {
		return err
	}
	return decodeInto("the evaluated value", r.Value, result)
}

// decodeInto decodes a JSON value (absent: null) into result, a non-nil pointer (nil: dropped).
func decodeInto(what string, value json.RawMessage, result any) error {
	if result == nil {
		return nil
	}
	if len(value) == 0 {
		value = json.RawMessage("null")
	}
	if err := json.Unmarshal(value, result); err != nil {
		return newError(CodeInvalidArgument, "%s does not decode into %T: %v", what, result, err)
	}
	return nil
}

// Screenshot is an image of the page (PNG unless opts.Type is "jpeg"); with opts.Path it is
// also written to that file.
func (p *Page) Screenshot(ctx context.Context, opts *ScreenshotOptions) ([]byte, error) {
	if err := p.valid(); err != nil {
		return nil, err
	}
	o := ScreenshotOptions{}
	if opts != nil {
		o = *opts
	}
	if o.Type != "" && o.Type != "png" && o.Type != "jpeg" {
		return nil, newError(CodeInvalidArgument, "screenshot: Type must be png or jpeg, got '%s'", o.Type)
	}
	if o.Quality != nil && (*o.Quality < 0 || *o.Quality > 100) {
		return nil, newError(CodeInvalidArgument, "screenshot: Quality must be from 0 to 100, got %d", *o.Quality)
	}
	raw, err := p.c.call(ctx, "page.screenshot", object{{"page", p.id}, {"options", o}}, 0)
	if err != nil {
		return nil, err
	}
	var r struct {
		Data string `json:"data"`
	}
	if err := decodeAnswer("page.screenshot", raw, &r, nil); err != nil {
		return nil, err
	}
	img, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		return nil, newError(CodeProtocolError, "invalid answer to 'page.screenshot': data is not base64: %v", err)
	}
	if o.Path != "" {
		if err := os.WriteFile(o.Path, img, 0o644); err != nil {
			return nil, newError(CodeInvalidArgument, "screenshot: cannot write %s: %v", o.Path, err)
		}
	}
	return img, nil
}

// SnapshotOptions configure Snapshot (nil for the whole page).
type SnapshotOptions struct {
	// Locator scopes the snapshot to an element (made by Page.Locator).
	Locator *Locator
	// IgnoreLocators leave parts of the page out.
	IgnoreLocators []*Locator
	// Budget is the most tokens the text may take (0: the engine's default; at least 200).
	Budget  int
	Timeout time.Duration
}

// Snapshot is the text a model reads for this page: an outline of its elements with their ids.
func (p *Page) Snapshot(ctx context.Context, opts *SnapshotOptions) (*SnapshotResult, error) {
	if err := p.valid(); err != nil {
		return nil, err
	}
	o := SnapshotOptions{}
	if opts != nil {
		o = *opts
	}
	t, err := timeoutMs("snapshot: timeout", o.Timeout)
	if err != nil {
		return nil, err
	}
	if o.Budget != 0 && o.Budget < 200 {
		return nil, newError(CodeInvalidArgument, "snapshot: Budget must be at least 200 tokens, got %d", o.Budget)
	}
	params := object{{"page", p.id}}
	if o.Locator != nil {
		s, err := o.Locator.wire()
		if err != nil {
			return nil, err
		}
		params = append(params, kv{"locator", s})
	}
	if o.IgnoreLocators != nil {
		specs := []LocatorSpec{}
		for _, l := range o.IgnoreLocators {
			s, err := l.wire()
			if err != nil {
				return nil, err
			}
			specs = append(specs, s)
		}
		params = append(params, kv{"ignoreLocators", specs})
	}
	if o.Budget != 0 {
		params = append(params, kv{"budget", o.Budget})
	}
	if t > 0 {
		params = append(params, kv{"timeout", t})
	}
	return p.snapshot(ctx, params, t)
}

func (p *Page) snapshot(ctx context.Context, params object, t int64) (*SnapshotResult, error) {
	return callAs[SnapshotResult](ctx, p.c, "page.snapshot", params, t)
}

// ActionOptions configure a locator's action or a key press (nil for defaults).
type ActionOptions struct {
	// Timeout is how long to wait for the element to be there and actionable (default 15 s).
	Timeout time.Duration
}

func actionDeadline(what string, opts *ActionOptions) (int64, int64, error) {
	if opts == nil {
		return 0, actionTimeoutMs, nil
	}
	t, err := timeoutMs(what+": timeout", opts.Timeout)
	if err != nil || t > 0 {
		return t, t, err
	}
	return 0, actionTimeoutMs, nil
}

// Press presses keys ("Enter", "Control+A") on whatever has focus in the page.
func (p *Page) Press(ctx context.Context, keys string, opts *ActionOptions) error {
	if err := p.valid(); err != nil {
		return err
	}
	if keys == "" {
		return newError(CodeInvalidArgument, "press: keys must not be empty")
	}
	t, deadline, err := actionDeadline("press", opts)
	if err != nil {
		return err
	}
	params := object{{"page", p.id}, {"keys", keys}}
	if t > 0 {
		params = append(params, kv{"timeout", t})
	}
	_, err = p.c.cancellable(ctx, "page.press", params, deadline)
	return err
}

// Close closes the page.
func (p *Page) Close(ctx context.Context) error {
	if err := p.valid(); err != nil {
		return err
	}
	_, err := p.c.call(ctx, "page.close", object{{"page", p.id}}, 0)
	return err
}

// BringToFront makes the page the active one.
func (p *Page) BringToFront(ctx context.Context) error {
	_, err := p.info(ctx, "page.bringToFront")
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

// withPage is opts with Page set to p.
func withPage[T any](p *Page, opts *T, set func(*T)) *T {
	var o T
	if opts != nil {
		o = *opts
	}
	set(&o)
	return &o
}

// Act does one thing on this page (see Client.Act).
func (p *Page) Act(ctx context.Context, input ActInput, opts *ActOptions) (*ActResult, error) {
	if err := p.valid(); err != nil {
		return nil, err
	}
	return p.c.Act(ctx, input, withPage(p, opts, func(o *ActOptions) { o.Page = p }))
}

// Observe finds elements of this page (see Client.Observe).
func (p *Page) Observe(ctx context.Context, instruction *string, opts *ObserveOptions) (*ObserveResult, error) {
	if err := p.valid(); err != nil {
		return nil, err
	}
	return p.c.Observe(ctx, instruction, withPage(p, opts, func(o *ActOptions) { o.Page = p }))
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
	if err := p.valid(); err != nil {
		return nil, err
	}
	o := PageExtractOptions{}
	if opts != nil {
		o = *opts
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
	if instruction == "" && o.Into == nil {
		params := object{{"page", p.id}}
		if o.Selector != "" {
			params = append(params, kv{"locator", LocatorSpec{Selector: o.Selector}})
		}
		params = append(params, kv{"budget", 50_000_000})
		s, err := p.snapshot(ctx, params, 0)
		if err != nil {
			return nil, err
		}
		return &PageExtraction{PageText: s.Text}, nil
	}
	settle := 30_000
	if o.DOMSettleTimeoutMs != nil {
		settle = *o.DOMSettleTimeoutMs
	}
	eo := &ExtractOptions{Page: p, DOMSettleTimeoutMs: &settle, Iframes: o.Iframes}
	if o.ModelName != "" {
		if m := o.ModelClientOptions; m != nil && (m.APIKey != "" || m.BaseURL != "" || m.Headers != nil) {
			eo.Model = &ModelConfig{ModelName: o.ModelName, APIKey: m.APIKey, BaseURL: m.BaseURL, Headers: m.Headers}
		} else {
			eo.Model = ModelName(o.ModelName)
		}
	}
	if sel := o.Selector; sel != "" {
		if !strings.HasPrefix(sel, "xpath=") && !strings.HasPrefix(sel, "/") {
			sel = "xpath=" + sel
		}
		eo.Locator = p.Locator(sel)
	}
	data, err := p.c.extract(ctx, instruction, schema, eo)
	if err != nil {
		return nil, err
	}
	if o.Into != nil {
		if err := json.Unmarshal(orNull(data), o.Into); err != nil {
			return nil, newError(CodeModelOutputInvalid, "the extracted data does not fit %T: %v", o.Into, err)
		}
		return &PageExtraction{}, nil
	}
	var r PageExtraction
	if err := json.Unmarshal(orNull(data), &r); err != nil {
		return nil, newError(CodeProtocolError, "invalid answer to 'extract': %v", err)
	}
	return &r, nil
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

// wire is the locator as the wire's LocatorSpec, or why it cannot be used.
func (l *Locator) wire() (LocatorSpec, error) {
	if l == nil {
		return LocatorSpec{}, newError(CodeInvalidArgument, "no locator: make one with Page.Locator(selector)")
	}
	if l.err != nil {
		return LocatorSpec{}, l.err
	}
	return LocatorSpec{Selector: l.selector, Nth: l.nth}, nil
}

func (l *Locator) act(ctx context.Context, method string, args []string, opts *ActionOptions) error {
	spec, err := l.wire()
	if err != nil {
		return err
	}
	if err := l.page.valid(); err != nil {
		return err
	}
	t, deadline, err := actionDeadline(method, opts)
	if err != nil {
		return err
	}
	if args == nil {
		args = []string{}
	}
	params := object{{"page", l.page.id}, {"locator", spec}, {"method", method}, {"arguments", args}}
	if t > 0 {
		params = append(params, kv{"timeout", t})
	}
	_, err = l.page.c.cancellable(ctx, "locator.act", params, deadline)
	return err
}

// Click clicks the element.
func (l *Locator) Click(ctx context.Context, opts *ActionOptions) error {
	return l.act(ctx, "click", nil, opts)
}

// Dblclick double-clicks the element.
func (l *Locator) Dblclick(ctx context.Context, opts *ActionOptions) error {
	return l.act(ctx, "doubleClick", nil, opts)
}

// RightClick right-clicks the element.
func (l *Locator) RightClick(ctx context.Context, opts *ActionOptions) error {
	return l.act(ctx, "rightClick", nil, opts)
}

// Hover moves the mouse over the element.
func (l *Locator) Hover(ctx context.Context, opts *ActionOptions) error {
	return l.act(ctx, "hover", nil, opts)
}

// Fill replaces the field's value with value.
func (l *Locator) Fill(ctx context.Context, value string, opts *ActionOptions) error {
	return l.act(ctx, "fill", []string{value}, opts)
}

// Type types text into the element, key by key, after what it holds.
func (l *Locator) Type(ctx context.Context, text string, opts *ActionOptions) error {
	return l.act(ctx, "type", []string{text}, opts)
}

// Press presses a key ("Enter", "Control+A") with the element focused.
func (l *Locator) Press(ctx context.Context, key string, opts *ActionOptions) error {
	return l.act(ctx, "press", []string{key}, opts)
}

// Check checks a checkbox or radio button.
func (l *Locator) Check(ctx context.Context, opts *ActionOptions) error {
	return l.act(ctx, "check", nil, opts)
}

// Uncheck unchecks a checkbox.
func (l *Locator) Uncheck(ctx context.Context, opts *ActionOptions) error {
	return l.act(ctx, "uncheck", nil, opts)
}

// SelectOption selects the options of a <select> with these values or labels (several for a
// multiple select).
func (l *Locator) SelectOption(ctx context.Context, values []string, opts *ActionOptions) error {
	if len(values) == 0 {
		return newError(CodeInvalidArgument, "SelectOption needs at least one value")
	}
	return l.act(ctx, "selectOption", values, opts)
}

// ScrollIntoView scrolls the element into view.
func (l *Locator) ScrollIntoView(ctx context.Context, opts *ActionOptions) error {
	return l.act(ctx, "scrollIntoView", nil, opts)
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
	if err := l.page.valid(); err != nil {
		return 0, err
	}
	raw, err := l.page.c.call(ctx, "locator.count", object{{"page", l.page.id}, {"locator", LocatorSpec{Selector: l.selector}}}, 0)
	if err != nil {
		return 0, err
	}
	var r struct {
		Count *int `json:"count"`
	}
	if err := decodeAnswer("locator.count", raw, &r, func() error {
		if r.Count == nil {
			return errMissing("count")
		}
		return nil
	}); err != nil {
		return 0, err
	}
	n := *r.Count
	if l.nth != nil {
		if n > *l.nth {
			return 1, nil
		}
		return 0, nil
	}
	return n, nil
}

func errMissing(field string) error { return fmt.Errorf("%s is missing", field) }
