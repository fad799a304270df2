package main

import (
	"fmt"
	"io"
	"os"
)

// maxInput caps every file or stdin hookgen reads: a manifest or a spec is
// a few KiB; 16 MiB is far beyond any real one.
const maxInput = 16 << 20

// readInput reads path, or stdin for "-", bounded: a path must be a regular
// file (a FIFO or a device would block or never end), and neither may hold
// more than maxInput bytes.
func readInput(path string, stdin io.Reader) ([]byte, error) {
	r := stdin
	if path != "-" {
		fi, err := os.Stat(path) // before opening: opening a FIFO blocks
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", path)
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxInput {
		return nil, fmt.Errorf("%s: larger than %d MiB", path, maxInput>>20)
	}
	return b, nil
}

// isDir reports whether path is a folder.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
