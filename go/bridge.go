package deckhand

// The WebSocket bridge (src/client/bridge.ts in Go): a server on 127.0.0.1 the extension's
// worker dials once a person enters the pairing token in the side panel. Three walls keep
// everyone else out: loopback only; the extension's own Origin (pages cannot forge it); the
// one-time token in the first frame (then the secret issued with it). A local process can
// forge the Origin, so refused guesses slow the next ones down (a backoff on any connection).
// Frames, close codes and messages are the Node client's.

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

const (
	bridgeHelloTimeout = 5 * time.Second // for a fresh socket to say hello
	bridgeCloseGrace   = time.Second     // for the goodbye to be acknowledged
	bridgeMaxPayload   = 256 << 20       // results such as full-page screenshots are large
	bridgeWriteWait    = time.Minute     // one frame's write: a worker that stops reading cannot hang a call
	// After n refused pairing attempts in a row the next is judged 100 ms x 2^(n-1) after the
	// last, at most 5 s: a token guesser gets one guess per 5 s, a person who mistyped barely waits.
	// A hello whose turn is more than pairingHoldMax off (below the worker's 5 s wait for
	// welcome) is closed with bridgeTryLater at once.
	pairingBackoffFirst = 100 * time.Millisecond
	pairingBackoffMax   = 5 * time.Second
	pairingHoldMax      = 4 * time.Second

	bridgeRefused      websocket.StatusCode = 4001 // wrong or spent token, unknown secret
	bridgeTryLater     websocket.StatusCode = 1013 // a pairing attempt not judged at all
	bridgeByeFromPanel                      = "disconnected from the side panel"
)

func pairingBackoff(refusals int) time.Duration {
	return min(pairingBackoffFirst<<min(max(refusals-1, 0), 6), pairingBackoffMax)
}

// bridgeHost is the address to listen on: loopback only (so only this machine connects), and
// the one the extension dials.
func bridgeHost(host string) (string, error) {
	if host != "" && host != "127.0.0.1" && !strings.EqualFold(host, "localhost") {
		return "", newError(CodeInvalidArgument, "AttachOptions.Host must be a loopback address, and the extension dials 127.0.0.1 only: "+
			"leave it empty, or use 127.0.0.1 or localhost; got %q (the bridge never listens on a network interface)", host)
	}
	return "127.0.0.1", nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// refuseUpgrade says why an upgrade request is refused, or "" to accept it.
func refuseUpgrade(origin, host, extensionID string, port int) string {
	if origin != "chrome-extension://"+extensionID {
		return fmt.Sprintf("Origin %s is refused: only the Deckhand extension may connect", orNone(origin))
	}
	// A page that rebinds its own host name to 127.0.0.1 would also show up here with a foreign Host.
	if h := strings.ToLower(host); h != fmt.Sprintf("127.0.0.1:%d", port) && h != fmt.Sprintf("localhost:%d", port) {
		return fmt.Sprintf("Host %s is refused", orNone(host))
	}
	return ""
}

// newPairingToken is a one-time pairing token a person can read and type: four groups of four
// lower-case letters and digits (about 82 bits), URL-safe.
func newPairingToken() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := []byte("xxxx-xxxx-xxxx-xxxx")
	for i := range b {
		if b[i] != '-' {
			n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
			b[i] = alphabet[n.Int64()]
		}
	}
	return string(b)
}

// sameSecret compares secrets in constant time (hashing first makes the lengths equal).
func sameSecret(a, b string) bool {
	ha, hb := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return subtle.ConstantTimeCompare(ha[:], hb[:]) == 1
}

// readBridgeMessage reads one bridge message: a control frame (its kind and fields), an RPC
// message (rpc true), or nothing usable (ok false: dropped).
func readBridgeMessage(data []byte) (frame map[string]string, rpc bool, ok bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, json.Valid(data), json.Valid(data) // not an object: not a control frame
	}
	// A kind that is not a string (or none) is not a control frame: the RPC reads it.
	var kind string
	_ = json.Unmarshal(m["kind"], &kind)
	fields, control := bridgeFrameFields[kind]
	if !control {
		return nil, true, true
	}
	frame = map[string]string{}
	for k, raw := range m {
		var s string
		if _, known := fields[k]; k != "kind" && (!known || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) || json.Unmarshal(raw, &s) != nil) {
			return nil, false, false
		}
		frame[k] = s
	}
	frame["kind"] = kind
	for k, required := range fields {
		if _, has := frame[k]; required && !has {
			return nil, false, false
		}
	}
	return frame, false, true
}

type bridgeState int

const (
	bridgePairing bridgeState = iota
	bridgeUp
	bridgeDown
	bridgeClosed
)

