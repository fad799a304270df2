package live

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/native"
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

// directBand is the shipped band file of edge under root as the switch
// writes it: calling this machine's platform binary directly.
func directBand(t *testing.T, root, edge string) string {
	t.Helper()
	return string(native.Direct([]byte(readFileT(t, filepath.Join(root, "hooks", "bands", edge+".json"))), native.Platform()))
}

// cloneRelease copies the release clone (a git clone of the release
// branch, .git included) so a test that switches in place owns its copy.
func cloneRelease(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "hookwright-release")
	if out, err := execCombined("cp", "-R", buildRelease(t), dst); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	return dst
}

// TestPluginSwitchesOnEveryInstallPath installs the release from a folder
// marketplace that is a git clone of the release branch, as a user does,
// on a release that copies the plugin to its cache (2.1.61) and on
// releases that run it in place (2.1.257, and the latest). After one
// session the installed hooks.json is the band of the release, calling the
// platform binary directly (with no shell on the exec-form bands); the
// next session loads it whole and the guard still blocks. The session
// marker is inside the plugin, and nothing is under the user cache.
// hookgen doctor's
// idea of where the plugin runs from is checked against the loader's.
func TestPluginSwitchesOnEveryInstallPath(t *testing.T) {
	Available(t)
	for _, c := range []struct{ release, band string }{
		{"2.1.61", "2.1.50"}, {"2.1.257", "2.1.257"}, {"2.1.330", "2.1.329"},
	} {
		t.Run(c.release, func(t *testing.T) {
			t.Parallel()
			rel := cloneRelease(t)
			claude := installT(t, c.release)
			home := installFromMarketplace(t, claude, rel)
			srv, first := session(t, claude, forcePush, sessionOpts{home: home})
			requireGuardFired(t, srv, first)
			root := installedRoot(t, home, c.release, first.DebugLog)
			hooksPath := filepath.Join(root, "hooks", "hooks.json")
			if got := readFileT(t, hooksPath); got != directBand(t, root, c.band) {
				t.Fatalf("after one session on %s, %s is not band %s calling the binary directly:\n%s", c.release, hooksPath, c.band, got)
			}
			// The once-per-session marker lives inside the plugin, next to
			// hooks.json; nothing goes to the user cache (XDG_CACHE_HOME is
			// <home>/.cache in these sessions).
			marker := filepath.Join(root, filepath.FromSlash(native.MarkerFile))
			if fi, err := os.Lstat(marker); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
				t.Errorf("no session marker at %s after a switch: %v", marker, err)
			}
			if _, err := os.Lstat(filepath.Join(home, ".cache", "hookwright")); err == nil {
				t.Errorf("%s exists: the switch wrote outside the plugin and the project", filepath.Join(home, ".cache", "hookwright"))
			}
			if err := os.RemoveAll(filepath.Join(home, ".claude", "debug")); err != nil {
				t.Fatal(err)
			}
			srv, second := session(t, claude, forcePush, sessionOpts{home: home})
			requireGuardFired(t, srv, second)
			if n, ok := RegisteredHooks(second.DebugLog); !ok || n < 9 {
				t.Errorf("second session: RegisteredHooks = %d, %v; want the band's handlers", n, ok)
			}
		})
	}
}

// TestPluginTaskUpdateFallbackOn2125: on 2.1.25 (Task tools, no native
// TaskCompleted) the shipped floor routes TaskCompleted through TodoWrite;
// after one session the plugin is on the 2.1.16 band, and a TaskUpdate
// that completes a task runs the gate through PostToolUse[TaskUpdate].
func TestPluginTaskUpdateFallbackOn2125(t *testing.T) {
	Available(t)
	t.Parallel()
	rel := cloneRelease(t)
	claude := installT(t, "2.1.25")
	home := installFromMarketplace(t, claude, rel)
	srv, first := session(t, claude, forcePush, sessionOpts{home: home})
	requireGuardFired(t, srv, first)
	root := installedRoot(t, home, "2.1.25", first.DebugLog)
	if got := readFileT(t, filepath.Join(root, "hooks", "hooks.json")); got != directBand(t, root, "2.1.16") {
		t.Fatalf("after one session on 2.1.25 hooks.json is not band 2.1.16 calling the binary directly:\n%s", got)
	}
	tasks := modelapi.Script{
		modelapi.ToolUse("TaskCreate", map[string]any{"subject": "[Do] fallback: check", "description": "d", "activeForm": "Checking"}),
		modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),
	}
	_, second := session(t, claude, tasks, sessionOpts{home: home,
		env: []string{"CLAUDE_CODE_ENABLE_TASKS=1"}, tools: []string{"TaskCreate", "TaskUpdate"}})
	entries, _, err := journal.ReadAll(second.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, e := range entries {
		seen = append(seen, e.Event+"/"+e.Via+"/"+e.Target)
		if e.Event == "TaskCompleted" && e.Via == "PostToolUse" {
			return
		}
	}
	t.Errorf("the journal has no TaskCompleted via PostToolUse after a completing TaskUpdate: %v", seen)
}

// TestPluginOn2030KeepsTheFloorBand runs 2.0.30, whose band is the floor,
// on a copy of the release plugin given with --plugin-dir: after a session
// the manifest is still the floor band, now calling the binary directly,
// and the next session still registers every hook and blocks.
func TestPluginOn2030KeepsTheFloorBand(t *testing.T) {
	Available(t)
	t.Parallel()
	rel := buildRelease(t)
	plugin := filepath.Join(t.TempDir(), "hookwright")
	if out, err := execCombined("cp", "-R", filepath.Join(rel, "plugin"), plugin); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	claude := installT(t, "2.0.30")
	home := filepath.Join(t.TempDir(), "home")
	srv, first := session(t, claude, forcePush, sessionOpts{home: home, pluginDirs: []string{plugin}})
	requireGuardFired(t, srv, first)
	if got := readFileT(t, filepath.Join(plugin, "hooks", "hooks.json")); got != directBand(t, plugin, "2.0.12") {
		t.Fatalf("2.0.30 was given another manifest than the floor band:\n%s", got)
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
