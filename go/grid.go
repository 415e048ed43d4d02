package deckhand

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// GridOptions configure LaunchGridBrowser.
type GridOptions struct {
	// URL is the Grid's address (its router or standalone server), e.g. http://127.0.0.1:4444
	// or http://grid:4444/wd/hub. Required.
	URL string
	// Headers go on every request to the Grid and its CDP proxy (a reverse proxy's
	// Authorization, say). They are never put in error messages.
	Headers map[string]string
	// Headful shows the window on the node (the default is headless).
	Headful bool
	// ViewportWidth and ViewportHeight set the window size (default 1280x800).
	ViewportWidth, ViewportHeight int
	// ExtensionDir is the built extension's folder as the node sees it (default: this
	// machine's, ExtensionDir(); right when the node runs here or has the same path mounted).
	// Chromium and Chrome for Testing load it; branded Chrome 137 and later ignore
	// --load-extension.
	ExtensionDir string
	// PackedExtension sends the extension with the session request instead, as a CRX package in
	// goog:chromeOptions.extensions: for nodes that do not have its files. The package is the
	// extension embedded in this module, or with DECKHAND_EXTENSION_DIR set, the one `npm run
	// build` writes beside that folder (<dir>.crx; none there is EXTENSION_MISSING).
	// chromedriver unpacks it and loads it with --load-extension itself.
	PackedExtension bool
	// Binary is Chromium's path on the node (goog:chromeOptions.binary; default: the node's choice).
	Binary string
	// Args are extra Chromium flags for the node's browser.
	Args []string
	// Capabilities are more W3C capabilities to match a node by (platformName, se:name, ...);
	// goog:chromeOptions is Deckhand's.
	Capabilities map[string]any
	// Timeout bounds the new session, the Grid's queue included (default 60 s).
	Timeout time.Duration
	// KeepAlive is how often the handle tells the Grid the session is in use (default 60 s, at
	// least 1 s; keep it under the Grid's --session-timeout).
	KeepAlive time.Duration
}

// How often a Grid browser is asked whether it still answers, and how long for: the Grid's CDP
// proxy keeps the WebSocket open when a node's browser dies, so without this a call would wait
// out its own deadline.
const (
	gridHealthEvery = 3 * time.Second
	gridHealthWait  = 5 * time.Second // with gridHealthEvery, under the wait for a call's ack
)

var gridSessionID = regexp.MustCompile(`^[\w-]{1,200}$`)

// gridBase checks the Grid's address and returns it without a trailing slash.
func gridBase(raw string) (string, error) {
	if raw == "" {
		return "", newError(CodeInvalidArgument, "LaunchGridBrowser needs GridOptions.URL: the Grid's address, e.g. http://127.0.0.1:4444")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		shown := raw
		if err == nil {
			shown = u.Redacted()
		}
		return "", newError(CodeInvalidArgument, "the Grid's url must be an http(s):// URL, got '%s'", shown[:min(len(shown), 200)])
	}
	if u.User != nil {
		return "", newError(CodeInvalidArgument, "put the Grid's credentials in Headers (Authorization), not in its url")
	}
	return u.Scheme + "://" + u.Host + strings.TrimRight(u.EscapedPath(), "/"), nil
}

// gridSays is the Grid's own words from a WebDriver error body, short.
func gridSays(res *http.Response) string {
	text, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	msg := string(text)
	var body struct {
		Value struct{ Error, Message string } `json:"value"`
	}
	if json.Unmarshal(text, &body) == nil && body.Value.Message != "" {
		msg = strings.TrimPrefix(body.Value.Error+": ", ": ") + body.Value.Message
	}
	msg = strings.TrimSpace(strings.SplitN(msg, "\n", 2)[0])
	if msg == "" {
		return fmt.Sprintf("HTTP %d", res.StatusCode)
	}
	if r := []rune(msg); len(r) > 300 {
		msg = string(r[:297]) + "..."
	}
	return msg
}

// gridSession is one Grid session held by a Browser: the keep-alive and health loops and the
// session's deletion.
type gridSession struct {
	base, id string
	headers  http.Header
	ctx      context.Context // ends with the session
	cancel   context.CancelFunc
	once     sync.Once
}

