package live

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginDowngradeFromExecForm: 2.1.139 switches the plugin folder it
// runs to its band in the exec form ("command" the platform binary, the
// event in "args"). Going back to 2.1.105 on the same folder (here given
// with --plugin-dir to both; a git-URL install shares its cache copy the
// same way), which knows no "args", runs the command alone: hookwright
// starts with no arguments, takes the event from the input, and the guard
// still blocks. That session's switch writes 2.1.105's band back.
func TestPluginDowngradeFromExecForm(t *testing.T) {
	Available(t)
	t.Parallel()
	rel := buildRelease(t)
	plugin := filepath.Join(t.TempDir(), "hookwright")
	if out, err := execCombined("cp", "-R", filepath.Join(rel, "plugin"), plugin); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	newer, older := installT(t, "2.1.139"), installT(t, "2.1.105")
	home := filepath.Join(t.TempDir(), "home")
	opts := sessionOpts{home: home, pluginDirs: []string{plugin}}
	srv, first := session(t, newer, forcePush, opts)
	requireGuardFired(t, srv, first)
	hooksPath := filepath.Join(plugin, "hooks", "hooks.json")
	if got := readFileT(t, hooksPath); got != directBand(t, plugin, "2.1.139") || !strings.Contains(got, `"args"`) {
		t.Fatalf("after a session on 2.1.139, %s is not band 2.1.139 in the exec form:\n%s", hooksPath, got)
	}
	srv, second := session(t, older, forcePush, opts)
	requireGuardFired(t, srv, second)
	if n, ok := RegisteredHooks(second.DebugLog); !ok || n < 9 {
		t.Errorf("2.1.105 on the exec-form file: RegisteredHooks = %d, %v; want the band's handlers", n, ok)
	}
	if got := readFileT(t, hooksPath); got != directBand(t, plugin, "2.1.105") {
		t.Errorf("after a session on 2.1.105, %s is not band 2.1.105 calling the binary directly:\n%s", hooksPath, got)
	}
}
