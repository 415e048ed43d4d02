package deckhand

import (
	"context"
	"encoding/json"
	"fmt"
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

// ApprovalDecision answers a step that waits: DecisionApprove carries it out, DecisionSkip does
// not and goes on (an agent is told it was skipped), DecisionStop does not and ends the run;
// NoDecision leaves it to others (the side panel) and the deadline.
type ApprovalDecision string

// NoDecision leaves the step to others (the Decision* constants are generated, in codes_gen.go).
const NoDecision ApprovalDecision = ""

// ApprovalFunc decides a step that waits for approval: what will be done (req.Summary,
// req.Method, req.Element), on which page, and which kinds it matched. ctx ends when the
// request ends another way (decided in the side panel, timed out) or the client closes. An
// error counts as NoDecision (it is logged as a warning). A step refused, or not approved by
// the deadline, fails its call with an *Error of CodeNotApproved whose Data["decision"] is
// "skip", "stop" or "timeout".
type ApprovalFunc func(ctx context.Context, req *ApprovalRequest) (ApprovalDecision, error)

// approvalFor is the policy a call sends: its own, else the client's.
func (c *Client) approvalFor(own *ApprovalPolicy) *ApprovalPolicy {
	if own == nil {
		return c.o.Approval
	}
	return own
}

// withApprover makes fn decide the steps of the call opID while it runs; the returned function
// ends that.
func (c *Client) withApprover(opID string, fn ApprovalFunc) func() {
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
	_ = json.Unmarshal(p, &req)
	ctx, end := context.WithCancel(ctx)
	c.mu.Lock()
	c.asking[req.ID] = end
	fn := c.approvers[req.OpID]
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
	if fn == nil {
		fn = c.o.OnApproval
	}
	none := object{{"decision", nil}}
	if fn == nil {
		return none, nil
	}
	d, err := decide(ctx, fn, &req)
	if err == nil && d != NoDecision && d != DecisionApprove && d != DecisionSkip && d != DecisionStop {
		err = fmt.Errorf("it returned %q; return DecisionApprove, DecisionSkip, DecisionStop or NoDecision", d)
	}
	if err != nil {
		// A handler that failed cannot decide; the others still may.
		c.log("warn", fmt.Sprintf("OnApproval failed: %v", err), nil)
		return none, nil
	}
	if d == NoDecision {
		return none, nil
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
	_ = json.Unmarshal(p, &end)
	c.mu.Lock()
	stop := c.asking[end.ID]
	c.mu.Unlock()
	if stop != nil {
		stop()
	}
	return nil, nil
}
