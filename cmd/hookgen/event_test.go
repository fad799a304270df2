package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	hwcli "github.com/hookwright/hookwright/internal/cli"
)

// hookgen event and reply: the canonical event and the answer, as JSON
// in plain ASCII; every failure exits 1 (a hook that mirrored it would
// never block by our fault), never 2.
func TestEventAndReply(t *testing.T) {
	cfg := t.TempDir()
	os.MkdirAll(filepath.Join(cfg, "tasks", "s1"), 0o755)
	os.WriteFile(filepath.Join(cfg, "tasks", "s1", "3.json"), []byte(`{"id":"3","subject":"Ship \u2028it \u202e\u007f","description":"deliverable: a.go","status":"completed"}`), 0o644)
	update := `{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"TaskUpdate","tool_input":{"taskId":"3","status":"completed"},` +
		`"tool_response":{"success":true,"statusChange":{"from":"in_progress","to":"completed"}}}`
	run := func(stdin string, vars map[string]string, args ...string) (int, string, string) {
		s, out, errb := hwcli.Buffers(stdin, vars)
		code := hookgen(t, env{Streams: s, Home: t.TempDir()}, args...)
		return code, out.String(), errb.String()
	}
	code, out, errb := run(update, map[string]string{"CLAUDE_CONFIG_DIR": cfg}, "event", "--", "--mine", "TaskCompleted", "--via=PostToolUse", "--proto", "2.1.16")
	if code != 0 {
		t.Fatalf("event: exit %d, %s", code, errb)
	}
	for _, c := range out {
		if c < 0x20 && c != '\n' || c >= 0x7f {
			t.Fatalf("event printed %q, not plain ASCII", out)
		}
	}
	var got struct {
		Event map[string]any
		Hook  map[string]string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Event["task_subject"] != "Ship \u2028it \u202e\u007f" || got.Event["hook_event_name"] != "TaskCompleted" ||
		got.Hook["event"] != "TaskCompleted" || got.Hook["via"] != "PostToolUse" || got.Hook["proto"] != "2.1.16" {
		t.Fatalf("event = %s", out)
	}
	// A TaskUpdate that completes nothing stands for nothing.
	code, out, _ = run(strings.Replace(update, `"status":"completed"}`, `"status":"in_progress"}`, 1), nil, "event", "--", "--via", "PostToolUse")
	if code != 0 || !strings.HasPrefix(out, `{"event":null,`) {
		t.Fatalf("starting TaskUpdate: exit %d, %s", code, out)
	}

	code, out, _ = run(`{"decision":"block","reason":"needs a.go \u2713"}`, nil, "reply", "TaskCompleted", "--via", "PostToolUse", "--proto", "2.1.16")
	if code != 0 || out != `{"code":2,"stdout":"","stderr":"needs a.go \u2713\n"}`+"\n" {
		t.Fatalf("reply block: exit %d, %s", code, out)
	}
	code, out, _ = run(`{"halt":true,"stopReason":"done"}`, nil, "reply", "TeammateIdle", "--proto", "2.1.69")
	if code != 0 || out != `{"code":0,"stdout":"{\"continue\":false,\"stopReason\":\"done\"}\n","stderr":""}`+"\n" {
		t.Fatalf("reply halt: exit %d, %s", code, out)
	}

	for name, c := range map[string]struct {
		stdin string
		args  []string
	}{
		"event, not JSON":         {"git push --force", []string{"event", "--", "Stop"}},
		"event, no input":         {"", []string{"event", "--", "Stop"}},
		"event, bad band":         {update, []string{"event", "--", "TaskCompleted", "--proto", "2.1"}},
		"event, wrong fallback":   {update, []string{"event", "--", "TeammateIdle", "--via", "PostToolUse"}},
		"event, no event":         {`{"tool_name":"Bash"}`, []string{"event"}},
		"reply, no event":         {`{}`, []string{"reply"}},
		"reply, unknown decision": {`{"decision":"deny"}`, []string{"reply", "Stop"}},
		"reply, unknown field":    {`{"decison":"block"}`, []string{"reply", "Stop"}},
		"reply, not JSON":         {`block`, []string{"reply", "Stop"}},
	} {
		code, out, errb := run(c.stdin, nil, c.args...)
		if code != 1 || out != "" || strings.Count(errb, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and one line", name, code, out, errb)
		}
	}
}