func (g *gridSession) request(ctx context.Context, method, path string, wait time.Duration) (int, error) {
	rctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, method, g.base+path, nil)
	if err != nil {
		return 0, err
	}
	req.Header = g.headers.Clone()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	res.Body.Close()
	return res.StatusCode, nil
}

// end stops the loops and deletes the Grid session, once; later callers wait for the first.
// Errors are ignored: a Grid that is gone has ended the session already.
func (g *gridSession) end() {
	g.once.Do(func() {
		g.cancel()
		_, _ = g.request(context.Background(), http.MethodDelete, "/session/"+g.id, 10*time.Second)
	})
}

// every runs f every d until the session ends.
func (g *gridSession) every(d time.Duration, f func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-g.ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}

// watch runs while the browser is open. Any WebDriver command resets the Grid's idle clock,
// and asking for the window handle costs the node nothing; a session the Grid no longer knows,
// or a browser that stops answering CDP, is a browser that is gone.
func (g *gridSession) watch(b *Browser, keepAlive time.Duration) {
	lost := func() {
		if g.ctx.Err() == nil {
			// Calls in flight and later ones fail with BROWSER_CLOSED at once (close fails them
			// before the WebSocket's closing handshake, which a dead peer may leave waiting).
			b.conn.close()
			g.end()
		}
	}
	go g.every(keepAlive, func() {
		go func() {
			if status, err := g.request(g.ctx, http.MethodGet, "/session/"+g.id+"/window", min(keepAlive, 30*time.Second)); err == nil && status == http.StatusNotFound {
				lost()
			}
		}()
	})
	go g.every(gridHealthEvery, func() {
		if !b.conn.isClosed() && b.conn.sendTimeout(g.ctx, "Browser.getVersion", nil, "", nil, gridHealthWait) != nil {
			lost()
		}
	})
}

