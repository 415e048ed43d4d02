package deckhand

// Approval of risky steps from Go: Act, an agent run and a batch on the contact form, which
// POSTs to the test server (TestMain records it). The server's record is the proof of what was
// and was not submitted.

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

type formPost struct {
	path   string
	fields url.Values
}

// postLog is the form POSTs the test server received.
type postLog struct {
	mu    sync.Mutex
	posts []formPost
}

var formPosts postLog

func (l *postLog) add(path string, fields url.Values) {
	l.mu.Lock()
	l.posts = append(l.posts, formPost{path, fields})
	l.mu.Unlock()
}

func (l *postLog) reset() {
	l.mu.Lock()
	l.posts = nil
	l.mu.Unlock()
}

func (l *postLog) all() []formPost {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]formPost(nil), l.posts...)
}

// waitForPosts waits until the server has n POSTs (a submit that was let go lands a moment later).
func waitForPosts(t *testing.T, n int) []formPost {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); len(formPosts.all()) < n; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out after 10 s waiting for %d form POSTs; got %v", n, formPosts.all())
		}
	}
	return formPosts.all()
}

// noPosts checks, a moment later, that nothing was submitted.
func noPosts(t *testing.T) {
	t.Helper()
	time.Sleep(500 * time.Millisecond)
	if p := formPosts.all(); len(p) != 0 {
		t.Fatalf("the form was submitted: %v", p)
	}
}

var sendButton = ObservedAction(Action{Selector: "#send", Method: "click", Description: "the Send button"})

func notApproved(t *testing.T, err error, decision string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeNotApproved {
		t.Fatalf("want NOT_APPROVED, got %v", err)
	}
	if e.Data["decision"] != decision {
		t.Fatalf("want decision %s, got %v (%s)", decision, e.Data["decision"], e.Message)
	}
	return e
}

func TestApprovalStopRefusesTheSubmit(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, CreateOptions{})
	open(t, c, "/examples/contact.html")
	formPosts.reset()
	var seen []*ApprovalRequest
	_, err := c.Act(ctx, sendButton, &ActOptions{
		Approval: &ApprovalPolicy{When: []ApprovalKind{ApprovalSubmit}},
		OnApproval: func(_ context.Context, req *ApprovalRequest) (ApprovalDecision, error) {
			seen = append(seen, req)
			return DecisionStop, nil
		},
	})
	e := notApproved(t, err, "stop")
	if kinds, _ := e.Data["kinds"].([]any); len(kinds) != 1 || kinds[0] != "submit" {
		t.Fatalf("kinds: %v", e.Data["kinds"])
	}
	if len(seen) != 1 || strings.Join(seen[0].Kinds, ",") != "submit" || seen[0].Method != "click" || !strings.Contains(seen[0].Element, "Send") ||
		seen[0].OpID == "" {
		t.Fatalf("the handler saw %+v", seen)
	}
	noPosts(t)
	if title := eval[string](t, c, "document.title"); title != "Contact us · Harbor Supply" {
		t.Fatalf("title %q", title)
	}
}

func TestApprovalApproveLetsTheSubmitGo(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, CreateOptions{})
	open(t, c, "/examples/contact.html")
	formPosts.reset()
	page, err := c.ActivePage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := page.Locator("#name").Fill(ctx, "Ada Lovelace", nil); err != nil {
		t.Fatal(err)
	}
	r, err := c.Act(ctx, sendButton, &ActOptions{
		Approval:   &ApprovalPolicy{When: []ApprovalKind{ApprovalSubmit}},
		OnApproval: func(context.Context, *ApprovalRequest) (ApprovalDecision, error) { return DecisionApprove, nil },
	})
	if err != nil || !r.Data.Success {
		t.Fatalf("%v %+v", err, r)
	}
	posts := waitForPosts(t, 1)
	if posts[0].path != "/contact" || posts[0].fields.Get("name") != "Ada Lovelace" {
		t.Fatalf("posts: %v", posts)
	}
}

func TestApprovalNoAnswerByTheDeadlineIsARefusal(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, CreateOptions{})
	open(t, c, "/examples/contact.html")
	formPosts.reset()
	started := time.Now()
	_, err := c.Act(ctx, sendButton, &ActOptions{Approval: &ApprovalPolicy{When: []ApprovalKind{ApprovalSubmit}, Timeout: 1500 * time.Millisecond}})
	took := time.Since(started)
	e := notApproved(t, err, "timeout")
	if !strings.Contains(e.Message, "1500 ms") {
		t.Fatalf("message: %s", e.Message)
	}
	if took < 1400*time.Millisecond || took > 10*time.Second {
		t.Fatalf("refused after %s", took)
	}
	noPosts(t)
}

