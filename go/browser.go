package deckhand

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// LaunchOptions configure LaunchLocalBrowser; nil means headless Chromium found on this machine.
type LaunchOptions struct {
	// Headful shows the window (the default is headless).
	Headful bool
	// ExecutablePath is Chromium's binary (default: DECKHAND_CHROMIUM, CHROME_PATH, then the usual places).
	ExecutablePath string
	// ExtensionDir is a built extension's folder (default: DECKHAND_EXTENSION_DIR, else the
	// extension embedded in this module, unpacked on first use; see ExtensionDir()).
	ExtensionDir string
	// ViewportWidth and ViewportHeight set the window size (default 1280x800).
	ViewportWidth, ViewportHeight int
	// UserDataDir is a profile to use (default: a temporary one, removed on Close).
	UserDataDir string
	// Args are extra Chromium flags.
	Args []string
	// Timeout bounds the launch (default 15 s).
	Timeout time.Duration
	// AllowURLSchemes are URL schemes this browser may open beyond http:, https:, data: and
	// about:blank, as in ConnectOptions.
	AllowURLSchemes []string
}

// Browser is a browser with the Deckhand extension. At most one Client may use it at a time.
type Browser struct {
	link    *extensionLink
	conn    *cdpConn
	cmd     *exec.Cmd
	exited  chan struct{}
	profile string
	// allowURLSchemes go with each navigation (Goto) as allowSchemes.
	allowURLSchemes []string

	// release ends what the handle holds elsewhere (a Grid session) once its connection is
	// closed; Close calls it.
	release func()

	mu        sync.Mutex
	claimedBy *Client
	closeOnce sync.Once
	closeErr  error
}

var chromiumCandidates = []string{
	"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable",
	"/Applications/Chromium.app/Contents/MacOS/Chromium",
}

