//go:build unix

package deckhand

import (
	"os"
	"syscall"
)

// cdpOverPipe: on Unix, Chromium reads CDP from its fd 3 and writes to its fd 4
// (--remote-debugging-pipe), so no debugging port is opened.
var cdpOverPipe = true

// newProcessGroup starts Chromium in a process group of its own, so that a terminal's Ctrl+C
// reaches this program (which closes the browser) and not Chromium directly, and so that
// killProcessTree can end Chromium's helper processes with it.
func newProcessGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killProcessTree kills the process group p leads: Chromium and its helpers.
func killProcessTree(p *os.Process) {
	if p == nil {
		return
	}
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil {
		_ = p.Kill()
	}
}

// killLeftovers kills what is left of the process group once its leader p has exited.
func killLeftovers(p *os.Process) {
	if p != nil {
		_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	}
}

// processAlive reports whether a process with this id exists (one of another user counts).
func processAlive(pid int) bool {
	return syscall.Kill(pid, 0) != syscall.ESRCH
}
