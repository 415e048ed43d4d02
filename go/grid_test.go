package deckhand

// LaunchGridBrowser against a real Selenium Grid 4 (test/fixtures/grid-cli.ts: standalone on
// loopback, Debian's chromium and chromium-driver, installed by npm run setup), and against a
// scripted one for what a real Grid will not do on demand.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// startTestGrid starts a Grid with a 10 s idle timeout and two slots; it stops when the test
// ends (grid-cli stops the Grid, its drivers and browsers when its stdin closes).
func startTestGrid(t *testing.T) string {
	t.Helper()
	root := repoRoot(t)
	if _, err := os.Stat(filepath.Join(root, ".tools", "grid", "lib")); err != nil {
		t.Skip("no Selenium Grid jars in .tools/grid/lib (npm run setup installs them)")
	}
	return startFixtureCLI(t, "the Grid", "grid-cli.ts", []string{"10", "2"}, 120*time.Second, 30*time.Second)
}

// gridSessions is how many sessions the Grid's nodes hold.
func gridSessions(t *testing.T, gridURL string) int {
	t.Helper()
	res, err := http.Get(gridURL + "/status")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var s struct {
		Value struct {
			Nodes []struct {
				Slots []struct {
					Session any `json:"session"`
				} `json:"slots"`
			} `json:"nodes"`
		} `json:"value"`
	}
	if err := json.NewDecoder(res.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, node := range s.Value.Nodes {
		for _, slot := range node.Slots {
			if slot.Session != nil {
				n++
			}
		}
	}
	return n
}

// sessionsBecome waits up to 10 s for the Grid's session count to be n (a deleted session's
// slot frees a moment later) and returns the count it saw last.
func sessionsBecome(t *testing.T, gridURL string, n int) int {
	t.Helper()
	now := gridSessions(t, gridURL)
	for deadline := time.Now().Add(10 * time.Second); now != n && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		now = gridSessions(t, gridURL)
	}
	return now
}

