package live

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/modelapi"
)

// spineVersions are the releases the spine runs on: the oldest plugin-era
// release we track, the TeammateIdle/TaskCompleted release, and a native
// binary release.
var spineVersions = []string{"2.0.30", "2.1.33", "2.1.330"}

// guardPrefix starts every reason the hookwright guard gives on stderr.
const guardPrefix = "hookwright guard:"

// spineHooks is the plugin's hooks.json: the runtime binary on PreToolUse
// for Bash, called by its full quoted path.
const spineHooks = `{
  "description": "hookwright spine: the guard on Bash",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\" PreToolUse", "timeout": 30}]}
    ]
  }
}
`

// TestSpine proves on real releases that the hookwright runtime, loaded as a
// plugin hook, blocks a force push before Bash runs it, that the reason
// reaches the model, and that harmless commands still run.
func TestSpine(t *testing.T) {
	Available(t)
	plugin := writePlugin(t, spineHooks)
	for _, v := range spineVersions {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			claude := installT(t, v)
			t.Run("force push blocked", func(t *testing.T) {
				t.Parallel()
				testForcePushBlocked(t, claude, plugin)
			})
			t.Run("harmless command runs", func(t *testing.T) {
				t.Parallel()
				testHarmlessRuns(t, claude, plugin)
			})
		})
	}
}

// testForcePushBlocked scripts one Bash call that would leave a marker and
// then force push, and checks that the hook stopped the whole command.
func testForcePushBlocked(t *testing.T, claude, plugin string) {
	srv, res := session(t, claude, forcePush, sessionOpts{pluginDirs: []string{plugin}})
	requireRegistered(t, res)
	got, ok := srv.ToolResultFor(0)
	if !ok {
		t.Fatalf("no tool_result for the Bash call came back to the model; results: %+v", srv.ToolResults())
	}
	if !got.IsError || !strings.Contains(got.Content, guardPrefix) {
		t.Errorf("tool_result = %+v, want an error carrying %q", got, guardPrefix)
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "ran.marker")); err == nil {
		t.Errorf("ran.marker exists: Bash ran the blocked command")
	}
}

// testHarmlessRuns checks the control: a command the guard allows runs.
func testHarmlessRuns(t *testing.T, claude, plugin string) {
	srv, res := session(t, claude, modelapi.Script{bash("touch ok.marker")}, sessionOpts{pluginDirs: []string{plugin}})
	requireRegistered(t, res)
	if got, ok := srv.ToolResultFor(0); !ok || got.IsError {
		t.Errorf("tool_result = %+v (found %v), want a success", got, ok)
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "ok.marker")); err != nil {
		t.Errorf("ok.marker missing, the allowed command did not run: %v", err)
	}
}

// TestUnknownEventRejectsPlugin pins the fatal incompatibility on 2.1.33 and
// proves LoadFailed and RegisteredHooks read the real debug log: one unknown
// event key rejects the whole hooks.json, so no hook registers.
func TestUnknownEventRejectsPlugin(t *testing.T) {
	Available(t)
	t.Parallel()
	var hooks struct {
		Description string         `json:"description"`
		Hooks       map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(spineHooks), &hooks); err != nil {
		t.Fatal(err)
	}
	hooks.Hooks["NoSuchEvent"] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "true"}}}}
	data, err := json.Marshal(hooks)
	if err != nil {
		t.Fatal(err)
	}
	plugin := writePlugin(t, string(data))
	srv, res := session(t, installT(t, "2.1.33"), forcePush, sessionOpts{pluginDirs: []string{plugin}})
	if !LoadFailed(res.DebugLog) {
		t.Errorf("LoadFailed = false, want true")
	}
	if n, ok := RegisteredHooks(res.DebugLog); !ok || n != 0 {
		t.Errorf("RegisteredHooks = %d, %v; want 0, true", n, ok)
	}
	// The loader's error lists the validator's enum: it must equal what the
	// probe read from the same release's code.
	if got, ok := LoaderEnum(res.DebugLog); !ok {
		t.Errorf("no event list in the loader's error")
	} else if p, ok := readProbe(t, "2.1.33"); !ok || !slices.Equal(got, p.Events) {
		t.Errorf("loader listed %v; the probe fixture of 2.1.33 has %v", got, p.Events)
	}
	if got, ok := srv.ToolResultFor(0); !ok || strings.Contains(got.Content, guardPrefix) {
		t.Errorf("tool_result = %+v (found %v), want one without the guard: no hook should run", got, ok)
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "ran.marker")); err != nil {
		t.Errorf("ran.marker missing, so Bash did not run although no hook registered: %v", err)
	}
}

