package deckhand

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
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
	once    sync.Once // closes expired
}

// arm starts the call's clock with what is left of its deadline (p.mu held).
func (pc *pendingCall) arm() {
	pc.armedAt = time.Now()
	pc.timer = time.AfterFunc(pc.left, func() { pc.once.Do(func() { close(pc.expired) }) })
}

// rpcPeer is one end of the RPC (src/protocol/rpc.ts): either side may call the other. Frames
// are {"kind":"req","id","method","params"}, {"kind":"res","id","result"} and
// {"kind":"err","id","error":{code,message,data?}}.
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

func (p *rpcPeer) closedWith() *Error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

func (p *rpcPeer) handle(method string, h handler) {
	p.mu.Lock()
	p.handlers[method] = h
	p.mu.Unlock()
}

type reqFrame struct {
	Kind   string `json:"kind"`
	ID     int64  `json:"id"`
	Method string `json:"method"`
	Params any    `json:"params"`
}

// request sends a call and waits for its answer, the deadline, or ctx.
func (p *rpcPeer) request(ctx context.Context, method string, params any, timeout time.Duration) (json.RawMessage, error) {
	p.mu.Lock()
	if p.closed != nil {
		err := p.closed
		p.mu.Unlock()
		return nil, err
	}
	id := p.nextID
	p.nextID++
	pc := &pendingCall{method: method, ch: make(chan rpcResult, 1), expired: make(chan struct{}), left: timeout}
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
		p.drop(id)
		return nil, &Error{Code: CodeTimeout, Message: fmt.Sprintf("'%s' timed out after %s ms waiting for the %s", method, strconv.FormatInt(timeout.Milliseconds(), 10), p.label),
			Data: map[string]any{"method": method, "timeoutMs": float64(timeout.Milliseconds())}}
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
		now := time.Now()
		for _, pc := range p.pending {
			if pc.timer == nil {
				continue
			}
			if pc.timer.Stop() {
				pc.left = max(0, pc.left-now.Sub(pc.armedAt))
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
	}
	if json.Unmarshal(raw, &msg) != nil || msg.ID == nil {
		return
	}
	id, err := msg.ID.Int64()
	if err != nil {
		return
	}
	switch msg.Kind {
	case "req":
		if msg.Method == nil {
			return
		}
		p.wg.Add(1)
		go p.dispatch(id, *msg.Method, msg.Params)
	case "res":
		if msg.Result == nil {
			msg.Result = json.RawMessage("null")
		}
		p.settle(id, rpcResult{result: msg.Result})
	case "err":
		var e struct {
			Code    *string `json:"code"`
			Message *string `json:"message"`
		}
		if json.Unmarshal(msg.Error, &e) != nil || e.Code == nil || e.Message == nil {
			return
		}
		p.settle(id, rpcResult{err: errorFromWire(msg.Error)})
	}
}

type resFrame struct {
	Kind   string `json:"kind"`
	ID     int64  `json:"id"`
	Result any    `json:"result"`
}

type errFrame struct {
	Kind  string `json:"kind"`
	ID    int64  `json:"id"`
	Error *Error `json:"error"`
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
	if err != nil {
		raw, _ = marshalJS(errFrame{Kind: "err", ID: id, Error: asError(err)})
	} else {
		raw, err = marshalJS(resFrame{Kind: "res", ID: id, Result: result})
		if err != nil {
			raw, _ = marshalJS(errFrame{Kind: "err", ID: id, Error: newError(CodeInternal, "the result of '%s' cannot be sent as JSON: %v", method, err)})
		}
	}
	_ = p.send(raw, 0) // the caller is gone if this fails; its own deadline reports that
}

func asError(err error) *Error {
	if e, ok := err.(*Error); ok {
		return e
	}
	if err == context.Canceled {
		return newError(CodeCancelled, "%v", err)
	}
	if err == context.DeadlineExceeded {
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
