package live

import (
	"fmt"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/manifests"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// subagentTool is the subagent tool's name on a release: Task, renamed
// Agent (2.1.69 runs Task as Agent; 2.1.330 offers Agent).
func subagentTool(version string) string {
	if version == "2.1.33" {
		return "Task"
	}
	return "Agent"
}

// TestDefaultsRunNoWorkflowLive is the acceptance on real
// releases: hookwright installed from its marketplace as a user installs
// it, a fresh project with no configuration, and a session with an
// Explore and a general-purpose subagent, a force push and a task
// completion. The guard blocks the push; no subagent is stopped or told to
// write a scratchpad; nothing is written into the project but hookwright's
// own records. 2.1.33 and the newest release of the live tier.
func TestDefaultsRunNoWorkflowLive(t *testing.T) {
	Available(t)
	for _, version := range []string{"2.1.33", "2.1.330"} {
		t.Run(version, func(t *testing.T) {
			claude := installT(t, version)
			home := installFromMarketplace(t, claude, cloneRelease(t))
			dir := filepath.Join(t.TempDir(), "project")
			must(t, os.MkdirAll(dir, 0o755))
			if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v %s", err, out)
			}
			// A first session, as a user's first: the shipped manifest; the
			// runtime learns the release and installs its band.
			srv, first := session(t, claude, forcePush, sessionOpts{home: home, dir: dir})
			requireGuardFired(t, srv, first)
			before := projectFiles(t, dir)

			tool := subagentTool(version)
			const explore, general = "HW-EXPLORE-LANE", "HW-GENERAL-LANE"
			script := modelapi.Script{
				modelapi.ToolUse("TaskCreate", map[string]any{"subject": "[Do] parser: write it", "description": "parse the config", "activeForm": "Writing the parser"}),
				modelapi.ToolUse(tool, map[string]any{"description": "look around", "subagent_type": "Explore", "prompt": explore + ": list the files."}),
				bash("ls").In(explore),
				modelapi.Text("explored: nothing to report").In(explore),
				modelapi.ToolUse(tool, map[string]any{"description": "do a step", "subagent_type": "general-purpose", "prompt": general + ": touch a marker."}),
				bash("touch general.marker").In(general),
				modelapi.Text("general-purpose finished").In(general),
				bash("touch ran.marker && git push --force origin main"),
				modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"}),
				modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),
			}
			srv, res := session(t, claude, script, sessionOpts{home: home, dir: dir, timeout: 180 * time.Second,
				tools: []string{"Bash", tool, "TaskCreate", "TaskUpdate", "TaskList", "TaskGet"},
				env:   []string{"CLAUDE_CODE_ENABLE_TASKS=1", "CLAUDE_CODE_ENABLE_TODO_TOOLS=1"}})
			if LoadFailed(res.DebugLog) {
				t.Fatalf("the installed plugin's hooks failed to load")
			}
			// The guard blocks the push: the tool result is its error, the
			// command never ran.
			if got, ok := srv.ToolResultFor(7); !ok || !got.IsError || !strings.Contains(got.Content, guardPrefix) {
				t.Errorf("force push tool_result = %+v (found %v), want the guard's block", got, ok)
			}
			if _, err := os.Stat(filepath.Join(dir, "ran.marker")); err == nil {
				t.Errorf("ran.marker exists: the blocked push ran")
			}
			// Both subagents ran and stopped at once: no request carries a
			// scratchpad duty or a stop hook's feedback.
			if _, err := os.Stat(filepath.Join(dir, "general.marker")); err != nil {
				t.Errorf("the general-purpose subagent did not run its step: %v", err)
			}
			for _, r := range srv.Requests() {
				body := string(r.Body)
				for _, bad := range []string{"hookwright scratchpad", "Scratchpad:", "Stop hook feedback", "[DIA-HOOK]", "hookwright work:", "PDCA parser"} {
					if strings.Contains(body, bad) {
						t.Errorf("request %d (%s %s) carries %q: a workflow nobody turned on spoke", r.Seq, r.Kind, r.Marker, bad)
					}
				}
			}
			// The task completed, natively on both releases.
			completed := false
			entries, _, err := journal.ReadAll(dir)
			if err != nil {
				t.Fatal(err)
			}
			var stops []string
			for _, e := range entries {
				if e.Event == "TaskCompleted" && e.Exit == 0 {
					completed = true
				}
				if e.Event == "SubagentStop" {
					stops = append(stops, e.Target+" exit "+string(rune('0'+e.Exit)))
					if e.Exit != 0 || e.Decision != "" {
						t.Errorf("a SubagentStop was answered: %+v", e)
					}
				}
			}
			// The completion went through: the TaskUpdate that completed the
			// task succeeded (natively through TaskCompleted where the
			// installed manifest is the release's band; the runtime
			// installs it at the first session's stop).
			if got, ok := srv.ToolResultFor(9); !ok || got.IsError {
				t.Errorf("the completing TaskUpdate = %+v (found %v), want a success", got, ok)
			}
			if !completed {
				var seen []string
				for _, e := range entries {
					seen = append(seen, e.Event+"/"+e.Via+"/"+e.Target)
				}
				var loaded []string
				for _, l := range strings.Split(res.DebugLog, "\n") {
					if strings.Contains(l, "Registered") || strings.Contains(l, "hooks.json") {
						loaded = append(loaded, l)
					}
				}
				t.Logf("no TaskCompleted call in the journal (the manifest this session ran may have no TaskCompleted): %v\n%s", seen, strings.Join(loaded, "\n"))
			}
			if len(stops) < 2 {
				t.Errorf("SubagentStop calls: %q, want the Explore and general-purpose subagents'", stops)
			}
			// Nothing written but hookwright's records (and the scripted
			// marker).
			var added []string
			for _, f := range projectFiles(t, dir) {
				if !contains(before, f) {
					added = append(added, f)
				}
			}
			for _, f := range append(before, added...) {
				switch {
				case f == "general.marker", strings.HasPrefix(f, ".git/"),
					strings.HasPrefix(f, ".hookwright/journal/"), strings.HasPrefix(f, ".hookwright/sessions/"),
					f == ".hookwright/workflows-notice", f == ".hookwright/.gitignore", strings.HasPrefix(f, ".hookwright/compact/"):
				default:
					t.Errorf("written into the project by a workflow nobody turned on: %s", f)
				}
			}
			t.Logf("%s: SubagentStop %q; written by the session: %q", version, stops, added)
		})
	}
}

