package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/store"
)

// Typed events end to end: real hook calls journal their kinds, and
// hwctl events --kind filters on them.
func TestEventsKindBinary(t *testing.T) {
	hookwright, hwctl := builtBinaries(t)
	project := t.TempDir()
	for _, c := range []struct{ event, stdin string }{
		{"SubagentStart", `{"session_id":"k1","cwd":"` + project + `","hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"Explore"}`},
		{"PreCompact", `{"session_id":"k1","cwd":"` + project + `","hook_event_name":"PreCompact","trigger":"auto","custom_instructions":""}`},
		{"PreCompact", `{"session_id":"k1","cwd":"` + project + `","hook_event_name":"PreCompact","trigger":"manual","custom_instructions":""}`},
		{"PreToolUse", `{"session_id":"k1","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push -f origin main"}}`},
		{"PreToolUse", `{"session_id":"k1","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git branch -D x"}}`},
		{"SubagentStop", `{"session_id":"k1","cwd":"` + project + `","hook_event_name":"SubagentStop","agent_type":"Explore","stop_hook_active":true}`},
	} {
		runHook(t, hookwright, project, c.event, c.stdin)
	}
	for kind, event := range map[string]string{"agent_started": "SubagentStart", "context_overflow": "PreCompact", "checkpoint": "PreCompact",
		"block": "PreToolUse", "ask": "PreToolUse", "agent_stopped": "SubagentStop"} {
		cmd := exec.Command(hwctl, "events", "--dir", project, "--kind", kind, "--json")
		cmd.Env = hermeticEnv(t)
		out, err := cmd.Output()
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if err != nil || len(lines) != 1 {
			t.Errorf("--kind %s: %v, %d lines:\n%s", kind, err, len(lines), out)
			continue
		}
		var e store.Event
		if err := json.Unmarshal([]byte(lines[0]), &e); err != nil || e.Kind != kind || e.Event != event {
			t.Errorf("--kind %s: %v %+v", kind, err, e)
		}
	}
	cmd := exec.Command(hwctl, "events", "--dir", project, "--kind", "nonsense")
	cmd.Env = hermeticEnv(t)
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() != 2 {
		t.Errorf("--kind nonsense: %v, want exit 2", err)
	}
}
