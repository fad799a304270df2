package live

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/testkit"
	"github.com/hookwright/hookwright/manifests"
)

// sdkReason is what both SDK plugins answer for a task whose deliverable
// is missing (hooks/hookstest/testdata/plugin in Go, the same gate in
// JavaScript with the npm package's hookgen.run).
const sdkReason = "names deliverable parser.go, which is missing"

// sdkJSHook is the JavaScript gate, as an author writes it, with the
// package loaded from its source folder ($HG_DIR) and the binary from
// $HOOKGEN_BINARY (lib/binary.js), as npm would install them.
const sdkJSHook = `const fs = require("fs");
const path = require("path");
const hookgen = require(process.env.HG_DIR);
hookgen.run((ev) => {
  const m = /deliverable: (\S+)/.exec(ev.task_description || "");
  if (!m) return;
  const project = process.env.CLAUDE_PROJECT_DIR || ev.cwd;
  if (!fs.existsSync(path.join(project, m[1]))) {
    return { decision: "block", reason: "task " + ev.task_id + " (" + ev.task_subject + ") names deliverable " + m[1] + ", which is missing" };
  }
});
`

// TestSDKPluginsOnRealReleases runs a plugin written with the SDK, once in
// Go (hooks.Main) and once in JavaScript (hookgen.run), on real releases,
// through a session that creates a task naming a deliverable, starts it,
// and completes it without the file:
//
//   - 2.1.25 (no TaskCompleted): hookgen's manifest for the band registers
//     the gate on PostToolUse[TaskUpdate] with --via; the completing
//     TaskUpdate is refused as PostToolUse feedback, the starting one is not;
//   - 2.1.33 (TaskCompleted): the install carries both registrations, the
//     native one and the fallback, as one install read by older and newer
//     releases does; the completion is refused once, natively (the task
//     stays open), and the fallback stands for nothing.
func TestSDKPluginsOnRealReleases(t *testing.T) {
	Available(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node for the JavaScript plugin")
	}
	hookgen := testkit.Build(t, "../../cmd/hookgen", testkit.Options{Name: "hookgen"})
	hgDir, _ := filepath.Abs(filepath.Join("..", "..", "cmd", "hookgen", "npm", "hookgen"))
	for _, tc := range []struct{ version, lang string }{{"2.1.25", "go"}, {"2.1.25", "js"}, {"2.1.33", "go"}, {"2.1.33", "js"}} {
		t.Run(tc.version+"/"+tc.lang, func(t *testing.T) {
			t.Parallel()
			plugin := t.TempDir()
			writeFile(t, filepath.Join(plugin, ".claude-plugin", "plugin.json"), `{"name":"deliverables","version":"0.0.1","description":"refuses a task completed without its deliverable"}`+"\n")
			command := `"${CLAUDE_PLUGIN_ROOT}/bin/deliverables" TaskCompleted`
			if tc.lang == "go" {
				testkit.BuildTo(t, "../../hooks/hookstest/testdata/plugin/cmd/plugin", filepath.Join(plugin, "bin", "deliverables"), testkit.Options{})
			} else {
				writeFile(t, filepath.Join(plugin, "hooks", "task.js"), sdkJSHook)
				command = `"` + node + `" "${CLAUDE_PLUGIN_ROOT}/hooks/task.js" TaskCompleted`
			}
			spec := manifests.Spec{Description: "deliverables", Handlers: []manifests.Handler{{Event: "TaskCompleted", Command: command, Timeout: 30}}}
			manifest, err := manifests.Generate(spec, hooks.MustRelease(tc.version))
			if err != nil {
				t.Fatal(err)
			}
			if tc.version == "2.1.33" {
				// One install, read by releases on both sides of 2.1.33:
				// the native registration and the older band's fallback.
				older, err := manifests.Generate(spec, hooks.MustRelease("2.1.25"))
				if err != nil {
					t.Fatal(err)
				}
				manifest = mergeHooks(t, manifest, older)
			}
			writeFile(t, filepath.Join(plugin, "hooks", "hooks.json"), string(manifest))
			if !strings.Contains(string(manifest), "--via PostToolUse") {
				t.Fatalf("the manifest has no fallback registration:\n%s", manifest)
			}
			script := modelapi.Script{
				modelapi.ToolUse("TaskCreate", map[string]any{"subject": "Write the parser", "description": "deliverable: parser.go", "activeForm": "Writing the parser"}),
				modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"}),
				modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),
				modelapi.ToolUse("TaskGet", map[string]any{"taskId": "1"}),
			}
			srv, res := session(t, installT(t, tc.version), script, sessionOpts{pluginDirs: []string{plugin},
				tools: []string{"TaskCreate", "TaskUpdate", "TaskGet"},
				env:   []string{"CLAUDE_CODE_ENABLE_TASKS=1", "HG_DIR=" + hgDir, "HOOKGEN_BINARY=" + hookgen}})
			requireRegistered(t, res)
			started, _ := srv.ToolResultFor(1)
			completed, _ := srv.ToolResultFor(2)
			got, _ := srv.ToolResultFor(3)
			t.Logf("TaskUpdate in_progress: %.120q\nTaskUpdate completed: %.300q\nTaskGet: %.200q", started.Content, completed.Content, got.Content)
			if strings.Contains(started.Content, sdkReason) || countRequests(srv, sdkReason) == 0 {
				t.Errorf("the gate: starting the task %+v; %d requests carry the refusal", started, countRequests(srv, sdkReason))
			}
			switch tc.version {
			case "2.1.25":
				if countRequests(srv, "PostToolUse:TaskUpdate hook blocking error") == 0 {
					t.Errorf("no PostToolUse feedback after the completing TaskUpdate; its result: %+v", completed)
				}
			case "2.1.33":
				if !strings.Contains(completed.Content, "TaskCompleted hook feedback") || !strings.Contains(completed.Content, sdkReason) {
					t.Errorf("the completing TaskUpdate = %+v, want the native refusal", completed)
				}
				if countRequests(srv, "PostToolUse:TaskUpdate hook blocking error") != 0 {
					t.Errorf("the fallback gated the completion too, on a release that fires TaskCompleted itself")
				}
				if strings.Contains(got.Content, "completed") {
					t.Errorf("TaskGet after the refusal = %q: the task completed", got.Content)
				}
			}
		})
	}
}

// countRequests counts the model requests whose body carries text.
func countRequests(srv *modelapi.Server, text string) int {
	n := 0
	for _, r := range srv.Requests() {
		if strings.Contains(string(r.Body), text) {
			n++
		}
	}
	return n
}

// mergeHooks adds to a the event groups of b it lacks.
func mergeHooks(t *testing.T, a, b []byte) []byte {
	t.Helper()
	var ma, mb map[string]any
	if json.Unmarshal(a, &ma) != nil || json.Unmarshal(b, &mb) != nil {
		t.Fatal("manifests do not parse")
	}
	ha, hb := ma["hooks"].(map[string]any), mb["hooks"].(map[string]any)
	for k, v := range hb {
		if _, ok := ha[k]; !ok {
			ha[k] = v
		}
	}
	out, _ := json.MarshalIndent(ma, "", "  ")
	return append(out, '\n')
}
