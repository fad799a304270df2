package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readLog reads a debug log captured from a real release (see the file
// names under compat/testdata/live).
func readLog(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "compat", "testdata", "live", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestDebugLogsOfRealReleases(t *testing.T) {
	tests := []struct {
		file       string
		registered int
		failed     bool
		ignored    int
	}{
		{"debug-2.0.30-guard.txt", 1, false, 0},
		{"debug-2.1.33-guard.txt", 1, false, 0},
		{"debug-2.1.330-guard.txt", 1, false, 0},
		{"debug-2.0.30-unknown-event.txt", 0, true, 0},
		{"debug-2.1.33-unknown-event.txt", 0, true, 0},
		{"debug-2.1.330-unknown-event.txt", 1, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			log := readLog(t, tt.file)
			if n, ok := RegisteredHooks(log); !ok || n != tt.registered {
				t.Errorf("RegisteredHooks = %d, %v; want %d, true", n, ok, tt.registered)
			}
			if got := LoadFailed(log); got != tt.failed {
				t.Errorf("LoadFailed = %v, want %v", got, tt.failed)
			}
			if got := IgnoredHookEntries(log); len(got) != tt.ignored {
				t.Errorf("IgnoredHookEntries = %q, want %d entries", got, tt.ignored)
			}
		})
	}
}

func TestRegisteredHooksTakesLastSummary(t *testing.T) {
	log := "[DEBUG] Registered 0 hooks from 1 plugins\nx\n2026-01-01T00:00:00.000Z [DEBUG] Registered 3 hooks from 2 plugins\n"
	if n, ok := RegisteredHooks(log); !ok || n != 3 {
		t.Errorf("RegisteredHooks = %d, %v; want 3, true", n, ok)
	}
	if _, ok := RegisteredHooks(strings.ReplaceAll(log, "Registered", "Loaded")); ok {
		t.Errorf("RegisteredHooks found a summary in a log without one")
	}
}