// Act's own timeout is 1 s, so this client gives the call 1 s plus a 5 s grace; the handler
// takes 6.5 s. Waiting for a decision stops both clocks, the worker's and this client's.
func TestApprovalASlowDecisionDoesNotRunOutTheClientsDeadline(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, CreateOptions{})
	open(t, c, "/examples/contact.html")
	formPosts.reset()
	started := time.Now()
	r, err := c.Act(ctx, sendButton, &ActOptions{
		Timeout:  time.Second,
		Approval: &ApprovalPolicy{When: []ApprovalKind{ApprovalSubmit}, Timeout: 20 * time.Second},
		OnApproval: func(ctx context.Context, _ *ApprovalRequest) (ApprovalDecision, error) {
			select {
			case <-time.After(6500 * time.Millisecond):
				return DecisionApprove, nil
			case <-ctx.Done():
				return NoDecision, ctx.Err()
			}
		},
	})
	if err != nil || !r.Data.Success {
		t.Fatalf("%v %+v", err, r)
	}
	if took := time.Since(started); took < 6500*time.Millisecond {
		t.Fatalf("done after %s", took)
	}
	waitForPosts(t, 1)
}

func TestApprovalAnAgentRunWaitsForTheHandler(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var asked [][]string
	c := newClient(t, CreateOptions{
		Approval: &ApprovalPolicy{When: []ApprovalKind{ApprovalSubmit}},
		OnApproval: func(_ context.Context, req *ApprovalRequest) (ApprovalDecision, error) {
			mu.Lock()
			asked = append(asked, req.Kinds)
			mu.Unlock()
			return DecisionApprove, nil
		},
	})
	open(t, c, "/examples/contact.html")
	formPosts.reset()
	r, err := c.Agent(nil).Execute(ctx, `Fill the contact form: name Ada Lovelace, email ada@example.com, message "Hi", and then click Send`, nil)
	if err != nil || !r.Success {
		t.Fatalf("%v %+v", err, r)
	}
	mu.Lock()
	if len(asked) != 1 || strings.Join(asked[0], ",") != "submit" {
		t.Fatalf("the handler was asked %v", asked)
	}
	mu.Unlock()
	posts := waitForPosts(t, 1)
	if f := posts[0].fields; f.Get("name") != "Ada Lovelace" || f.Get("email") != "ada@example.com" || f.Get("message") != "Hi" {
		t.Fatalf("posts: %v", posts)
	}
}

func TestApprovalABatchWaitsAndSkipRefuses(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, CreateOptions{})
	open(t, c, "/examples/contact.html")
	formPosts.reset()
	var kinds []string
	var out string
	err := c.ExperimentalBatch(ctx, `async (batch) => {
		try { await batch.act({ selector: '#send', method: 'click', description: 'Send' }); return 'sent'; }
		catch (e) { return e.code + ' ' + e.data?.decision; }
	}`, nil, &out, &BatchOptions{
		Approval: &ApprovalPolicy{When: []ApprovalKind{ApprovalSubmit}},
		OnApproval: func(_ context.Context, req *ApprovalRequest) (ApprovalDecision, error) {
			kinds = req.Kinds
			return DecisionSkip, nil
		},
	})
	if err != nil || out != "NOT_APPROVED skip" || strings.Join(kinds, ",") != "submit" {
		t.Fatalf("%v %q %v", err, out, kinds)
	}
	noPosts(t)
}

// The worker checks the policy and names what is wrong.
func TestApprovalABadPolicyIsATypedError(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, CreateOptions{})
	for _, tc := range []struct {
		p    ApprovalPolicy
		want string
	}{
		{ApprovalPolicy{}, "at least one kind"},
		{ApprovalPolicy{When: []ApprovalKind{"explode"}}, `options.approval.when.0`},
		{ApprovalPolicy{When: []ApprovalKind{ApprovalPay}, Timeout: 50 * time.Millisecond}, "options.approval.timeout"},
		{ApprovalPolicy{Words: []string{" "}}, "options.approval.words.0"},
	} {
		_, err := c.Act(ctx, sendButton, &ActOptions{Approval: &tc.p})
		if codeOf(err) != CodeInvalidArgument || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%+v: %v", tc.p, err)
		}
	}
	if _, err := c.Observe(ctx, nil, &ObserveOptions{Approval: &ApprovalPolicy{When: []ApprovalKind{ApprovalPay}}}); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("observe with approval: %v", err)
	}
}
