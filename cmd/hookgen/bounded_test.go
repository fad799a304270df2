package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Every file hookgen reads (a manifest to validate, a spec) is a regular
// file of bounded size, and stdin is bounded too: a FIFO nobody writes to,
// /dev/zero or a huge file is one clear failure, never a hang or an
// unbounded allocation.
func TestInputsAreBounded(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxInput + 1); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	f.Close()
	paths := map[string]string{"a folder": dir, "a huge file": huge}
	if runtime.GOOS != "windows" {
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		paths["a FIFO"] = fifo
		paths["/dev/zero"] = "/dev/zero"
	}
	for what, path := range paths {
		for _, args := range [][]string{
			{"validate", "--cc-version", "2.1.33", path},
			{"--cc-version", "2.1.33", "--spec", path},
		} {
			e, _, errb := fakeEnv(t)
			code := runBounded(t, e, args)
			lines := strings.Split(strings.TrimRight(errb.String(), "\n"), "\n")
			if code != exitFailure || len(lines) != 1 || !strings.HasPrefix(lines[0], "hookgen: ") {
				t.Errorf("%s (hookgen %v): exit %d, stderr %q; want exit %d and one line", what, args, code, errb, exitFailure)
			}
		}
	}
	for _, args := range [][]string{
		{"validate", "--cc-version", "2.1.33", "-"},
		{"--cc-version", "2.1.33", "--spec", "-"},
	} {
		e, _, errb := fakeEnv(t)
		e.In = io.MultiReader(strings.NewReader(`{"hooks":{}} `), bytes.NewReader(make([]byte, maxInput)))
		if code := runBounded(t, e, args); code != exitFailure || !strings.Contains(errb.String(), "larger than") {
			t.Errorf("stdin over the cap (hookgen %v): exit %d, stderr %q", args, code, errb)
		}
	}
}

// runBounded runs hookgen and fails the test if it does not return soon.
func runBounded(t *testing.T, e env, args []string) int {
	t.Helper()
	done := make(chan int, 1)
	go func() { done <- hookgen(t, e, args...) }()
	select {
	case code := <-done:
		return code
	case <-time.After(20 * time.Second):
		t.Fatalf("hookgen %v did not return", args)
		return -1
	}
}
