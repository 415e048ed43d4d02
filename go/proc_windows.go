//go:build windows

package deckhand

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// cdpOverPipe: Chromium's --remote-debugging-pipe wants inherited descriptors 3 and 4, which
// os/exec cannot pass on Windows, so a launch there uses --remote-debugging-port=0 on
// 127.0.0.1 and reads the port from the profile's DevToolsActivePort file.
var cdpOverPipe = false

// createNewProcessGroup is CREATE_NEW_PROCESS_GROUP: a console's Ctrl+C reaches this program
// (which closes the browser), not Chromium directly.
const createNewProcessGroup = 0x00000200

func newProcessGroup() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: createNewProcessGroup}
}

// killProcessTree ends Chromium and its helper processes (taskkill /T walks the tree while
// the parent is still there), then the process itself should taskkill be missing.
func killProcessTree(p *os.Process) {
	if p == nil {
		return
	}
	kill := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(p.Pid))
	kill.SysProcAttr = &syscall.SysProcAttr{HideWindow: true}
	_ = kill.Run()
	_ = p.Kill()
}

// killLeftovers does nothing on Windows: Chromium's helper processes end with the browser
// process, and once it has exited its id may already name another process.
func killLeftovers(p *os.Process) {}

// stillActive is the exit code GetExitCodeProcess reports for a running process.
const stillActive = 259

// processAlive reports whether a process with this id is running (one that this user may not
// open counts).
func processAlive(pid int) bool {
	h, err := syscall.OpenProcess(syscall.PROCESS_QUERY_INFORMATION, false, uint32(pid))
	if err != nil {
		return err == syscall.ERROR_ACCESS_DENIED
	}
	defer syscall.CloseHandle(h)
	var code uint32
	if err := syscall.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}
