package live

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookwright/hookwright/internal/modelapi"
)

// TestSubagentLane proves the stand-in's marker lanes on real releases: a
// subagent started by the main conversation is served its own turns, and
// the plugin's PreToolUse hook guards the subagent's Bash calls too.
func TestSubagentLane(t *testing.T) {
	Available(t)
	plugin := writePlugin(t, spineHooks)
	for _, tc := range []struct{ version, tool string }{
		{"2.1.33", "Task"},   // the subagent tool before its rename
		{"2.1.330", "Agent"}, // the same tool, renamed
	} {
		t.Run(tc.version, func(t *testing.T) {
			t.Parallel()
			const marker = "HOOKWRIGHT-SUBAGENT-1"
			script := modelapi.Script{
				modelapi.ToolUse(tc.tool, map[string]any{
					"description": "scripted subagent", "subagent_type": "general-purpose",
					"prompt": marker + ": run the scripted steps.",
				}),
				bash("touch sub.marker").In(marker),
				bash("touch sub-ran.marker && git push -f origin main").In(marker),
				modelapi.Text("subagent finished").In(marker),
			}
			srv, res := session(t, installT(t, tc.version), script, sessionOpts{
				pluginDirs: []string{plugin}, tools: []string{"Bash", tc.tool}})
			requireRegistered(t, res)
			if _, err := os.Stat(filepath.Join(res.Dir, "sub.marker")); err != nil {
				t.Errorf("the subagent's first Bash call did not run: %v", err)
			}
			if _, err := os.Stat(filepath.Join(res.Dir, "sub-ran.marker")); err == nil {
				t.Errorf("the subagent's force push ran despite the guard")
			}
			if got, ok := srv.ToolResultFor(2); !ok || !got.IsError {
				t.Errorf("subagent force push tool_result = %+v (found %v), want a blocked error", got, ok)
			}
			// 2.1.33 answers Task with the subagent's final text; 2.1.330 runs
			// Agent in the background and answers "Async agent launched".
			if got, ok := srv.ToolResultFor(0); !ok || got.IsError {
				t.Errorf("%s tool_result = %+v (found %v), want a success", tc.tool, got, ok)
			}
		})
	}
}
