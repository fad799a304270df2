package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// world is one project as a user has it: a git repository with a src/
// subfolder where the model works, a HOME of its own (the user config,
// the loop's receipts), and both binaries built from this tree.
type world struct {
	t                 *testing.T
	root, src, home   string
	hookwright, hwctl string
	session           string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	hookwright, hwctl := builtBinaries(t)
	w := &world{t: t, root: t.TempDir(), home: t.TempDir(), hookwright: hookwright, hwctl: hwctl, session: "sess-wf"}
	w.src = filepath.Join(w.root, "src")
	must(t, os.MkdirAll(filepath.Join(w.root, ".git"), 0o755))
	must(t, os.MkdirAll(w.src, 0o755))
	return w
}

func (w *world) env(extra ...string) []string {
	return append([]string{"PATH=" + filepath.Dir(w.hwctl) + ":" + os.Getenv("PATH"), "HOME=" + w.home,
		"CLAUDE_CONFIG_DIR=" + filepath.Join(w.home, ".claude")}, extra...)
}

// hwctlRun runs hwctl in the subfolder, as a user (or the model's Bash)
// does, without CLAUDE_PROJECT_DIR.
func (w *world) hwctlRun(args ...string) (string, int) {
	w.t.Helper()
	cmd := exec.Command(w.hwctl, args...)
	cmd.Dir, cmd.Env = w.src, w.env()
	out, _ := cmd.CombinedOutput()
	return string(out), cmd.ProcessState.ExitCode()
}

