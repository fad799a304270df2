//go:build unix

package suite

import (
	"os/exec"
	"syscall"
)

// killGroup makes cmd lead its own process group and, on cancellation, kill
// the whole group, so a hook's children die with its shell.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
