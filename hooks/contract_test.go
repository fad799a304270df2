package hooks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestContractCheck(t *testing.T) {
	project := t.TempDir()
	file := filepath.Join(project, "f")
	os.WriteFile(file, nil, 0o644)
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	pre := func(session, tool, cwd string) Input {
		e := &PreToolUse{}
		e.HookEventName, e.SessionID, e.ToolName, e.Cwd = EventPreToolUse, session, tool, cwd
		return e
	}
	task := func(id string) Input {
		e := &TaskCompleted{}
		e.HookEventName, e.SessionID, e.TaskID, e.Cwd = EventTaskCompleted, "s", id, project
		return e
	}
	all := Contract{RequireProject: true, RequirePluginRoot: true}
	tests := []struct {
		name string
		c    Contract
		in   Input
		env  func(string) string
		want string // "" = the contract holds
	}{
		{"all there", all, pre("s", "Bash", project), env("CLAUDE_PLUGIN_ROOT", "/p"), ""},
		{"project from the env wins", all, pre("s", "Bash", "/nonexistent"), env("CLAUDE_PLUGIN_ROOT", "/p", "CLAUDE_PROJECT_DIR", project), ""},
		{"a tool gate needs no session id", all, pre("", "Bash", project), env("CLAUDE_PLUGIN_ROOT", "/p"), ""},
		{"a stop does", all, func() Input {
			e := &Stop{}
			e.HookEventName, e.Cwd = EventStop, project
			return e
		}(), env("CLAUDE_PLUGIN_ROOT", "/p"), "the Stop input lacks session_id"},
		{"no tool name", all, pre("s", "", project), env("CLAUDE_PLUGIN_ROOT", "/p"), "PreToolUse input lacks tool_name"},
		{"no task id", all, task(""), env("CLAUDE_PLUGIN_ROOT", "/p"), "lacks task_id"},
		{"task id there", all, task("3"), env("CLAUDE_PLUGIN_ROOT", "/p"), ""},
		{"plugin root missing", all, pre("s", "Bash", project), env(), "CLAUDE_PLUGIN_ROOT is not set"},
		{"plugin root not required", Contract{RequireProject: true}, pre("s", "Bash", project), env(), ""},
		{"no project at all", all, pre("s", "Bash", ""), env("CLAUDE_PLUGIN_ROOT", "/p"), "no project folder"},
		{"project does not exist", all, pre("s", "Bash", filepath.Join(project, "gone")), env("CLAUDE_PLUGIN_ROOT", "/p"), "no such file"},
		{"project is a file", all, pre("s", "Bash", file), env("CLAUDE_PLUGIN_ROOT", "/p"), "is not a folder"},
		{"project not required", Contract{}, pre("s", "Bash", ""), env(), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.c.Check(tt.in, tt.env)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Check = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrHookContractFail) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Check = %v, want one line wrapping ErrHookContractFail with %q", err, tt.want)
			}
		})
	}
}
