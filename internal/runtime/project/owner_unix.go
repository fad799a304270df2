//go:build unix

package project

import (
	"os"
	"syscall"
)

// ownedByMe reports whether the folder path belongs to the user running
// this process; one that cannot be read counts as another user's.
func ownedByMe(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
