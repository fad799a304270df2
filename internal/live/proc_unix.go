//go:build unix

package live

import (
	"os/exec"
	"syscall"
)

// killGroup makes cmd lead its own process group and, on cancellation, kill
// the whole group, so hook processes and shells die with Claude Code.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
