package safepath

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMkdirAllWritesTheIgnoreFile(t *testing.T) {
	root := t.TempDir()
	if err := MkdirAllIn(root, filepath.Join(StateDir, "journal"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, StateDir, ".gitignore"))
	if err != nil || string(got) != StateIgnore {
		t.Fatalf(".gitignore = %q, %v; want %q", got, err, StateIgnore)
	}
	// A .gitignore of the user's own is never replaced.
	mine := []byte("journal/\n")
	if err := os.WriteFile(filepath.Join(root, StateDir, ".gitignore"), mine, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAllIn(root, filepath.Join(StateDir, "sessions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, StateDir, ".gitignore")); string(got) != string(mine) {
		t.Errorf("the user's .gitignore became %q", got)
	}
	// A folder made elsewhere gets none.
	other := t.TempDir()
	if err := MkdirAllIn(other, "build", 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(other, StateDir)); err == nil {
		t.Error("MkdirAll of another folder made .hookwright")
	}
}

// A .gitignore planted as a symlink is not followed: nothing is written
// where it points.
func TestMkdirAllIgnoreFileNotThroughALink(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, StateDir), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(outside, "victim")
	if err := os.Symlink(target, filepath.Join(root, StateDir, ".gitignore")); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAllIn(root, filepath.Join(StateDir, "journal"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("the ignore file was written through a symlink out of the project")
	}
}
