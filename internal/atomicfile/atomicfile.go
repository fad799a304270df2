// Package atomicfile replaces a file so that every reader sees either the
// old content or the new, never a part: the data goes to a temporary file
// in the same folder, is synced, and is renamed over the target. The new
// file keeps the permissions of the one it replaces (0644 for a new file).
//
// hooks.json and settings.json are written this way, since Claude Code or
// another hook process may read them at any moment. It is the one atomic
// writer: the hook runtime's state files go through package statefile,
// which takes a lock and calls [WriteIn]. A writer
// killed between the temporary file and the rename leaves the temporary
// file behind; the next Write of the same file removes those older than
// [StaleTemp].
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// StaleTemp is the age past which a temporary file of a Write is taken to
// be left by a killed writer. A live writer holds its file for
// milliseconds; the margin keeps Write from removing one in use.
const StaleTemp = 10 * time.Minute

// Write replaces path with data atomically. The error names path.
func Write(path string, data []byte) error {
	dir, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer dir.Close()
	base := filepath.Base(path)
	if err := WriteIn(dir, base, data, path); err != nil {
		return err
	}
	sweep(dir, base)
	return nil
}

// WriteIn replaces the file name in the folder dir with data atomically,
// confined to dir: the one atomic writer, which package statefile calls
// under its lock. The temporary file is ".<name>.<random>.tmp" in dir;
// what names the file in the error.
func WriteIn(dir *os.Root, name string, data []byte, what string) error {
	return writeIn(dir, name, data, what, true)
}

// WriteInUnsynced is [WriteIn] without waiting for the disk (no fsync):
// for records a crash may lose. Readers still see the old content or the
// new, never a part; after a crash the file may be empty or old.
func WriteInUnsynced(dir *os.Root, name string, data []byte, what string) error {
	return writeIn(dir, name, data, what, false)
}

func writeIn(dir *os.Root, name string, data []byte, what string, sync bool) error {
	mode := fs.FileMode(0o644)
	if info, err := dir.Lstat(name); err == nil && info.Mode().IsRegular() {
		mode = info.Mode().Perm()
	}
	var (
		tmp string
		f   *os.File
		err error
	)
	for range 4 {
		tmp = "." + name + "." + strconv.FormatUint(rand.Uint64(), 36) + ".tmp"
		if f, err = dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode); !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", what, bare(err))
	}
	_, werr := f.Write(data)
	var serr error
	if sync {
		serr = f.Sync()
	}
	cerr := f.Close()
	err = errors.Join(werr, serr, cerr)
	if err == nil {
		err = dir.Chmod(tmp, mode)
	}
	if err == nil {
		err = dir.Rename(tmp, name)
	}
	if err != nil {
		dir.Remove(tmp)
		return fmt.Errorf("writing %s: %w", what, bare(err))
	}
	return nil
}

// bare is err without the operation and the file names a *fs.PathError or
// *os.LinkError carry: the temporary file's name means nothing to the
// reader, whose message already names the file written.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		if le.Err == syscall.EEXIST || le.Err == syscall.ENOTEMPTY || le.Err == syscall.EISDIR {
			return errors.New("it is a folder")
		}
		return le.Err
	}
	return err
}

// sweep removes the temporary files of name in dir older than StaleTemp.
func sweep(dir *os.Root, name string) {
	entries, err := fs.ReadDir(dir.FS(), ".")
	if err != nil {
		return
	}
	prefix := "." + name + "."
	for _, e := range entries {
		n := e.Name()
		if !strings.HasPrefix(n, prefix) || !strings.HasSuffix(n, ".tmp") || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > StaleTemp {
			dir.Remove(n)
		}
	}
}
