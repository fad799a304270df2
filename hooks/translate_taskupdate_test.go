package hooks

import (
	"os"
	"path/filepath"
	"testing"
)

// A teammate named by the CLAUDE_CODE_TEAM_NAME override: Claude Code does
// not read it, so it keeps the task under the session's list, not the
// team's. The fallback must still find the subject there.
func TestTaskUpdateSubjectFromSessionListUnderTeamOverride(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", cfg)
	t.Setenv("CLAUDE_CODE_TASK_LIST_ID", "")
	t.Setenv("CLAUDE_CODE_TEAM_NAME", "core")
	t.Setenv("CLAUDE_CODE_AGENT_NAME", "alice")
	list := filepath.Join(cfg, "tasks", "sess-1")
	os.MkdirAll(list, 0o755)
	os.WriteFile(filepath.Join(list, "1.json"), []byte(`{"id":"1","subject":"[Do] parser: write it","description":"d","status":"completed","blocks":[],"blockedBy":[]}`), 0o644)
	in, err := Decode([]byte(`{"session_id":"sess-1","hook_event_name":"PostToolUse","tool_name":"TaskUpdate",
		"tool_input":{"taskId":"1","status":"completed"},
		"tool_response":{"success":true,"taskId":"1","updatedFields":["status"],"statusChange":{"from":"in_progress","to":"completed"}}}`), EventPostToolUse)
	if err != nil {
		t.Fatal(err)
	}
	out, ok, err := adapt(EventTaskCompleted, in, os.Getenv)
	if err != nil || !ok {
		t.Fatalf("Translate: ok=%v err=%v", ok, err)
	}
	tc := out.(*TaskCompleted)
	if tc.TaskSubject != "[Do] parser: write it" || tc.Team != (Team{TeamName: "core", TeammateName: "alice"}) {
		t.Fatalf("got subject %q team %+v", tc.TaskSubject, tc.Team)
	}
}
