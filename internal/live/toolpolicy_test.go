package live

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/modelapi"
)

// toolPolicyHooks registers the runtime for PreToolUse on every tool, as
// the plugin's own hooks.json does, so guard.tools reaches WebFetch.
const toolPolicyHooks = `{
  "description": "hookwright tool policy: the guard on every tool",
  "hooks": {
    "PreToolUse": [
      {"hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\" PreToolUse", "timeout": 30}]}
    ]
  }
}
`

// TestToolPolicyWebFetch proves on a real release that guard.tools refuses
// a WebFetch of a denied host before the tool runs, with the rule in the
// reason the model reads, and lets a WebFetch of another host through to
// the tool (whatever the fetch itself then does offline).
func TestToolPolicyWebFetch(t *testing.T) {
	Available(t)
	t.Parallel()
	plugin := writePlugin(t, toolPolicyHooks)
	dir := filepath.Join(t.TempDir(), "project")
	writeFile(t, filepath.Join(dir, ".hookwright", "config.json"), `{"guard": {"tools": {"WebFetch(domain:*.example.com)": "deny"}}}`+"\n")
	script := modelapi.Script{
		modelapi.ToolUse("WebFetch", map[string]any{"url": "https://docs.example.com/secret", "prompt": "summarise"}),
		modelapi.ToolUse("WebFetch", map[string]any{"url": "https://example.org/", "prompt": "summarise"}),
	}
	srv, res := session(t, installT(t, "2.1.33"), script, sessionOpts{pluginDirs: []string{plugin}, dir: dir, tools: []string{"WebFetch"}})
	requireRegistered(t, res)
	denied, ok := srv.ToolResultFor(0)
	if !ok {
		t.Fatalf("no tool_result for the denied WebFetch; results: %+v", srv.ToolResults())
	}
	if !denied.IsError || !strings.Contains(denied.Content, guardPrefix) || !strings.Contains(denied.Content, "WebFetch(domain:*.example.com)") {
		t.Errorf("denied WebFetch: tool_result = %+v, want an error naming the rule", denied)
	}
	allowed, ok := srv.ToolResultFor(1)
	if !ok {
		t.Fatalf("no tool_result for the allowed WebFetch; results: %+v", srv.ToolResults())
	}
	if strings.Contains(allowed.Content, guardPrefix) {
		t.Errorf("allowed WebFetch was refused by the guard: %+v", allowed)
	}
}
