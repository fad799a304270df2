package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestCompatOnABrokenPlugin runs `hookgen compat` with its flags after the
// folder, as the usage line writes them: one line per case, the failing
// ones named, exit 1.
func TestCompatOnABrokenPlugin(t *testing.T) {
	e, out, errOut := fakeEnv(t)
	dir := "../../compat/testdata/broken/teammateidle-2.0.30"
	code := hookgen(t, e, "compat", dir, "--cc-version", "2.0.30", "--spec", dir+"/spec.json")
	if code != exitInvalid {
		t.Fatalf("exit %d, want %d; stderr: %s", code, exitInvalid, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 32 {
		t.Errorf("%d lines, want one per case (31) and the summary:\n%s", len(lines), out)
	}
	pass, fail, warn, skip := 0, 0, 0, 0
	for _, l := range lines[:len(lines)-1] {
		switch strings.Fields(l)[0] {
		case "PASS":
			pass++
		case "FAIL":
			fail++
		case "WARN":
			warn++
		case "SKIP":
			skip++
		}
	}
	if want := fmt.Sprintf("31 cases on 2.0.30 (--cc-version): %d passed, %d failed, %d warned, %d skipped", pass, fail, warn, skip); lines[len(lines)-1] != want {
		t.Errorf("summary %q, want %q", lines[len(lines)-1], want)
	}
	if !strings.Contains(out.String(), "FAIL HWC-01: hooks/hooks.json on 2.0.30: /hooks/TeammateIdle event TeammateIdle arrives in 2.1.33") {
		t.Errorf("no HWC-01 failure naming the file:\n%s", out)
	}
	if got := strings.TrimSpace(errOut.String()); got != "hookgen: 6 of 31 cases failed" {
		t.Errorf("stderr = %q", got)
	}
}

func TestCompatUsage(t *testing.T) {
	for _, args := range [][]string{{"compat"}, {"compat", "a", "b"}, {"compat", "a", "--cc-version", "2.1"}} {
		e, _, errOut := fakeEnv(t)
		if code := hookgen(t, e, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, errOut)
		}
	}
}
