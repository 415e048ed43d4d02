package deckhand

import (
	"context"
	"fmt"
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

// ConnectOptions.Headers go on the /json/version request and on the WebSocket handshake.
func TestConnectOptionsHeadersGoOnBothRequests(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]string{}
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path] = r.Header.Get("Authorization")
		mu.Unlock()
		if r.URL.Path == "/json/version" {
			fmt.Fprintf(w, `{"webSocketDebuggerUrl":"ws%s/devtools/browser/x"}`, strings.TrimPrefix(srv.URL, "http"))
			return
		}
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer srv.Close()
	_, err := ConnectLocalBrowserWith(context.Background(), srv.URL, &ConnectOptions{Headers: map[string]string{"Authorization": "Bearer s3cret"}})
	if codeOf(err) != CodeBrowserClosed || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("got %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if seen["/json/version"] != "Bearer s3cret" || seen["/devtools/browser/x"] != "Bearer s3cret" {
		t.Fatalf("headers seen %v", seen)
	}
}

func TestConnectOptionsTimeoutAndBadOptions(t *testing.T) {
	ctx := context.Background()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer hang.Close()
	t0 := time.Now()
	if _, err := ConnectLocalBrowserWith(ctx, hang.URL, &ConnectOptions{Timeout: 300 * time.Millisecond}); codeOf(err) != CodeBrowserClosed {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Fatalf("the timeout took %s", d)
	}
	for _, o := range []ConnectOptions{
		{Timeout: -time.Second},
		{AllowURLSchemes: []string{"javascript"}},
		{AllowURLSchemes: []string{"gopher"}},
	} {
		if _, err := ConnectLocalBrowserWith(ctx, hang.URL, &o); codeOf(err) != CodeInvalidArgument {
			t.Errorf("%+v: got %v", o, err)
		}
	}
	if _, err := ConnectLocalBrowserWith(ctx, "ftp://x", nil); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("got %v", err)
	}
	if got, err := parseAllowSchemes("x", []string{"FILE:", " file", "https", "blob"}); err != nil || !reflect.DeepEqual(got, []string{"file", "blob"}) {
		t.Fatalf("%v %v", got, err)
	}
}

// A browser connected with AllowURLSchemes: ["file"] opens file: URLs; without it they are refused.
func TestConnectOptionsAllowURLSchemesOpensFileURLs(t *testing.T) {
	ctx := context.Background()
	_, url := chromiumWithPort(t, true)
	page := filepath.Join(t.TempDir(), "local.html")
	if err := os.WriteFile(page, []byte("<title>On disk</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, allow := range []bool{false, true} {
		o := &ConnectOptions{Timeout: 5 * time.Second}
		if allow {
			o.AllowURLSchemes = []string{"FILE:"}
		}
		b, err := ConnectLocalBrowserWith(ctx, url, o)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Create(ctx, CreateOptions{Browser: b})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Goto(ctx, "file://"+page, nil)
		if !allow {
			if codeOf(err) != CodeURLNotAllowed {
				t.Fatalf("without the opt-in: %v", err)
			}
		} else {
			if err != nil {
				t.Fatal(err)
			}
			if title := eval[string](t, c, "document.title"); title != "On disk" {
				t.Fatalf("title %q", title)
			}
			if !reflect.DeepEqual(b.AllowURLSchemes(), []string{"file"}) {
				t.Fatalf("AllowURLSchemes() = %v", b.AllowURLSchemes())
			}
		}
		c.Close()
		b.Close()
	}
}

// The launch Windows uses (a debugging port on 127.0.0.1 read from DevToolsActivePort, since
// os/exec cannot hand Chromium descriptors 3 and 4 there), run here.
func TestLaunchOverADebuggingPort(t *testing.T) {
	saved := cdpOverPipe
	cdpOverPipe = false
	defer func() { cdpOverPipe = saved }()
	ctx := context.Background()
	b, err := LaunchLocalBrowser(ctx, &LaunchOptions{Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	profile := b.profile
	if _, err := os.Stat(filepath.Join(profile, "DevToolsActivePort")); err != nil {
		t.Fatalf("no DevToolsActivePort: %v", err)
	}
	c, err := Create(ctx, CreateOptions{Browser: b})
	if err != nil {
		t.Fatal(err)
	}
	open(t, c, "/form.html")
	if _, err := c.Act(ctx, ObservedAction(Action{Selector: "#name", Description: "name", Method: "fill", Arguments: []string{"Ada"}}), nil); err != nil {
		t.Fatal(err)
	}
	if v := eval[string](t, c, "document.getElementById('name').value"); v != "Ada" {
		t.Fatalf("name %q", v)
	}
	c.Close()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(profile); !os.IsNotExist(err) {
		t.Fatalf("the profile is still there: %v", err)
	}
}
