//go:build unix

package hooks

import (
	"os"
	"syscall"
)

// stdin returns standard input switched to non-blocking mode when it is a
// pipe, as Claude Code gives it, so that reads go through Go's poller and
// take a deadline: no extra goroutine or thread waits on a client that
// never closes stdin. A terminal or a file is left alone (a terminal left
// non-blocking would break the user's shell), and Read bounds the wait
// with a goroutine instead.
func stdin() *os.File {
	var st syscall.Stat_t
	if syscall.Fstat(0, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return os.Stdin
	}
	if err := syscall.SetNonblock(0, true); err != nil {
		return os.Stdin
	}
	return os.NewFile(0, "/dev/stdin")
}
