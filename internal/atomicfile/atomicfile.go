// Package atomicfile replaces a file so that every reader sees either the
// old content or the new, never a part: the data goes to a temporary file
// in the same folder, is synced, and is renamed over the target. The new
// file keeps the permissions of the one it replaces (0644 for a new file).
//
// hooks.json, settings.json and the hook runtime's state files are all
// written this way, since Claude Code or another hook process may read them
// at any moment.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data atomically. The error names path.
func Write(path string, data []byte) error {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	err = errors.Join(werr, serr, cerr)
	if err == nil {
		err = os.Chmod(tmp.Name(), mode)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
