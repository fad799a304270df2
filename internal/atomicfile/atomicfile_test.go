package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	if err := Write(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Fatalf("new file mode %v, want 0644", fi.Mode().Perm())
	}
	os.Chmod(path, 0o600)
	if err := Write(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(got) != "two" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("content %q mode %v: want two, 0600 kept", got, fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
	err := Write(filepath.Join(dir, "missing", "x.json"), []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("write into a missing folder: %v", err)
	}
}

func TestWriteRemovesStaleTempFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	old := filepath.Join(dir, ".hooks.json.123.tmp")
	fresh := filepath.Join(dir, ".hooks.json.456.tmp")
	other := filepath.Join(dir, ".other.json.789.tmp")
	for _, p := range []string{old, fresh, other} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-2 * StaleTemp)
	os.Chtimes(old, long, long)
	os.Chtimes(other, long, long)
	if err := Write(path, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("a stale temp file of a killed writer stayed: %v", err)
	}
	for _, p := range []string{fresh, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: a live writer's or another file's", filepath.Base(p))
		}
	}
}

func TestWriteInUnsynced(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, text := range []string{"old", "new"} {
		if err := WriteInUnsynced(root, "f.json", []byte(text), "f.json"); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	data, _ := os.ReadFile(filepath.Join(dir, "f.json"))
	if string(data) != "new" || len(entries) != 1 {
		t.Errorf("content %q, %d entries (a temporary file left?)", data, len(entries))
	}
}

// TestErrorNamesNoTemporaryFile: the error of a failed write names the
// file written, never the temporary file it went through.
func TestErrorNamesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "hooks.json")
	if err := os.MkdirAll(filepath.Join(target, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := Write(target, []byte("{}"))
	if err == nil || err.Error() != "writing "+target+": it is a folder" {
		t.Errorf("writing over a folder: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "hooks.json" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