func TestGridBrowser(t *testing.T) {
	gridURL := startTestGrid(t)

	t.Run("acts and ends the Grid session on close", func(t *testing.T) {
		ctx := context.Background()
		b, err := LaunchGridBrowser(ctx, GridOptions{URL: gridURL})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		if n := gridSessions(t, gridURL); n != 1 {
			t.Fatalf("%d Grid sessions", n)
		}
		c, err := Create(ctx, CreateOptions{Browser: b})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		open(t, c, "/form.html")
		r, err := c.Act(ctx, ActInstruction("type Ada Lovelace in the Full name field"), nil)
		if err != nil || !r.Data.Success {
			t.Fatal(err, r)
		}
		if v := eval[string](t, c, "document.getElementById('name').value"); v != "Ada Lovelace" {
			t.Fatalf("name %q", v)
		}
		c.Close()
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		if b.Connected() {
			t.Fatal("still connected")
		}
		if n := sessionsBecome(t, gridURL, 0); n != 0 {
			t.Fatalf("%d Grid sessions after Close", n)
		}
	})

	t.Run("a node without the extension folder gets it packed with the session request", func(t *testing.T) {
		ctx := context.Background()
		b, err := LaunchGridBrowser(ctx, GridOptions{URL: gridURL, PackedExtension: true, ExtensionDir: "/nonexistent/on/the/node"})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		if id, _ := extensionIDFromManifest(ExtensionDir()); b.ExtensionID() != id {
			t.Fatalf("extension id %q, the build's is %q", b.ExtensionID(), id)
		}
		c, err := Create(ctx, CreateOptions{Browser: b})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		open(t, c, "/form.html")
		if title := eval[string](t, c, "document.title"); title != "Sign up" {
			t.Fatalf("title %q", title)
		}
		c.Close()
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		if n := sessionsBecome(t, gridURL, 0); n != 0 {
			t.Fatalf("%d Grid sessions after Close", n)
		}
	})

	t.Run("a browser that crashes fails the next call with BROWSER_CLOSED and leaves no session", func(t *testing.T) {
		ctx := context.Background()
		b, err := LaunchGridBrowser(ctx, GridOptions{URL: gridURL})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		c, err := Create(ctx, CreateOptions{Browser: b})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		open(t, c, "/form.html")
		// Its answer never comes: the browser is gone.
		b.conn.start("Browser.crash", nil, "")
		t0 := time.Now()
		var title string
		err = c.ExperimentalBatch(ctx, "async (batch) => batch.page.title()", nil, &title, nil)
		if codeOf(err) != CodeBrowserClosed {
			t.Fatalf("got %v (%q)", err, title)
		}
		if d := time.Since(t0); d > 20*time.Second {
			t.Fatalf("the call failed after %s", d)
		}
		t.Logf("BROWSER_CLOSED after %s", time.Since(t0))
		if b.Connected() {
			t.Fatal("still connected")
		}
		c.Close()
		b.Close()
		if n := sessionsBecome(t, gridURL, 0); n != 0 {
			t.Fatalf("%d Grid sessions after the crash", n)
		}
	})
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestGridLaunchRefusesBadURLsAndAnUnreachableGridAtOnce(t *testing.T) {
	ctx := context.Background()
	t0 := time.Now()
	_, err := LaunchGridBrowser(ctx, GridOptions{URL: "http://" + closedPort(t)})
	if codeOf(err) != CodeBrowserUnavailable || !strings.Contains(err.Error(), "could not be reached") {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Fatalf("took %s", d)
	}
	for _, u := range []string{"", "ftp://grid", "grid:4444", "http://"} {
		if _, err := LaunchGridBrowser(ctx, GridOptions{URL: u}); codeOf(err) != CodeInvalidArgument {
			t.Fatalf("%q: got %v", u, err)
		}
	}
	_, err = LaunchGridBrowser(ctx, GridOptions{URL: "http://user:pw@127.0.0.1:4444"})
	if codeOf(err) != CodeInvalidArgument || strings.Contains(err.Error(), "pw") {
		t.Fatalf("got %v", err)
	}
	for _, o := range []GridOptions{
		{URL: "http://127.0.0.1:4444", KeepAlive: 500 * time.Millisecond},
		{URL: "http://127.0.0.1:4444", Timeout: -time.Second},
		{URL: "http://127.0.0.1:4444", ViewportWidth: 800},
	} {
		if _, err := LaunchGridBrowser(ctx, o); codeOf(err) != CodeInvalidArgument {
			t.Fatalf("%+v: got %v", o, err)
		}
	}
}

// A scripted Grid: what LaunchGridBrowser sends, and the answers a real Grid gives only
// when it is misconfigured, full or failing.
func TestGridLaunchAgainstAScriptedGrid(t *testing.T) {
	var mu sync.Mutex
	var posted map[string]any
	var contentType, auth string
	var deleted []string
	answer := func(w http.ResponseWriter) {}
	grid := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.Method == "POST" && r.URL.Path == "/wd/hub/session":
			contentType, auth = r.Header.Get("Content-Type"), r.Header.Get("Authorization")
			posted = nil
			json.NewDecoder(r.Body).Decode(&posted)
			answer(w)
		case r.Method == "DELETE" && strings.HasPrefix(r.URL.Path, "/wd/hub/session/"):
			deleted = append(deleted, strings.TrimPrefix(r.URL.Path, "/wd/hub/session/"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer grid.Close()
	ctx := context.Background()
	opts := GridOptions{
		URL:            grid.URL + "/wd/hub/",
		Headers:        map[string]string{"Authorization": "Bearer secret-token"},
		ViewportWidth:  1000,
		ViewportHeight: 700,
		ExtensionDir:   "/on/the/node/chrome-mv3",
		Binary:         "/usr/bin/chromium",
		Args:           []string{"--lang=fr"},
		Capabilities:   map[string]any{"platformName": "linux", "se:name": "checkout"},
	}

	// The node's browser is not Chromium: the session is deleted again.
	answer = func(w http.ResponseWriter) {
		w.Write([]byte(`{"value":{"sessionId":"s-1","capabilities":{"browserName":"firefox"}}}`))
	}
	_, err := LaunchGridBrowser(ctx, opts)
	if codeOf(err) != CodeBrowserUnavailable || !strings.Contains(err.Error(), "se:cdp") {
		t.Fatalf("got %v", err)
	}
	mu.Lock()
	if contentType != "application/json; charset=utf-8" || auth != "Bearer secret-token" {
		t.Fatalf("content-type %q, authorization %q", contentType, auth)
	}
	var args []any
	for _, f := range sharedChromiumFlags {
		args = append(args, f)
	}
	args = append(args, "--disable-extensions-except=/on/the/node/chrome-mv3", "--load-extension=/on/the/node/chrome-mv3", "--window-size=1000,700",
		"--headless=new", "--lang=fr")
	want := map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"browserName":        "chrome",
		"platformName":       "linux",
		"se:name":            "checkout",
		"goog:chromeOptions": map[string]any{"args": args, "binary": "/usr/bin/chromium"},
	}}}
	if !reflect.DeepEqual(posted, want) {
		t.Fatalf("posted %v\nwant   %v", posted, want)
	}
	if len(deleted) != 1 || deleted[0] != "s-1" {
		t.Fatalf("deleted %v", deleted)
	}
	mu.Unlock()

	// A refusal is reported in the Grid's own words: its first line, kept short.
	answer = func(w http.ResponseWriter) {
		w.WriteHeader(500)
		w.Write([]byte(`{"value":{"error":"session not created",` +
			`"message":"Could not start a new session. No node supports the capabilities\nBuild info: version 4.41.0"}}`))
	}
	_, err = LaunchGridBrowser(ctx, GridOptions{URL: opts.URL, Headful: true})
	if codeOf(err) != CodeBrowserUnavailable || !strings.HasSuffix(err.Error(),
		"gave no browser: session not created: Could not start a new session. No node supports the capabilities") {
		t.Fatalf("got %v", err)
	}
	mu.Lock()
	goog := posted["capabilities"].(map[string]any)["alwaysMatch"].(map[string]any)["goog:chromeOptions"].(map[string]any)
	if _, ok := goog["binary"]; ok || strings.Contains(jsonOf(goog["args"]), "--headless") {
		t.Fatalf("a headful launch with no binary sent %v", goog)
	}
	mu.Unlock()
	answer = func(w http.ResponseWriter) {
		w.WriteHeader(503)
		w.Write([]byte(strings.Repeat("x", 500)))
	}
	if _, err = LaunchGridBrowser(ctx, GridOptions{URL: opts.URL}); codeOf(err) != CodeBrowserUnavailable || !strings.HasSuffix(err.Error(), strings.Repeat("x",
		297)+"...") {
		t.Fatalf("got %v", err)
	}

	// A full Grid queues the request: the caller's Timeout, or its ctx, ends the wait.
	release := make(chan struct{})
	defer close(release)
	answer = func(w http.ResponseWriter) {
		mu.Unlock()
		defer mu.Lock()
		<-release
	}
	t0 := time.Now()
	_, err = LaunchGridBrowser(ctx, GridOptions{URL: opts.URL, Timeout: 300 * time.Millisecond})
	if codeOf(err) != CodeTimeout || !strings.Contains(err.Error(), "300 ms") {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Fatalf("took %s", d)
	}
	cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err = LaunchGridBrowser(cctx, GridOptions{URL: opts.URL}); err != context.DeadlineExceeded {
		t.Fatalf("got %v", err)
	}
}

