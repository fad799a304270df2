package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/live"
)

// TestBelowTheFloor: a release before plugins is refused in one line,
// before anything is installed.
func TestBelowTheFloor(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-cc-version", "1.0.0"}, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	want := "hwdemo: plugin hooks arrive in 2.0.12; Claude Code 1.0.0 loads none (try CC_VERSION=2.0.12 make demo)\n"
	if errb.String() != want || out.Len() != 0 {
		t.Errorf("stderr %q stdout %q, want one line %q", errb.String(), out.String(), want)
	}
}

// TestKeepEndsWithTheServeCommand runs make demo KEEP=1 as hwdemo -keep,
// live: the demo project stays, with the journal of the session, and the
// last line printed is the exact command that serves its dashboard.
func TestKeepEndsWithTheServeCommand(t *testing.T) {
	live.Available(t)
	t.Chdir(filepath.Join("..", ".."))
	var out, errb bytes.Buffer
	if code := run([]string{"-keep"}, &out, &errb); code != 0 {
		t.Fatalf("hwdemo -keep: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	dir, ok := strings.CutPrefix(last, "go run ./cmd/hwctl serve --dir ")
	if !ok {
		t.Fatalf("the last line is %q, want the hwctl serve command\n%s", last, out.String())
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if j, _ := filepath.Glob(filepath.Join(dir, ".hookwright", "journal", "*.jsonl")); len(j) == 0 {
		t.Errorf("the kept project %s has no journal", dir)
	}
	if !strings.Contains(out.String(), "demo passed") {
		t.Errorf("no pass line:\n%s", out.String())
	}
}

func TestServeCommandQuotes(t *testing.T) {
	for dir, want := range map[string]string{
		"/tmp/hookwright-demo-123": "go run ./cmd/hwctl serve --dir /tmp/hookwright-demo-123",
		"/tmp/my demo":             "go run ./cmd/hwctl serve --dir '/tmp/my demo'",
		"/tmp/it's":                `go run ./cmd/hwctl serve --dir '/tmp/it'\''s'`,
	} {
		if got := serveCommand(dir); got != want {
			t.Errorf("serveCommand(%q) = %q, want %q", dir, got, want)
		}
	}
}
