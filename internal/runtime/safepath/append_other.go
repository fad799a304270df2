//go:build !linux

package safepath

import (
	"io/fs"
	"os"
)

// openAppend opens p for appending, creating it (see [OpenWrite]).
func openAppend(r *os.Root, p Path) (*os.File, error) {
	return OpenWrite(r, p.Rel, p, os.O_WRONLY|os.O_APPEND|os.O_CREATE)
}

// openNoFollow opens p for writing with flag as [OpenWrite] does, and
// returns it with its info.
func openNoFollow(r *os.Root, p Path, flag int) (*os.File, fs.FileInfo, error) {
	f, err := OpenWrite(r, p.Rel, p, flag)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, wrap(p, err)
	}
	return f, info, nil
}
