//go:build unix

package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenRefusesAFIFO: a FIFO at the database is an error, not a hang.
func TestOpenRefusesAFIFO(t *testing.T) {
	p := t.TempDir()
	os.MkdirAll(filepath.Join(p, ".hookwright"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(p, File), 0o644); err != nil {
		t.Skip("no fifo:", err)
	}
	if s, err := Open(context.Background(), p); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		if s != nil {
			s.Close()
		}
		t.Fatalf("a FIFO at the database: %v", err)
	}
}
