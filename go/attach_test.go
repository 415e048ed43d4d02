package deckhand

// AttachLocalBrowser: the WebSocket bridge a person's own Chrome dials into.
//
// test/fixtures/pair-panel.ts plays the person: a Chromium of its own with the extension, whose
// side panel it fills in (port and token, Connect) for each pairing a test asks for. The page the
// tests act on (test/fixtures/pages/attach.html) tells the server that served it about each
// click, so a change is seen without any link to that browser. The wire rules (Origin, Host, the
// one-time token, the secret for reconnects, bye) are also checked with a plain WebSocket client
// playing the worker, as the Node client's tests do.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// -- the page, and what it reported -------------------------------------------------------------

var (
	attachPageOnce sync.Once
	attachPageURL  string
	seenMu         sync.Mutex
	seenClicks     []string
)

func attachPage(t *testing.T) string {
	t.Helper()
	attachPageOnce.Do(func() {
		page, err := os.ReadFile(filepath.Join(repoRoot(t), "test", "fixtures", "pages", "attach.html"))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-store")
			if r.URL.Path == "/seen" {
				seenMu.Lock()
				seenClicks = append(seenClicks, r.URL.RawQuery)
				seenMu.Unlock()
				w.WriteHeader(http.StatusNoContent)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(page)
		}))
		afterAll = append(afterAll, srv.Close)
		attachPageURL = srv.URL + "/attach.html"
	})
	return attachPageURL
}

// reported says whether the page reported the click (with a fetch, a moment after it).
func reported(what string) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		seenMu.Lock()
		for _, s := range seenClicks {
			if s == what {
				seenMu.Unlock()
				return true
			}
		}
		seenMu.Unlock()
	}
	return false
}

// -- the person at the side panel ---------------------------------------------------------------

type pairOutcome struct {
	Paired  bool   `json:"paired"`
	State   string `json:"state"`
	Port    int    `json:"port"`
	Message string `json:"message"`
}

// person is one pair-panel.ts process (one Chromium) shared by the tests: each pair is one Connect.
type person struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *tailBuffer
}

var thePerson = &person{}

func (p *person) pair(t *testing.T, port int, token string) pairOutcome {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		cmd := exec.Command("node", "--import", "tsx", filepath.Join("test", "fixtures", "pair-panel.ts"), "--port", fmt.Sprint(port), "--token", token)
		cmd.Dir = repoRoot(t)
		p.stderr = &tailBuffer{}
		cmd.Stderr = p.stderr
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		p.cmd, p.stdin, p.lines = cmd, stdin, make(chan string, 16)
		go func() {
			s := bufio.NewScanner(stdout)
			for s.Scan() {
				p.lines <- s.Text()
			}
			close(p.lines)
		}()
		afterAll = append(afterAll, p.close)
	} else if _, err := fmt.Fprintf(p.stdin, "%d %s\n", port, token); err != nil {
		t.Fatal(err)
	}
	select {
	case line, ok := <-p.lines:
		if !ok {
			t.Fatalf("pair-panel.ts ended: %s", p.stderr.String())
		}
		var out pairOutcome
		if err := json.Unmarshal([]byte(line), &out); err != nil {
			t.Fatalf("pair-panel.ts printed %q: %v", line, err)
		}
		return out
	case <-time.After(90 * time.Second):
		t.Fatalf("pair-panel.ts said nothing within 90 s: %s", p.stderr.String())
	}
	return pairOutcome{}
}

// close ends the person's browser: stdin closes, the fixture closes Chromium and exits.
func (p *person) close() {
	if p.cmd == nil {
		return
	}
	p.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
}

// startAttach starts AttachLocalBrowser and returns the pairing it offers, without waiting for it to pair.
func startAttach(t *testing.T, o AttachOptions) (PairingInfo, chan attached) {
	t.Helper()
	offered := make(chan PairingInfo, 1)
	o.OnPairing = func(p PairingInfo) { offered <- p }
	done := make(chan attached, 1)
	go func() {
		b, err := AttachLocalBrowser(context.Background(), &o)
		done <- attached{b, err}
	}()
	select {
	case p := <-offered:
		return p, done
	case a := <-done:
		t.Fatalf("AttachLocalBrowser returned before offering a pairing: %v", a.err)
	case <-time.After(10 * time.Second):
		t.Fatal("no pairing offered within 10 s")
	}
	return PairingInfo{}, nil
}

