package deckhand

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// transport carries CDP messages: NUL-delimited over Chromium's --remote-debugging-pipe, or a
// WebSocket.
type transport interface {
	send(msg []byte) error
	run(on func([]byte)) // reads messages until the connection ends
	close() error
}

type pipeTransport struct {
	w  io.WriteCloser
	r  io.ReadCloser
	mu sync.Mutex
}

func (t *pipeTransport) send(msg []byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, err := t.w.Write(append(msg, 0))
	return err
}

func (t *pipeTransport) run(on func([]byte)) {
	br := bufio.NewReaderSize(t.r, 1<<20)
	for {
		b, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		on(b[:len(b)-1])
	}
}

func (t *pipeTransport) close() error {
	t.w.Close()
	return t.r.Close()
}

type wsTransport struct {
	c      *websocket.Conn
	ctx    context.Context
	cancel context.CancelFunc
}

func (t *wsTransport) send(msg []byte) error {
	ctx, cancel := context.WithTimeout(t.ctx, 30*time.Second)
	defer cancel()
	return t.c.Write(ctx, websocket.MessageText, msg)
}

func (t *wsTransport) run(on func([]byte)) {
	for {
		_, b, err := t.c.Read(t.ctx)
		if err != nil {
			return
		}
		on(b)
	}
}

func (t *wsTransport) close() error {
	err := t.c.Close(websocket.StatusNormalClosure, "")
	t.cancel()
	return err
}

type cdpResult struct {
	result json.RawMessage
	err    error
}

type cdpEvent struct {
	Method    string
	Params    json.RawMessage
	SessionID string
}

type cdpPending struct {
	method string
	ch     chan cdpResult
}

// cdpConn is a CDP connection with flattened sessions. Every command has a deadline; when the
// connection drops every pending command fails with BROWSER_CLOSED.
type cdpConn struct {
	t       transport
	mu      sync.Mutex
	nextID  int64
	pending map[int64]cdpPending
	onEvent func(cdpEvent) // the worker link's
	onClose []func()
	closed  bool
}

func newCDPConn(t transport) *cdpConn {
	c := &cdpConn{t: t, nextID: 1, pending: map[int64]cdpPending{}}
	go func() {
		t.run(c.onMessage)
		c.shutdown()
	}()
	return c
}

func (c *cdpConn) listen(f func(cdpEvent)) {
	c.mu.Lock()
	c.onEvent = f
	c.mu.Unlock()
}

func (c *cdpConn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

type cdpCommand struct {
	ID        int64  `json:"id"`
	Method    string `json:"method"`
	Params    any    `json:"params"`
	SessionID string `json:"sessionId,omitempty"`
}

// start sends a command now (so commands go out in call order) and returns its answer's channel.
func (c *cdpConn) start(method string, params any, sessionID string) (int64, chan cdpResult) {
	ch := make(chan cdpResult, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		ch <- cdpResult{err: newError(CodeBrowserClosed, "cannot send %s: the browser is closed", method)}
		return 0, ch
	}
	id := c.nextID
	c.nextID++
	c.pending[id] = cdpPending{method, ch}
	c.mu.Unlock()
	if params == nil {
		params = struct{}{}
	}
	raw, err := marshalJS(cdpCommand{ID: id, Method: method, Params: params, SessionID: sessionID})
	if err == nil {
		err = c.t.send(raw)
	}
	if err != nil {
		c.forget(id)
		ch <- cdpResult{err: newError(CodeBrowserClosed, "cannot send %s: %v", method, err)}
	}
	return id, ch
}

func (c *cdpConn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// send runs one command and decodes its result into out (when out is not nil).
func (c *cdpConn) send(ctx context.Context, method string, params any, sessionID string, out any) error {
	return c.sendTimeout(ctx, method, params, sessionID, out, 30*time.Second)
}

func (c *cdpConn) sendTimeout(ctx context.Context, method string, params any, sessionID string, out any, timeout time.Duration) error {
	id, ch := c.start(method, params, sessionID)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.err == nil && out != nil && json.Unmarshal(r.result, out) != nil {
			return newError(CodeProtocolError, "CDP %s: an answer that does not fit", method)
		}
		return r.err
	case <-timer.C:
		c.forget(id)
		return newError(CodeTimeout, "CDP %s timed out after %d ms", method, timeout.Milliseconds())
	case <-ctx.Done():
		c.forget(id)
		return ctx.Err()
	}
}

func (c *cdpConn) onMessage(raw []byte) {
	var msg struct {
		ID     *int64          `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
		SessionID string `json:"sessionId"`
	}
	if json.Unmarshal(raw, &msg) != nil {
		return
	}
	var p cdpPending
	ok := false
	c.mu.Lock()
	if msg.ID != nil {
		p, ok = c.pending[*msg.ID]
		delete(c.pending, *msg.ID)
	}
	on := c.onEvent
	c.mu.Unlock()
	switch {
	case msg.ID != nil && ok && msg.Error != nil:
		p.ch <- cdpResult{err: newError(CodeProtocolError, "CDP %s: %s", p.method, msg.Error.Message)}
	case msg.ID != nil && ok:
		p.ch <- cdpResult{result: msg.Result}
	case msg.ID == nil && msg.Method != "" && on != nil:
		on(cdpEvent{Method: msg.Method, Params: msg.Params, SessionID: msg.SessionID})
	}
}

func (c *cdpConn) shutdown() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	pending, closers := c.pending, c.onClose
	c.pending = map[int64]cdpPending{}
	c.mu.Unlock()
	for _, p := range pending {
		p.ch <- cdpResult{err: newError(CodeBrowserClosed, "the browser closed during CDP %s", p.method)}
	}
	for _, f := range closers {
		f()
	}
}

func (c *cdpConn) whenClosed(f func()) {
	c.mu.Lock()
	if !c.closed {
		c.onClose = append(c.onClose, f)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	f()
}

// close fails the calls still waiting at once, then closes the transport: a peer that never
// acknowledges the close (a Grid proxy whose browser died) cannot hold them.
func (c *cdpConn) close() {
	c.shutdown()
	c.t.close()
}