type bridgeOptions struct {
	host, token, extensionID, clientName string
	reconnectTimeout                     time.Duration
}

// bridgeLink is the worker link over the bridge: extensionLink forwards its calls here when the
// browser came from AttachLocalBrowser.
type bridgeLink struct {
	opts bridgeOptions
	ln   net.Listener
	srv  *http.Server
	port int
	peer *rpcPeer

	mu         sync.Mutex
	state      bridgeState
	socket     *websocket.Conn // the paired worker's socket, while it is connected
	secret     string
	tokenSpent bool
	closedErr  *Error
	changed    chan struct{} // closed (and replaced) on every change of state
	refusals   int           // pairing attempts refused since the last pairing, on any connection
	heldHellos int           // hellos held for their turn, not yet judged
	nextTurnAt time.Time     // when the next hello may be judged
	conns      map[*websocket.Conn]struct{}
	ending     chan struct{} // closed when shutdown begins
	closeOnce  sync.Once
	closed     chan struct{} // closed once shutdown has finished
}

// listenBridge starts listening. UNAVAILABLE when the port is taken.
func listenBridge(opts bridgeOptions, port int) (*bridgeLink, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(opts.host, fmt.Sprint(port)))
	if err != nil {
		why := err.Error()
		if errors.Is(err, syscall.EADDRINUSE) || strings.Contains(why, "address already in use") || strings.Contains(why, "Only one usage") {
			why = "the port is in use"
		}
		return nil, newError(CodeUnavailable, "cannot listen on %s:%d: %s", opts.host, port, why)
	}
	l := &bridgeLink{opts: opts, ln: ln, port: ln.Addr().(*net.TCPAddr).Port, changed: make(chan struct{}),
		conns: map[*websocket.Conn]struct{}{}, ending: make(chan struct{}), closed: make(chan struct{})}
	l.peer = newRPCPeer(l.send, "extension's service worker (over the bridge)")
	l.srv = &http.Server{Handler: http.HandlerFunc(l.serveHTTP), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

// setState changes the state and wakes everyone waiting for a change (l.mu held).
func (l *bridgeLink) setState(s bridgeState) {
	l.state = s
	close(l.changed)
	l.changed = make(chan struct{})
}

func plainAnswer(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Connection", "close")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

func (l *bridgeLink) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		plainAnswer(w, http.StatusUpgradeRequired, "Deckhand bridge: WebSocket connections from the Deckhand extension only\n")
		return
	}
	refusal := "this client is closed"
	if !l.isClosed() {
		refusal = refuseUpgrade(r.Header.Get("Origin"), r.Host, l.opts.extensionID, l.port)
	}
	if refusal != "" {
		plainAnswer(w, http.StatusForbidden, refusal+"\n")
		return
	}
	// The Origin was checked above (the extension's, not the Host's), so Accept's own check is off.
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true, CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return
	}
	ws.SetReadLimit(bridgeMaxPayload)
	l.mu.Lock()
	if l.state == bridgeClosed {
		l.mu.Unlock()
		ws.CloseNow()
		return
	}
	l.conns[ws] = struct{}{}
	l.mu.Unlock()
	l.onConnection(ws)
}

func (l *bridgeLink) isClosed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state == bridgeClosed
}

func (l *bridgeLink) isSocket(ws *websocket.Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.socket == ws
}

// onConnection reads one socket until it closes (it runs in the server's handler goroutine). Its
// first frame is judged on another goroutine, so the reader goes on answering the socket.
func (l *bridgeLink) onConnection(ws *websocket.Conn) {
	const (
		stageHello = iota
		stageJudging
		stagePaired
	)
	var stage atomic.Int32
	helloTimer := time.AfterFunc(bridgeHelloTimeout, func() {
		go ws.Close(websocket.StatusPolicyViolation, fmt.Sprintf("no hello within %d ms", bridgeHelloTimeout.Milliseconds()))
	})
	defer func() {
		helloTimer.Stop()
		l.mu.Lock()
		delete(l.conns, ws)
		l.mu.Unlock()
		if l.isSocket(ws) {
			l.onDrop(ws)
		}
	}()
	for {
		typ, data, err := ws.Read(context.Background())
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			continue
		}
		switch {
		case stage.Load() == stagePaired:
			if l.isSocket(ws) {
				l.route(ws, data)
			}
		case stage.CompareAndSwap(stageHello, stageJudging): // one hello per connection; nothing else before welcome
			helloTimer.Stop()
			l.inTurn(ws, func() {
				frame, _, _ := readBridgeMessage(data)
				l.mu.Lock()
				if refusal := l.admit(frame); refusal != "" {
					if l.state != bridgeClosed {
						l.refusals++
					}
					l.mu.Unlock()
					go ws.Close(bridgeRefused, strings.ToValidUTF8(refusal[:min(len(refusal), 123)], ""))
					return
				}
				l.refusals, l.nextTurnAt = 0, time.Now()
				stage.Store(stagePaired)
				l.install(ws) // unlocks l.mu
			})
		}
	}
}

