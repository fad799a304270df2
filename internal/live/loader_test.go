package live

import (
	"strings"
	"testing"
)

// looseHooks is the spine's guard with every key hookgen validate treats as
// harmless: a top-level $schema, an unknown matcher-group key and an
// unknown handler key.
const looseHooks = `{
  "$schema": "https://json.schemastore.org/claude-code-hooks.json",
  "description": "hookwright: keys the loader ignores",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "id": "guard", "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\" PreToolUse", "timeout": 30, "note": "ignored"}]}
    ]
  }
}
`

// TestLooseKeysLoad keeps the witness for hookgen's severities live: a
// top-level $schema and unknown group and handler keys load on every
// release the live tier runs (compat/FACTS.md), the hook registers and the
// guard still blocks. Were a release to reject them, this fails, and the
// schemas' warnings would have to become errors again.
func TestLooseKeysLoad(t *testing.T) {
	Available(t)
	for _, v := range spineVersions {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			plugin := writePlugin(t, looseHooks)
			srv, res := session(t, installT(t, v), forcePush, sessionOpts{pluginDirs: []string{plugin}})
			requireRegistered(t, res)
			if got, ok := srv.ToolResultFor(0); !ok || !strings.Contains(got.Content, guardPrefix) {
				t.Errorf("tool_result = %+v (found %v), want the guard's reason: the hook must run", got, ok)
			}
		})
	}
}

// TestUnknownEventIgnoredFrom2257 is the other side of the unknown-event
// rule: from 2.1.257 an unknown event is ignored with a warning, and the
// rest of the file loads and runs (TestUnknownEventRejectsPlugin shows
// 2.1.33 rejecting the whole file).
func TestUnknownEventIgnoredFrom2257(t *testing.T) {
	Available(t)
	t.Parallel()
	hooks := strings.Replace(spineHooks, `"hooks": {`, `"hooks": {
    "NoSuchEvent": [{"hooks": [{"type": "command", "command": "true"}]}],`, 1)
	plugin := writePlugin(t, hooks)
	srv, res := session(t, installT(t, "2.1.330"), forcePush, sessionOpts{pluginDirs: []string{plugin}})
	if LoadFailed(res.DebugLog) || len(IgnoredHookEntries(res.DebugLog)) == 0 {
		t.Errorf("LoadFailed = %v, ignored entries %q; want no failure and a warning", LoadFailed(res.DebugLog), IgnoredHookEntries(res.DebugLog))
	}
	if got, ok := srv.ToolResultFor(0); !ok || !strings.Contains(got.Content, guardPrefix) {
		t.Errorf("tool_result = %+v (found %v), want the guard's reason: the known event's hook must run", got, ok)
	}
}
