package journal

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

func TestAppendConcurrentAndReadAll(t *testing.T) {
	dir := t.TempDir()
	ts := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if err := Append(dir, Entry{Time: ts, Event: "PreToolUse", Target: "Bash", Micros: int64(i)}); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	// A torn line, as after a crash, is skipped and counted.
	f, err := os.OpenFile(filepath.Join(dir, Dir, "2026-11-22.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"ts":"2026-11-22T10:00:00Z","ev` + "\n")
	f.Close()
	entries, bad, err := ReadAll(dir)
	if err != nil || bad != 1 || len(entries) != 50 {
		t.Fatalf("ReadAll = %d entries, %d bad, %v", len(entries), bad, err)
	}
	seen := map[int64]bool{}
	for _, e := range entries {
		seen[e.Micros] = true
	}
	if len(seen) != 50 {
		t.Fatalf("lines were lost or merged: %d distinct", len(seen))
	}
}

func TestAppendLineMatchesEncodingJSON(t *testing.T) {
	ts := time.Date(2026, 11, 22, 10, 0, 0, 123456789, time.UTC)
	weird := []string{"", "plain", `quote " and \ backslash`, "new\nline\ttab\rcr", "\x00\x01\x1f\x7f", "<a href='x'>&amp;</a>",
		"line\u2028sep\u2029para", "ünïcødé ✓ 😀", "bad \xff\xfe utf8", "\xe2\x82"}
	for _, s := range weird {
		e := Entry{Time: ts, Session: s, Event: "PreToolUse" + s, Via: s, Async: s != "", Kind: s, Target: s, Tool: s, Agent: s, Team: s, Band: s,
			Decision: s, Reason: s, Handler: s, Exit: 2, Micros: -7, ToolMillis: 41, Outcome: s, Error: s, Faults: []string{s, "x"}}
		got := appendLine(nil, e)
		if !json.Valid(got) {
			t.Fatalf("%q: invalid JSON %s", s, got)
		}
		var fromHand, fromLib map[string]any
		want, _ := json.Marshal(e)
		if err := json.Unmarshal(got, &fromHand); err != nil {
			t.Fatal(err)
		}
		json.Unmarshal(want, &fromLib)
		if !reflect.DeepEqual(fromHand, fromLib) {
			t.Errorf("%q:\n hand: %s\n json: %s", s, got, want)
		}
	}
	empty := appendLine(nil, Entry{Time: ts, Event: "Stop"})
	if string(empty) != `{"ts":"2026-11-22T10:00:00.123456789Z","event":"Stop","exit":0,"us":0}` {
		t.Fatalf("omitempty differs: %s", empty)
	}
}

// TestAppendNeverCreatesTheProject: a project folder that does not exist
// (a stale CLAUDE_PROJECT_DIR) is an error, not a folder to create.
func TestAppendNeverCreatesTheProject(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone")
	if err := Append(gone, Entry{Time: time.Now(), Event: "Stop"}); err == nil {
		t.Fatal("Append into a missing project succeeded")
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Fatalf("Append created the missing project folder: %v", err)
	}
}

func TestKindOf(t *testing.T) {
	tests := []struct{ event, via, target, decision, want string }{
		{"SubagentStart", "", "Explore", "", KindAgentStarted},
		{"SubagentStop", "", "", "", KindAgentStopped},
		{"SubagentStop", "", "", "block", KindBlock},
		{"TeammateIdle", "SubagentStop", "", "", KindAgentStopped},
		{"PreCompact", "", "auto", "", KindContextOverflow},
		{"PreCompact", "", "manual", "", KindCheckpoint},
		{"PreToolUse", "", "Bash", "block", KindBlock},
		{"PreToolUse", "", "WebSearch", "ask", KindAsk},
		{"PreToolUse", "", "Task", "allow", ""},
		{"PostToolUse", "", "Write", "", ""},
	}
	for _, tt := range tests {
		if got := KindOf(tt.event, tt.via, tt.target, tt.decision); got != tt.want {
			t.Errorf("KindOf(%s, %s, %s, %s) = %q, want %q", tt.event, tt.via, tt.target, tt.decision, got, tt.want)
		}
	}
}
