package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	in := `goos: linux
BenchmarkParse/PreToolUse-Bash-2         	     200	    169856 ns/op
BenchmarkContract-2                      	     200	      1234 ns/op
BenchmarkHandler/Stop/loop-2             	     200	       263.1 ns/op	  12 B/op
BenchmarkDispatch/SessionStart-2         	     200	 250000000 ns/op
BenchmarkOther-2                         	     200	 999999999 ns/op
PASS`
	var out bytes.Buffer
	if code := run(strings.NewReader(in), &out); code != 1 {
		t.Errorf("exit %d, want 1 (one over budget)\n%s", code, out.String())
	}
	for _, want := range []string{"Parse/PreToolUse-Bash", "169.9µs", "< 1ms", "Handler/Stop/loop", "< 100ms", "Dispatch/SessionStart", "250ms", "OVER", "1 of 4 over budget"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "Other") {
		t.Errorf("a benchmark with no budget is listed:\n%s", out.String())
	}
	out.Reset()
	if code := run(strings.NewReader("PASS\n"), &out); code != 2 {
		t.Errorf("no benchmarks: exit %d, want 2", code)
	}
}
