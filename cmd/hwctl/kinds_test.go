package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
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

// The kinds the workflows add, end to end: work units on in warn mode by
// hwctl workflow enable (run in a subfolder), then edits outside a unit
// (Write, NotebookEdit, a shell redirect) are journaled untracked_edit and
// the ls is not; a briefing at a session's start is context_loaded; a
// completion that readies another task is dependency_resolved.
func TestWorkflowKindsBinary(t *testing.T) {
	hookwright, hwctl := builtBinaries(t)
	project := t.TempDir()
	src := filepath.Join(project, "src")
	cfgDir := filepath.Join(project, "cc")
	must(t, os.MkdirAll(filepath.Join(project, ".git"), 0o755))
	must(t, os.MkdirAll(src, 0o755))
	cmd := exec.Command(hwctl, "workflow", "enable", "work", "--mode", "warn")
	cmd.Dir, cmd.Env = src, hermeticEnv(t)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "work: on, warn") {
		t.Fatalf("hwctl workflow enable work --mode warn: %v\n%s", err, out)
	}
	must(t, os.MkdirAll(filepath.Join(project, ".claude", "scratchpad", "ego"), 0o755))
	must(t, os.WriteFile(filepath.Join(project, ".claude", "scratchpad", "ego", "2026-01-01.md"), []byte("steady\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(cfgDir, "tasks", "k2"), 0o755))
	must(t, os.WriteFile(filepath.Join(cfgDir, "tasks", "k2", "1.json"), []byte(`{"id":"1","subject":"a","status":"in_progress","blocks":["2"],"blockedBy":[]}`), 0o644))
	must(t, os.WriteFile(filepath.Join(cfgDir, "tasks", "k2", "2.json"), []byte(`{"id":"2","subject":"b","status":"pending","blocks":[],"blockedBy":["1"]}`), 0o644))
	for _, c := range []struct{ event, stdin string }{
		{"PreToolUse", `{"session_id":"k2","cwd":"` + src + `","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"` + src + `/a.go","content":"x"}}`},
		{"PreToolUse", `{"session_id":"k2","cwd":"` + src + `","hook_event_name":"PreToolUse","tool_name":"NotebookEdit","tool_input":{"notebook_path":"` + src + `/n.ipynb","new_source":"x"}}`},
		{"PreToolUse", `{"session_id":"k2","cwd":"` + src + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo x > notes.txt"}}`},
		{"PreToolUse", `{"session_id":"k2","cwd":"` + src + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`},
		{"SessionStart", `{"session_id":"k2","cwd":"` + src + `","hook_event_name":"SessionStart","source":"startup"}`},
		{"TaskCompleted", `{"session_id":"k2","cwd":"` + src + `","hook_event_name":"TaskCompleted","task_id":"1","task_subject":"a"}`},
	} {
		runHookEnv(t, hookwright, project, c.event, c.stdin, "CLAUDE_CONFIG_DIR="+cfgDir)
	}
	for kind, want := range map[string][]string{
		"untracked_edit":      {"Write", "NotebookEdit", "Bash"},
		"context_loaded":      {"SessionStart"},
		"dependency_resolved": {"TaskCompleted"},
	} {
		cmd := exec.Command(hwctl, "events", "--dir", project, "--kind", kind, "--json")
		cmd.Env = hermeticEnv(t)
		out, err := cmd.Output()
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var e store.Event
			if json.Unmarshal([]byte(line), &e) == nil && e.Kind == kind {
				if e.Tool != "" {
					got = append(got, e.Tool)
				} else {
					got = append(got, e.Event)
				}
			}
		}
		sort.Strings(got)
		sort.Strings(want)
		if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("--kind %s: %v, got %q, want %q\n%s", kind, err, got, want, out)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
