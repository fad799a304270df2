//go:build unix

package safepath

import (
	"io/fs"
	"syscall"
)

// oNonblock makes an open of a named pipe return at once instead of
// waiting for its other end; a regular file ignores it.
const oNonblock = syscall.O_NONBLOCK

// links returns the hard-link count of a file.
func links(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
