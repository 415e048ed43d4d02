package deckhand

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// handler answers one of the far side's calls.
type handler func(ctx context.Context, params json.RawMessage) (any, error)

type rpcResult struct {
	result json.RawMessage
	err    error
}

type pendingCall struct {
	method string
	ch     chan rpcResult
	// expired is closed when the deadline passes. The clock stops while a hold is on: timer is
	// nil then, and left is what remained of the deadline when it was last armed (at armedAt).
	expired chan struct{}
	timer   *time.Timer
	left    time.Duration
	armedAt time.Time
	acked   *int64 // the answer time the far side's ack promised (ms), once it came
	once    sync.Once
}

// arm starts the call's clock with what is left of its deadline (p.mu held).
func (pc *pendingCall) arm() {
	pc.armedAt = time.Now()
	pc.timer = time.AfterFunc(pc.left, func() { pc.once.Do(func() { close(pc.expired) }) })
}

// rpcPeer is one end of the RPC (src/protocol/rpc.ts): either side may call the other. Frames
// are {"kind":"req","id","method","params"}, {"kind":"res","id","result"},
// {"kind":"err","id","error":{code,message,data?}} and the worker's {"kind":"ack","id","ms"}: it
// promises the answer within ms, so this side computes no deadline of its own. A call waits
// rpcAckMs for the ack, then the promised time and rpcGraceMs more.
type rpcPeer struct {
	send  func(raw []byte, id int64) error // id is 0 for replies
	label string

	mu       sync.Mutex
	nextID   int64
	pending  map[int64]*pendingCall
	handlers map[string]handler
	closed   *Error
	holds    int             // holds in force (see hold)
	ctx      context.Context // handlers run under it; cancelled when the peer closes
	cancel   context.CancelFunc
	wg       sync.WaitGroup
}

func newRPCPeer(send func([]byte, int64) error, label string) *rpcPeer {
	ctx, cancel := context.WithCancel(context.Background())
	// The worker asks a client with calls running whether it is still there.
	ping := func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	return &rpcPeer{send: send, label: label, nextID: 1, pending: map[int64]*pendingCall{}, handlers: map[string]handler{"ping": ping}, ctx: ctx, cancel: cancel}
}

func (p *rpcPeer) handle(method string, h handler) {
	p.mu.Lock()
	p.handlers[method] = h
	p.mu.Unlock()
}

func (p *rpcPeer) closedWith() *Error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

type reqFrame struct {
	Kind   string `json:"kind"`
	ID     int64  `json:"id"`
	Method string `json:"method"`
	Params any    `json:"params"`
}

// request sends a call and waits for its answer, the deadline, or ctx.
func (p *rpcPeer) request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	p.mu.Lock()
	if p.closed != nil {
		p.mu.Unlock()
		return nil, p.closed
	}
	id := p.nextID
	p.nextID++
	pc := &pendingCall{method: method, ch: make(chan rpcResult, 1), expired: make(chan struct{}), left: rpcAckMs * time.Millisecond}
	// While a hold is on, the clock of a new call starts when it ends.
	if p.holds == 0 {
		pc.arm()
	}
	p.pending[id] = pc
	p.mu.Unlock()
	raw, err := marshalJS(reqFrame{Kind: "req", ID: id, Method: method, Params: params})
	if err == nil {
		err = p.send(raw, id)
	} else {
		err = newError(CodeInvalidArgument, "the parameters of '%s' cannot be sent as JSON: %v", method, err)
	}
	if err != nil {
		p.drop(id)
		if _, ok := err.(*Error); ok {
			return nil, err
		}
		return nil, newError(CodeWorkerGone, "could not send '%s' to the %s: %v", method, p.label, err)
	}
	select {
	case r := <-pc.ch:
		return r.result, r.err
	case <-pc.expired:
		p.mu.Lock()
		waited, left := fmt.Sprintf("%d ms", rpcAckMs), pc.left
		if pc.acked != nil {
			waited = fmt.Sprintf("its promised %d ms and %d ms more", *pc.acked, rpcGraceMs)
		}
		p.mu.Unlock()
		p.drop(id)
		return nil, &Error{Code: CodeTimeout, Message: fmt.Sprintf("'%s' timed out after %s waiting for the %s", method, waited, p.label),
			Data: map[string]any{"method": method, "timeoutMs": float64(left.Milliseconds())}}
	case <-ctx.Done():
		p.drop(id)
		return nil, ctx.Err()
	}
}

func (p *rpcPeer) drop(id int64) {
	p.mu.Lock()
	if pc := p.pending[id]; pc != nil && pc.timer != nil {
		pc.timer.Stop()
	}
	delete(p.pending, id)
	p.mu.Unlock()
}