// projectFiles lists the files under dir, relative and sorted.
func projectFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// hwctlBinary is hwctl built for this machine, once per test process.
var hwctlBinary = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(scratchRoot, "hwctl")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/hookwright/hookwright/cmd/hwctl").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/hwctl: %v\n%s", err, out)
	}
	return bin, nil
})

// TestScratchpadFailClosedLive: the scratchpad chain turned on by its
// command, fail-closed with a bound of 3, on 2.1.33. A subagent that never
// writes its scratchpad is held at three stops in a row (stop_hook_active
// included), each told "block N of at most 3", then let go; the Task
// call ends normally. Seed 004's "agents cannot skip writing", bounded.
func TestScratchpadFailClosedLive(t *testing.T) {
	Available(t)
	hwctl, err := hwctlBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "project")
	must(t, os.MkdirAll(filepath.Join(dir, "src"), 0o755))
	must(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	cmd := exec.Command(hwctl, "workflow", "enable", "scratchpad", "--fail", "closed", "--max-blocks", "3")
	cmd.Dir, cmd.Env = filepath.Join(dir, "src"), baseEnv(t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hwctl workflow enable: %v\n%s", err, out)
	}
	manifest, err := manifests.Generate(manifests.Hookwright(), hooks.MustRelease("2.1.33"))
	if err != nil {
		t.Fatal(err)
	}
	const lane = "HW-NEVER-WRITES"
	script := modelapi.Script{
		modelapi.ToolUse("Task", map[string]any{"description": "a step", "subagent_type": "general-purpose", "prompt": lane + ": do the step."}),
	}
	for i := 1; i <= 5; i++ {
		script = append(script, modelapi.Text(fmt.Sprintf("stopping, attempt %d", i)).In(lane))
	}
	srv, res := session(t, installT(t, "2.1.33"), script, sessionOpts{pluginDirs: []string{writePlugin(t, string(manifest))},
		dir: dir, tools: []string{"Bash", "Task"}, timeout: 150 * time.Second})
	requireRegistered(t, res)
	for i := 1; i <= 3; i++ {
		if !laneSaw(srv, lane, "Stop hook feedback", fmt.Sprintf("block %d of at most 3", i)) {
			t.Errorf("the subagent never read block %d of at most 3 (requests in %s)", i, srv.LogDir)
		}
	}
	if laneSaw(srv, lane, "block 4 of") {
		t.Errorf("held past the bound")
	}
	if got, ok := srv.ToolResultFor(0); !ok || got.IsError {
		t.Errorf("Task tool_result = %+v (found %v), want the subagent's end", got, ok)
	}
	entries, _, err := journal.ReadAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	blocked, let := 0, false
	for _, e := range entries {
		if e.Event == "SubagentStop" && e.Target == "general-purpose" {
			if e.Decision == "block" {
				blocked++
			} else {
				let = true
			}
		}
	}
	if blocked != 3 || !let {
		t.Errorf("SubagentStop: %d blocked, let go %v; want 3 and then let go", blocked, let)
	}
}
