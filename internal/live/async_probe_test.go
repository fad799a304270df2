package live

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/modelapi"
)

// The async probes: what a real release does with a command hook marked
// "async" (accepted from 2.1.15) or "asyncRewake" (from 2.1.64). The
// hooks are plain shell commands, so the probes measure Claude Code, not
// hookwright. What they saw is in compat/FACTS.md ("Asynchronous hooks").

// asyncHooks registers one PostToolUse hook on Write that takes 3 s, then
// leaves a marker file and prints a reply with additionalContext and a
// systemMessage. extra is added to the handler object.
func asyncHooks(extra, body string) string {
	return `{
  "description": "hookwright live: an asynchronous PostToolUse hook",
  "hooks": {
    "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "timeout": 30` + extra + `,
      "command": ` + fmt.Sprintf("%q", body) + `}]}]
  }
}
`
}

// asyncJSONBody sleeps, marks that it finished, and answers with JSON.
const asyncJSONBody = `sleep 3; touch async.done; printf '%s\n' '{"systemMessage":"ASYNC-SYS-MARK","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ASYNC-CTX-MARK"}}'`

// asyncExit2Body sleeps, marks that it finished, and exits 2 with a reason.
const asyncExit2Body = `sleep 3; touch async.done; echo 'ASYNC-EXIT2-MARK' >&2; exit 2`

// asyncProbe is what one probe session showed.
type asyncProbe struct {
	held      bool // the Bash step right after the Write found async.done: Claude Code waited for the hook
	finished  bool // async.done exists after the session
	firstSeen map[string]int
	requests  int
}

func (p asyncProbe) String() string {
	return fmt.Sprintf("held=%v finished=%v requests=%d first request carrying each mark=%v", p.held, p.finished, p.requests, p.firstSeen)
}

// runAsyncProbe writes a file with Write, then checks at once whether the
// hook finished, then sleeps 6 s in Bash (time for the hook to finish
// while the model works), runs one more Bash step, and ends the turn.
// With endEarly the turn ends right after the Write instead: only a hook
// that wakes the model can still reach it. The model's last turn is the
// stand-in's "done." when the script has run out.
func runAsyncProbe(t *testing.T, version, hooksJSON string, endEarly bool) asyncProbe {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "project")
	script := modelapi.Script{
		modelapi.ToolUse("Write", map[string]any{"file_path": filepath.Join(dir, "a.txt"), "content": "a\n"}),
	}
	if !endEarly {
		script = append(script,
			bash(`test -f async.done && echo HOOK-HELD-THE-MODEL || echo HOOK-RAN-IN-BACKGROUND`),
			bash(`sleep 6; echo slept`),
			bash(`echo third`),
		)
	}
	srv, res := session(t, installT(t, version), script, sessionOpts{
		pluginDirs: []string{writePlugin(t, hooksJSON)}, dir: dir, tools: []string{"Write", "Bash"}, timeout: 120e9})
	requireRegistered(t, res)
	p := asyncProbe{firstSeen: map[string]int{}}
	if tr, ok := srv.ToolResultFor(1); ok {
		p.held = strings.Contains(tr.Content, "HOOK-HELD-THE-MODEL")
	}
	_, err := os.Stat(filepath.Join(dir, "async.done"))
	p.finished = err == nil
	for _, r := range srv.Requests() {
		if r.Kind != "main" {
			continue
		}
		p.requests++
		for _, m := range []string{"ASYNC-SYS-MARK", "ASYNC-CTX-MARK", "ASYNC-EXIT2-MARK"} {
			if _, seen := p.firstSeen[m]; !seen && strings.Contains(string(r.Body), m) {
				p.firstSeen[m] = p.requests
			}
		}
	}
	var hookLines []string
	for _, l := range strings.Split(res.DebugLog, "\n") {
		if strings.Contains(strings.ToLower(l), "async") || strings.Contains(l, "PostToolUse") {
			hookLines = append(hookLines, l)
		}
	}
	t.Logf("%s: %s (requests in %s)\n%s", version, p, srv.LogDir, strings.Join(hookLines, "\n"))
	return p
}

// TestAsyncHookProbe records what "async": true does on real releases:
// whether the model is held while the hook runs, and whether, and when,
// the hook's JSON reply reaches the model. Before 2.1.15 the key is
// unknown and the hook runs as any other.
func TestAsyncHookProbe(t *testing.T) {
	Available(t)
	for _, v := range probeReleases("2.1.10", "2.1.15", "2.1.33", "2.1.47", "2.1.63", "2.1.64", "2.1.69", "2.1.101", "2.1.139", "2.1.252", "2.1.330") {
		t.Run(v, func(t *testing.T) {
			p := runAsyncProbe(t, v, asyncHooks(`, "async": true`, asyncJSONBody), false)
			if !p.finished {
				t.Errorf("the hook never finished")
			}
		})
	}
}

// TestAsyncRewakeProbe records what "asyncRewake": true does: an exit 2
// of a hook that runs in the background, with the model's turn over by
// then (endEarly) and while it still works.
func TestAsyncRewakeProbe(t *testing.T) {
	Available(t)
	for _, v := range probeReleases("2.1.33", "2.1.64", "2.1.101", "2.1.139", "2.1.330") {
		for _, tc := range []struct {
			name, extra string
			endEarly    bool
		}{
			{"rewake-only-working", `, "asyncRewake": true`, false},
			{"async-and-rewake-working", `, "async": true, "asyncRewake": true`, false},
			{"async-and-rewake-turn-over", `, "async": true, "asyncRewake": true`, true},
			{"async-exit2-working", `, "async": true`, false},
		} {
			t.Run(v+"/"+tc.name, func(t *testing.T) {
				p := runAsyncProbe(t, v, asyncHooks(tc.extra, asyncExit2Body), tc.endEarly)
				if !p.finished && !tc.endEarly {
					t.Errorf("the hook never finished")
				}
			})
		}
	}
}

// probeReleases is $HOOKWRIGHT_PROBE_RELEASES (comma-separated), else def:
// a maintainer narrows or widens a probe without editing it.
func probeReleases(def ...string) []string {
	if v := os.Getenv("HOOKWRIGHT_PROBE_RELEASES"); v != "" {
		return strings.Split(v, ",")
	}
	return def
}
