//go:build !linux

package safepath

import "os"

// openAppend opens p for appending, creating it (see [OpenWrite]).
func openAppend(r *os.Root, p Path) (*os.File, error) {
	return OpenWrite(r, p.Rel, p, os.O_WRONLY|os.O_APPEND|os.O_CREATE)
}