type attached struct {
	b   *Browser
	err error
}

func errorOf(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want a *deckhand.Error, got %T %v", err, err)
	}
	return e
}

// -- in real Chromium ---------------------------------------------------------------------------

func TestAttachRefusesAWrongTokenWaitsOnThenPairsAndActs(t *testing.T) {
	url := attachPage(t)
	pairing, done := startAttach(t, AttachOptions{Name: "go attach test"})
	if pairing.Host != "127.0.0.1" || !regexp.MustCompile(`^[a-z0-9]{4}(-[a-z0-9]{4}){3}$`).MatchString(pairing.Token) {
		t.Fatalf("pairing %+v", pairing)
	}
	wrong := thePerson.pair(t, pairing.Port, "zzzz-zzzz-zzzz-zzzz")
	if wrong.Paired || wrong.State != "refused" || !strings.Contains(wrong.Message, "the pairing token is wrong or already used") {
		t.Fatalf("a wrong token: %+v", wrong)
	}
	select {
	case a := <-done:
		t.Fatalf("attach gave up after a wrong token: %v", a.err)
	case <-time.After(300 * time.Millisecond):
	}
	right := thePerson.pair(t, pairing.Port, pairing.Token)
	want := pairOutcome{Paired: true, State: "attached", Port: pairing.Port, Message: fmt.Sprintf("attached to go attach test on 127.0.0.1:%d", pairing.Port)}
	if right != want {
		t.Fatalf("the right token: %+v", right)
	}
	a := <-done
	if a.err != nil {
		t.Fatal(a.err)
	}
	b := a.b
	defer b.Close()
	if !b.Connected() || b.ExtensionID() == "" {
		t.Fatal("the attached browser is not connected")
	}
	c, err := Create(context.Background(), CreateOptions{Browser: b}) // the built-in local model: no key
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	page, err := c.Goto(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if page.Title != "Orders" {
		t.Fatalf("title %q", page.Title)
	}
	r, err := c.Act(ctx, ActInstruction("click the Billing tab"), &ActOptions{Page: c.Page(page.ID)})
	if err != nil || !r.Data.Success {
		t.Fatalf("act: %v %+v", err, r)
	}
	if got := eval[string](t, c, "document.getElementById('shown').textContent"); got != "Showing: Billing" {
		t.Fatalf("the page shows %q", got)
	}
	now, err := c.ActivePage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if title, err := now.Title(ctx); err != nil || title != "Orders: Billing" {
		t.Fatalf("active page title %q %v", title, err)
	}
	if !reported("click=tab-billing") {
		t.Fatal("the page did not report the click")
	}
	c.Close()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if b.Connected() {
		t.Fatal("still connected after Close")
	}
	if _, err := Create(ctx, CreateOptions{Browser: b}); codeOf(err) != CodeBrowserClosed {
		t.Fatalf("Create on a closed bridge: %v", err)
	}
}

func TestAttachExamplePairsActsAndPrintsTheResult(t *testing.T) {
	url := attachPage(t)
	bin := filepath.Join(t.TempDir(), "attach")
	if out, err := exec.Command("go", "build", "-o", bin, "./examples/attach").CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/attach: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, url, "click the Shipping tab")
	stderr := &tailBuffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 4)
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
	}()
	next := func(what string) string {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the example ended before %s: %s", what, stderr.String())
			}
			return l
		case <-time.After(60 * time.Second):
			t.Fatalf("no %s from the example within 60 s: %s", what, stderr.String())
		}
		return ""
	}
	m := regexp.MustCompile(`enter port (\d+) and token ([a-z0-9-]+)`).FindStringSubmatch(next("pairing"))
	if m == nil {
		t.Fatal("the example offered no pairing")
	}
	var port int
	fmt.Sscan(m[1], &port)
	if p := thePerson.pair(t, port, m[2]); !p.Paired || p.Message != fmt.Sprintf("attached to the attach example on 127.0.0.1:%d", port) {
		t.Fatalf("pairing the example: %+v", p)
	}
	var result struct {
		Success bool   `json:"success"`
		Action  string `json:"action"`
		Title   string `json:"title"`
	}
	if line := next("result"); json.Unmarshal([]byte(line), &result) != nil {
		t.Fatalf("the example printed %q", line)
	}
	if !result.Success || !strings.Contains(result.Action, "Shipping") || result.Title != "Orders: Shipping" {
		t.Fatalf("result %+v", result)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the example: %v: %s", err, stderr.String())
	}
	if !reported("click=tab-shipping") {
		t.Fatal("the page did not report the click")
	}
}

