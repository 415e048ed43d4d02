package deckhand

// The Go end of the WebSocket bridge (src/client/bridge.ts in Go): a server on 127.0.0.1 that
// the extension's worker dials out to once a person enters the pairing token in the side panel.
// No remote debugging is involved, so this drives the Chrome a person already uses.
//
// Three walls keep everyone else out: the server listens on loopback only; the upgrade must come
// from the extension's own origin (web pages can open WebSockets to localhost, but not with a
// chrome-extension:// Origin); and the first frame must carry the one-time token (spent on first
// use) or the secret issued with it. A local process can forge the Origin, so guesses at the
// token are slowed down: after a refused attempt, on any connection, the next is judged only
// after a backoff. Frames, close codes, limits and messages are the Node client's, so the worker
// cannot tell the clients apart.

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
	"syscall"
	"time"

	"github.com/coder/websocket"
)

const (
	// bridgeHelloTimeout is how long a fresh socket has to say hello.
	bridgeHelloTimeout = 5 * time.Second
	// bridgeCloseGrace is how long close waits for the goodbye to be acknowledged.
	bridgeCloseGrace = time.Second
	// bridgeMaxPayload: results such as full-page screenshots are large; CDP allows 512 MB.
	bridgeMaxPayload = 256 << 20
	// After n refused pairing attempts in a row the next is judged 100 ms x 2^(n-1) after the
	// last, at most 5 s: a token guesser gets one guess per 5 s, a person who mistyped barely waits.
	pairingBackoffFirst = 100 * time.Millisecond
	pairingBackoffMax   = 5 * time.Second
	// pairingHoldMax is the longest a hello is held for its turn; one whose turn is further off
	// is closed with bridgeTryLater at once. Below the worker's 5 s wait for welcome.
	pairingHoldMax = 4 * time.Second
	// bridgeWriteWait bounds one frame's write, so a worker that stops reading cannot hang a call.
	bridgeWriteWait = time.Minute

	// bridgeRefused is the close code of a refused pairing (wrong or spent token, unknown secret).
	bridgeRefused websocket.StatusCode = 4001
	// bridgeTryLater is the close code ("try again later") of a pairing attempt not judged at all.
	bridgeTryLater websocket.StatusCode = 1013
	// bridgeByeFromPanel is the bye reason the worker gives when the person disconnects in the panel.
	bridgeByeFromPanel = "disconnected from the side panel"
)

func pairingBackoff(refusals int) time.Duration {
	d := pairingBackoffFirst
	for i := 1; i < refusals && d < pairingBackoffMax; i++ {
		d *= 2
	}
	return min(d, pairingBackoffMax)
}

func isLoopbackAddress(a string) bool {
	ip := net.ParseIP(a)
	if ip == nil {
		return false
	}
	if v4 := ip.To4(); v4 != nil && !strings.Contains(a, ":") {
		return v4[0] == 127
	}
	if a == "::1" {
		return true
	}
	// ::ffff:127.x.y.z, an IPv4 loopback address written as IPv6.
	if strings.HasPrefix(strings.ToLower(a), "::ffff:") {
		rest := a[7:]
		return net.ParseIP(rest) != nil && strings.Contains(rest, ".") && strings.HasPrefix(rest, "127.")
	}
	return false
}

// bridgeHost is the address to listen on: loopback only, and the one the extension dials.
func bridgeHost(host string) (string, error) {
	if host == "" || host == "127.0.0.1" || strings.EqualFold(host, "localhost") {
		return "127.0.0.1", nil
	}
	if isLoopbackAddress(host) {
		return "", newError(CodeInvalidArgument, "AttachOptions.Host %q is a loopback address, but the extension dials 127.0.0.1 only; leave Host empty or use 127.0.0.1", host)
	}
	return "", newError(CodeInvalidArgument, "AttachOptions.Host must be a loopback address (127.0.0.1 or localhost), got %q: the bridge never listens on a network interface", host)
}