// hook runs the runtime as Claude Code does: through sh -c, in the
// subfolder, with CLAUDE_PROJECT_DIR at the root and the event's cwd the
// subfolder.
func (w *world) hook(event string, input map[string]any) (stdout, stderr string, code int) {
	w.t.Helper()
	in := map[string]any{"session_id": w.session, "transcript_path": "", "cwd": w.src, "hook_event_name": event}
	for k, v := range input {
		in[k] = v
	}
	data, _ := json.Marshal(in)
	cmd := exec.Command("sh", "-c", `"`+w.hookwright+`" `+event)
	cmd.Dir, cmd.Env = w.src, w.env("CLAUDE_PROJECT_DIR="+w.root, "CLAUDE_PLUGIN_ROOT="+filepath.Dir(w.hookwright))
	cmd.Stdin = bytes.NewReader(data)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run()
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// written lists the files under the project root, relative, sorted.
func (w *world) written() []string {
	var out []string
	filepath.WalkDir(w.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(w.root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func subagent(typ, id string, active bool) map[string]any {
	return map[string]any{"agent_type": typ, "agent_id": id, "stop_hook_active": active, "agent_transcript_path": ""}
}

// A fresh project, the plugin installed, no configuration: a session with
// Explore and general-purpose subagents, a force push and a task
// completion. The guard blocks the push; no subagent is stopped or told to
// write anything; nothing is written but hookwright's own records.
func TestDefaultsRunNoWorkflow(t *testing.T) {
	w := newWorld(t)
	// Scratchpads an earlier hookwright made agents write do not turn the
	// chain on.
	must(t, os.MkdirAll(filepath.Join(w.root, ".claude", "scratchpad", "Explore"), 0o755))
	must(t, os.WriteFile(filepath.Join(w.root, ".claude", "scratchpad", "Explore", "2026-01-01.md"), []byte("## What I did\n"), 0o644))
	before := w.written()
	out, _, code := w.hook("SessionStart", map[string]any{"source": "startup"})
	if code != 0 || !strings.Contains(out, "No team workflow is on here") || strings.Contains(out, "additionalContext") {
		t.Fatalf("SessionStart: exit %d %s", code, out)
	}
	for _, typ := range []string{"Explore", "general-purpose"} {
		if out, errs, code := w.hook("SubagentStart", subagent(typ, "a-"+typ, false)); code != 0 || out != "" {
			t.Errorf("SubagentStart %s: exit %d %q %q", typ, code, out, errs)
		}
	}
	if _, errs, code := w.hook("PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "git push --force origin main"}}); code != 2 || !strings.Contains(errs, "git-force-push") {
		t.Errorf("force push: exit %d %q", code, errs)
	}
	edit := map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": filepath.Join(w.src, "a.go"), "content": "package a\n"}}
	if out, _, code := w.hook("PreToolUse", edit); code != 0 || out != "" {
		t.Errorf("Write: exit %d %q", code, out)
	}
	for _, typ := range []string{"Explore", "general-purpose"} {
		if out, errs, code := w.hook("SubagentStop", subagent(typ, "a-"+typ, false)); code != 0 || out != "" || errs != "" {
			t.Errorf("SubagentStop %s: exit %d %q %q", typ, code, out, errs)
		}
	}
	if out, errs, code := w.hook("TaskCompleted", map[string]any{"task_id": "1", "task_subject": "[Do] parser: write it"}); code != 0 || out != "" {
		t.Errorf("TaskCompleted: exit %d %q %q", code, out, errs)
	}
	if out, errs, code := w.hook("Stop", map[string]any{"stop_hook_active": false}); code != 0 || out != "" {
		t.Errorf("Stop: exit %d %q %q", code, out, errs)
	}
	var added []string
	for _, f := range w.written() {
		if !contains(before, f) {
			added = append(added, f)
		}
	}
	day := time.Now().UTC().Format(time.DateOnly)
	want := []string{".hookwright/journal/" + day + ".jsonl", ".hookwright/sessions/" + day + ".jsonl", ".hookwright/workflows-notice"}
	if strings.Join(added, " ") != strings.Join(want, " ") {
		t.Errorf("written by the session: %q, want only hookwright's records %q", added, want)
	}
	// The notice is said once.
	if out, _, _ := w.hook("SessionStart", map[string]any{"source": "startup"}); strings.Contains(out, "workflow") {
		t.Errorf("the second session start repeats the notice: %s", out)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// hwctl workflow enable, run in a subfolder of a project that has no
// .hookwright yet, writes the switch into the root's config, keeping every
// other key and its order; disable turns it off; a config it cannot read
// is left alone; the model may not run either (the guard).
func TestWorkflowEnableWritesTheRootConfig(t *testing.T) {
	w := newWorld(t)
	out, code := w.hwctlRun("workflow", "enable", "scratchpad")
	if code != 0 || !strings.Contains(out, "scratchpad: on (scratchpad.enabled is true in the project config") {
		t.Fatalf("enable: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(w.src, ".hookwright")); err == nil {
		t.Fatal("enable in a subfolder made src/.hookwright")
	}
	cfg := filepath.Join(w.root, ".hookwright", "config.json")
	must(t, os.WriteFile(cfg, []byte(`{"quality": {"lint": true}, "guard": {"deny": ["terraform destroy", "DROP ☃"]}, "scratchpad": {"headings": ["Done", "Next"], "enabled": true}}`), 0o644))
	if out, code := w.hwctlRun("workflow", "enable", "scratchpad", "--fail", "closed"); code != 0 {
		t.Fatalf("enable --fail closed: %d %s", code, out)
	}
	if out, code := w.hwctlRun("workflow", "enable", "--mode", "warn", "work"); code != 0 {
		t.Fatalf("enable work: %d %s", code, out)
	}
	data, _ := os.ReadFile(cfg)
	var order []string
	for _, m := range regexp.MustCompile(`(?m)^  "([a-z_]+)"`).FindAllStringSubmatch(string(data), -1) {
		order = append(order, m[1])
	}
	if strings.Join(order, ",") != "quality,guard,scratchpad,work" || !strings.Contains(string(data), `"DROP ☃"`) ||
		!strings.Contains(string(data), `"headings": [`) || !strings.Contains(string(data), `"fail": "closed"`) || !strings.Contains(string(data), `"mode": "warn"`) {
		t.Errorf("config after enable:\n%s", data)
	}
	out, code = w.hwctlRun("workflow", "disable", "scratchpad")
	if code != 0 || !strings.Contains(out, "scratchpad: off (scratchpad.enabled is false") {
		t.Errorf("disable: %d %s", code, out)
	}
	out, _ = w.hwctlRun("workflow", "list", "--json")
	var sts []struct {
		Name string `json:"name"`
		On   bool   `json:"on"`
		Mode string `json:"mode"`
	}
	if err := json.Unmarshal([]byte(out), &sts); err != nil || len(sts) != 5 || sts[0].On || !sts[3].On || sts[3].Mode != "warn" {
		t.Errorf("list --json: %v %+v\n%s", err, sts, out)
	}
	// A config hwctl cannot read is left as it is.
	must(t, os.WriteFile(cfg, []byte(`{"scratchpad": {"enabld": true}}`), 0o644))
	if out, code := w.hwctlRun("workflow", "enable", "pdca"); code == 0 || !strings.Contains(out, "fix it first") {
		t.Errorf("enable over a broken config: %d %s", code, out)
	}
	if data, _ := os.ReadFile(cfg); string(data) != `{"scratchpad": {"enabld": true}}` {
		t.Errorf("the broken config was rewritten: %s", data)
	}
	for _, bad := range [][]string{{"workflow", "enable", "scratch"}, {"workflow", "enable"}, {"workflow", "enable", "work", "--fail", "closed"},
		{"workflow", "enable", "work", "--mode", "loud"}, {"workflow", "enable", "loop"}, {"workflow", "list", "pdca"}} {
		if out, code := w.hwctlRun(bad...); code != 2 {
			t.Errorf("%v: exit %d, want a usage error\n%s", bad, code, out)
		}
	}
	// The model's Bash may not change which workflows run.
	_, errs, code := w.hook("PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "hwctl workflow disable scratchpad"}})
	if code != 2 || !strings.Contains(errs, "guard-ground") {
		t.Errorf("the model's hwctl workflow disable: exit %d %q", code, errs)
	}
	if _, _, code := w.hook("PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "hwctl workflow list"}}); code != 0 {
		t.Errorf("the model's hwctl workflow list: exit %d", code)
	}
}

// A config file symlinked out of the project is not written through.
func TestWorkflowEnableConfined(t *testing.T) {
	w := newWorld(t)
	outside := t.TempDir()
	must(t, os.Symlink(outside, filepath.Join(w.root, ".hookwright")))
	if out, code := w.hwctlRun("workflow", "enable", "pdca"); code == 0 {
		t.Errorf("enable through a .hookwright linked out of the project: exit 0\n%s", out)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside the project: %v", entries)
	}
}