// -- deadlines and options ----------------------------------------------------------------------

func TestAttachTimesOutNamingWhatItWaitedForAndFreesThePort(t *testing.T) {
	pairing, done := startAttach(t, AttachOptions{Timeout: 300 * time.Millisecond})
	a := <-done
	e := errorOf(t, a.err)
	if e.Code != CodeTimeout || !strings.HasPrefix(e.Message, fmt.Sprintf("waited 300 ms for the Deckhand extension to pair on port %d; ", pairing.Port)) {
		t.Fatalf("%v", e)
	}
	if e.Data["port"] != float64(pairing.Port) || e.Data["timeoutMs"] != float64(300) {
		t.Fatalf("data %v", e.Data)
	}
	again, done := startAttach(t, AttachOptions{Port: pairing.Port, Timeout: 100 * time.Millisecond})
	if again.Port != pairing.Port {
		t.Fatalf("port %d, want %d", again.Port, pairing.Port)
	}
	if a := <-done; codeOf(a.err) != CodeTimeout {
		t.Fatalf("%v", a.err)
	}
	// ctx ending stops the wait with ctx's error.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := AttachLocalBrowser(ctx, &AttachOptions{OnPairing: func(PairingInfo) {}}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ctx: %v", err)
	}
}

func TestAttachBadOptionsAreInvalidArgumentNamingTheOption(t *testing.T) {
	quiet := func(PairingInfo) {}
	for _, c := range []struct {
		o    AttachOptions
		want string
	}{
		{AttachOptions{Port: 80}, "AttachOptions.Port must be 0 (a free port) or 1024 to 65535, got 80"},
		{AttachOptions{Port: 70000}, "AttachOptions.Port must be 0"},
		{AttachOptions{Port: -1}, "AttachOptions.Port must be 0"},
		{AttachOptions{Token: "a b"}, "AttachOptions.Token: the pairing token is 6 to 128 letters, digits, - or _"},
		{AttachOptions{Token: "short"}, "AttachOptions.Token:"},
		{AttachOptions{Host: "0.0.0.0"}, "AttachOptions.Host must be a loopback address"},
		{AttachOptions{Host: "example.com"}, "AttachOptions.Host must be a loopback address"},
		{AttachOptions{Host: "::1"}, "dials 127.0.0.1 only"},
		{AttachOptions{Timeout: -time.Second}, "AttachOptions.Timeout must be from 1 ms to 10 minutes"},
		{AttachOptions{Timeout: 11 * time.Minute}, "AttachOptions.Timeout must be from 1 ms to 10 minutes"},
		{AttachOptions{ReconnectTimeout: time.Microsecond}, "AttachOptions.ReconnectTimeout must be from 1 ms to 10 minutes"},
		{AttachOptions{AllowURLSchemes: []string{"javascript"}}, "AttachOptions.AllowURLSchemes: javascript: URLs are never opened"},
	} {
		c.o.OnPairing = quiet
		_, err := AttachLocalBrowser(context.Background(), &c.o)
		e := errorOf(t, err)
		if e.Code != CodeInvalidArgument || !strings.Contains(e.Message, c.want) {
			t.Errorf("%+v: %v (want %q)", c.o, e, c.want)
		}
	}
}

func TestAttachOnAPortInUseIsUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	_, err = AttachLocalBrowser(context.Background(), &AttachOptions{Port: port, OnPairing: func(PairingInfo) {}})
	if e := errorOf(t, err); e.Code != CodeUnavailable || e.Message != fmt.Sprintf("cannot listen on 127.0.0.1:%d: the port is in use", port) {
		t.Fatalf("%v", e)
	}
}

// -- the wire, with a plain WebSocket client playing the worker ---------------------------------

func rawHTTP(t *testing.T, port int, request string) (int, string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

func upgradeRequest(port int, origin, host string) string {
	if host == "" {
		host = fmt.Sprintf("127.0.0.1:%d", port)
	}
	r := "GET / HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
	if origin != "" {
		r += "Origin: " + origin + "\r\n"
	}
	return r + "\r\n"
}

func dialAsWorker(t *testing.T, port int, extID string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, fmt.Sprintf("ws://127.0.0.1:%d", port),
		&websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"chrome-extension://" + extID}}})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func helloFrame(extID, key, value string) string {
	return fmt.Sprintf(`{"kind":"hello",%q:%q,"extensionId":%q,"version":"0"}`, key, value, extID)
}

