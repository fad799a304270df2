package settings

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	if d := Diff("a\nb\n", "a\nb\n", "x", "y"); d != "" {
		t.Errorf("equal inputs: %q", d)
	}
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
	b := "1\n2\n3\n4\nfive\n6\n7\n8\n9\n"
	want := "--- old\n+++ new\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
	if d := Diff(a, b, "old", "new"); d != want {
		t.Errorf("Diff =\n%s\nwant\n%s", d, want)
	}
	if d := Diff("x\n", "", "old", "new"); !strings.Contains(d, "-x\n") {
		t.Errorf("deletion: %q", d)
	}
}
