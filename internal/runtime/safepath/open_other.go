//go:build !unix

package safepath

import "io/fs"

// oNonblock is 0 where a named pipe cannot sit in a folder (Windows keeps
// them under \\.\pipe\).
const oNonblock = 0

// links returns 1: the hard-link count is not read on this platform.
func links(fs.FileInfo) uint64 { return 1 }