// refusedWith says frame first with the extension's Origin: the close code and reason it gets.
func refusedWith(t *testing.T, port int, extID, frame string) (websocket.StatusCode, string) {
	t.Helper()
	ws := dialAsWorker(t, port, extID)
	defer ws.CloseNow()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ws.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
		t.Fatal(err)
	}
	_, _, err := ws.Read(ctx)
	var ce websocket.CloseError
	if !errors.As(err, &ce) {
		t.Fatalf("want a close, got %v", err)
	}
	return ce.Code, ce.Reason
}

func readJSON(t *testing.T, ws *websocket.Conn) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, data, err := ws.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func writeText(t *testing.T, ws *websocket.Conn, s string) {
	t.Helper()
	if err := ws.Write(context.Background(), websocket.MessageText, []byte(s)); err != nil {
		t.Fatal(err)
	}
}

// answerOne plays the worker for one call: the request gets result. Returns the request.
func answerOne(t *testing.T, ws *websocket.Conn, result string) map[string]any {
	t.Helper()
	for {
		m := readJSON(t, ws)
		if m["kind"] == "req" {
			writeText(t, ws, fmt.Sprintf(`{"kind":"res","id":%v,"result":%s}`, m["id"], result))
			return m
		}
	}
}

// linkActivePage asks the worker for the active page straight over the browser's link.
func linkActivePage(b *Browser) (*PageInfo, error) {
	raw, err := b.link.call(context.Background(), "context.activePage", struct{}{})
	if err != nil {
		return nil, err
	}
	var p PageInfo
	return &p, json.Unmarshal(raw, &p)
}