func findChromium() string {
	for _, k := range []string{"DECKHAND_CHROMIUM", "CHROME_PATH"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	for _, c := range chromiumCandidates {
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

var logLine = regexp.MustCompile(`^\[[^\]]*?:(VERBOSE\d*|INFO|WARNING|ERROR|FATAL):([^\]:]+)(?::\d+)?\]\s*(.*)$`)

// chromiumReason is the last meaningful lines of Chromium's stderr, errors first.
func chromiumReason(stderr string) string {
	var errs, other []string
	for _, raw := range strings.Split(stderr, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "DevTools listening on") {
			continue
		}
		if m := logLine.FindStringSubmatch(line); m != nil {
			if strings.HasPrefix(m[1], "VERBOSE") || m[1] == "INFO" {
				continue
			}
			if m[1] == "ERROR" || m[1] == "FATAL" {
				errs = append(errs, strings.TrimSpace(m[3]))
			} else {
				other = append(other, strings.TrimSpace(m[3]))
			}
			continue
		}
		other = append(other, line)
	}
	pick := other
	if len(errs) > 0 {
		pick = errs
	}
	if len(pick) > 3 {
		pick = pick[len(pick)-3:]
	}
	return strings.Join(pick, " | ")
}

type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.b = append(t.b, p...)
	if len(t.b) > 8192 {
		t.b = t.b[len(t.b)-8192:]
	}
	t.mu.Unlock()
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// LaunchLocalBrowser starts Chromium with the Deckhand extension loaded; CDP runs over a pipe
// (no debugging port is opened). Close ends it and removes its temporary profile.
func LaunchLocalBrowser(ctx context.Context, opts *LaunchOptions) (*Browser, error) {
	o := LaunchOptions{}
	if opts != nil {
		o = *opts
	}
	exe := o.ExecutablePath
	if exe == "" {
		exe = findChromium()
	}
	if exe == "" {
		return nil, newError(CodeInvalidArgument, "no Chromium found; install it (npm run setup does) or set LaunchOptions.ExecutablePath")
	}
	if _, err := os.Stat(exe); err != nil {
		return nil, newError(CodeInvalidArgument, "no Chromium at %s", exe)
	}
	allow, err := parseAllowSchemes("LaunchOptions.AllowURLSchemes", o.AllowURLSchemes)
	if err != nil {
		return nil, err
	}
	ext := o.ExtensionDir
	if ext == "" {
		if ext, _, err = extensionDir(); err != nil {
			return nil, err
		}
	}
	extID, err := extensionIDFromManifest(ext)
	if err != nil {
		return nil, err
	}
	if abs, err := filepath.Abs(ext); err == nil {
		ext = abs
	}
	w, h, err := viewportSize(o.ViewportWidth, o.ViewportHeight)
	if err != nil {
		return nil, err
	}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 15 * time.Second
	}
	if timeout < 0 || timeout > maxTimeoutMs*time.Millisecond {
		return nil, newError(CodeInvalidArgument, "the launch timeout must be from 1 ms to 10 minutes, got %s", timeout)
	}
	profile, userDataDir := "", o.UserDataDir
	if userDataDir == "" {
		removeStaleProfiles()
		profile, err = os.MkdirTemp("", fmt.Sprintf("deckhand-profile-%d-", os.Getpid()))
		if err != nil {
			return nil, newError(CodeInternal, "cannot make a temporary profile: %v", err)
		}
		userDataDir = profile
	}
	argv := []string{
		"--user-data-dir=" + userDataDir,
		"--disable-extensions-except=" + ext,
		"--load-extension=" + ext,
	}
	activePort := ""
	if cdpOverPipe {
		argv = append([]string{"--remote-debugging-pipe"}, argv...)
	} else {
		// Port 0: Chromium picks a free one on 127.0.0.1 and writes it to DevToolsActivePort.
		argv = append([]string{"--remote-debugging-port=0"}, argv...)
		activePort = filepath.Join(userDataDir, "DevToolsActivePort")
		_ = os.Remove(activePort) // one left by an earlier run names a port that is gone
	}
	argv = append(argv, chromiumFlags...)
	argv = append(argv, fmt.Sprintf("--window-size=%d,%d", w, h))
	if !o.Headful {
		argv = append(argv, "--headless")
	}
	argv = append(argv, o.Args...)
	cmd := exec.Command(exe, argv...)
	stderr := &tailBuffer{}
	cmd.Stderr = stderr
	cmd.SysProcAttr = newProcessGroup()
	var pipe *pipeTransport
	var childEnds []*os.File
	if cdpOverPipe {
		// Chromium reads CDP from its fd 3 and writes to its fd 4.
		toChromeR, toChromeW, err := os.Pipe()
		if err != nil {
			return nil, newError(CodeInternal, "pipe: %v", err)
		}
		fromChromeR, fromChromeW, err := os.Pipe()
		if err != nil {
			toChromeR.Close()
			toChromeW.Close()
			return nil, newError(CodeInternal, "pipe: %v", err)
		}
		cmd.ExtraFiles = []*os.File{toChromeR, fromChromeW}
		pipe = &pipeTransport{w: toChromeW, r: fromChromeR}
		childEnds = []*os.File{toChromeR, fromChromeW}
	}
	if err := cmd.Start(); err != nil {
		for _, f := range childEnds {
			f.Close()
		}
		if pipe != nil {
			pipe.close()
		}
		if profile != "" {
			os.RemoveAll(profile)
		}
		return nil, &Error{Code: CodeBrowserClosed, Message: fmt.Sprintf("could not start Chromium at %s: %v", exe, err), Data: map[string]any{"executablePath": exe}}
	}
	for _, f := range childEnds {
		f.Close()
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	said := func() string {
		if r := chromiumReason(stderr.String()); r != "" {
			return "; Chromium said: " + r
		}
		return ""
	}
	lctx, cancel := context.WithTimeout(ctx, timeout+2*time.Second)
	defer cancel()
	var conn *cdpConn
	var link *extensionLink
	if pipe != nil {
		conn = newCDPConn(pipe)
	} else {
		conn, err = dialActivePort(lctx, activePort, exited, timeout)
	}
	if conn != nil {
		go func() {
			select {
			case <-exited:
				conn.close()
			case <-lctx.Done():
			}
		}()
		link, err = openLink(lctx, conn, extID, timeout)
	}
	if err == nil {
		// Chromium starts with no window; the first tab opens once the worker is up (a tab's
		// renderer starting beside it slows the worker down). Should it fail, the engine opens
		// one on the first call.
		_ = conn.send(lctx, "Target.createTarget", map[string]any{"url": "about:blank"}, "", nil)
	}
	if err != nil {
		if conn != nil {
			conn.close()
		}
		endChromium(cmd.Process, exited)
		<-exited
		if profile != "" {
			os.RemoveAll(profile)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if cmd.ProcessState != nil && !cmd.ProcessState.Success() && !errorsIsTimeout(lctx) {
			how := cmd.ProcessState.String()
			s := said()
			if s == "" {
				s = "; it printed nothing"
			}
			return nil, &Error{Code: CodeBrowserClosed, Message: fmt.Sprintf("Chromium exited during launch (%s)%s", how, s), Data: map[string]any{"executablePath": exe}}
		}
		if lctx.Err() != nil {
			return nil, &Error{Code: CodeTimeout, Message: fmt.Sprintf("launching Chromium timed out after %d ms: the browser or the extension's worker did not come up%s", timeout.Milliseconds(), said()), Data: map[string]any{"timeoutMs": float64(timeout.Milliseconds())}}
		}
		e := asError(err)
		return nil, &Error{Code: e.Code, Message: e.Message + said(), Data: e.Data}
	}
	b := &Browser{link: link, conn: conn, cmd: cmd, exited: exited, profile: profile, allowURLSchemes: allow}
	if profile != "" {
		// Chromium exiting on its own (a crash, a kill) also removes the temporary profile.
		go func() {
			<-exited
			endChromium(cmd.Process, exited)
			os.RemoveAll(profile)
		}()
	}
	return b, nil
}

// dialActivePort waits for a Chromium started with --remote-debugging-port=0 to write its
// port and browser path to file (its profile's DevToolsActivePort), then opens a CDP
// WebSocket there. It gives up when the browser exits or ctx ends.
func dialActivePort(ctx context.Context, file string, exited <-chan struct{}, timeout time.Duration) (*cdpConn, error) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if raw, err := os.ReadFile(file); err == nil {
			lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
			if len(lines) >= 2 && strings.TrimSpace(lines[0]) != "" {
				wsURL := "ws://127.0.0.1:" + strings.TrimSpace(lines[0]) + strings.TrimSpace(lines[1])
				return dialCDP(ctx, wsURL, nil, timeout)
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-exited:
			return nil, newError(CodeBrowserClosed, "Chromium exited before it opened its debugging port")
		case <-tick.C:
		}
	}
}

// endChromium kills a launched Chromium and its helpers: the whole tree while it runs, what it
// left behind once it has exited.
func endChromium(p *os.Process, exited <-chan struct{}) {
	select {
	case <-exited:
		killLeftovers(p)
	default:
		killProcessTree(p)
	}
}

func errorsIsTimeout(ctx context.Context) bool { return ctx.Err() == context.DeadlineExceeded }

var profileName = regexp.MustCompile(`^deckhand-profile-(\d+)-`)

// removeStaleProfiles removes temporary profiles left by processes that are gone.
func removeStaleProfiles() {
	tmp := os.TempDir()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		m := profileName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		var pid int
		fmt.Sscan(m[1], &pid)
		if pid == os.Getpid() || pid <= 0 {
			continue
		}
		if !processAlive(pid) {
			os.RemoveAll(filepath.Join(tmp, e.Name()))
		}
	}
}

// ConnectOptions configure ConnectLocalBrowserWith; nil is what ConnectLocalBrowser does.
type ConnectOptions struct {
	// Headers go on the /json/version request and on the WebSocket handshake (a reverse
	// proxy's Authorization, say). They are never put in error messages.
	Headers map[string]string
	// Timeout bounds reaching the browser: the /json/version request and the WebSocket
	// handshake (default 10 s, at most 10 minutes). The wait for the extension's worker is the
	// smaller of it and 3 s.
	Timeout time.Duration
	// AllowURLSchemes are URL schemes this browser may open beyond http:, https:, data: and
	// about:blank, for whoever owns the machine: any of "file", "about", "chrome",
	// "chrome-extension", "devtools", "view-source" and "blob" ("FILE:" is read as "file").
	// Every Goto through this handle may then open them. javascript: is never opened: naming
	// it, or an unknown scheme, is INVALID_ARGUMENT.
	AllowURLSchemes []string
}

// ConnectLocalBrowser attaches to a running Chromium (an http:// or ws:// DevTools address)
// that already has the Deckhand extension. Close disconnects and leaves the browser running.
// It is ConnectLocalBrowserWith(ctx, cdpURL, nil).
func ConnectLocalBrowser(ctx context.Context, cdpURL string) (*Browser, error) {
	return ConnectLocalBrowserWith(ctx, cdpURL, nil)
}

// ConnectLocalBrowserWith is ConnectLocalBrowser with options (headers, a timeout, extra URL
// schemes); opts may be nil.
//
//	b, err := deckhand.ConnectLocalBrowserWith(ctx, "http://127.0.0.1:9222", &deckhand.ConnectOptions{
//		Headers: map[string]string{"Authorization": "Bearer " + token},
//		Timeout: 5 * time.Second,
//	})
func ConnectLocalBrowserWith(ctx context.Context, cdpURL string, opts *ConnectOptions) (*Browser, error) {
	o := ConnectOptions{}
	if opts != nil {
		o = *opts
	}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	if timeout < time.Millisecond || timeout > maxTimeoutMs*time.Millisecond {
		return nil, newError(CodeInvalidArgument, "the connect timeout must be from 1 ms to 10 minutes, got %s", timeout)
	}
	allow, err := parseAllowSchemes("ConnectOptions.AllowURLSchemes", o.AllowURLSchemes)
	if err != nil {
		return nil, err
	}
	headers := http.Header{}
	for k, v := range o.Headers {
		headers.Set(k, v)
	}
	wsURL := cdpURL
	switch {
	case strings.HasPrefix(cdpURL, "http://") || strings.HasPrefix(cdpURL, "https://"):
		u, err := url.Parse(cdpURL)
		if err != nil {
			return nil, newError(CodeInvalidArgument, "bad cdpURL %q: %v", cdpURL, err)
		}
		u.Path = "/json/version"
		rctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		req, _ := http.NewRequestWithContext(rctx, "GET", u.String(), nil)
		req.Header = headers.Clone()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, newError(CodeBrowserClosed, "cannot reach %s: %v", u, err)
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return nil, newError(CodeBrowserClosed, "%s answered %d", u, res.StatusCode)
		}
		var info struct {
			WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
		}
		if err := json.NewDecoder(res.Body).Decode(&info); err != nil || info.WebSocketDebuggerURL == "" {
			return nil, newError(CodeBrowserClosed, "%s did not give a webSocketDebuggerUrl", u)
		}
		wsURL = info.WebSocketDebuggerURL
	case strings.HasPrefix(cdpURL, "ws://") || strings.HasPrefix(cdpURL, "wss://"):
	default:
		return nil, newError(CodeInvalidArgument, "cdpURL must be an http(s):// or ws(s):// URL, got %q", cdpURL)
	}
	extID, err := defaultExtensionID()
	if err != nil {
		return nil, err
	}
	b, err := dialBrowser(ctx, wsURL, headers, extID, timeout, min(timeout, 3*time.Second))
	if err != nil {
		return nil, err
	}
	b.allowURLSchemes = allow
	return b, nil
}

