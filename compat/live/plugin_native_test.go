package live

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/modelapi"
)

// readFileT returns a file's text or fails t.
func readFileT(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestPluginSwitchesToNativeOn2133 installs the release from its
// marketplace on 2.1.33, where TeammateIdle and TaskCompleted are native.
// The plugin ships the floor manifest; after one session the runtime has
// replaced it with the 2.1.33 band, and the next session loads that one.
func TestPluginSwitchesToNativeOn2133(t *testing.T) {
	Available(t)
	t.Parallel()
	rel := buildRelease(t)
	claude := installT(t, "2.1.33")
	home := installFromMarketplace(t, claude, rel)
	root := installedRoot(t, home, rel)
	hooksPath := filepath.Join(root, "hooks", "hooks.json")
	if readFileT(t, hooksPath) != readFileT(t, filepath.Join(root, "hooks", "bands", "2.0.12.json")) {
		t.Fatalf("the installed %s is not the floor band", hooksPath)
	}
	srv, first := session(t, claude, forcePush, sessionOpts{home: home})
	requireGuardFired(t, srv, first)
	if n, ok := matchedHooks(first.DebugLog, "Stop"); !ok || n != 2 {
		t.Errorf("first session: Stop matched %d hooks (%v), want 2 (Stop and the TeammateIdle fallback)", n, ok)
	}
	if readFileT(t, hooksPath) != readFileT(t, filepath.Join(root, "hooks", "bands", "2.1.33.json")) {
		t.Fatalf("after one session %s is not the 2.1.33 band", hooksPath)
	}
	// The next session starts with a fresh debug folder, so its log is its own.
	if err := os.RemoveAll(filepath.Join(home, ".claude", "debug")); err != nil {
		t.Fatal(err)
	}
	tasks := append(modelapi.Script{forcePush[0]},
		modelapi.ToolUse("TaskCreate", map[string]any{"subject": "[Do] native: check", "description": "d", "activeForm": "Checking"}),
		modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}))
	srv, second := session(t, claude, tasks, sessionOpts{home: home,
		env: []string{"CLAUDE_CODE_ENABLE_TASKS=1"}, tools: []string{"Bash", "TaskCreate", "TaskUpdate"}})
	requireGuardFired(t, srv, second)
	if n, ok := matchedHooks(second.DebugLog, "Stop"); !ok || n != 1 {
		t.Errorf("second session: Stop matched %d hooks (%v), want 1 (no fallback on the native band)", n, ok)
	}
	if n, ok := matchedHooks(second.DebugLog, "TaskCompleted"); !ok || n != 1 {
		t.Errorf("second session: TaskCompleted matched %d hooks (%v), want 1 native hook", n, ok)
	}
}

// matchedRE reads the loader's answer after "Getting matching hook
// commands for <Event>" (2.1.33): "Matched N unique hooks".
var matchedRE = regexp.MustCompile(`Matched (\d+) unique hooks`)

// matchedHooks returns N of the first "Matched N unique hooks" line after
// the first lookup of event in a debug log.
func matchedHooks(log, event string) (int, bool) {
	i := strings.Index(log, "Getting matching hook commands for "+event+" ")
	if i < 0 {
		return 0, false
	}
	m := matchedRE.FindStringSubmatch(log[i:])
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// TestPluginStaysOnFloorOn2030 runs 2.0.30, which lacks TeammateIdle and
// TaskCompleted, on a copy of the release plugin that is not a git checkout
// (so only the version rule can protect it): after a session the manifest
// is unchanged, the check did run (its marker exists), and the next session
// still registers every hook.
func TestPluginStaysOnFloorOn2030(t *testing.T) {
	Available(t)
	t.Parallel()
	rel := buildRelease(t)
	plugin := filepath.Join(t.TempDir(), "hookwright")
	if out, err := execCombined("cp", "-R", filepath.Join(rel, "plugin"), plugin); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	claude := installT(t, "2.0.30")
	home := filepath.Join(t.TempDir(), "home")
	hooksPath := filepath.Join(plugin, "hooks", "hooks.json")
	before := readFileT(t, hooksPath)
	srv, first := session(t, claude, forcePush, sessionOpts{home: home, pluginDirs: []string{plugin}})
	requireGuardFired(t, srv, first)
	if readFileT(t, hooksPath) != before {
		t.Fatalf("2.0.30 was given another manifest")
	}
	markers, _ := filepath.Glob(filepath.Join(home, ".cache", "hookwright", "native-*"))
	if len(markers) != 1 {
		t.Errorf("native check markers = %v, want one: the check did not run", markers)
	}
	srv, second := session(t, claude, forcePush, sessionOpts{home: home, pluginDirs: []string{plugin}})
	requireGuardFired(t, srv, second)
	if n, ok := RegisteredHooks(second.DebugLog); !ok || n < 9 {
		t.Errorf("second session: RegisteredHooks = %d, %v; want 9", n, ok)
	}
}

// execCombined runs a command and returns its combined output.
func execCombined(name string, args ...string) ([]byte, error) {
	return exec.Command(name, args...).CombinedOutput()
}
