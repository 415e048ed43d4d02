package deckhand

// fixture_cli_test.go starts the repository's Node test fixtures that serve other languages'
// tests (test/fixtures/*-cli.ts): each prints one JSON line with its url on stdout, and stops
// when its stdin closes.

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"testing"
	"time"
)

// startFixtureCLI runs `node --import tsx test/fixtures/<script> args...` from the repository root
// and answers the url it prints; the fixture is stopped when the test ends, within stopWithin.
// `what` names it in failures.
func startFixtureCLI(t *testing.T, what, script string, args []string, startWithin, stopWithin time.Duration) string {
	t.Helper()
	cmd := exec.Command("node", append([]string{"--import", "tsx", "test/fixtures/" + script}, args...)...)
	cmd.Dir = repoRoot(t)
	stderr := &tailBuffer{}
	cmd.Stderr = stderr
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
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-exited:
		case <-time.After(stopWithin):
			cmd.Process.Kill()
			<-exited
			t.Errorf("%s did not stop within %s of its stdin closing", what, stopWithin)
		}
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- s
		io.Copy(io.Discard, stdout)
	}()
	select {
	case s := <-line:
		var out struct {
			URL string `json:"url"`
		}
		if err := json.Unmarshal([]byte(s), &out); err != nil || out.URL == "" {
			t.Fatalf("%s did not start: %q; stderr: %s", what, s, stderr.String())
		}
		return out.URL
	case <-time.After(startWithin):
		t.Fatalf("%s did not start within %s; stderr: %s", what, startWithin, stderr.String())
	}
	return ""
}