// dialCDP opens a CDP WebSocket at wsURL (headers go on the handshake), bounded by dialWait.
func dialCDP(ctx context.Context, wsURL string, headers http.Header, dialWait time.Duration) (*cdpConn, error) {
	dctx, cancel := context.WithTimeout(ctx, dialWait)
	defer cancel()
	c, _, err := websocket.Dial(dctx, wsURL, &websocket.DialOptions{HTTPHeader: headers})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, newError(CodeBrowserClosed, "cannot connect to %s: %v", wsURL, err)
	}
	c.SetReadLimit(512 << 20)
	tctx, tcancel := context.WithCancel(context.Background())
	return newCDPConn(&wsTransport{c: c, ctx: tctx, cancel: tcancel}), nil
}

// dialBrowser opens a CDP WebSocket at wsURL (headers go on the handshake) and links to the
// extension's worker there: dialWait bounds the handshake, linkWait the wait for the worker.
func dialBrowser(ctx context.Context, wsURL string, headers http.Header, extID string, dialWait, linkWait time.Duration) (*Browser, error) {
	conn, err := dialCDP(ctx, wsURL, headers, dialWait)
	if err != nil {
		return nil, err
	}
	link, err := openLink(ctx, conn, extID, linkWait)
	if err != nil {
		conn.close()
		return nil, err
	}
	return &Browser{link: link, conn: conn}, nil
}

