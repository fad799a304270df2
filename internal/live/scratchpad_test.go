package live

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/handlers/scratchpad"
	"github.com/hookwright/hookwright/internal/modelapi"
)

// scratchpadHooks registers only the SubagentStop scratchpad gate.
const scratchpadHooks = `{
  "description": "hookwright live: the SubagentStop scratchpad gate",
  "hooks": {
    "SubagentStop": [{"hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\" SubagentStop", "timeout": 30}]}]
  }
}
`

// TestScratchpadGateBlocksSubagent proves issue 5 item 6 for the scratchpad
// chain on 2.1.33: a subagent started with the Task tool that tries to stop
// without its scratchpad is blocked (exit 2) and told what to write; it
// writes the file, stops again and is let go, and the Task call succeeds.
func TestScratchpadGateBlocksSubagent(t *testing.T) {
	Available(t)
	const marker = "HOOKWRIGHT-SCRATCHPAD-1"
	// The subagent writes the file through the shell so the date is the one
	// the hook sees (same clock, same TZ).
	write := `mkdir -p .claude/scratchpad/general-purpose && printf '## What I did\nran the scripted steps\n## Cross-agent observations\nnone\n## Unresolved\nnothing\n' > ".claude/scratchpad/general-purpose/$(date +%F).md"`
	script := modelapi.Script{
		modelapi.ToolUse("Task", map[string]any{
			"description": "scripted subagent", "subagent_type": "general-purpose",
			"prompt": marker + ": do the scripted work.",
		}),
		modelapi.Text("done, stopping without a scratchpad").In(marker), // 1: blocked
		bash(write).In(marker), // 2: only reachable after the block
		modelapi.Text("scratchpad written, stopping").In(marker), // 3: let go
	}
	// The chain is a workflow the project turns on (hwctl workflow enable
	// scratchpad writes this).
	dir := filepath.Join(t.TempDir(), "project")
	writeFile(t, filepath.Join(dir, ".hookwright", "config.json"), `{"scratchpad": {"enabled": true}}`+"\n")
	srv, res := session(t, installT(t, "2.1.33"), script, sessionOpts{
		pluginDirs: []string{writePlugin(t, scratchpadHooks)}, tools: []string{"Bash", "Task"}, dir: dir})
	requireRegistered(t, res)

	blocked := false
	for _, r := range srv.Requests() {
		if r.Marker == marker && strings.Contains(string(r.Body), "hookwright scratchpad: before you finish, write .claude/scratchpad/general-purpose/") {
			blocked = true
		}
	}
	if !blocked {
		t.Errorf("no subagent request carries the SubagentStop block reason (requests in %s)", srv.LogDir)
	}
	if got, ok := srv.ToolResultFor(2); !ok || got.IsError {
		t.Errorf("the subagent's Bash write after the block: %+v (found %v)", got, ok)
	}
	path := filepath.Join(res.Dir, ".claude", "scratchpad", "general-purpose", time.Now().Format(time.DateOnly)+".md")
	missing, err := scratchpad.MissingHeadings(path, []string{"What I did", "Cross-agent observations", "Unresolved"})
	if err != nil || len(missing) > 0 {
		t.Errorf("scratchpad %s: missing %v, err %v", path, missing, err)
	}
	if got, ok := srv.ToolResultFor(0); !ok || got.IsError || !strings.Contains(got.Content, "scratchpad written") {
		t.Errorf("Task tool_result = %+v (found %v), want the subagent's final text", got, ok)
	}
}
