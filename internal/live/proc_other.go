//go:build !unix

package live

import "os/exec"

// killGroup keeps exec's default cancellation (kill the process) where
// process groups are missing.
func killGroup(cmd *exec.Cmd) {}