// AllowURLSchemes are the URL schemes this browser opens beyond the default ones.
func (b *Browser) AllowURLSchemes() []string { return append([]string(nil), b.allowURLSchemes...) }

// parseAllowSchemes normalises an AllowURLSchemes list ("FILE:" is "file"; http, https and
// data are open already and dropped); javascript and unknown names are INVALID_ARGUMENT.
func parseAllowSchemes(what string, in []string) ([]string, error) {
	var out []string
	for _, raw := range in {
		name := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(raw)), ":")
		switch {
		case name == "javascript":
			return nil, newError(CodeInvalidArgument, "%s: javascript: URLs are never opened; run script in a page with ExperimentalBatch (page.evaluate)", what)
		case name == "http" || name == "https" || name == "data":
			continue
		case !slices.Contains(optionalURLSchemes, name):
			return nil, newError(CodeInvalidArgument, "%s: %q is not a scheme Deckhand can open; allowed values: %s (Deckhand opens http:, https:, data: and about:blank already)", what, raw, strings.Join(optionalURLSchemes, ", "))
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// ExtensionID is the extension's id in this browser.
func (b *Browser) ExtensionID() string { return b.link.extensionID }

// Connected reports whether the browser is still there.
func (b *Browser) Connected() bool { return b.link.connected() }

// Close closes a launched browser (or disconnects from a connected one; a Grid browser's
// session is deleted). It runs once; later calls return the first call's result.
func (b *Browser) Close() error {
	b.closeOnce.Do(func() {
		what := "the browser connection was closed"
		if b.cmd != nil {
			what = "the browser was closed"
		} else if b.conn == nil {
			what = "the bridge connection was closed"
		}
		b.link.close(newError(CodeBrowserClosed, "%s", what))
		if b.cmd != nil {
			if !b.conn.isClosed() {
				_ = b.conn.sendTimeout(context.Background(), "Browser.close", nil, "", nil, 3*time.Second)
			}
			select {
			case <-b.exited:
			case <-time.After(5 * time.Second):
			}
			endChromium(b.cmd.Process, b.exited)
			<-b.exited
		}
		if b.conn != nil { // nil over the WebSocket bridge
			b.conn.close()
		}
		if b.release != nil {
			b.release()
		}
		if b.profile != "" {
			if err := os.RemoveAll(b.profile); err != nil {
				b.closeErr = err
			}
		}
	})
	return b.closeErr
}

// viewportSize is the window size a launcher asks for: 1280x800 when neither is set.
func viewportSize(w, h int) (int, int, error) {
	if w == 0 && h == 0 {
		return 1280, 800, nil
	}
	if w <= 0 || h <= 0 {
		return 0, 0, newError(CodeInvalidArgument, "the viewport needs a positive width and height")
	}
	return w, h, nil
}
