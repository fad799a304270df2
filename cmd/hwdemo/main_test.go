package main

import (
	"bytes"
	"testing"
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
