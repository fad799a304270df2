//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO as the user config: an error at once, no hang, and the project
// layer still applies tighten-only.
func TestUserConfigFIFO(t *testing.T) {
	w := newWorld(t)
	if err := os.MkdirAll(filepath.Join(w.xdg, "hookwright"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(w.xdg, "hookwright", UserFileName), 0o644); err != nil {
		t.Fatal(err)
	}
	w.projectConfig(t, `{"guard":{"enabled":false}}`)
	l, err := LoadLayers(w.project, w.getenv)
	if err == nil || !strings.Contains(err.Error(), "regular") {
		t.Errorf("a FIFO as the user config: %v", err)
	}
	if !l.Config.Guard.Enabled {
		t.Errorf("the project switched the guard off next to a FIFO user config")
	}
}
