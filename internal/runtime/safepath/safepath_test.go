package safepath

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	good := []string{"alice", "team-red", "a.b", "L1_index", "..hidden"}
	bad := map[string]string{
		"": "empty", ".": "relative", "..": "relative", "a/b": "separator", `a\b`: "separator",
		"/etc": "separator", "~root": "absolute", "a\x00b": "NUL", strings.Repeat("x", 129): "longer",
	}
	for _, n := range good {
		if err := Name("team", n); err != nil {
			t.Errorf("Name(%q) = %v", n, err)
		}
	}
	for n, why := range bad {
		err := Name("team", n)
		if !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "team") {
			t.Errorf("Name(%q) = %v, want an ErrUnsafe that says %q", n, err, why)
		}
	}
}

func TestJoinAndWithin(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	p, err := Join(root, "teammate", "red", "alice")
	if err != nil || p != filepath.Join(root, "red", "alice") {
		t.Fatalf("Join = %q, %v", p, err)
	}
	if _, err := Join(root, "teammate", "red", ".."); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("Join accepted ..: %v", err)
	}
	if err := Within(root, filepath.Join(root, "red", "not-yet", "file")); err != nil {
		t.Fatalf("missing path inside root rejected: %v", err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := Within(root, filepath.Join(root, "escape", "x", "y")); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("symlink out of the root accepted: %v", err)
	}
	if err := Within(root, filepath.Join(root, "..", filepath.Base(outside))); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("dot-dot path accepted: %v", err)
	}
	if err := Within(root, root); err != nil {
		t.Fatalf("root itself rejected: %v", err)
	}
}
