//go:build unix

package otlpexport

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// lock takes the project's exporter lock (an flock on otlp.lock next to
// the cursor, which the kernel releases when the process dies, so a crash
// never leaves it behind). A second exporter on the same project fails
// at once rather than ship every line twice.
func lock(dir string) (unlock func(), err error) {
	path, err := cursorPath(dir)
	if err != nil {
		return nil, err
	}
	if err := safepath.MkdirAllIn(path.Root, path.Dir().Rel, 0o755); err != nil {
		return nil, fmt.Errorf("export lock: %w", err)
	}
	name := filepath.Join(path.Dir().String(), "otlp.lock")
	if err := safepath.Plain(dir, filepath.Join(filepath.Dir(CursorFile), "otlp.lock")); err != nil {
		return nil, fmt.Errorf("export lock: %w", err)
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("export lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another hwctl export otlp is running for %s (%s is locked)", dir, name)
		}
		return nil, fmt.Errorf("export lock %s: %w", name, err)
	}
	return func() { f.Close() }, nil
}
