package live

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/state/pdca"
	hwsession "github.com/hookwright/hookwright/internal/state/session"
)

// pdcaHooks returns the hooks.json of one band: native TaskCompleted
// (2.1.33+), or the PostToolUse(TaskUpdate) fallback (2.1.16 to 2.1.32),
// plus the work observer and gate and the session fingerprints.
func pdcaHooks(native bool) string {
	cmd := func(args string) string {
		return `{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\" ` + args + `", "timeout": 30}`
	}
	completion := `"PostToolUse": [{"matcher": "TaskUpdate", "hooks": [` + cmd("TaskCompleted --via PostToolUse") + `, ` + cmd("PostToolUse") + `]}],`
	if native {
		completion = `"TaskCompleted": [{"hooks": [` + cmd("TaskCompleted") + `]}],
    "PostToolUse": [{"matcher": "TaskUpdate", "hooks": [` + cmd("PostToolUse") + `]}],`
	}
	return `{
  "description": "hookwright live: PDCA, work units, sessions",
  "hooks": {
    ` + completion + `
    "PreToolUse": [{"matcher": "Write|Edit|MultiEdit", "hooks": [` + cmd("PreToolUse") + `]}],
    "SessionStart": [{"hooks": [` + cmd("SessionStart") + `]}],
    "SessionEnd": [{"hooks": [` + cmd("SessionEnd") + `]}]
  }
}
`
}

// TestPDCAAdvancesAlike proves issue 5 item 6 for PDCA: on 2.1.33 through
// native TaskCompleted and on 2.1.32 through the TaskUpdate fallback, the
// same tagged tasks leave the same PDCA state.
func TestPDCAAdvancesAlike(t *testing.T) {
	Available(t)
	states := map[string]*pdca.Feature{}
	for _, tc := range []struct {
		version string
		native  bool
	}{{"2.1.33", true}, {"2.1.32", false}} {
		t.Run(tc.version, func(t *testing.T) {
			claude := installT(t, tc.version)
			plugin := writePlugin(t, pdcaHooks(tc.native))
			project := filepath.Join(t.TempDir(), "project")
			// PDCA is a workflow the project turns on (hwctl workflow enable
			// pdca writes this).
			writeFile(t, filepath.Join(project, ".hookwright", "config.json"), `{"pdca": {"enabled": true}}`+"\n")
			script := modelapi.Script{
				modelapi.ToolUse("TaskCreate", map[string]any{"subject": "[Plan] login-flow: outline", "description": "plan it", "activeForm": "Planning"}),
				modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"}),
				modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),
				modelapi.ToolUse("TaskCreate", map[string]any{"subject": "[Do] login-flow: implement handler", "description": "write it", "activeForm": "Implementing"}),
				modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "2", "status": "in_progress"}),
				modelapi.ToolUse("Write", map[string]any{"file_path": filepath.Join(project, "handler.go"), "content": "package login\n"}),
				modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "2", "status": "completed"}),
				modelapi.ToolUse("TaskCreate", map[string]any{"subject": "write the changelog", "description": "untagged"}),
				modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "3", "status": "completed"}),
			}
			srv, res := session(t, claude, script, sessionOpts{
				dir:        project,
				pluginDirs: []string{plugin},
				tools:      []string{"TaskCreate", "TaskUpdate", "TaskList", "TaskGet", "Write"},
				env:        []string{"CLAUDE_CODE_ENABLE_TASKS=1"},
				timeout:    120 * time.Second,
			})
			requireRegistered(t, res)
			for i, r := range srv.ToolResults() {
				if r.IsError {
					t.Errorf("tool result %d is an error: %s", i, r.Content)
				}
			}
			st, err := pdca.Load(filepath.Join(project, ".hookwright", "pdca.json"))
			if err != nil {
				t.Fatal(err)
			}
			f := st.Features["login-flow"]
			if len(st.Features) != 1 || f == nil || f.Phase != "Do" || !reflect.DeepEqual(f.Done, map[string]int{"Plan": 1, "Do": 1}) {
				data, _ := json.MarshalIndent(st, "", "  ")
				t.Fatalf("PDCA state:\n%s", data)
			}
			states[tc.version] = f

			// The work unit ended with the task; the session was fingerprinted.
			work, _ := os.ReadFile(filepath.Join(project, ".hookwright", "work.json"))
			if strings.Contains(string(work), `"task_id"`) {
				t.Errorf("a completed task still counts as a work unit:\n%s", work)
			}
			list, err := hwsession.List(project, 0)
			if err != nil || len(list) != 1 || list[0].ClaudeVersion != tc.version || list[0].Ended.IsZero() {
				t.Errorf("session fingerprint: %+v %v", list, err)
			}
		})
	}
	a, b := states["2.1.33"], states["2.1.32"]
	if a == nil || b == nil {
		return
	}
	if len(a.History) != len(b.History) {
		t.Fatalf("history lengths differ: %d vs %d", len(a.History), len(b.History))
	}
	for i := range a.History {
		x, y := a.History[i], b.History[i]
		_, xid, _ := strings.Cut(x.Task, "/")
		_, yid, _ := strings.Cut(y.Task, "/")
		if x.Phase != y.Phase || x.Subject != y.Subject || xid != yid {
			t.Errorf("step %d differs: native %+v, fallback %+v", i, x, y)
		}
	}
}
