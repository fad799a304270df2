//go:build !unix

package suite

import "os/exec"

// killGroup keeps exec's default cancellation where process groups are
// missing.
func killGroup(cmd *exec.Cmd) {}
