// Package atomicfile replaces a file so that every reader sees either the
// old content or the new, never a part: the data goes to a temporary file
// in the same folder, is synced, and is renamed over the target. The new
// file keeps the permissions of the one it replaces (0644 for a new file).
//
// hooks.json and settings.json are written this way, since Claude Code or
// another hook process may read them at any moment. (The hook runtime's
// state files go through package statefile, which adds a lock.) A writer
// killed between the temporary file and the rename leaves the temporary
// file behind; the next Write of the same file removes those older than
// [StaleTemp].
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// StaleTemp is the age past which a temporary file of a Write is taken to
// be left by a killed writer. A live writer holds its file for
// milliseconds; the margin keeps Write from removing one in use.
const StaleTemp = 10 * time.Minute

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
	sweep(path)
	return nil
}

// sweep removes the temporary files of path older than StaleTemp.
func sweep(path string) {
	dir, prefix := filepath.Dir(path), "."+filepath.Base(path)+"."
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		n := e.Name()
		if !strings.HasPrefix(n, prefix) || !strings.HasSuffix(n, ".tmp") || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > StaleTemp {
			os.Remove(filepath.Join(dir, n))
		}
	}
}