// hold stops the clocks of the calls in flight until release is called: the far side waits on
// a person (an approval), and that time is not the call's. Their deadlines resume, with what
// was left, when the last hold ends. release may be called more than once.
func (p *rpcPeer) hold() (release func()) {
	p.mu.Lock()
	if p.holds == 0 {
		for _, pc := range p.pending {
			if pc.timer != nil && pc.timer.Stop() {
				pc.left = max(0, pc.left-time.Since(pc.armedAt))
			}
			pc.timer = nil
		}
	}
	p.holds++
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			if p.holds--; p.holds > 0 {
				return
			}
			for _, pc := range p.pending {
				select {
				case <-pc.expired: // it ran out before the hold began
				default:
					pc.arm()
				}
			}
		})
	}
}

func (p *rpcPeer) settle(id int64, r rpcResult) {
	p.mu.Lock()
	pc := p.pending[id]
	if pc != nil && pc.timer != nil {
		pc.timer.Stop()
	}
	delete(p.pending, id)
	p.mu.Unlock()
	if pc != nil {
		pc.ch <- r
	}
}

// receive takes one frame from the far side.
func (p *rpcPeer) receive(raw []byte) {
	var msg struct {
		Kind   string          `json:"kind"`
		ID     *json.Number    `json:"id"`
		Method *string         `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
		Ms     *int64          `json:"ms"`
	}
	if json.Unmarshal(raw, &msg) != nil || msg.ID == nil {
		return
	}
	id, err := msg.ID.Int64()
	switch {
	case err != nil:
	case msg.Kind == "req" && msg.Method != nil:
		p.wg.Add(1)
		go p.dispatch(id, *msg.Method, msg.Params)
	case msg.Kind == "res" && msg.Result == nil:
		p.settle(id, rpcResult{result: json.RawMessage("null")})
	case msg.Kind == "res":
		p.settle(id, rpcResult{result: msg.Result})
	case msg.Kind == "err":
		var e struct{ Code, Message *string }
		if json.Unmarshal(msg.Error, &e) == nil && e.Code != nil && e.Message != nil {
			p.settle(id, rpcResult{err: errorFromWire(msg.Error)})
		}
	case msg.Kind == "ack" && msg.Ms != nil && *msg.Ms >= 0:
		// The promise replaces the wait for the ack; a hold in force keeps the clock stopped.
		p.mu.Lock()
		if pc := p.pending[id]; pc != nil {
			pc.acked, pc.left = msg.Ms, time.Duration(*msg.Ms+rpcGraceMs)*time.Millisecond
			if pc.timer != nil && pc.timer.Stop() {
				pc.arm()
			}
		}
		p.mu.Unlock()
	}
}

func (p *rpcPeer) dispatch(id int64, method string, params json.RawMessage) {
	defer p.wg.Done()
	p.mu.Lock()
	h := p.handlers[method]
	p.mu.Unlock()
	var result any
	var err error
	if h == nil {
		err = newError(CodeProtocolError, "unknown method '%s'", method)
	} else {
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = newError(CodeInternal, "%v", r)
				}
			}()
			result, err = h(p.ctx, params)
		}()
	}
	var raw []byte
	if err == nil {
		raw, err = marshalJS(object{{"kind", "res"}, {"id", id}, {"result", result}})
		if err != nil {
			err = newError(CodeInternal, "the result of '%s' cannot be sent as JSON: %v", method, err)
		}
	}
	if err != nil {
		raw, _ = marshalJS(object{{"kind", "err"}, {"id", id}, {"error", asError(err)}})
	}
	_ = p.send(raw, 0) // the caller is gone if this fails; its own deadline reports that
}

func asError(err error) *Error {
	switch e := err.(type) {
	case *Error:
		return e
	}
	switch err {
	case context.Canceled:
		return newError(CodeCancelled, "%v", err)
	case context.DeadlineExceeded:
		return newError(CodeTimeout, "%v", err)
	}
	return newError(CodeInternal, "%v", err)
}

// fail ends one call with err.
func (p *rpcPeer) fail(id int64, err *Error) { p.settle(id, rpcResult{err: err}) }

// failAll ends every call in flight; permanently also refuses later calls.
func (p *rpcPeer) failAll(err *Error, permanently bool) {
	p.mu.Lock()
	if permanently && p.closed == nil {
		p.closed = err
		p.cancel()
	}
	pending := p.pending
	p.pending = map[int64]*pendingCall{}
	p.mu.Unlock()
	for _, pc := range pending {
		pc.ch <- rpcResult{err: &Error{Code: err.Code, Message: fmt.Sprintf("'%s' failed: %s", pc.method, err.Message), Data: err.Data}}
	}
}
