// Package statefile updates small JSON state files that several hook
// processes may touch at once.
//
// [Update] takes an exclusive lock file next to the state file (created with
// O_EXCL, so it works on every platform without flock), reads the current
// content, lets the caller change it, writes the result to a temporary file
// in the same folder and renames it over the old one. Readers therefore see
// either the old or the new file, never a torn one, and two writers never
// lose each other's change.
//
// The wait for the lock is bounded ([LockWait]); a lock older than
// [StaleAfter] is taken to be left over from a killed process and removed.
// State files are capped at [MaxSize]; a bigger file is an error rather than
// a reason to load it whole.
package statefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/hookwright/hookwright/internal/atomicfile"
)

// Bounds of the lock and of the files.
var (
	// LockWait is how long Update waits for the lock before giving up.
	LockWait = 2 * time.Second
	// StaleAfter is the age at which a lock file is treated as abandoned.
	StaleAfter = 10 * time.Second
)

// MaxSize caps the size of a state file: 4 MiB.
const MaxSize = 4 << 20

// Errors wrapped by Update and Read.
var (
	ErrLocked = errors.New("state file is locked by another process")
	ErrTooBig = errors.New("state file too large")
)

// ErrNoChange is returned by an Update callback to leave the file as it is.
var ErrNoChange = errors.New("no change")

// Read returns the content of path, nil when it does not exist.
func Read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("state %s: %w", path, err)
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("state %s: %w (over %d bytes)", path, ErrTooBig, MaxSize)
	}
	return data, nil
}

// Update locks path, calls change with its current content (nil when it does
// not exist yet) and atomically replaces the file with what change returns.
// When change returns [ErrNoChange] the file is left alone and Update returns
// nil; any other error is returned as is. The folder is created if needed.
func Update(path string, change func(old []byte) ([]byte, error)) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("state %s: %w", path, err)
	}
	unlock, err := lock(path + ".lock")
	if err != nil {
		return fmt.Errorf("state %s: %w", path, err)
	}
	defer unlock()
	old, err := Read(path)
	if err != nil {
		return err
	}
	data, err := change(old)
	if errors.Is(err, ErrNoChange) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	return nil
}

// lock creates name exclusively, waiting up to LockWait, and returns the
// function that releases it.
func lock(name string) (func(), error) {
	deadline := time.Now().Add(LockWait)
	pause := 2 * time.Millisecond
	for {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if info, serr := os.Stat(name); serr == nil && time.Since(info.ModTime()) > StaleAfter {
			// Move the stale lock aside before removing it, so that of two
			// processes that both found it stale only one removes it.
			aside := name + ".stale." + strconv.Itoa(os.Getpid())
			if os.Rename(name, aside) == nil {
				os.Remove(aside)
			}
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w (%s; remove it if no hook is running)", ErrLocked, name)
		}
		time.Sleep(pause)
		if pause < 40*time.Millisecond {
			pause *= 2
		}
	}
}
