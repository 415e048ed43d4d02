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
	link            *extensionLink
	conn            *cdpConn // nil over the bridge
	cmd             *exec.Cmd
	exited          chan struct{}
	profile         string
	allowURLSchemes []string // sent with each navigation as allowSchemes
	release         func()   // ends what the handle holds elsewhere (a Grid session); Close calls it

	mu        sync.Mutex
	claimedBy *Client
	closeOnce sync.Once
	closeErr  error
}

func findChromium() string {
	for _, k := range []string{"DECKHAND_CHROMIUM", "CHROME_PATH"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	for _, c := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable",
		"/Applications/Chromium.app/Contents/MacOS/Chromium"} {
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

var logLine = regexp.MustCompile(`^\[[^\]]*?:(VERBOSE\d*|INFO|WARNING|ERROR|FATAL):[^\]:]+(?::\d+)?\]\s*(.*)$`)

// chromiumReason is the last meaningful lines of Chromium's stderr, errors first.
func chromiumReason(stderr string) string {
	var errs, other []string
	for _, line := range strings.Split(stderr, "\n") {
		line = strings.TrimSpace(line)
		m := logLine.FindStringSubmatch(line)
		switch {
		case line == "" || strings.HasPrefix(line, "DevTools listening on"):
		case m == nil:
			other = append(other, line)
		case m[1] == "ERROR" || m[1] == "FATAL":
			errs = append(errs, m[2])
		case m[1] == "WARNING":
			other = append(other, m[2])
		}
	}
	if len(errs) > 0 {
		other = errs
	}
	return strings.Join(other[max(0, len(other)-3):], " | ")
}

// tailBuffer keeps the last 8 KB written to it.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.b = append(t.b, p...)
	t.b = t.b[max(0, len(t.b)-8192):]
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
		if ext, err = extensionDir(); err != nil {
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
	timeout, err := waitOption("the launch timeout", o.Timeout, launchTimeoutMs*time.Millisecond, time.Millisecond)
	if err != nil {
		return nil, err
	}
	profile, userDataDir := "", o.UserDataDir
	if userDataDir == "" {
		removeStaleProfiles()
		if profile, err = os.MkdirTemp("", fmt.Sprintf("deckhand-profile-%d-", os.Getpid())); err != nil {
			return nil, newError(CodeInternal, "cannot make a temporary profile: %v", err)
		}
		userDataDir = profile
	}
	launched := false
	defer func() {
		if !launched && profile != "" {
			os.RemoveAll(profile)
		}
	}()
	argv := []string{"--remote-debugging-pipe", "--user-data-dir=" + userDataDir, "--disable-extensions-except=" + ext, "--load-extension=" + ext}
	activePort := filepath.Join(userDataDir, "DevToolsActivePort")
	if !cdpOverPipe {
		// Port 0: Chromium picks a free one on 127.0.0.1 and writes it to DevToolsActivePort.
		argv[0] = "--remote-debugging-port=0"
		_ = os.Remove(activePort) // one left by an earlier run names a port that is gone
	}
	argv = append(append(argv, chromiumFlags...), fmt.Sprintf("--window-size=%d,%d", w, h))
	if !o.Headful {
		argv = append(argv, "--headless")
	}
	cmd := exec.Command(exe, append(argv, o.Args...)...)
	stderr := &tailBuffer{}
	cmd.Stderr = stderr
	cmd.SysProcAttr = newProcessGroup()
	var pipe *pipeTransport
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
	}
	err = cmd.Start()
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
	if err != nil {
		if pipe != nil {
			pipe.close()
		}
		return nil, &Error{Code: CodeBrowserClosed, Message: fmt.Sprintf("could not start Chromium at %s: %v", exe, err), Data: map[string]any{"executablePath": exe}}
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
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
		if link, err = openLink(lctx, conn, extID, timeout); err == nil {
			// Chromium starts with no window; the first tab opens once the worker is up (a tab's
			// renderer starting beside it slows the worker down). Should it fail, the engine opens
			// one on the first call.
			_ = conn.send(lctx, "Target.createTarget", map[string]any{"url": "about:blank"}, "", nil)
		}
	}
	if err != nil {
		if conn != nil {
			conn.close()
		}
		endChromium(cmd.Process, exited)
		<-exited
		return nil, launchError(ctx, lctx, err, cmd, exe, timeout, chromiumReason(stderr.String()))
	}
	if launched = true; profile != "" {
		// Chromium exiting on its own (a crash, a kill) also removes the temporary profile.
		go func() {
			<-exited
			endChromium(cmd.Process, exited)
			os.RemoveAll(profile)
		}()
	}
	return &Browser{link: link, conn: conn, cmd: cmd, exited: exited, profile: profile, allowURLSchemes: allow}, nil
}

// launchError says why a launch failed, with what Chromium printed.
func launchError(ctx, lctx context.Context, err error, cmd *exec.Cmd, exe string, timeout time.Duration, said string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if said != "" {
		said = "; Chromium said: " + said
	}
	data := map[string]any{"executablePath": exe}
	if cmd.ProcessState != nil && !cmd.ProcessState.Success() && lctx.Err() != context.DeadlineExceeded {
		if said == "" {
			said = "; it printed nothing"
		}
		return &Error{Code: CodeBrowserClosed, Message: fmt.Sprintf("Chromium exited during launch (%s)%s", cmd.ProcessState, said), Data: data}
	}
	if lctx.Err() != nil {
		return &Error{Code: CodeTimeout, Message: fmt.Sprintf("launching Chromium timed out after %d ms: the browser or the extension's worker did not come up%s",
			timeout.Milliseconds(), said), Data: map[string]any{"timeoutMs": float64(timeout.Milliseconds())}}
	}
	e := asError(err)
	return &Error{Code: e.Code, Message: e.Message + said, Data: e.Data}
}

// dialActivePort waits for a Chromium started with --remote-debugging-port=0 to write its
// port and browser path to file (its profile's DevToolsActivePort), then opens a CDP
// WebSocket there. It gives up when the browser exits or ctx ends.
func dialActivePort(ctx context.Context, file string, exited <-chan struct{}, timeout time.Duration) (*cdpConn, error) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		raw, _ := os.ReadFile(file)
		if lines := strings.Fields(string(raw)); len(lines) >= 2 {
			return dialCDP(ctx, "ws://127.0.0.1:"+lines[0]+lines[1], nil, timeout)
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

var profileName = regexp.MustCompile(`^deckhand-profile-(\d+)-`)

// removeStaleProfiles removes temporary profiles left by processes that are gone.
func removeStaleProfiles() {
	entries, _ := os.ReadDir(os.TempDir())
	for _, e := range entries {
		var pid int
		if m := profileName.FindStringSubmatch(e.Name()); m != nil {
			fmt.Sscan(m[1], &pid)
		}
		if pid > 0 && pid != os.Getpid() && !processAlive(pid) {
			os.RemoveAll(filepath.Join(os.TempDir(), e.Name()))
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
	timeout, err := waitOption("the connect timeout", o.Timeout, connectTimeoutMs*time.Millisecond, time.Millisecond)
	if err != nil {
		return nil, err
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
	if u, err := url.Parse(cdpURL); err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ws" && u.Scheme != "wss") {
		return nil, newError(CodeInvalidArgument, "cdpURL must be an http(s):// or ws(s):// URL, got %q", cdpURL)
	} else if u.Scheme == "http" || u.Scheme == "https" {
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
		var info struct {
			WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
		}
		if res.StatusCode != http.StatusOK {
			return nil, newError(CodeBrowserClosed, "%s answered %d", u, res.StatusCode)
		}
		if err := json.NewDecoder(res.Body).Decode(&info); err != nil || info.WebSocketDebuggerURL == "" {
			return nil, newError(CodeBrowserClosed, "%s did not give a webSocketDebuggerUrl", u)
		}
		wsURL = info.WebSocketDebuggerURL
	}
	extID, err := defaultExtensionID()
	if err != nil {
		return nil, err
	}
	b, err := dialBrowser(ctx, wsURL, headers, extID, timeout, min(timeout, connectWorkerWaitMs*time.Millisecond))
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
func (b *Browser) AllowURLSchemes() []string { return slices.Clone(b.allowURLSchemes) }

// parseAllowSchemes normalises an AllowURLSchemes list ("FILE:" is "file"; http, https and
// data are open already and dropped); javascript and unknown names are INVALID_ARGUMENT.
func parseAllowSchemes(what string, in []string) ([]string, error) {
	var out []string
	for _, raw := range in {
		name := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(raw)), ":")
		switch {
		case name == "javascript":
			return nil, newError(CodeInvalidArgument, "%s: javascript: URLs are never opened; run script in a page with ExperimentalBatch (page.evaluate)", what)
		case name != "http" && name != "https" && name != "data" && !slices.Contains(optionalURLSchemes, name):
			return nil, newError(CodeInvalidArgument,
				"%s: %q is not a scheme Deckhand can open; allowed values: %s (Deckhand opens http:, https:, data: and about:blank already)",
				what, raw, strings.Join(optionalURLSchemes, ", "))
		case slices.Contains(optionalURLSchemes, name) && !slices.Contains(out, name):
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
		if b.conn != nil {
			b.conn.close()
		}
		if b.release != nil {
			b.release()
		}
		if b.profile != "" {
			b.closeErr = os.RemoveAll(b.profile)
		}
	})
	return b.closeErr
}

// viewportSize is the window size a launcher asks for: the default when neither is set.
func viewportSize(w, h int) (int, int, error) {
	if w == 0 && h == 0 {
		return viewportWidth, viewportHeight, nil
	}
	if w <= 0 || h <= 0 {
		return 0, 0, newError(CodeInvalidArgument, "the viewport needs a positive width and height")
	}
	return w, h, nil
}
