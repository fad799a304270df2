package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/project"
)

// panicReader panics on the first read, as a broken stdin might.
type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("stdin exploded") }

// A panic anywhere in the call is recovered and exits 1 (a non-blocking
// error), never 2: reading stdin, before the watchdog, and inside the
// watched call.
func TestPanicsExitOne(t *testing.T) {
	event := `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	panicsOn := func(key string) project.Env {
		return project.Env{Now: time.Now, Getenv: func(k string) string {
			if k == key {
				panic("getenv " + k)
			}
			return ""
		}}
	}
	for name, c := range map[string]struct {
		stdin interface{ Read([]byte) (int, error) }
		env   project.Env
		want  string
	}{
		"stdin":       {panicReader{}, project.Env{}, "stdin exploded"},
		"early":       {strings.NewReader(event), panicsOn("HOOKWRIGHT_DEBUG"), "getenv HOOKWRIGHT_DEBUG"},
		"in the call": {strings.NewReader(event), panicsOn("CLAUDE_PROJECT_DIR"), "getenv CLAUDE_PROJECT_DIR"},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"PreToolUse"}, c.stdin, &stdout, &stderr, c.env)
		if code != hooks.ExitError || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%s: exit %d stderr %q; want exit 1 naming %q", name, code, stderr.String(), c.want)
		}
	}
}