// refuseUpgrade says why an upgrade request is refused, or "" to accept it.
func refuseUpgrade(remoteAddress, origin, host, extensionID string, port int) string {
	if !isLoopbackAddress(remoteAddress) {
		who := remoteAddress
		if who == "" {
			who = "an unknown address"
		}
		return fmt.Sprintf("connections from %s are refused: the bridge serves this machine only", who)
	}
	if origin != "chrome-extension://"+extensionID {
		if origin == "" {
			origin = "(none)"
		}
		return fmt.Sprintf("Origin %s is refused: only the Deckhand extension may connect", origin)
	}
	// A page that rebinds its own host name to 127.0.0.1 would also show up here with a foreign Host.
	h := strings.ToLower(host)
	if h != fmt.Sprintf("127.0.0.1:%d", port) && h != fmt.Sprintf("localhost:%d", port) {
		if host == "" {
			host = "(none)"
		}
		return fmt.Sprintf("Host %s is refused", host)
	}
	return ""
}

// newPairingToken is a one-time pairing token a person can read and type: four groups of four
// lower-case letters and digits (about 82 bits), URL-safe.
func newPairingToken() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	groups := make([]string, 4)
	for g := range groups {
		b := make([]byte, 4)
		for i := range b {
			n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
			b[i] = alphabet[n.Int64()]
		}
		groups[g] = string(b)
	}
	return strings.Join(groups, "-")
}

// sameSecret compares secrets in constant time (hashing first makes the lengths equal).
func sameSecret(a, b string) bool {
	ha, hb := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return subtle.ConstantTimeCompare(ha[:], hb[:]) == 1
}

// bridgeFrame is a control frame; which fields it has depends on Kind.
type bridgeFrame struct {
	Kind        string
	Token       *string
	Secret      *string
	ExtensionID string
	Reason      string
}

// bridgeFrameFields are the fields each control frame has (true: required), as the Node
// client's zod schemas declare them: nothing else is allowed, and every value is a string.
var bridgeFrameFields = map[string]map[string]bool{
	"hello":   {"token": false, "secret": false, "extensionId": true, "version": true},
	"welcome": {"secret": true, "client": true},
	"ping":    {},
	"pong":    {},
	"bye":     {"reason": true},
}

// readBridgeMessage reads one bridge message: a control frame, or an RPC message (rpc true), or
// nothing usable (ok false: dropped).
func readBridgeMessage(data []byte) (frame *bridgeFrame, rpc bool, ok bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		// Not an object: not a control frame (RPC would drop it too).
		return nil, json.Valid(data), json.Valid(data)
	}
	// A kind that is not a string (or none) is not a control frame: the RPC reads it.
	var kind string
	if raw, has := m["kind"]; has {
		_ = json.Unmarshal(raw, &kind)
	}
	fields, control := bridgeFrameFields[kind]
	if !control {
		return nil, true, true
	}
	strs := map[string]string{}
	for k, raw := range m {
		if k == "kind" {
			continue
		}
		if _, known := fields[k]; !known {
			return nil, false, false
		}
		var s string
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) || json.Unmarshal(raw, &s) != nil {
			return nil, false, false
		}
		strs[k] = s
	}
	for k, required := range fields {
		if _, has := strs[k]; required && !has {
			return nil, false, false
		}
	}
	f := &bridgeFrame{Kind: kind, ExtensionID: strs["extensionId"], Reason: strs["reason"]}
	if s, has := strs["token"]; has {
		f.Token = &s
	}
	if s, has := strs["secret"]; has {
		f.Secret = &s
	}
	return f, false, true
}

// closeReason fits a close reason into a close frame (at most 123 bytes).
func closeReason(s string) string {
	if len(s) <= 123 {
		return s
	}
	s = s[:123]
	for len(s) > 0 && !isUTF8Boundary(s) {
		s = s[:len(s)-1]
	}
	return s
}

func isUTF8Boundary(s string) bool { return strings.ToValidUTF8(s, "") == s }

type bridgeState int

const (
	bridgePairing bridgeState = iota
	bridgeUp
	bridgeDown
	bridgeClosed
)

