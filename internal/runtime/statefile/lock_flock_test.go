//go:build darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd

package statefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// On unix the lock is the state file's folder: an update waits for a
// process holding flock on the folder, and makes no lock file.
func TestUpdateLocksTheFolder(t *testing.T) {
	dir := t.TempDir()
	p := safepath.Path{Root: dir, Rel: filepath.Join(".hookwright", "state.json")}
	if err := increment(p); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, ".hookwright"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "state.json" && e.Name() != ".gitignore" { // the state folder's own (safepath.StateIgnore)
			t.Errorf("the update left %s", e.Name())
		}
	}

	folder, err := os.Open(filepath.Join(dir, ".hookwright"))
	if err != nil {
		t.Fatal(err)
	}
	defer folder.Close()
	if err := syscall.Flock(int(folder.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	defer func(old time.Duration) { LockWait = old }(LockWait)
	LockWait = 50 * time.Millisecond
	if err := increment(p); !errors.Is(err, ErrLocked) {
		t.Fatalf("an update while the folder is locked: %v, want ErrLocked", err)
	}
	syscall.Flock(int(folder.Fd()), syscall.LOCK_UN)
	if err := increment(p); err != nil {
		t.Fatalf("after the folder is unlocked: %v", err)
	}
	if c := read(t, p); c.N != 2 {
		t.Fatalf("n = %d, want 2", c.N)
	}
}
