package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/project"
)

// TestJournalLineFields runs calls through run and checks that each journal
// line carries what the store, the export and the session totals read: the
// tool, the agent and team, the band, the handler that decided and the
// tool's outcome.
func TestJournalLineFields(t *testing.T) {
	dir := t.TempDir()
	getenv := func(k string) string {
		switch k {
		case "CLAUDE_PROJECT_DIR":
			return dir
		case "HOME":
			return t.TempDir()
		}
		return ""
	}
	calls := []struct {
		args  []string
		stdin string
		want  journal.Entry
	}{
		{[]string{"PreToolUse", "--proto", "2.1.33"},
			`{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}`,
			journal.Entry{Session: "s1", Event: "PreToolUse", Kind: "block", Target: "Bash", Tool: "Bash", Subject: "git push --force origin main", Band: "2.1.33", Decision: "block", Handler: "guard", Rule: "git-force-push", Exit: 2}},
		{[]string{"PostToolUse"},
			`{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{},"tool_response":{},"duration_ms":42}`,
			journal.Entry{Session: "s1", Event: "PostToolUse", Target: "Read", Tool: "Read", ToolMillis: 42, Outcome: "success"}},
		{[]string{"PostToolUseFailure"},
			`{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{},"error":"exit 1\nmore"}`,
			journal.Entry{Session: "s1", Event: "PostToolUseFailure", Target: "Bash", Tool: "Bash", Outcome: "failure", Error: "exit 1"}},
		{[]string{"TeammateIdle"},
			`{"session_id":"s2","cwd":"` + dir + `","hook_event_name":"TeammateIdle","teammate_name":"ann","team_name":"red"}`,
			journal.Entry{Session: "s2", Event: "TeammateIdle", Agent: "ann", Team: "red"}},
		{[]string{"SubagentStop"},
			`{"session_id":"s3","cwd":"` + dir + `","hook_event_name":"SubagentStop","agent_type":"Explore","stop_hook_active":true}`,
			journal.Entry{Session: "s3", Event: "SubagentStop", Kind: "agent_stopped", Target: "Explore", Agent: "Explore"}},
		{[]string{"SubagentStart"},
			`{"session_id":"s3","cwd":"` + dir + `","hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"Explore"}`,
			journal.Entry{Session: "s3", Event: "SubagentStart", Kind: "agent_started", Target: "Explore", Agent: "Explore"}},
		{[]string{"PreCompact"},
			`{"session_id":"s3","cwd":"` + dir + `","hook_event_name":"PreCompact","trigger":"auto","custom_instructions":""}`,
			journal.Entry{Session: "s3", Event: "PreCompact", Kind: "context_overflow", Target: "auto"}},
		{[]string{"PreCompact"},
			`{"session_id":"s3","cwd":"` + dir + `","hook_event_name":"PreCompact","trigger":"manual","custom_instructions":""}`,
			journal.Entry{Session: "s3", Event: "PreCompact", Kind: "checkpoint", Target: "manual"}},
	}
	for _, c := range calls {
		var stdout, stderr bytes.Buffer
		run(c.args, strings.NewReader(c.stdin), &stdout, &stderr, project.Env{Getenv: getenv, Now: time.Now})
	}
	entries, bad, err := journal.ReadAll(dir)
	if err != nil || bad != 0 {
		t.Fatalf("ReadAll: %v (%d bad)", err, bad)
	}
	if len(entries) != len(calls) {
		t.Fatalf("%d journal entries, want %d", len(entries), len(calls))
	}
	for i, got := range entries {
		want := calls[i].want
		got.Time, got.Micros, got.Reason, got.Faults = want.Time, want.Micros, want.Reason, want.Faults
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if !bytes.Equal(g, w) {
			t.Errorf("call %d (%s):\n got %s\nwant %s", i, calls[i].args[0], g, w)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, journal.Dir)); err != nil {
		t.Fatal(err)
	}
}
