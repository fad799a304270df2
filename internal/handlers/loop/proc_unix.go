//go:build unix

package loop

import (
	"os/exec"
	"syscall"
)

// killTree runs cmd in its own process group and kills the whole group
// when its context ends, so a check that forks cannot outlive its timeout.
func killTree(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
