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
	h := hex.EncodeToString(sum[:])[:32]
	var b strings.Builder
	for _, c := range h {
		v := strings.IndexRune("0123456789abcdef", c)
		b.WriteByte(byte('a' + v))
	}
	return b.String(), nil
}

// restartOp is one restart of the worker: done closes when it ends, with err.
type restartOp struct {
	done chan struct{}
	err  error
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
	binding     string
	peer        *rpcPeer

	mu        sync.Mutex
	sessionID string
	state     linkState
	restart   *restartOp // the restart in progress
	unlisten  func()

	// bridge, when set, carries the calls instead of CDP (conn is nil): the browser came from
	// AttachLocalBrowser and talks to the worker over the WebSocket bridge.
	bridge *bridgeLink
}

func newTag() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func openLink(ctx context.Context, conn *cdpConn, extensionID string, timeout time.Duration) (*extensionLink, error) {
	l := &extensionLink{conn: conn, extensionID: extensionID, tag: newTag()}
	l.binding = "__dh_" + l.tag
	l.peer = newRPCPeer(l.deliver, "extension's service worker")
	// The worker asks a client with calls running whether it is still there.
	l.peer.handle("ping", func(context.Context, json.RawMessage) (any, error) { return nil, nil })
	l.unlisten = conn.addListener(l.onEvent)
	conn.whenClosed(func() {
		l.mu.Lock()
		l.state = stateClosed
		l.mu.Unlock()
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

func (l *extensionLink) prefix() string { return "chrome-extension://" + l.extensionID + "/" }

type targetInfo struct {
	TargetID string `json:"targetId"`
	Type     string `json:"type"`
	URL      string `json:"url"`
}

func (l *extensionLink) findWorker(ctx context.Context) (*targetInfo, error) {
	var r struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}
	if err := l.conn.send(ctx, "Target.getTargets", nil, "", &r); err != nil {
		return nil, err
	}
	for _, t := range r.TargetInfos {
		if t.Type == "service_worker" && strings.HasPrefix(t.URL, l.prefix()) {
			t := t
			return &t, nil
		}
	}
	return nil, nil
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
	target, err := l.findWorker(ctx)
	if err != nil {
		return err
	}
	started := false
	for target == nil && time.Now().Before(deadline) {
		if !started && (!firstTime || time.Until(deadline) < timeout/2) {
			_ = l.startWorker(ctx)
			started = true
		}
		if err := sleepCtx(ctx, 25*time.Millisecond); err != nil {
			return err
		}
		if target, err = l.findWorker(ctx); err != nil {
			return err
		}
	}
	if target == nil {
		if firstTime {
			return newError(CodeExtensionMissing, "the browser has no Deckhand extension (no service worker at %s); launch it with LaunchLocalBrowser or load the extension the repository builds", l.prefix())
		}
		return newError(CodeWorkerGone, "the extension's service worker did not come back within %d ms", timeout.Milliseconds())
	}
	var a struct {
		SessionID string `json:"sessionId"`
	}
	if err := l.conn.send(ctx, "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, "", &a); err != nil {
		return err
	}
	l.mu.Lock()
	l.sessionID = a.SessionID
	l.mu.Unlock()
	rest := time.Until(deadline)
	if rest < time.Second {
		rest = time.Second
	}
	return l.afterAttach(ctx, a.SessionID, rest)
}

func (l *extensionLink) afterAttach(ctx context.Context, sid string, timeout time.Duration) error {
	if err := l.conn.send(ctx, "Runtime.addBinding", map[string]any{"name": l.binding}, sid, nil); err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	for {
		var r struct {
			Result struct {
				Value any `json:"value"`
			} `json:"result"`
		}
		if err := l.conn.send(ctx, "Runtime.evaluate", map[string]any{"expression": "globalThis.__deckhand?.ready === true", "returnByValue": true}, sid, &r); err != nil {
			return err
		}
		if r.Result.Value == true {
			break
		}
		if time.Now().After(deadline) {
			return newError(CodeExtensionMissing, "the extension's worker did not start its engine within %d ms", timeout.Milliseconds())
		}
		if err := sleepCtx(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
	l.mu.Lock()
	if l.state != stateClosed {
		l.state = stateUp
	}
	l.mu.Unlock()
	return nil
}

// startWorker wakes a stopped worker through the ServiceWorker domain of a page.
func (l *extensionLink) startWorker(ctx context.Context) error {
	var r struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}
	if err := l.conn.send(ctx, "Target.getTargets", nil, "", &r); err != nil {
		return err
	}
	pageID, created := "", ""
	for _, t := range r.TargetInfos {
		if t.Type == "page" {
			pageID = t.TargetID
			break
		}
	}
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
	var err error
	for attempt := 0; attempt < 40; attempt++ {
		if err = l.conn.send(ctx, "ServiceWorker.startWorker", map[string]any{"scopeURL": l.prefix()}, a.SessionID, nil); err == nil {
			return nil
		}
		if e := sleepCtx(ctx, 50*time.Millisecond); e != nil {
			return e
		}
	}
	return err
}

func (l *extensionLink) onEvent(ev cdpEvent) {
	l.mu.Lock()
	sid := l.sessionID
	l.mu.Unlock()
	if ev.Method == "Runtime.bindingCalled" && ev.SessionID == sid && sid != "" {
		var p struct {
			Name    string `json:"name"`
			Payload string `json:"payload"`
		}
		if json.Unmarshal(ev.Params, &p) == nil && p.Name == l.binding {
			l.peer.receive([]byte(p.Payload))
		}
		return
	}
	if sid == "" {
		return
	}
	switch ev.Method {
	case "Inspector.targetCrashed":
		if ev.SessionID == sid {
			l.down(stateStopped)
		}
	case "Target.detachedFromTarget":
		var p struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(ev.Params, &p) == nil && p.SessionID == sid {
			l.mu.Lock()
			l.sessionID = ""
			l.mu.Unlock()
			l.down(stateDetached)
		}
	case "Inspector.targetReloadedAfterCrash":
		if ev.SessionID == sid {
			go func() { _ = l.afterAttach(context.Background(), sid, 10*time.Second) }()
		}
	}
}

func (l *extensionLink) down(s linkState) {
	l.mu.Lock()
	if l.state == stateClosed {
		l.mu.Unlock()
		return
	}
	l.state = s
	l.mu.Unlock()
	l.peer.failAll(newError(CodeWorkerGone, "the extension's service worker stopped before answering; the next call starts it again"), false)
}

func (l *extensionLink) ensureUp(ctx context.Context) error {
	l.mu.Lock()
	switch l.state {
	case stateUp:
		l.mu.Unlock()
		return nil
	case stateClosed:
		l.mu.Unlock()
		l.peer.mu.Lock()
		why := l.peer.closed
		l.peer.mu.Unlock()
		if why != nil {
			return why
		}
		return newError(CodeClosed, "this connection is closed")
	}
	op := l.restart
	if op == nil {
		// One restart at a time; every caller waiting gets its result.
		op = &restartOp{done: make(chan struct{})}
		l.restart = op
		state, sid := l.state, l.sessionID
		go func() {
			op.err = l.doRestart(state, sid)
			l.mu.Lock()
			l.restart = nil
			l.mu.Unlock()
			close(op.done)
		}()
	}
	l.mu.Unlock()
	select {
	case <-op.done:
		return op.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *extensionLink) doRestart(state linkState, sid string) error {
	ctx := context.Background()
	if state == stateStopped && sid != "" {
		_ = l.startWorker(ctx)
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			l.mu.Lock()
			s := l.state
			l.mu.Unlock()
			if s == stateUp {
				return nil
			}
			if s == stateDetached {
				return l.connect(ctx, time.Until(deadline)+time.Second, false)
			}
			time.Sleep(20 * time.Millisecond)
		}
		_ = l.conn.send(ctx, "Target.detachFromTarget", map[string]any{"sessionId": sid}, "", nil)
		l.mu.Lock()
		l.sessionID = ""
		l.mu.Unlock()
		return l.connect(ctx, 5*time.Second, false)
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
	if id == 0 {
		go func() { <-ch }()
		return nil
	}
	go func() {
		r := <-ch
		if r.err != nil {
			l.peer.fail(id, asError(r.err))
			return
		}
		var ev struct {
			ExceptionDetails *struct {
				Text string `json:"text"`
			} `json:"exceptionDetails"`
		}
		if json.Unmarshal(r.result, &ev) == nil && ev.ExceptionDetails != nil {
			l.peer.fail(id, newError(CodeWorkerGone, "the worker could not take the call: %s", ev.ExceptionDetails.Text))
		}
	}()
	return nil
}

// call runs one method in the worker: its deadline is the operation's own plus a grace.
func (l *extensionLink) call(ctx context.Context, method string, params any, opMs int64) (json.RawMessage, error) {
	if opMs <= 0 {
		opMs = navigationTimeoutMs
	}
	if opMs > maxCallMs {
		opMs = maxCallMs
	}
	if l.bridge != nil {
		return l.bridge.call(ctx, method, params, time.Duration(opMs+rpcGraceMs)*time.Millisecond)
	}
	if err := l.ensureUp(ctx); err != nil {
		return nil, err
	}
	return l.peer.request(ctx, method, params, time.Duration(opMs+rpcGraceMs)*time.Millisecond)
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
	if reason == nil {
		reason = newError(CodeClosed, "the client was closed")
	}
	l.peer.failAll(reason, true)
	l.unlisten()
	if l.bridge != nil {
		l.bridge.close(reason)
	} else if sid != "" && !l.conn.isClosed() {
		ctx := context.Background()
		_ = l.conn.sendTimeout(ctx, "Runtime.evaluate", map[string]any{"expression": "globalThis.__deckhand?.release(" + jsString(l.tag) + ")"}, sid, nil, 2*time.Second)
		_ = l.conn.sendTimeout(ctx, "Runtime.removeBinding", map[string]any{"name": l.binding}, sid, nil, 2*time.Second)
		_ = l.conn.sendTimeout(ctx, "Target.detachFromTarget", map[string]any{"sessionId": sid}, "", nil, 2*time.Second)
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