// bash is a main-conversation Bash tool call.
func bash(command string) modelapi.Turn {
	return modelapi.ToolUse("Bash", map[string]any{"command": command, "description": "spine step"})
}

// sessionOpts are the extras of one session. The zero value is a fresh
// HOME and project, no --plugin-dir (plugins installed in home load), Bash
// as the only allowed tool and a 90 s limit.
type sessionOpts struct {
	home, dir  string
	pluginDirs []string
	tools, env []string
	timeout    time.Duration
}

// forcePush is one Bash call that would leave ran.marker and then force
// push: the guard must block it whole.
var forcePush = modelapi.Script{bash("touch ran.marker && git push --force origin main")}

// session runs claude once against a fresh stand-in serving script and
// checks that the session ended normally after the script.
func session(t *testing.T, claude string, script modelapi.Script, o sessionOpts) (*modelapi.Server, Result) {
	t.Helper()
	if o.home == "" {
		o.home = filepath.Join(t.TempDir(), "home")
	}
	if o.dir == "" {
		o.dir = filepath.Join(t.TempDir(), "project")
	}
	if len(o.tools) == 0 {
		o.tools = []string{"Bash"}
	}
	if o.timeout == 0 {
		o.timeout = 90 * time.Second
	}
	srv := modelapi.New(script)
	srv.LogDir = requestLogDir(t)
	srv.Start()
	t.Cleanup(srv.Close)
	res, err := Run(context.Background(), Options{
		Claude:       claude,
		Prompt:       "Run the scripted steps.",
		BaseURL:      srv.URL(),
		PluginDirs:   o.pluginDirs,
		AllowedTools: o.tools,
		Env:          o.env,
		Debug:        true,
		Home:         o.home,
		Dir:          o.dir,
		Timeout:      o.timeout,
	})
	if err != nil || res.ExitCode != 0 || !strings.Contains(res.Stdout, modelapi.DoneText) {
		t.Fatalf("claude run: err %v, exit %d\nstdout: %s\nstderr: %s\nrequests logged in %s",
			err, res.ExitCode, res.Stdout, res.Stderr, srv.LogDir)
	}
	return srv, res
}

// requestLogDir is where a session's request bodies go: a temp folder, or
// $HOOKWRIGHT_LIVE_LOGS/<test name> to keep them for inspection.
func requestLogDir(t *testing.T) string {
	if root := os.Getenv("HOOKWRIGHT_LIVE_LOGS"); root != "" {
		return filepath.Join(root, strings.ReplaceAll(t.Name(), "/", "_"))
	}
	return filepath.Join(t.TempDir(), "requests")
}

// requireRegistered fails t unless the debug log shows the plugin's hook
// registered without a load failure.
func requireRegistered(t *testing.T, res Result) {
	t.Helper()
	if LoadFailed(res.DebugLog) {
		t.Fatalf("hooks failed to load:\n%s", res.DebugLog)
	}
	if n, ok := RegisteredHooks(res.DebugLog); !ok || n < 1 {
		t.Fatalf("RegisteredHooks = %d, %v; want at least 1 (debug log %d bytes)", n, ok, len(res.DebugLog))
	}
}

// installT installs version or fails t.
func installT(t *testing.T, version string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	claude, err := Install(ctx, version)
	if err != nil {
		t.Fatalf("install %s: %v", version, err)
	}
	return claude
}

// writePlugin writes the spine plugin with hooksJSON into a temp folder,
// with the runtime (built once per process) in its bin/.
func writePlugin(t *testing.T, hooksJSON string) string {
	t.Helper()
	bin, err := runtimeBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	manifest := `{"name":"hookwright-spine","version":"0.0.1","description":"hookwright live tier spine plugin"}` + "\n"
	writeFile(t, filepath.Join(dir, ".claude-plugin", "plugin.json"), manifest)
	writeFile(t, filepath.Join(dir, "hooks", "hooks.json"), hooksJSON)
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(bin, filepath.Join(dir, "bin", "hookwright")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeFile writes data to path, creating its folder.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
