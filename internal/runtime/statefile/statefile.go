// Package statefile updates small JSON state files that several hook
// processes may touch at once.
//
// [Update] takes an exclusive kernel lock (flock on unix, on the state
// file's folder; LockFileEx on Windows, on a lock file next to the state
// file), reads the current content,
// lets the caller change it, writes the result to a temporary file in the
// same folder and renames it over the old one. Readers therefore see either
// the old or the new file, never a torn one, and two writers never lose each
// other's change. The kernel drops the lock when its holder dies, however it
// dies, so a killed hook never leaves a lock behind; the temporary file a
// killed writer leaves is removed by the next writer, which holds the lock.
//
// The wait for the lock is bounded ([LockWait]). State files are capped at
// [MaxSize]; a bigger file is an error rather than a reason to load it
// whole. Every open goes through package safepath: confined to the root,
// without blocking, regular files only.
package statefile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookwright/hookwright/internal/atomicfile"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// LockWait is how long Update waits for the lock before giving up. Writers
// hold it for milliseconds; a process that holds it longer (a planted
// `flock`) costs a call at most this, then the update fails and is reported.
var LockWait = 2 * time.Second

// MaxSize caps the size of a state file: 4 MiB.
const MaxSize = 4 << 20

// Errors wrapped by Update and Read.
var (
	ErrLocked = errors.New("state file is locked by another process")
	ErrTooBig = safepath.ErrTooBig
)

// ErrNoChange is returned by an Update callback to leave the file as it is.
var ErrNoChange = errors.New("no change")

// Read returns the content of p, nil when it does not exist.
func Read(p safepath.Path) ([]byte, error) {
	data, err := safepath.ReadFile(p, MaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state %w", err)
	}
	return data, nil
}

// Load reads p as [Read] does and hands its content to decode, with p's
// name for errors: the one Load of the pdca, loop and work states, each
// with its own decode (which [Update] callbacks use too).
func Load[T any](p safepath.Path, decode func(path string, data []byte) (T, error)) (T, error) {
	data, err := Read(p)
	if err != nil {
		var zero T
		return zero, err
	}
	return decode(p.String(), data)
}

// Decode decodes the JSON state data, as [Read] or [Update] gave it, into
// v; empty data (no file yet) leaves v as it is. A parse error names what
// the state is ("loop state") and its path.
func Decode(what, path string, data []byte, v any) error {
	if len(data) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s %s: %w", what, path, err)
	}
	return nil
}

// Update locks p, calls change with its current content (nil when it does
// not exist yet) and atomically replaces the file with what change returns.
// When change returns [ErrNoChange] the file is left alone and Update returns
// nil; any other error is returned as is. The folder is created if needed.
func Update(p safepath.Path, change func(old []byte) ([]byte, error)) error {
	return update(p, change, true)
}

// UpdateUnsynced is [Update] without waiting for the disk: for records a
// crash may lose, which are still never torn (atomicfile.WriteInUnsynced).
// The session fingerprint is one: at SessionStart, its fsync cost more
// than the rest of the hook call.
func UpdateUnsynced(p safepath.Path, change func(old []byte) ([]byte, error)) error {
	return update(p, change, false)
}

func update(p safepath.Path, change func(old []byte) ([]byte, error), sync bool) error {
	dir, err := openDir(p)
	if err != nil {
		return fmt.Errorf("state %w", err)
	}
	defer dir.Close()
	base := p.Base()
	unlock, err := lock(dir, base+".lock", p)
	if err != nil {
		return fmt.Errorf("state %w", err)
	}
	defer unlock()
	sweep(dir, base)
	old, err := safepath.ReadFileIn(dir, base, p, MaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		old, err = nil, nil
	}
	if err != nil {
		return fmt.Errorf("state %w", err)
	}
	data, err := change(old)
	if errors.Is(err, ErrNoChange) {
		return nil
	}
	if err != nil {
		return err
	}
	write := atomicfile.WriteIn
	if !sync {
		write = atomicfile.WriteInUnsynced
	}
	if err := write(dir, base, data, filepath.Join(p.Root, p.Rel)); err != nil {
		return fmt.Errorf("state %w", err)
	}
	return nil
}

// openDir opens the folder of p as a root, creating it when needed (the
// root itself too: a state file named outright, see safepath.At, may be
// the first in its folder).
func openDir(p safepath.Path) (*os.Root, error) {
	d := p.Dir()
	r, err := d.OpenRoot()
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(p.Root, 0o755); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		root, rerr := safepath.OpenRoot(p.Root)
		if rerr != nil {
			return nil, fmt.Errorf("%s: %w", p, rerr)
		}
		merr := safepath.MkdirAll(root, d.Rel, 0o755)
		root.Close()
		if merr != nil {
			return nil, fmt.Errorf("%s: %w", p, merr)
		}
		r, err = d.OpenRoot()
	}
	return r, err
}

// lock takes the kernel lock for name in dir, waiting up to LockWait, and
// returns the function that releases it.
//
// On unix it locks the folder itself (lockFolder): nothing is created, so
// a state update costs one file creation (its temporary file) instead of
// two, which is most of what the session fingerprint costs SessionStart.
// Writers of the other state files of the folder wait for it too, for the
// milliseconds an update takes. Elsewhere it locks the lock file name, and
// where the holder removes it before it lets go (removeLock), so that none
// is left behind, a waiter that then wins the lock on the removed file
// notices (the name no longer leads to the file it locked) and starts over
// on the new one.
func lock(dir *os.Root, name string, p safepath.Path) (func(), error) {
	var deadline <-chan time.Time
	pause := time.Millisecond
	for {
		var f *os.File
		var err error
		if lockFolder {
			f, err = dir.Open(".")
		} else {
			f, err = safepath.OpenWrite(dir, name, p.Dir().Join(name), os.O_RDWR|os.O_CREATE)
		}
		if err != nil {
			return nil, err
		}
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: lock: %w", p, err)
		}
		if ok {
			if lockFolder {
				return func() {
					unlockFile(f)
					f.Close()
				}, nil
			}
			if current(dir, name, f) {
				return func() {
					if removeLock {
						dir.Remove(name)
					}
					unlockFile(f)
					f.Close()
				}, nil
			}
			unlockFile(f)
			f.Close()
			continue // the file was removed by the holder we waited for
		}
		f.Close()
		if deadline == nil {
			t := time.NewTimer(LockWait)
			defer t.Stop()
			deadline = t.C
		}
		select {
		case <-deadline:
			return nil, fmt.Errorf("%s: %w for more than %s", p, ErrLocked, LockWait)
		case <-time.After(pause):
		}
		if pause < 20*time.Millisecond {
			pause *= 2
		}
	}
}

// current reports whether name in dir is still the file f.
func current(dir *os.Root, name string, f *os.File) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := dir.Lstat(name)
	return err == nil && os.SameFile(a, b)
}

// sweep removes the temporary files of base that killed writers left
// (".base.*.tmp", and ".base.tmp" of earlier releases): under the lock no
// other writer of base is at work.
func sweep(dir *os.Root, base string) {
	entries, err := fs.ReadDir(dir.FS(), ".")
	if err != nil {
		return
	}
	prefix := "." + base + "."
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, prefix) && strings.HasSuffix(n, ".tmp") && e.Type().IsRegular() {
			dir.Remove(n)
		}
	}
}