// inTurn runs judge on this hello's turn: at once when no attempt was refused lately, else one
// backoff after the turn before it. Each turn is booked as if it will be refused too, so hellos
// sent together are judged one backoff apart; a turn more than pairingHoldMax away is not booked
// (bridgeTryLater), which bounds every wait.
func (l *bridgeLink) inTurn(ws *websocket.Conn, judge func()) {
	l.mu.Lock()
	now, at := time.Now(), l.nextTurnAt
	if at.Before(now) {
		at = now
	}
	if wait := at.Sub(now); wait > pairingHoldMax {
		l.mu.Unlock()
		go ws.Close(bridgeTryLater, fmt.Sprintf("too many refused pairing attempts; try again in %d s", (wait+time.Second-1)/time.Second))
		return
	}
	l.heldHellos++
	l.nextTurnAt = at.Add(pairingBackoff(l.refusals + l.heldHellos))
	l.mu.Unlock()
	go func() {
		t := time.NewTimer(at.Sub(now))
		defer t.Stop()
		select {
		case <-t.C:
		case <-l.ending:
			return
		}
		l.mu.Lock()
		l.heldHellos--
		// A hello whose socket went away while held is not judged: it guessed nothing.
		_, open := l.conns[ws]
		l.mu.Unlock()
		if open {
			judge()
		}
	}()
}

// admit checks the first frame (l.mu held): why it is refused, or "" (and the secret is set).
func (l *bridgeLink) admit(f map[string]string) string {
	token, hasToken := f["token"]
	secret, hasSecret := f["secret"]
	switch {
	case l.state == bridgeClosed:
		return "this client is closed"
	case f["kind"] != "hello":
		return "the first frame must be hello"
	case f["extensionId"] != l.opts.extensionID:
		return fmt.Sprintf("extension %s is not the Deckhand extension", f["extensionId"])
	case hasToken:
		// The token is spent by the first pairing; only the secret issued then gets back in.
		if l.tokenSpent || !sameSecret(strings.TrimSpace(token), l.opts.token) {
			return "the pairing token is wrong or already used"
		}
		l.tokenSpent = true
		b := make([]byte, 32)
		rand.Read(b)
		l.secret = base64.RawURLEncoding.EncodeToString(b)
		return ""
	case hasSecret:
		if l.secret == "" || !sameSecret(secret, l.secret) {
			return "unknown pairing; pair again with a new token"
		}
		return ""
	}
	return "hello carries neither a token nor a secret"
}

// install makes ws the paired socket and says welcome (called with l.mu held; unlocks it).
func (l *bridgeLink) install(ws *websocket.Conn) {
	old := l.socket
	// The socket is the worker's from now on (what it sends after welcome is routed), but calls
	// wait for the state to be up, which comes after the welcome is written.
	l.socket = ws
	secret := l.secret
	l.mu.Unlock()
	if old != nil && old != ws {
		// The worker restarted before its old socket reported closing: calls sent to the old one are lost.
		go old.CloseNow()
		l.peer.failAll(newError(CodeWorkerGone, "the extension's service worker restarted before answering; the next call goes to the new one"), false)
	}
	welcome, _ := marshalJS(map[string]string{"kind": "welcome", "secret": secret, "client": l.opts.clientName})
	if err := l.write(ws, welcome); err != nil {
		return // the reader sees the socket go and reports the drop
	}
	l.mu.Lock()
	if l.state != bridgeClosed && l.socket == ws {
		l.setState(bridgeUp)
	}
	l.mu.Unlock()
}

func (l *bridgeLink) write(ws *websocket.Conn, raw []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), bridgeWriteWait)
	defer cancel()
	return ws.Write(ctx, websocket.MessageText, raw)
}

func (l *bridgeLink) route(ws *websocket.Conn, data []byte) {
	frame, rpc, ok := readBridgeMessage(data)
	switch {
	case !ok:
	case rpc:
		l.peer.receive(data)
	case frame["kind"] == "ping":
		_ = l.write(ws, []byte(`{"kind":"pong"}`))
	case frame["kind"] == "bye":
		msg := "the person disconnected this client in the Deckhand side panel"
		if frame["reason"] != bridgeByeFromPanel {
			msg += " (" + frame["reason"] + ")"
		}
		go l.shutdown(&Error{Code: CodeBrowserClosed, Message: msg, Data: map[string]any{"reason": frame["reason"]}}, "")
	}
}

