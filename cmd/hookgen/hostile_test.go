package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A project path with escape codes in its name reaches hookgen's messages
// as visible escapes, never as raw control characters.
func TestHostileNamesAreInert(t *testing.T) {
	e, out, errb := fakeEnv(t)
	path := filepath.Join(t.TempDir(), "x\x1b]0;owned\a\x1b[2J\u202e.json")
	if err := os.WriteFile(path, []byte(`{"hooks": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	hookgen(t, e, "validate", "--cc-version", "2.1.33", path)
	hookgen(t, e, "validate", "--cc-version", "2.1.33", path+"-missing")
	all := out.String() + errb.String()
	if !strings.Contains(all, `x\x1b]0;owned`) {
		t.Fatalf("the name is not shown escaped:\n%q", all)
	}
	if strings.ContainsAny(all, "\x1b\a\u202e") {
		t.Fatalf("raw control characters out:\n%q", all)
	}
}