type bridgeOptions struct {
	host             string
	token            string
	extensionID      string
	reconnectTimeout time.Duration
	clientName       string
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
	turnTimers map[*time.Timer]struct{}
	conns      map[*websocket.Conn]struct{}
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
	l := &bridgeLink{
		opts:       opts,
		ln:         ln,
		port:       ln.Addr().(*net.TCPAddr).Port,
		changed:    make(chan struct{}),
		turnTimers: map[*time.Timer]struct{}{},
		conns:      map[*websocket.Conn]struct{}{},
		closed:     make(chan struct{}),
	}
	l.peer = newRPCPeer(l.send, "extension's service worker (over the bridge)")
	l.srv = &http.Server{Handler: http.HandlerFunc(l.serveHTTP), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

func (l *bridgeLink) where() string { return fmt.Sprintf("%s:%d", l.opts.host, l.port) }

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
		// Plain HTTP requests get a short answer; only upgrades matter.
		plainAnswer(w, http.StatusUpgradeRequired, "Deckhand bridge: WebSocket connections from the Deckhand extension only\n")
		return
	}
	remote, _, _ := net.SplitHostPort(r.RemoteAddr)
	l.mu.Lock()
	closed := l.state == bridgeClosed
	l.mu.Unlock()
	refusal := "this client is closed"
	if !closed {
		refusal = refuseUpgrade(remote, r.Header.Get("Origin"), r.Host, l.opts.extensionID, l.port)
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

// onConnection reads one socket until it closes (it runs in the server's handler goroutine).
func (l *bridgeLink) onConnection(ws *websocket.Conn) {
	const (
		stageHello = iota
		stageJudging
		stagePaired
	)
	var stageMu sync.Mutex
	stage := stageHello
	helloTimer := time.AfterFunc(bridgeHelloTimeout, func() {
		go ws.Close(websocket.StatusPolicyViolation, fmt.Sprintf("no hello within %d ms", bridgeHelloTimeout.Milliseconds()))
	})
	defer func() {
		helloTimer.Stop()
		l.mu.Lock()
		delete(l.conns, ws)
		current := l.socket == ws
		l.mu.Unlock()
		if current {
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
		stageMu.Lock()
		s := stage
		if s == stageHello {
			stage = stageJudging
		}
		stageMu.Unlock()
		switch s {
		case stagePaired:
			l.mu.Lock()
			current := l.socket == ws
			l.mu.Unlock()
			if current {
				l.route(ws, data)
			}
		case stageJudging:
			// One hello per connection: nothing else is expected before welcome.
		case stageHello:
			helloTimer.Stop()
			l.inTurn(ws, func() {
				frame, _, _ := readBridgeMessage(data)
				l.mu.Lock()
				refusal := l.admit(frame)
				if refusal != "" {
					if l.state != bridgeClosed {
						l.refusals++
					}
					l.mu.Unlock()
					go ws.Close(bridgeRefused, closeReason(refusal))
					return
				}
				l.refusals = 0
				l.nextTurnAt = time.Now()
				stageMu.Lock()
				stage = stagePaired
				stageMu.Unlock()
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
	now := time.Now()
	at := now
	if l.nextTurnAt.After(now) {
		at = l.nextTurnAt
	}
	if at.Sub(now) > pairingHoldMax {
		secs := (at.Sub(now) + time.Second - 1) / time.Second
		l.mu.Unlock()
		go ws.Close(bridgeTryLater, fmt.Sprintf("too many refused pairing attempts; try again in %d s", secs))
		return
	}
	l.heldHellos++
	l.nextTurnAt = at.Add(pairingBackoff(l.refusals + l.heldHellos))
	run := func() {
		l.mu.Lock()
		l.heldHellos--
		// A hello whose socket went away while held is not judged: it guessed nothing (its
		// reader has returned and removed it from conns).
		_, open := l.conns[ws]
		l.mu.Unlock()
		if open {
			judge()
		}
	}
	if !at.After(now) {
		l.mu.Unlock()
		run()
		return
	}
	var t *time.Timer
	t = time.AfterFunc(at.Sub(now), func() {
		l.mu.Lock()
		_, live := l.turnTimers[t]
		delete(l.turnTimers, t)
		l.mu.Unlock()
		if live {
			run()
		}
	})
	l.turnTimers[t] = struct{}{}
	l.mu.Unlock()
}

// admit checks the first frame (l.mu held): why it is refused, or "" (and the secret is set).
func (l *bridgeLink) admit(f *bridgeFrame) string {
	if l.state == bridgeClosed {
		return "this client is closed"
	}
	if f == nil || f.Kind != "hello" {
		return "the first frame must be hello"
	}
	if f.ExtensionID != l.opts.extensionID {
		return fmt.Sprintf("extension %s is not the Deckhand extension", f.ExtensionID)
	}
	if f.Token != nil {
		// The token is spent by the first pairing; only the secret issued then gets back in.
		if l.tokenSpent || !sameSecret(strings.TrimSpace(*f.Token), l.opts.token) {
			return "the pairing token is wrong or already used"
		}
		l.tokenSpent = true
		b := make([]byte, 32)
		rand.Read(b)
		l.secret = base64.RawURLEncoding.EncodeToString(b)
		return ""
	}
	if f.Secret != nil {
		if l.secret == "" || !sameSecret(*f.Secret, l.secret) {
			return "unknown pairing; pair again with a new token"
		}
		return ""
	}
	return "hello carries neither a token nor a secret"
}

// install makes ws the paired socket and says welcome (called with l.mu held; unlocks it).
func (l *bridgeLink) install(ws *websocket.Conn) {
	old := l.socket
	replaced := old != nil && old != ws
	// The socket is the worker's from now on (what it sends after welcome is routed), but calls
	// wait for the state to be up, which comes after the welcome is written.
	l.socket = ws
	secret := l.secret
	l.mu.Unlock()
	if replaced {
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
	case frame.Kind == "ping":
		_ = l.write(ws, []byte(`{"kind":"pong"}`))
	case frame.Kind == "bye":
		msg := "the person disconnected this client in the Deckhand side panel"
		if frame.Reason != bridgeByeFromPanel {
			msg += " (" + frame.Reason + ")"
		}
		go l.shutdown(&Error{Code: CodeBrowserClosed, Message: msg, Data: map[string]any{"reason": frame.Reason}}, "")
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
	l.peer.failAll(newError(CodeWorkerGone, "the extension's service worker disconnected from the bridge before answering; the next call waits for it to reconnect"), false)
}

func (l *bridgeLink) send(raw []byte, _ int64) error {
	l.mu.Lock()
	ws, why := l.socket, l.closedErr
	l.mu.Unlock()
	if ws == nil {
		if why != nil {
			return why
		}
		return newError(CodeWorkerGone, "the extension's service worker is not connected to the bridge")
	}
	if err := l.write(ws, raw); err != nil {
		return newError(CodeWorkerGone, "the extension's service worker is not connected to the bridge: %v", err)
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
			Message: fmt.Sprintf(`waited %d ms for the Deckhand extension to pair on port %d; open the Deckhand side panel, choose "Connect to a local client" and enter the port and token`, timeout.Milliseconds(), l.port),
			Data:    map[string]any{"port": float64(l.port), "timeoutMs": float64(timeout.Milliseconds())}}
	})
}

func (l *bridgeLink) call(ctx context.Context, method string, params any, deadline time.Duration) (json.RawMessage, error) {
	wait := l.opts.reconnectTimeout
	err := l.waitUp(ctx, wait, func() *Error {
		return &Error{Code: CodeWorkerGone,
			Message: fmt.Sprintf("'%s' waited %d ms for the extension's service worker to reconnect to the bridge on %s, and it did not", method, wait.Milliseconds(), l.where()),
			Data:    map[string]any{"method": method, "timeoutMs": float64(wait.Milliseconds())}}
	})
	if err != nil {
		return nil, err
	}
	return l.peer.request(ctx, method, params, deadline)
}

func (l *bridgeLink) connected() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	// A worker restarting is expected back (its pairing is stored): still connected until bye or close.
	return l.state != bridgeClosed
}

// close says goodbye to the worker (it forgets the pairing) and stops listening. Safe to call twice.
func (l *bridgeLink) close(reason *Error) {
	if reason == nil {
		reason = newError(CodeClosed, "the client was closed")
	}
	l.shutdown(reason, "the program closed it")
}

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
	for t := range l.turnTimers {
		t.Stop()
	}
	clear(l.turnTimers)
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
	// goodbye, and any still saying hello), each cut off after bridgeCloseGrace.
	_ = l.ln.Close()
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done := make(chan struct{})
			go func() {
				_ = c.Close(websocket.StatusNormalClosure, "bye")
				close(done)
			}()
			// Past the grace the handshake is left to finish (or time out) on its own.
			select {
			case <-done:
			case <-time.After(bridgeCloseGrace):
			}
		}()
	}
	wg.Wait()
	_ = l.srv.Close()
}
