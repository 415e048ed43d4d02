package deckhand

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Approval of risky steps (src/protocol/approval.ts in Go): what a caller asks to approve, and
// the worker's calls to this client while such a step waits.

// ApprovalKind is a kind of step that can wait for approval (the constants are generated, in
// codes_gen.go): ApprovalSubmit, submitting a form (a submit button, Enter in a form's field, a
// button or link that says so); ApprovalDelete, deleting or removing something; ApprovalPay,
// paying, buying, ordering or subscribing; ApprovalLeaveSite, going to another site (a link or
// a goto to another host); ApprovalUpload, choosing a file to upload.
type ApprovalKind string

// ApprovalPolicy says which steps of Act, Agent.Execute and ExperimentalBatch wait for a person
// (the side panel) or the caller's OnApproval before they are carried out. It needs at least
// one kind in When or one word in Words.
type ApprovalPolicy struct {
	// When lists the kinds of step that wait.
	When []ApprovalKind
	// Words: also any step whose element or instruction says one of these (whole words, any case).
	Words []string
	// Timeout is how long a step waits for a decision (0: 2 minutes; from 100 ms to 10
	// minutes, whole milliseconds); then it is refused.
	Timeout time.Duration
}

// ApprovalDecision answers a step that waits: DecisionApprove carries it out, DecisionSkip does
// not and goes on (an agent is told it was skipped), DecisionStop does not and ends the run;
// NoDecision leaves it to others (the side panel) and the deadline.
type ApprovalDecision string

const (
	NoDecision      ApprovalDecision = ""
	DecisionApprove ApprovalDecision = "approve"
	DecisionSkip    ApprovalDecision = "skip"
	DecisionStop    ApprovalDecision = "stop"
)

// ApprovalFunc decides a step that waits for approval: what will be done (req.Summary,
// req.Method, req.Element), on which page, and which kinds it matched. ctx ends when the
// request ends another way (decided in the side panel, timed out) or the client closes. An
// error counts as NoDecision (it is logged as a warning). A step refused, or not approved by
// the deadline, fails its call with an *Error of CodeNotApproved whose Data["decision"] is
// "skip", "stop" or "timeout".
type ApprovalFunc func(ctx context.Context, req *ApprovalRequest) (ApprovalDecision, error)

// wire is the policy as the worker reads it, checked as the worker checks it (nil: none).
func (p *ApprovalPolicy) wire(where string) (object, error) {
	if p == nil {
		return nil, nil
	}
	bad := func(format string, a ...any) error {
		return newError(CodeInvalidArgument, "%s: invalid approval: %s", where, fmt.Sprintf(format, a...))
	}
	if len(p.When) == 0 && len(p.Words) == 0 {
		return nil, bad("it needs at least one kind in When or one word in Words")
	}
	if len(p.When) > len(approvalKinds) {
		return nil, bad("When lists %d kinds, at most %d", len(p.When), len(approvalKinds))
	}
	for _, k := range p.When {
		if !slices.Contains(approvalKinds, k) {
			return nil, bad("unknown kind %q in When (use submit, delete, pay, leave-site or upload)", k)
		}
	}
	if len(p.Words) > 50 {
		return nil, bad("Words lists %d words, at most 50", len(p.Words))
	}
	words := make([]string, len(p.Words))
	for i, w := range p.Words {
		words[i] = strings.TrimSpace(w)
		if words[i] == "" || len(words[i]) > 100 {
			return nil, bad("Words[%d] must be 1 to 100 characters, got %q", i, w)
		}
	}
	var w object
	if len(p.When) > 0 {
		w = append(w, kv{"when", p.When})
	}
	if len(words) > 0 {
		w = append(w, kv{"words", words})
	}
	if p.Timeout != 0 {
		if p.Timeout < 100*time.Millisecond || p.Timeout > maxTimeoutMs*time.Millisecond || p.Timeout%time.Millisecond != 0 {
			return nil, bad("Timeout must be whole milliseconds from 100 ms to 10 minutes, got %s", p.Timeout)
		}
		w = append(w, kv{"timeout", p.Timeout.Milliseconds()})
	}
	return w, nil
}

// approvalFor is the policy a call sends: its own, else the client's.
func (c *Client) approvalFor(where string, own *ApprovalPolicy) (object, error) {
	if own == nil {
		own = c.o.Approval
	}
	return own.wire(where)
}

// withApprover makes fn decide the steps of the call opID while it runs; the returned function
// ends that.
func (c *Client) withApprover(opID string, fn ApprovalFunc) func() {
	if fn == nil {
		return func() {}
	}
	c.mu.Lock()
	c.approvers[opID] = fn
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.approvers, opID)
		c.mu.Unlock()
	}
}

// approvalRequest answers the worker's approval.request: the call's handler decides (its own,
// else the client's), or says nothing and the side panel may. Meanwhile the worker's clock for
// that call stands still, and so do this client's deadlines.
func (c *Client) approvalRequest(ctx context.Context, p json.RawMessage) (any, error) {
	var req ApprovalRequest
	if err := json.Unmarshal(p, &req); err != nil || req.ID == "" || len(req.Kinds) == 0 {
		return nil, newError(CodeInvalidArgument, "invalid approval.request parameters")
	}
	ctx, end := context.WithCancel(ctx)
	c.mu.Lock()
	c.asking[req.ID] = end
	c.mu.Unlock()
	// Until the request ends (whoever decides, the side panel included), or a moment past its deadline.
	release := c.link.peer.hold()
	go func() {
		t := time.NewTimer(max(0, time.Until(time.UnixMilli(int64(req.Deadline)))+5*time.Second))
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
		release()
		end()
		c.mu.Lock()
		delete(c.asking, req.ID)
		c.mu.Unlock()
	}()
	c.mu.Lock()
	fn := c.approvers[req.OpID]
	c.mu.Unlock()
	if fn == nil {
		fn = c.o.OnApproval
	}
	if fn == nil {
		return object{{"decision", nil}}, nil
	}
	d, err := decide(ctx, fn, &req)
	if err == nil && d != NoDecision && d != DecisionApprove && d != DecisionSkip && d != DecisionStop {
		err = fmt.Errorf("it returned %q; return DecisionApprove, DecisionSkip, DecisionStop or NoDecision", d)
	}
	if err != nil {
		// A handler that failed cannot decide; the others still may.
		c.log("warn", fmt.Sprintf("OnApproval failed: %v", err), nil)
		return object{{"decision", nil}}, nil
	}
	if d == NoDecision {
		return object{{"decision", nil}}, nil
	}
	return object{{"decision", string(d)}, {"by", "the caller"}}, nil
}

// decide runs the caller's handler; a panic in it is its error.
func decide(ctx context.Context, fn ApprovalFunc, req *ApprovalRequest) (d ApprovalDecision, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return fn(ctx, req)
}

// approvalSettled answers approval.settled: the request was decided or timed out, so its
// handler's ctx ends and this client's deadlines run again.
func (c *Client) approvalSettled(_ context.Context, p json.RawMessage) (any, error) {
	var end struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(p, &end); err != nil || end.ID == "" {
		return nil, newError(CodeInvalidArgument, "invalid approval.settled parameters")
	}
	c.mu.Lock()
	stop := c.asking[end.ID]
	c.mu.Unlock()
	if stop != nil {
		stop()
	}
	return nil, nil
}