func (l *bridgeLink) onDrop(ws *websocket.Conn) {
	l.mu.Lock()
	if l.socket == ws {
		l.socket = nil
	}
	if l.state == bridgeClosed {
		l.mu.Unlock()
		return
	}
	l.setState(bridgeDown)
	l.mu.Unlock()
	l.peer.failAll(newError(CodeWorkerGone,
		"the extension's service worker disconnected from the bridge before answering; the next call waits for it to reconnect"), false)
}

// errNotSent is a call that never reached a worker: the socket went before it was written.
var errNotSent = newError(CodeWorkerGone, "the extension's service worker is not connected to the bridge")

func (l *bridgeLink) send(raw []byte, _ int64) error {
	l.mu.Lock()
	ws, why := l.socket, l.closedErr
	l.mu.Unlock()
	if ws == nil && why != nil {
		return why
	}
	if ws == nil || l.write(ws, raw) != nil {
		return errNotSent
	}
	return nil
}

// waitUp waits until a worker is paired (or paired again), with a deadline.
func (l *bridgeLink) waitUp(ctx context.Context, timeout time.Duration, onTimeout func() *Error) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		l.mu.Lock()
		state, changed, why := l.state, l.changed, l.closedErr
		l.mu.Unlock()
		switch state {
		case bridgeUp:
			return nil
		case bridgeClosed:
			return why
		}
		select {
		case <-changed:
		case <-timer.C:
			return onTimeout()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// paired returns once the extension has paired with the token; TIMEOUT after timeout.
func (l *bridgeLink) paired(ctx context.Context, timeout time.Duration) error {
	return l.waitUp(ctx, timeout, func() *Error {
		return &Error{Code: CodeTimeout,
			Message: fmt.Sprintf(`waited %d ms for the Deckhand extension to pair on port %d; `+
				`open the Deckhand side panel, choose "Connect to a local client" and enter the port and token`, timeout.Milliseconds(), l.port),
			Data: map[string]any{"port": float64(l.port), "timeoutMs": float64(timeout.Milliseconds())}}
	})
}

func (l *bridgeLink) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	wait := l.opts.reconnectTimeout
	for {
		err := l.waitUp(ctx, wait, func() *Error {
			return &Error{Code: CodeWorkerGone,
				Message: fmt.Sprintf("'%s' waited %d ms for the extension's service worker to reconnect to the bridge on %s:%d, and it did not",
					method, wait.Milliseconds(), l.opts.host, l.port),
				Data: map[string]any{"method": method, "timeoutMs": float64(wait.Milliseconds())}}
		})
		if err != nil {
			return nil, err
		}
		raw, err := l.peer.request(ctx, method, params)
		if err != errNotSent {
			return raw, err
		}
		// The socket went between the wait and the write: wait for the worker again, once its
		// reader has seen it go.
		if err := sleepCtx(ctx, 10*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

// connected: a worker restarting is expected back (its pairing is stored), so the link stays
// connected until bye or close.
func (l *bridgeLink) connected() bool { return !l.isClosed() }

// close says goodbye to the worker (it forgets the pairing) and stops listening. Safe to call twice.
func (l *bridgeLink) close(reason *Error) { l.shutdown(reason, "the program closed it") }

// shutdown ends the link with err; a non-empty bye is said to the paired worker first.
func (l *bridgeLink) shutdown(err *Error, bye string) {
	first := false
	l.closeOnce.Do(func() { first = true })
	if !first {
		<-l.closed
		return
	}
	defer close(l.closed)
	l.mu.Lock()
	l.closedErr = err
	l.setState(bridgeClosed)
	close(l.ending)
	ws := l.socket
	l.socket = nil
	conns := make([]*websocket.Conn, 0, len(l.conns))
	for c := range l.conns {
		conns = append(conns, c)
	}
	l.mu.Unlock()
	l.peer.failAll(err, true)
	if ws != nil && bye != "" {
		b, _ := marshalJS(map[string]string{"kind": "bye", "reason": bye})
		_ = l.write(ws, b)
	}
	// Stop accepting, then close every socket with a handshake (the paired one after its
	// goodbye, and any still saying hello), each cut off after bridgeCloseGrace: past it the
	// handshake is left to finish (or time out) on its own.
	_ = l.ln.Close()
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		done := make(chan struct{})
		go func() {
			_ = c.Close(websocket.StatusNormalClosure, "bye")
			close(done)
		}()
		go func() {
			defer wg.Done()
			select {
			case <-done:
			case <-time.After(bridgeCloseGrace):
			}
		}()
	}
	wg.Wait()
	_ = l.srv.Close()
}
