package deckhand

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// extensionIDFromManifest is the id Chromium gives the extension in dir: derived from its
// manifest's key, so it is the same wherever the folder is.
func extensionIDFromManifest(dir string) (string, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return "", newError(CodeExtensionMissing, "the extension is not built (no %s/manifest.json); run npm run build:ext in the repository", dir)
	}
	return extensionIDFromManifestJSON(raw, dir+"/manifest.json")
}

// extensionIDFromManifestJSON is the id for a manifest's key: the first 128 bits of the
// SHA-256 of the key (a DER public key), written with the letters a to p.
func extensionIDFromManifestJSON(raw []byte, where string) (string, error) {
	var m struct {
		Key string `json:"key"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Key == "" {
		return "", newError(CodeExtensionMissing, "%s has no key", where)
	}
	der, err := base64.StdEncoding.DecodeString(m.Key)
	if err != nil {
		return "", newError(CodeExtensionMissing, "%s has a bad key: %v", where, err)
	}
	sum := sha256.Sum256(der)
	id := []byte(hex.EncodeToString(sum[:16]))
	for i, c := range id {
		id[i] = 'a' + byte(strings.IndexByte("0123456789abcdef", c))
	}
	return string(id), nil
}

type linkState int

const (
	stateDetached linkState = iota
	stateUp
	stateStopped
	stateClosed
)

// extensionLink is the client end of the RPC over CDP (src/client/extension-link.ts): it
// attaches to the extension's service worker, adds a private binding for the worker's messages
// and delivers this client's with Runtime.evaluate of globalThis.__deckhand.receive. When
// Chromium stops the worker, calls in flight fail with WORKER_GONE and the next call starts it.
type extensionLink struct {
	conn        *cdpConn
	extensionID string
	tag         string
	peer        *rpcPeer

	restarting sync.Mutex // one restart at a time
	mu         sync.Mutex
	sessionID  string
	state      linkState

	// bridge, when set, carries the calls instead of CDP (conn is nil): the browser came from
	// AttachLocalBrowser and talks to the worker over the WebSocket bridge.
	bridge *bridgeLink
}

func openLink(ctx context.Context, conn *cdpConn, extensionID string, timeout time.Duration) (*extensionLink, error) {
	tag := make([]byte, 12)
	rand.Read(tag)
	l := &extensionLink{conn: conn, extensionID: extensionID, tag: hex.EncodeToString(tag)}
	l.peer = newRPCPeer(l.deliver, "extension's service worker")
	conn.listen(l.onEvent)
	conn.whenClosed(func() {
		l.setState(stateClosed)
		l.peer.failAll(newError(CodeBrowserClosed, "the browser closed"), true)
	})
	if err := conn.send(ctx, "Target.setDiscoverTargets", map[string]any{"discover": true}, "", nil); err != nil {
		return nil, err
	}
	if err := l.connect(ctx, timeout, true); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *extensionLink) binding() string { return "__dh_" + l.tag }
func (l *extensionLink) prefix() string  { return "chrome-extension://" + l.extensionID + "/" }

func (l *extensionLink) setState(s linkState) {
	l.mu.Lock()
	if l.state != stateClosed {
		l.state = s
	}
	l.mu.Unlock()
}

type targetInfo struct {
	TargetID string `json:"targetId"`
	Type     string `json:"type"`
	URL      string `json:"url"`
}

// target is the first target of this type (and URL prefix), or "".
func (l *extensionLink) target(ctx context.Context, typ, prefix string) (string, error) {
	var r struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}
	if err := l.conn.send(ctx, "Target.getTargets", nil, "", &r); err != nil {
		return "", err
	}
	for _, t := range r.TargetInfos {
		if t.Type == typ && strings.HasPrefix(t.URL, prefix) {
			return t.TargetID, nil
		}
	}
	return "", nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *extensionLink) connect(ctx context.Context, timeout time.Duration, firstTime bool) error {
	deadline := time.Now().Add(timeout)
	started := false
	for {
		target, err := l.target(ctx, "service_worker", l.prefix())
		if err != nil || target != "" {
			if err != nil {
				return err
			}
			var a struct {
				SessionID string `json:"sessionId"`
			}
			if err := l.conn.send(ctx, "Target.attachToTarget", map[string]any{"targetId": target, "flatten": true}, "", &a); err != nil {
				return err
			}
			l.mu.Lock()
			l.sessionID = a.SessionID
			l.mu.Unlock()
			return l.afterAttach(ctx, a.SessionID, max(time.Until(deadline), time.Second))
		}
		if !time.Now().Before(deadline) {
			break
		}
		// A worker that is not there at first is given half the time to show up by itself.
		if !started && (!firstTime || time.Until(deadline) < timeout/2) {
			_ = l.startWorker(ctx)
			started = true
		}
		if err := sleepCtx(ctx, 25*time.Millisecond); err != nil {
			return err
		}
	}
	if firstTime {
		return newError(CodeExtensionMissing, "the browser has no Deckhand extension (no service worker at %s); "+
			"launch it with LaunchLocalBrowser or load the extension the repository builds", l.prefix())
	}
	return newError(CodeWorkerGone, "the extension's service worker did not come back within %d ms", timeout.Milliseconds())
}

func (l *extensionLink) afterAttach(ctx context.Context, sid string, timeout time.Duration) error {
	if err := l.conn.send(ctx, "Runtime.addBinding", map[string]any{"name": l.binding()}, sid, nil); err != nil {
		return err
	}
	for deadline := time.Now().Add(timeout); ; {
		var r struct {
			Result struct {
				Value any `json:"value"`
			} `json:"result"`
		}
		ready := map[string]any{"expression": "globalThis.__deckhand?.ready === true", "returnByValue": true}
		if err := l.conn.send(ctx, "Runtime.evaluate", ready, sid, &r); err != nil {
			return err
		}
		if r.Result.Value == true {
			l.setState(stateUp)
			return nil
		}
		if time.Now().After(deadline) {
			return newError(CodeExtensionMissing, "the extension's worker did not start its engine within %d ms", timeout.Milliseconds())
		}
		if err := sleepCtx(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
}

// startWorker wakes a stopped worker through the ServiceWorker domain of a page.
func (l *extensionLink) startWorker(ctx context.Context) error {
	pageID, err := l.target(ctx, "page", "")
	if err != nil {
		return err
	}
	created := ""
	if pageID == "" {
		var c struct {
			TargetID string `json:"targetId"`
		}
		if err := l.conn.send(ctx, "Target.createTarget", map[string]any{"url": "about:blank", "background": true}, "", &c); err != nil {
			return err
		}
		pageID, created = c.TargetID, c.TargetID
	}
	var a struct {
		SessionID string `json:"sessionId"`
	}
	if err := l.conn.send(ctx, "Target.attachToTarget", map[string]any{"targetId": pageID, "flatten": true}, "", &a); err != nil {
		return err
	}
	defer func() {
		bg := context.Background()
		_ = l.conn.send(bg, "Target.detachFromTarget", map[string]any{"sessionId": a.SessionID}, "", nil)
		if created != "" {
			_ = l.conn.send(bg, "Target.closeTarget", map[string]any{"targetId": created}, "", nil)
		}
	}()
	if err := l.conn.send(ctx, "ServiceWorker.enable", nil, a.SessionID, nil); err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		err = l.conn.send(ctx, "ServiceWorker.startWorker", map[string]any{"scopeURL": l.prefix()}, a.SessionID, nil)
		if err == nil || attempt == 39 {
			return err
		}
		if e := sleepCtx(ctx, 50*time.Millisecond); e != nil {
			return e
		}
	}
}

func (l *extensionLink) onEvent(ev cdpEvent) {
	l.mu.Lock()
	sid := l.sessionID
	l.mu.Unlock()
	if sid == "" {
		return
	}
	var p struct {
		Name      string `json:"name"`
		Payload   string `json:"payload"`
		SessionID string `json:"sessionId"`
	}
	_ = json.Unmarshal(ev.Params, &p)
	switch {
	case ev.Method == "Runtime.bindingCalled" && ev.SessionID == sid && p.Name == l.binding():
		l.peer.receive([]byte(p.Payload))
	case ev.Method == "Inspector.targetCrashed" && ev.SessionID == sid:
		l.down(stateStopped)
	case ev.Method == "Target.detachedFromTarget" && p.SessionID == sid:
		l.mu.Lock()
		l.sessionID = ""
		l.mu.Unlock()
		l.down(stateDetached)
	}
}

func (l *extensionLink) down(s linkState) {
	l.setState(s)
	l.peer.failAll(newError(CodeWorkerGone, "the extension's service worker stopped before answering; the next call starts it again"), false)
}

// ensureUp starts the worker again when Chromium stopped it (a crashed one is detached from
// first). Callers wait for each other's restart: the first one's ctx ending stops it, and the
// next caller tries again.
func (l *extensionLink) ensureUp(ctx context.Context) error {
	l.restarting.Lock()
	defer l.restarting.Unlock()
	l.mu.Lock()
	state, sid := l.state, l.sessionID
	l.mu.Unlock()
	switch state {
	case stateUp:
		return nil
	case stateClosed:
		if why := l.peer.closedWith(); why != nil {
			return why
		}
		return newError(CodeClosed, "this connection is closed")
	case stateStopped:
		_ = l.conn.send(ctx, "Target.detachFromTarget", map[string]any{"sessionId": sid}, "", nil)
		l.mu.Lock()
		l.sessionID = ""
		l.mu.Unlock()
	}
	return l.connect(ctx, 10*time.Second, false)
}

func jsString(s string) string {
	b, _ := marshalJS(s)
	return string(b)
}

func (l *extensionLink) deliver(raw []byte, id int64) error {
	l.mu.Lock()
	sid, state := l.sessionID, l.state
	l.mu.Unlock()
	if sid == "" || state != stateUp {
		return newError(CodeWorkerGone, "the extension's service worker is not running")
	}
	expr := "globalThis.__deckhand.receive(" + jsString(string(raw)) + ", " + jsString(l.tag) + ")"
	_, ch := l.conn.start("Runtime.evaluate", map[string]any{"expression": expr}, sid)
	go func() {
		r := <-ch
		if id == 0 {
			return
		}
		var ev struct {
			ExceptionDetails *struct {
				Text string `json:"text"`
			} `json:"exceptionDetails"`
		}
		if r.err != nil {
			l.peer.fail(id, asError(r.err))
		} else if json.Unmarshal(r.result, &ev) == nil && ev.ExceptionDetails != nil {
			l.peer.fail(id, newError(CodeWorkerGone, "the worker could not take the call: %s", ev.ExceptionDetails.Text))
		}
	}()
	return nil
}

// call runs one method in the worker; its ack says how long the answer may take.
func (l *extensionLink) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if l.bridge != nil {
		return l.bridge.call(ctx, method, params)
	}
	if err := l.ensureUp(ctx); err != nil {
		return nil, err
	}
	return l.peer.request(ctx, method, params)
}

func (l *extensionLink) connected() bool {
	if l.bridge != nil {
		return l.bridge.connected()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state != stateClosed && !l.conn.isClosed()
}

func (l *extensionLink) close(reason *Error) {
	l.mu.Lock()
	if l.state == stateClosed {
		l.mu.Unlock()
		return
	}
	l.state = stateClosed
	sid := l.sessionID
	l.sessionID = ""
	l.mu.Unlock()
	l.peer.failAll(reason, true)
	if l.bridge != nil {
		l.bridge.close(reason)
	} else if sid != "" && !l.conn.isClosed() {
		ctx, wait := context.Background(), 2*time.Second
		_ = l.conn.sendTimeout(ctx, "Runtime.evaluate", map[string]any{"expression": "globalThis.__deckhand?.release(" + jsString(l.tag) + ")"}, sid, nil, wait)
		_ = l.conn.sendTimeout(ctx, "Runtime.removeBinding", map[string]any{"name": l.binding()}, sid, nil, wait)
		_ = l.conn.sendTimeout(ctx, "Target.detachFromTarget", map[string]any{"sessionId": sid}, "", nil, wait)
	}
	// The worker's calls still running (a Generate callback) saw their context cancelled;
	// wait a little for them, not forever (a callback may ignore its context).
	done := make(chan struct{})
	go func() {
		l.peer.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
}
