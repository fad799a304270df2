package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	state "github.com/hookwright/hookwright/internal/state/session"
)

func TestSum(t *testing.T) {
	now := time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC)
	yesterday := now.Add(-2 * time.Hour)
	entries := []journal.Entry{
		{Time: yesterday, Session: "s1", Event: "SessionStart", Micros: 1500},
		{Time: yesterday, Session: "s1", Event: "PreToolUse", Tool: "Bash", Decision: "block", Exit: 2, Micros: 500},
		{Time: yesterday, Session: "s1", Event: "PostToolUse", Tool: "Bash", ToolMillis: 30, Outcome: "success", Micros: 400},
		{Time: now, Session: "s1", Event: "PostToolUseFailure", Tool: "Bash", ToolMillis: 20, Outcome: "failure", Error: "exit 1", Micros: 600},
		{Time: now, Session: "s1", Event: "PostToolUse", Tool: "Write", ToolMillis: 5, Outcome: "success", Micros: 1000},
		{Time: now, Session: "s1", Event: "TaskCompleted", Via: "PostToolUse", Micros: 1000},
		{Time: now, Session: "s1", Event: "Stop", Decision: "block", Exit: 2, Micros: 1000},
		{Time: now, Session: "s2", Event: "PostToolUse", Tool: "Bash", Micros: 99999},
		{Time: now.Add(-72 * time.Hour), Session: "s1", Event: "PostToolUse", Tool: "Old", Micros: 99999},
	}
	dir := t.TempDir()
	for _, e := range entries {
		if err := journal.Append(dir, e); err != nil {
			t.Fatal(err)
		}
	}
	// A torn line and a foreign line are skipped.
	f, _ := os.OpenFile(filepath.Join(dir, journal.Dir, "2026-03-02.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"ts":"x","session":"s1",` + "\n" + `not json "session":"s1",` + "\n")
	f.Close()

	got := Sum(dir, "s1", yesterday, now)
	want := map[string]int{"SessionStart": 1, "PreToolUse": 1, "PostToolUse": 2, "PostToolUseFailure": 1, "TaskCompleted": 1, "Stop": 1}
	for k, v := range want {
		if got.Events[k] != v {
			t.Errorf("events[%s] = %d, want %d (%v)", k, got.Events[k], v, got.Events)
		}
	}
	if got.Calls != 7 || got.Blocks != 2 || got.Failures != 1 || got.HookMillis != 6 || got.ToolMillis != 55 {
		t.Errorf("totals = %+v", got)
	}
	if got.Tools["Bash"] != 2 || got.Tools["Write"] != 1 || len(got.Tools) != 2 || got.ToolCalls() != 3 {
		t.Errorf("tools = %v", got.Tools)
	}
	if got.Partial {
		t.Error("partial without a bound hit")
	}
	if top := got.TopTools(1); len(top) != 1 || top[0] != "Bash×2" {
		t.Errorf("TopTools = %v", top)
	}
	// Only today when the session started today.
	if today := Sum(dir, "s1", now, now); today.Calls != 4 {
		t.Errorf("today only: %d calls", today.Calls)
	}
}

func TestSumIsBounded(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC)
	big := strings.Repeat("x", 1<<20)
	for range TotalsBytes/(1<<20) + 2 {
		journal.Append(dir, journal.Entry{Time: now, Session: "other", Event: "Stop", Reason: big})
	}
	journal.Append(dir, journal.Entry{Time: now, Session: "s1", Event: "Stop"})
	got := Sum(dir, "s1", now, now)
	if !got.Partial || got.Calls != 1 {
		t.Errorf("a journal over the bound: %+v", got)
	}
	tools := Sum(dir, "none", now, now)
	if tools.Calls != 0 {
		t.Errorf("unknown session: %+v", tools)
	}
}

func TestEnderWritesTotals(t *testing.T) {
	dir := t.TempDir()
	now := time.Now().UTC()
	journal.Append(dir, journal.Entry{Time: now, Session: "s1", Event: "PostToolUse", Tool: "Bash", Outcome: "success", Micros: 2000})
	end := &hooks.SessionEnd{Reason: "other"}
	end.HookEventName, end.SessionID = hooks.EventSessionEnd, "s1"
	if _, err := (Ender{Dir: dir, Now: func() time.Time { return now }}).Handle(context.Background(), end); err != nil {
		t.Fatal(err)
	}
	list, err := state.List(dir, 0)
	if err != nil || len(list) != 1 || list[0].Totals == nil {
		t.Fatalf("fingerprints: %+v, %v", list, err)
	}
	if tt := list[0].Totals; tt.Calls != 1 || tt.Tools["Bash"] != 1 || tt.HookMillis != 2 {
		t.Errorf("totals = %+v", tt)
	}
}

// The asynchronous quality call's line (async) is a hook call, not a tool
// call of its own: the Write it checks is counted once.
func TestSumAsyncLineIsNoToolCall(t *testing.T) {
	now := time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	for _, e := range []journal.Entry{
		{Time: now, Session: "s1", Event: "PostToolUse", Tool: "Write", ToolMillis: 5, Outcome: "success", Micros: 1000},
		{Time: now, Session: "s1", Event: "PostToolUse", Async: true, Tool: "Write", Micros: 14000000},
	} {
		if err := journal.Append(dir, e); err != nil {
			t.Fatal(err)
		}
	}
	got := Sum(dir, "s1", now, now)
	if got.Calls != 2 || got.Tools["Write"] != 1 || got.ToolCalls() != 1 {
		t.Fatalf("totals = %+v", got)
	}
}
