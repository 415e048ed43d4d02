package deckhand

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// tryProgram is a program of someone else's: its own module, outside this repository, using
// this one by its module path.
const tryProgram = `package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/deckhand-dev/deckhand/go"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	browser, err := deckhand.LaunchLocalBrowser(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer browser.Close()
	client, err := deckhand.Create(ctx, deckhand.CreateOptions{Browser: browser})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	if _, err := client.Goto(ctx, os.Args[1], nil); err != nil {
		log.Fatal(err)
	}
	r, err := client.Act(ctx, deckhand.ObservedAction(deckhand.Action{Selector: "#order", Description: "the Order button", Method: "click"}), nil)
	if err != nil {
		log.Fatal(err)
	}
	// The button's order answers asynchronously: read the status once it changes, within 5 s.
	var status string
	if err := client.ExperimentalBatch(ctx, "async (batch) => batch.page.evaluate(\"(async () => { const s = document.getElementById('status'); "+
		"for (let i = 0; i < 100 && s.textContent === 'waiting'; i++) await new Promise((r) => setTimeout(r, 50)); return s.textContent })()\")",
		nil, &status, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("success=%v status=%s extension=%s\n", r.Data.Success, status, deckhand.ExtensionDir())
}
`

// A program in a folder outside the repository uses the module through a replace directive
// (as `go get` of it would, but from this checkout), with no DECKHAND_* variable: it launches
// Chromium with the extension embedded in the module, unpacked into its user's cache folder,
// and clicks a button by its selector on a page this test serves.
func TestAProgramOutsideTheRepositoryUsesTheModule(t *testing.T) {
	if findChromium() == "" {
		t.Fatal("no Chromium found (npm run setup installs it)")
	}
	goBin := "go" // go test puts its own Go first on PATH
	repo := repoRoot(t)
	dir := t.TempDir()
	if rel, err := filepath.Rel(repo, dir); err == nil && !strings.HasPrefix(rel, "..") {
		t.Fatalf("%s is inside the repository", dir)
	}
	cache := t.TempDir() // the user's cache folder: nothing unpacked there yet
	// Chromium leaves folders in TMPDIR, one holding a socket whose path must stay short.
	tmp, err := os.MkdirTemp("", "dh-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	goCache := strings.TrimSpace(runIn(t, dir, nil, goBin, "env", "GOCACHE"))

	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "DECKHAND_") || strings.HasPrefix(kv, "XDG_CACHE_HOME=") || strings.HasPrefix(kv, "TMPDIR=") ||
			strings.HasPrefix(kv, "GOFLAGS=") || strings.HasPrefix(kv, "GOCACHE=") || strings.HasPrefix(kv, "GOWORK=") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "XDG_CACHE_HOME="+cache, "TMPDIR="+tmp, "GOCACHE="+goCache, "GOFLAGS=-mod=mod", "GOWORK=off")

	var clicks atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ordered" {
			clicks.Add(1)
			w.WriteHeader(204)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<title>Shop</title><p id=status>waiting</p>
<button id=order onclick="fetch('/ordered', {method: 'POST'}).then(() => { document.getElementById('status').textContent = 'ordered' })">Order</button>`)
	}))
	defer srv.Close()

	t0 := time.Now()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(tryProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	runIn(t, dir, env, goBin, "mod", "init", "example.com/try")
	runIn(t, dir, env, goBin, "mod", "edit", "-replace", "github.com/deckhand-dev/deckhand/go="+filepath.Join(repo, "go"))
	runIn(t, dir, env, goBin, "mod", "tidy")
	runIn(t, dir, env, goBin, "build", "-o", "try", ".")
	built := time.Since(t0)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(dir, "try"), srv.URL+"/shop.html")
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the program failed after %s: %v\n%s", time.Since(t0), err, out)
	}
	want := fmt.Sprintf("success=true status=ordered extension=%s", filepath.Join(cache, "deckhand", "extension-"+embeddedExtensionHash()[:16]))
	if !strings.Contains(string(out), want) {
		t.Fatalf("the program printed:\n%s\nwant a line %q", out, want)
	}
	if n := clicks.Load(); n != 1 {
		t.Fatalf("the page's button sent %d orders", n)
	}
	t.Logf("module set up and built in %s, ran in %s", built.Round(time.Millisecond), (time.Since(t0) - built).Round(time.Millisecond))
}

// runIn runs a command in dir and returns its output; a failure ends the test.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}