// PackedExtension sends the package beside the build (base64, in goog:chromeOptions.extensions)
// instead of asking the node to load a folder; no package is EXTENSION_MISSING, before any request.
func TestGridLaunchWithThePackedExtension(t *testing.T) {
	var mu sync.Mutex
	var posted map[string]any
	requests := 0
	grid := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		requests++
		if r.Method == "POST" && r.URL.Path == "/session" {
			posted = nil
			json.NewDecoder(r.Body).Decode(&posted)
		}
		w.WriteHeader(500)
		w.Write([]byte(`{"value":{"error":"session not created","message":"no node"}}`))
	}))
	defer grid.Close()
	// A build of its own: a manifest with a key (the extension's id) and a package beside it.
	build := filepath.Join(t.TempDir(), "chrome-mv3")
	if err := os.MkdirAll(build, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(build, "manifest.json"), []byte(`{"key":"AAAA"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DECKHAND_EXTENSION_DIR", build)
	ctx := context.Background()

	_, err := LaunchGridBrowser(ctx, GridOptions{URL: grid.URL, PackedExtension: true})
	if codeOf(err) != CodeExtensionMissing || !strings.Contains(err.Error(), "no packed extension at "+build+".crx") || !strings.Contains(err.Error(),
		"npm run build writes it") {
		t.Fatalf("got %v", err)
	}
	mu.Lock()
	if requests != 0 {
		t.Fatalf("%d requests to the Grid without a package", requests)
	}
	mu.Unlock()

	crx := []byte("Cr24\x03\x00\x00\x00 not really a package")
	if err := os.WriteFile(build+".crx", crx, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LaunchGridBrowser(ctx, GridOptions{URL: grid.URL, PackedExtension: true, ExtensionDir: "/nonexistent/on/the/node"})
	if codeOf(err) != CodeBrowserUnavailable {
		t.Fatalf("got %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	goog := posted["capabilities"].(map[string]any)["alwaysMatch"].(map[string]any)["goog:chromeOptions"].(map[string]any)
	if !reflect.DeepEqual(goog["extensions"], []any{base64.StdEncoding.EncodeToString(crx)}) {
		t.Fatalf("extensions %v", goog["extensions"])
	}
	if a := jsonOf(goog["args"]); strings.Contains(a, "--load-extension") || strings.Contains(a, "--disable-extensions-except") || strings.Contains(a,
		"/nonexistent") {
		t.Fatalf("args %s", a)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
