package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func decodeT(t *testing.T, event Event, payload string) Input {
	t.Helper()
	in, err := Decode([]byte(payload), event)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TodoWrite, the TaskCompleted fallback before 2.1.16, names no task: the
// documented limit is that it stands for nothing, whatever the list says.
func TestTodoWriteStandsForNothing(t *testing.T) {
	in := decodeT(t, EventPostToolUse, `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"TodoWrite",
		"tool_input":{"todos":[{"content":"Write the parser","status":"completed","activeForm":"Writing the parser"}]},
		"tool_response":{"oldTodos":[{"content":"Write the parser","status":"in_progress","activeForm":"Writing the parser"}],
		"newTodos":[{"content":"Write the parser","status":"completed","activeForm":"Writing the parser"}]}}`)
	out, err := Translate(EventTaskCompleted, in, func(string) string { return "" })
	if err != nil || out != nil {
		t.Fatalf("TodoWrite as TaskCompleted = %+v, %v; want nothing", out, err)
	}
	var found bool
	for _, f := range Fallbacks() {
		if f.Canonical == EventTaskCompleted && f.Matcher == "TodoWrite" {
			found = true
			if f.Exact {
				t.Error("the TodoWrite fallback is marked exact")
			}
		}
	}
	if !found {
		t.Fatal("compat's plan has no TodoWrite fallback: the documented limit documents nothing")
	}
}

// A fired event that is no fallback of the canonical one is an error, not
// a silent nothing: the registration is wrong.
func TestTranslateRefusesWhatStandsInForNothing(t *testing.T) {
	stop := decodeT(t, EventStop, `{"session_id":"s","hook_event_name":"Stop","stop_hook_active":false}`)
	if out, err := Translate(EventTaskCompleted, stop, nil); err == nil || !strings.Contains(err.Error(), "Stop does not stand in for TaskCompleted (its fallbacks fire PostToolUse)") {
		t.Errorf("Stop as TaskCompleted: %v, %v", out, err)
	}
	pre := decodeT(t, EventPreToolUse, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if out, err := Translate(EventSessionStart, pre, nil); err == nil || !strings.Contains(err.Error(), "SessionStart has no fallback") {
		t.Errorf("PreToolUse as SessionStart: %v, %v", out, err)
	}
	if out, err := Translate(EventPreToolUse, pre, nil); err != nil || out != pre {
		t.Errorf("an event as itself: %v, %v", out, err)
	}
}

func TestFallbackFor(t *testing.T) {
	for fired, want := range map[Event]Event{EventPostToolUse: EventTaskCompleted, EventSubagentStop: EventTeammateIdle, EventStop: EventTeammateIdle, EventPreToolUse: ""} {
		got, ok := FallbackFor(fired)
		if got != want || ok != (want != "") {
			t.Errorf("FallbackFor(%s) = %q, %v; want %q", fired, got, ok, want)
		}
	}
}

// The payloads 2.1.32 really sent (recorded by the live tier, kept in
// internal/handlers/pdca/testdata): a completing TaskUpdate becomes
// TaskCompleted with the task file's subject and description, one that
// starts a task stands for nothing.
func TestTranslateRecordedTaskUpdate(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "internal", "handlers", "pdca", "testdata", "2.1.32", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	cfg := t.TempDir()
	os.MkdirAll(filepath.Join(cfg, "tasks", "4062087a-7ea4-41e9-9dee-47237bfda29b"), 0o755)
	os.WriteFile(filepath.Join(cfg, "tasks", "4062087a-7ea4-41e9-9dee-47237bfda29b", "1.json"),
		[]byte(`{"id":"1","subject":"[Do] login-flow: implement handler","description":"write the handler","status":"completed","blocks":[],"blockedBy":[]}`), 0o644)
	getenv := func(k string) string { return map[string]string{"CLAUDE_CONFIG_DIR": cfg}[k] }
	done, err := Translate(EventTaskCompleted, decodeT(t, EventPostToolUse, read("PostToolUse-TaskUpdate-completed.json")), getenv)
	if err != nil {
		t.Fatal(err)
	}
	tc, ok := done.(*TaskCompleted)
	if !ok || tc.TaskID != "1" || tc.TaskSubject != "[Do] login-flow: implement handler" || tc.TaskDescription != "write the handler" ||
		tc.HookEventName != EventTaskCompleted || tc.SessionID != "4062087a-7ea4-41e9-9dee-47237bfda29b" {
		t.Fatalf("completing TaskUpdate = %+v", done)
	}
	started, err := Translate(EventTaskCompleted, decodeT(t, EventPostToolUse, read("PostToolUse-TaskUpdate-in_progress.json")), getenv)
	if err != nil || started != nil {
		t.Fatalf("starting TaskUpdate = %+v, %v; want nothing", started, err)
	}
}
