package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestPluginFilesAreBounded gives `hookgen compat` and `hookgen doctor` a
// copy of the plugin in which one file is a named pipe nobody writes to or
// a link to /dev/zero: each command returns (no hang) and says which file
// it could not read.
func TestPluginFilesAreBounded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no named pipes or /dev/zero on windows")
	}
	for _, rel := range []string{"hooks/hooks.json", ".claude-plugin/plugin.json", "hooks/2.1.33.json"} {
		for _, what := range []string{"a FIFO", "/dev/zero"} {
			dir := copyPlugin(t)
			path := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			var err error
			if what == "a FIFO" {
				err = syscall.Mkfifo(path, 0o644)
			} else {
				err = os.Symlink("/dev/zero", path)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"compat", dir, "--cc-version", "2.1.33"},
				{"doctor", "--plugin-dir", dir, "--cc-version", "2.1.33", "--project", t.TempDir()},
			} {
				e, out, errb := fakeEnv(t)
				code := runBounded(t, e, args)
				said := out.String() + errb.String()
				// doctor ignores an unreadable plugin.json or band file (it
				// only compares against them); a manifest it must name.
				if args[0] == "compat" || rel == "hooks/hooks.json" {
					if code == exitOK || !strings.Contains(said, filepath.FromSlash(rel)) {
						t.Errorf("%s as %s: hookgen %s exit %d, does not fail naming the file:\n%s", rel, what, args[0], code, said)
					}
				}
			}
		}
	}
}

// copyPlugin copies the manifests and plugin.json of ../../plugin to a
// temporary folder and returns it.
func copyPlugin(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := "../../plugin"
	var files []string
	for _, glob := range []string{".claude-plugin/plugin.json", "hooks/hooks.json", "hooks/2.*.json"} {
		m, err := filepath.Glob(filepath.Join(src, glob))
		if err != nil || len(m) == 0 {
			t.Fatalf("%s: %v (no match)", glob, err)
		}
		files = append(files, m...)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(src, f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
