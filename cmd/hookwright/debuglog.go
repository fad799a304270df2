package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// debugLog writes one line per call to stderr when HOOKWRIGHT_DEBUG is
// set, and nothing (at the cost of a nil check) otherwise. It stands in
// for log/slog, which would add a package tree and its init to every hook
// call for a log that is off in all of them but a debugging session.
type debugLog struct{ w io.Writer }

// newLogger logs to stderr with HOOKWRIGHT_DEBUG set, and nowhere without
// it.
func newLogger(stderr io.Writer, getenv func(string) string) debugLog {
	if getenv("HOOKWRIGHT_DEBUG") == "" {
		return debugLog{}
	}
	return debugLog{w: stderr}
}

// Debug writes "hookwright: debug: msg key=value ...": a value with a
// space, a quote or an equals sign is quoted, so the line splits back
// into its pairs.
func (l debugLog) Debug(msg string, kv ...any) {
	if l.w == nil {
		return
	}
	var b strings.Builder
	b.WriteString("hookwright: debug: ")
	b.WriteString(msg)
	for i := 0; i+1 < len(kv); i += 2 {
		v := fmt.Sprint(kv[i+1])
		if v == "" || strings.ContainsAny(v, " \t\n\"=") {
			v = strconv.Quote(v)
		}
		fmt.Fprintf(&b, " %v=%s", kv[i], v)
	}
	b.WriteByte('\n')
	io.WriteString(l.w, b.String())
}
