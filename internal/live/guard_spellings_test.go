package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/modelapi"
)

// spellingCalls are Bash calls whose harm hides behind a shell expansion
// the guard reads (brace expansion, a value computed then run, arithmetic
// holding a substitution). Each one's harm is a force push to a remote
// that does not exist, which fails, and each leaves its marker when it
// runs; the guard must block it before it does. The control runs.
var spellingCalls = []struct {
	command, marker string
	blocked         bool
}{
	{"git status >/dev/null 2>&1; touch control.marker", "control.marker", false},
	{"git push {-f,nowhere} >/dev/null 2>&1; touch brace.marker", "brace.marker", true},
	{"x=$(echo git push -f nowhere); $x >/dev/null 2>&1; touch computed.marker", "computed.marker", true},
	{"echo $(( $(git push -f nowhere >/dev/null 2>&1; echo 1) )); touch arith.marker", "arith.marker", true},
	{"c=(git push --force nowhere); \"${c[@]}\" >/dev/null 2>&1; touch array.marker", "array.marker", true},
}

// TestGuardSpellingsLive drives those calls through real releases, as
// the model would make them: the oldest release here (which keeps the
// user's shell options) and the newest. The guard's block must reach the
// model as the tool's error, and the command must not run.
func TestGuardSpellingsLive(t *testing.T) {
	Available(t)
	plugin := writePlugin(t, spineHooks)
	var script modelapi.Script
	for _, c := range spellingCalls {
		script = append(script, bash(c.command))
	}
	for _, v := range []string{"2.0.30", "2.1.330"} {
		t.Run(v, func(t *testing.T) {
			srv, res := session(t, installT(t, v), script, sessionOpts{pluginDirs: []string{plugin}})
			requireRegistered(t, res)
			for i, c := range spellingCalls {
				got, ok := srv.ToolResultFor(i)
				if !ok {
					t.Errorf("%q: no tool_result", c.command)
					continue
				}
				_, statErr := os.Stat(filepath.Join(res.Dir, c.marker))
				if ran := statErr == nil; ran == c.blocked {
					t.Errorf("%q: ran %v, want %v (tool_result %+v)", c.command, ran, !c.blocked, got)
				}
				if c.blocked && (!got.IsError || !strings.Contains(got.Content, guardPrefix)) {
					t.Errorf("%q: tool_result %+v, want an error carrying %q", c.command, got, guardPrefix)
				}
			}
		})
	}
}
