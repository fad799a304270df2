package live

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/modelapi"
)

// askCommand is one Bash call that a rule pack asks about (HTTP DELETE)
// and that leaves ran.marker when it runs.
const askCommand = "touch ran.marker && curl -sS -m 2 -X DELETE http://127.0.0.1:9/items/1"

// TestGuardAskPrint records what permissionDecision "ask" does in
// `claude -p` with Bash in --allowedTools (written down in
// compat/FACTS.md): 2.1.33 runs the command as if the hook had said
// nothing (the allow list wins); 2.1.330 does not run it and hands the
// model the reason as an error tool_result.
func TestGuardAskPrint(t *testing.T) {
	Available(t)
	plugin := writePlugin(t, spineHooks)
	runs := map[string]bool{"2.1.33": true, "2.1.330": false}
	for _, v := range []string{"2.1.33", "2.1.330"} {
		t.Run(v, func(t *testing.T) {
			srv, res := session(t, installT(t, v), modelapi.Script{bash(askCommand)}, sessionOpts{pluginDirs: []string{plugin}})
			requireRegistered(t, res)
			got, ok := srv.ToolResultFor(0)
			_, statErr := os.Stat(filepath.Join(res.Dir, "ran.marker"))
			t.Logf("%s -p: tool_result %+v (found %v); ran.marker exists: %v", v, got, ok, statErr == nil)
			if !ok {
				t.Fatalf("no tool_result for the Bash call")
			}
			if ran := statErr == nil; ran != runs[v] {
				t.Errorf("the asked command ran: %v, want %v", ran, runs[v])
			}
			if !runs[v] && (!got.IsError || !strings.Contains(got.Content, guardPrefix)) {
				t.Errorf("tool_result = %+v, want an error carrying %q", got, guardPrefix)
			}
		})
	}
}

// TestGuardAskInteractive records what "ask" does in an interactive
// session (tmux), with Bash in --allowedTools too: 2.1.33 and 2.1.330 show
// the permission dialog "Hook PreToolUse:Bash requires confirmation for
// this command:" with the guard's reason, and wait; the command does not
// run while nobody answers. Each version waits out a 60 s session.
func TestGuardAskInteractive(t *testing.T) {
	Available(t)
	plugin := writePlugin(t, spineHooks)
	for _, v := range []string{"2.1.33", "2.1.330"} {
		t.Run(v, func(t *testing.T) {
			claude := installT(t, v)
			srv := modelapi.New(modelapi.Script{bash(askCommand)})
			srv.LogDir = requestLogDir(t)
			srv.Start()
			t.Cleanup(srv.Close)
			res, err := RunInteractive(context.Background(), InteractiveOptions{
				Claude: claude, Prompt: "Run the scripted steps.", BaseURL: srv.URL(),
				Args:    []string{"--plugin-dir", plugin, "--allowedTools", "Bash", "--debug"},
				Done:    func() bool { _, ok := srv.ToolResultFor(0); return ok },
				Timeout: 60 * time.Second,
			})
			if err == ErrNoTmux {
				t.Skip("no tmux")
			}
			got, ok := srv.ToolResultFor(0)
			_, statErr := os.Stat(filepath.Join(res.Dir, "ran.marker"))
			pane := res.Stdout
			if i := strings.Index(pane, "curl"); i > 200 {
				pane = pane[i-200:]
			}
			t.Logf("%s interactive: err %v; tool_result %+v (found %v); ran.marker exists: %v\npane:\n%s", v, err, got, ok, statErr == nil, pane)
			if statErr == nil || ok {
				t.Errorf("the asked command ran, or a tool_result came back, with nobody answering")
			}
			if !strings.Contains(res.Stdout, "requires confirmation for this command") || !strings.Contains(res.Stdout, "rule http.delete") {
				t.Errorf("the pane shows no permission dialog carrying the guard's reason")
			}
		})
	}
}
