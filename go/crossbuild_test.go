package deckhand

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The module builds (and its tests type-check) on Windows and macOS, not only here: platform
// code lives in proc_unix.go and proc_windows.go. The first run compiles the dependencies for
// each system (about a minute each on two cores); later runs come from Go's build cache.
func TestTheModuleBuildsForWindowsAndMacOS(t *testing.T) {
	goBin := "go" // go test puts its own Go first on PATH
	for _, target := range []struct{ goos, goarch string }{
		{"windows", "amd64"},
		{"darwin", "amd64"},
		{"darwin", "arm64"},
	} {
		t.Run(target.goos+"/"+target.goarch, func(t *testing.T) {
			for _, args := range [][]string{{"build", "-buildvcs=false", "./..."}, {"vet", "./..."}} {
				cmd := exec.Command(goBin, args...)
				cmd.Env = append(os.Environ(), "GOOS="+target.goos, "GOARCH="+target.goarch, "CGO_ENABLED=0", "GOFLAGS=-mod=readonly", "GOWORK=off")
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("GOOS=%s GOARCH=%s go %s: %v\n%s", target.goos, target.goarch, strings.Join(args, " "), err, out)
				}
			}
		})
	}
}

// README.md and docs/start/install.md promise Go 1.24+: go.mod's go line stays there (a dependency upgraded to a release
// that needs a newer Go raises it; pick an older release of it instead).
func TestGoModAsksForGo124(t *testing.T) {
	raw, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goLine := ""
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "go "); ok {
			goLine = v
		}
		if strings.HasPrefix(line, "toolchain ") {
			t.Errorf("go.mod names a toolchain (%s): a machine with Go 1.24 would try to download it", line)
		}
	}
	if goLine != "1.24" && !strings.HasPrefix(goLine, "1.24.") {
		t.Fatalf("go.mod says go %q; README.md, docs/start/install.md and npm run setup promise Go 1.24+", goLine)
	}
}