// LaunchGridBrowser starts a browser with the Deckhand extension on a Selenium Grid 4 node
// and connects to it through the session's se:cdp WebSocket, which the Grid's router proxies.
// Close deletes the Grid session; so does the browser going away on its own (it crashed, the
// Grid ended the session), after which calls fail with BROWSER_CLOSED. While the handle is
// open it sends the Grid a cheap WebDriver command every KeepAlive, since the Grid ends
// sessions that see no WebDriver command for a while (CDP traffic does not count).
//
// Failures: a bad URL is INVALID_ARGUMENT; a Grid that cannot be reached, or that refuses the
// session (in its own words), is BROWSER_UNAVAILABLE; no browser within Timeout is TIMEOUT;
// ctx ending returns ctx.Err().
//
//	b, err := deckhand.LaunchGridBrowser(ctx, deckhand.GridOptions{
//		URL:     "http://grid:4444",
//		Headers: map[string]string{"Authorization": "Bearer " + token},
//	})
//	if err != nil {
//		return err
//	}
//	defer b.Close()
//	c, err := deckhand.Create(ctx, deckhand.CreateOptions{Browser: b})
func LaunchGridBrowser(ctx context.Context, o GridOptions) (*Browser, error) {
	base, err := gridBase(o.URL)
	if err != nil {
		return nil, err
	}
	timeout, err := waitOption("the Grid timeout", o.Timeout, gridTimeoutMs*time.Millisecond, time.Millisecond)
	if err != nil {
		return nil, err
	}
	keepAlive, err := waitOption("KeepAlive", o.KeepAlive, gridKeepAliveMs*time.Millisecond, gridKeepAliveMinMs*time.Millisecond)
	if err != nil {
		return nil, err
	}
	w, h, err := viewportSize(o.ViewportWidth, o.ViewportHeight)
	if err != nil {
		return nil, err
	}
	ext := o.ExtensionDir
	if ext == "" {
		if ext, err = extensionDir(); err != nil {
			return nil, err
		}
		if abs, err := filepath.Abs(ext); err == nil {
			ext = abs
		}
	}
	var packed string
	if o.PackedExtension {
		raw, err := packedExtension()
		if err != nil {
			return nil, err
		}
		packed = base64.StdEncoding.EncodeToString(raw)
	}
	// The id follows the manifest's key, the same in every build and in the package: a folder
	// that exists only on the node is read from this machine's build instead.
	extID, err := extensionIDFromManifest(ext)
	if err != nil && o.ExtensionDir != "" {
		extID, err = defaultExtensionID()
	}
	if err != nil {
		return nil, err
	}
	headers := http.Header{}
	for k, v := range o.Headers {
		headers.Set(k, v)
	}
	// Not the switches only for a Chromium Deckhand starts itself (src/protocol/launch.ts).
	args := append([]string{}, sharedChromiumFlags...)
	chromeOptions := map[string]any{}
	if packed == "" {
		args = append(args, "--disable-extensions-except="+ext, "--load-extension="+ext)
	} else {
		// chromedriver unpacks a packed extension into a folder of its choosing and loads it itself.
		chromeOptions["extensions"] = []string{packed}
	}
	args = append(args, fmt.Sprintf("--window-size=%d,%d", w, h))
	if !o.Headful {
		args = append(args, "--headless=new")
	}
	chromeOptions["args"] = append(args, o.Args...)
	if o.Binary != "" {
		chromeOptions["binary"] = o.Binary
	}
	match := maps.Clone(o.Capabilities)
	if match == nil {
		match = map[string]any{}
	}
	match["browserName"], match["goog:chromeOptions"] = cmp.Or(match["browserName"], any("chrome")), chromeOptions
	body, err := marshalJS(map[string]any{"capabilities": map[string]any{"alwaysMatch": match}})
	if err != nil {
		return nil, newError(CodeInvalidArgument, "the capabilities cannot be sent as JSON: %v", err)
	}

	deadline := time.Now().Add(timeout)
	pctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	req, _ := http.NewRequestWithContext(pctx, http.MethodPost, base+"/session", bytes.NewReader(body))
	req.Header = headers.Clone()
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	gaveNone := func() error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &Error{Code: CodeTimeout,
			Message: fmt.Sprintf("the Selenium Grid at %s gave no browser within %d ms (its queue may be full, or no node matches)", base, timeout.Milliseconds()),
			Data:    map[string]any{"timeoutMs": float64(timeout.Milliseconds())}}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		if pctx.Err() != nil {
			return nil, gaveNone()
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL net/http repeats
		}
		return nil, newError(CodeBrowserUnavailable, "the Selenium Grid at %s could not be reached: %v", base, err)
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		msg := gridSays(res)
		if pctx.Err() != nil {
			return nil, gaveNone()
		}
		return nil, &Error{Code: CodeBrowserUnavailable, Message: fmt.Sprintf("the Selenium Grid at %s gave no browser: %s", base, msg),
			Data: map[string]any{"status": float64(res.StatusCode)}}
	}
	var created struct {
		Value struct {
			SessionID    string         `json:"sessionId"`
			Capabilities map[string]any `json:"capabilities"`
		} `json:"value"`
	}
	raw, readErr := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if readErr != nil && pctx.Err() != nil {
		return nil, gaveNone()
	}
	_ = json.Unmarshal(raw, &created)
	id := created.Value.SessionID
	if !gridSessionID.MatchString(id) {
		return nil, newError(CodeBrowserUnavailable, "the Selenium Grid at %s answered a new session without a session id", base)
	}
	g := &gridSession{base: base, id: id, headers: headers}
	g.ctx, g.cancel = context.WithCancel(context.Background())
	cdpURL, _ := created.Value.Capabilities["se:cdp"].(string)
	if !strings.HasPrefix(cdpURL, "ws://") && !strings.HasPrefix(cdpURL, "wss://") {
		g.end()
		return nil, newError(CodeBrowserUnavailable,
			"the Selenium Grid at %s gave a session with no se:cdp address: its node's browser is not Chromium, or the Grid does not proxy CDP", base)
	}
	wait := min(max(time.Until(deadline), time.Millisecond), 30*time.Second)
	b, err := dialBrowser(ctx, cdpURL, headers, extID, wait, wait)
	if err != nil {
		g.end()
		if e := asError(err); e.Code == CodeExtensionMissing && packed == "" {
			e.Message += fmt.Sprintf(" (the Grid's node was asked to load it from %s: that folder must exist on the node, with the extension built)", ext)
		}
		return nil, err
	}
	b.release = g.end
	// The connection dropping (the proxy closed it, the node went away) also ends the session.
	b.conn.whenClosed(func() { go g.end() })
	g.watch(b, keepAlive)
	return b, nil
}