func TestAttachWireRefusesStrangersAndSpentTokensAndTakesBackTheSecret(t *testing.T) {
	extID, err := defaultExtensionID()
	if err != nil {
		t.Fatal(err)
	}
	pairing, done := startAttach(t, AttachOptions{Name: "wire test", ReconnectTimeout: 2 * time.Second})
	port := pairing.Port
	// Web pages, other origins and forged hosts never get a socket.
	if s, b := rawHTTP(t, port, upgradeRequest(port, "", "")); s != 403 || b != "Origin (none) is refused: only the Deckhand extension may connect\n" {
		t.Fatalf("no origin: %d %q", s, b)
	}
	if s, b := rawHTTP(t, port, upgradeRequest(port, "http://127.0.0.1:1234", "")); s != 403 || !strings.HasPrefix(b, "Origin http://127.0.0.1:1234 is refused") {
		t.Fatalf("a page's origin: %d %q", s, b)
	}
	if s, _ := rawHTTP(t, port, upgradeRequest(port, "chrome-extension://abcdefghijklmnopabcdefghijklmnop", "")); s != 403 {
		t.Fatalf("another extension: %d", s)
	}
	if s, b := rawHTTP(t, port, upgradeRequest(port, "chrome-extension://"+extID, fmt.Sprintf("rebound.example:%d", port))); s != 403 ||
		b != fmt.Sprintf("Host rebound.example:%d is refused\n", port) {
		t.Fatalf("a forged host: %d %q", s, b)
	}
	if s, b := rawHTTP(t, port, fmt.Sprintf("GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n", port)); s != 426 ||
		b != "Deckhand bridge: WebSocket connections from the Deckhand extension only\n" {
		t.Fatalf("plain HTTP: %d %q", s, b)
	}
	// The extension's origin with a wrong token (or a frame that is not a strict hello): close 4001.
	for frame, want := range map[string]string{
		helloFrame(extID, "token", "zzzz-zzzz-zzzz-zzzz"): "the pairing token is wrong or already used",
		`{"kind":"ping"}`: "the first frame must be hello",
		strings.TrimSuffix(helloFrame(extID, "token", pairing.Token), "}") + `,"extra":1}`: "the first frame must be hello",
		`{"kind":"hello","token":null,"extensionId":"` + extID + `","version":"0"}`:        "the first frame must be hello",
	} {
		if code, reason := refusedWith(t, port, extID, frame); code != bridgeRefused || reason != want {
			t.Fatalf("%s: %d %q", frame, code, reason)
		}
	}
	select {
	case a := <-done:
		t.Fatalf("attach gave up: %v", a.err)
	default:
	}
	// The right token pairs and is spent; the welcome carries the secret for reconnects.
	worker := dialAsWorker(t, port, extID)
	writeText(t, worker, helloFrame(extID, "token", " "+pairing.Token+" "))
	welcome := readJSON(t, worker)
	secret, _ := welcome["secret"].(string)
	if welcome["kind"] != "welcome" || welcome["client"] != "wire test" || len(secret) < 40 {
		t.Fatalf("welcome %v", welcome)
	}
	a := <-done
	if a.err != nil {
		t.Fatal(a.err)
	}
	b := a.b
	defer b.Close()
	if code, reason := refusedWith(t, port, extID, helloFrame(extID, "token", pairing.Token)); code != bridgeRefused ||
		reason != "the pairing token is wrong or already used" {
		t.Fatalf("a spent token: %d %q", code, reason)
	}
	if code, reason := refusedWith(t, port, extID, helloFrame(extID, "secret", "not-the-secret")); code != bridgeRefused ||
		reason != "unknown pairing; pair again with a new token" {
		t.Fatalf("a wrong secret: %d %q", code, reason)
	}
	writeText(t, worker, `{"kind":"ping"}`)
	if m := readJSON(t, worker); m["kind"] != "pong" || len(m) != 1 {
		t.Fatalf("ping got %v", m)
	}
	c, errc := make(chan *PageInfo, 1), make(chan error, 1)
	activePage := func() {
		p, err := linkActivePage(b)
		c <- p
		errc <- err
	}
	go activePage()
	if req := answerOne(t, worker, `{"id":7,"url":"about:blank","title":""}`); req["method"] != "context.activePage" {
		t.Fatalf("request %v", req)
	}
	if p := <-c; <-errc != nil || p.ID != 7 {
		t.Fatalf("page %+v", p)
	}
	// The worker drops off and dials back in with the secret: the next call waits for it.
	worker.Close(websocket.StatusGoingAway, "")
	go activePage()
	time.Sleep(200 * time.Millisecond)
	if len(c) != 0 || !b.Connected() {
		t.Fatal("the call did not wait for the worker to come back")
	}
	worker = dialAsWorker(t, port, extID)
	defer worker.CloseNow()
	writeText(t, worker, helloFrame(extID, "secret", secret))
	if m := readJSON(t, worker); m["kind"] != "welcome" {
		t.Fatalf("reconnect got %v", m)
	}
	answerOne(t, worker, `{"id":8,"url":"about:blank","title":""}`)
	if p := <-c; <-errc != nil || p.ID != 8 {
		t.Fatalf("page %+v", p)
	}
	// The person disconnects in the side panel: the worker says bye, calls fail BROWSER_CLOSED.
	writeText(t, worker, `{"kind":"bye","reason":"disconnected from the side panel"}`)
	for deadline := time.Now().Add(5 * time.Second); b.Connected() && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
	}
	if b.Connected() {
		t.Fatal("still connected after bye")
	}
	_, err = linkActivePage(b)
	if e := errorOf(t, err); e.Code != CodeBrowserClosed || e.Message != "the person disconnected this client in the Deckhand side panel" {
		t.Fatalf("%v", e)
	}
}

func TestAttachWorkerThatDoesNotComeBackFailsTheCallAfterReconnectTimeout(t *testing.T) {
	extID, _ := defaultExtensionID()
	pairing, done := startAttach(t, AttachOptions{ReconnectTimeout: 500 * time.Millisecond})
	worker := dialAsWorker(t, pairing.Port, extID)
	writeText(t, worker, helloFrame(extID, "token", pairing.Token))
	readJSON(t, worker)
	a := <-done
	if a.err != nil {
		t.Fatal(a.err)
	}
	worker.Close(websocket.StatusGoingAway, "")
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	_, err := linkActivePage(a.b)
	e := errorOf(t, err)
	want := fmt.Sprintf("'context.activePage' waited 500 ms for the extension's service worker to reconnect to the bridge on 127.0.0.1:%d, and it did not",
		pairing.Port)
	if e.Code != CodeWorkerGone || e.Message != want || time.Since(start) < 450*time.Millisecond {
		t.Fatalf("%v after %s", e, time.Since(start))
	}
	// Closing stops listening.
	a.b.Close()
	if conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", pairing.Port), time.Second); err == nil {
		conn.Close()
		t.Fatal("still listening after Close")
	}
}
