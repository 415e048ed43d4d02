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
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

// LaunchOptions configure LaunchLocalBrowser; nil means headless Chromium found on this machine.
type LaunchOptions struct {
	// Headful shows the window (the default is headless).
	Headful bool
	// ExecutablePath is Chromium's binary (default: DECKHAND_CHROMIUM, CHROME_PATH, then the usual places).
	ExecutablePath string
	// ExtensionDir is the built extension (default: DECKHAND_EXTENSION_DIR, else the
	// repository's .output/chrome-mv3).
	ExtensionDir string
	// ViewportWidth and ViewportHeight set the window size (default 1280x800).
	ViewportWidth, ViewportHeight int
	// UserDataDir is a profile to use (default: a temporary one, removed on Close).
	UserDataDir string
	// Args are extra Chromium flags.
	Args []string
	// Timeout bounds the launch (default 15 s).
	Timeout time.Duration
}

// Browser is a browser with the Deckhand extension. At most one Client may use it at a time.
type Browser struct {
	link    *extensionLink
	conn    *cdpConn
	cmd     *exec.Cmd
	exited  chan struct{}
	profile string

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

// ExtensionDir is where the built extension is: DECKHAND_EXTENSION_DIR, else the nearest
// .output/chrome-mv3 above the working directory or this package's source.
func ExtensionDir() string {
	if v := os.Getenv("DECKHAND_EXTENSION_DIR"); v != "" {
		return v
	}
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	for _, s := range starts {
		for d := s; ; d = filepath.Dir(d) {
			c := filepath.Join(d, ".output", "chrome-mv3")
			if _, err := os.Stat(filepath.Join(c, "manifest.json")); err == nil {
				return c
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return filepath.Join(".output", "chrome-mv3")
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
	ext := o.ExtensionDir
	if ext == "" {
		ext = ExtensionDir()
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
		"--remote-debugging-pipe",
		"--user-data-dir=" + userDataDir,
		"--disable-extensions-except=" + ext,
		"--load-extension=" + ext,
	}
	argv = append(argv, chromiumFlags...)
	argv = append(argv, fmt.Sprintf("--window-size=%d,%d", w, h))
	if !o.Headful {
		argv = append(argv, "--headless")
	}
	argv = append(argv, o.Args...)
	// Chromium reads CDP from its fd 3 and writes to its fd 4.
	toChromeR, toChromeW, err := os.Pipe()
	if err != nil {
		return nil, newError(CodeInternal, "pipe: %v", err)
	}
	fromChromeR, fromChromeW, err := os.Pipe()
	if err != nil {
		return nil, newError(CodeInternal, "pipe: %v", err)
	}
	cmd := exec.Command(exe, argv...)
	stderr := &tailBuffer{}
	cmd.Stderr = stderr
	cmd.ExtraFiles = []*os.File{toChromeR, fromChromeW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		toChromeR.Close()
		toChromeW.Close()
		fromChromeR.Close()
		fromChromeW.Close()
		if profile != "" {
			os.RemoveAll(profile)
		}
		return nil, &Error{Code: CodeBrowserClosed, Message: fmt.Sprintf("could not start Chromium at %s: %v", exe, err), Data: map[string]any{"executablePath": exe}}
	}
	toChromeR.Close()
	fromChromeW.Close()
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
	conn := newCDPConn(&pipeTransport{w: toChromeW, r: fromChromeR})
	lctx, cancel := context.WithTimeout(ctx, timeout+2*time.Second)
	defer cancel()
	go func() {
		select {
		case <-exited:
			conn.close()
		case <-lctx.Done():
		}
	}()
	link, err := openLink(lctx, conn, extID, timeout)
	if err == nil {
		// Chromium starts with no window; the first tab opens once the worker is up (a tab's
		// renderer starting beside it slows the worker down). Should it fail, the engine opens
		// one on the first call.
		_ = conn.send(lctx, "Target.createTarget", map[string]any{"url": "about:blank"}, "", nil)
	}
	if err != nil {
		conn.close()
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
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
	b := &Browser{link: link, conn: conn, cmd: cmd, exited: exited, profile: profile}
	if profile != "" {
		// Chromium exiting on its own (a crash, a kill) also removes the temporary profile.
		go func() {
			<-exited
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			os.RemoveAll(profile)
		}()
	}
	return b, nil
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
		if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
			os.RemoveAll(filepath.Join(tmp, e.Name()))
		}
	}
}

// ConnectLocalBrowser attaches to a running Chromium (an http:// or ws:// DevTools address)
// that already has the Deckhand extension. Close disconnects and leaves the browser running.
func ConnectLocalBrowser(ctx context.Context, cdpURL string) (*Browser, error) {
	wsURL := cdpURL
	switch {
	case strings.HasPrefix(cdpURL, "http://") || strings.HasPrefix(cdpURL, "https://"):
		u, err := url.Parse(cdpURL)
		if err != nil {
			return nil, newError(CodeInvalidArgument, "bad cdpURL %q: %v", cdpURL, err)
		}
		u.Path = "/json/version"
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(rctx, "GET", u.String(), nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, newError(CodeBrowserClosed, "cannot reach %s: %v", u, err)
		}
		defer res.Body.Close()
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
	extID, err := extensionIDFromManifest(ExtensionDir())
	if err != nil {
		return nil, err
	}
	return dialBrowser(ctx, wsURL, nil, extID, 10*time.Second, 3*time.Second)
}

// dialBrowser opens a CDP WebSocket at wsURL (headers go on the handshake) and links to the
// extension's worker there: dialWait bounds the handshake, linkWait the wait for the worker.
func dialBrowser(ctx context.Context, wsURL string, headers http.Header, extID string, dialWait, linkWait time.Duration) (*Browser, error) {
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
	conn := newCDPConn(&wsTransport{c: c, ctx: tctx, cancel: tcancel})
	link, err := openLink(ctx, conn, extID, linkWait)
	if err != nil {
		conn.close()
		return nil, err
	}
	return &Browser{link: link, conn: conn}, nil
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
			_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
			<-b.exited
		}
		b.conn.close()
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
