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
	want := []string{".hookwright/.gitignore", ".hookwright/journal/" + day + ".jsonl", ".hookwright/sessions/" + day + ".jsonl", ".hookwright/workflows-notice"}
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

func (w *world) enable(args ...string) {
	w.t.Helper()
	if out, code := w.hwctlRun(append([]string{"workflow", "enable"}, args...)...); code != 0 {
		w.t.Fatalf("hwctl workflow enable %v: exit %d\n%s", args, code, out)
	}
}

// The scratchpad chain turned on by its command, fail-closed: the design's
// chain (seed 004) through the binary, bounded.
func TestScratchpadWorkflowEndToEnd(t *testing.T) {
	w := newWorld(t)
	w.enable("scratchpad", "--fail", "closed")
	day := time.Now().Format(time.DateOnly)
	pad := ".claude/scratchpad/Explore/" + day + ".md"
	out, _, code := w.hook("SubagentStart", subagent("Explore", "x1", false))
	if code != 0 || !strings.Contains(out, "write your scratchpad at "+pad) {
		t.Fatalf("SubagentStart: %d %s", code, out)
	}
	// An agent that never writes is held max_blocks (5) times, then let go.
	for i := 1; i <= 5; i++ {
		_, errs, code := w.hook("SubagentStop", subagent("Explore", "x1", i > 1))
		if code != 2 || !strings.Contains(errs, "write "+pad) || !strings.Contains(errs, "block "+string(rune('0'+i))+" of at most 5") {
			t.Fatalf("stop %d: exit %d %q", i, code, errs)
		}
	}
	out, _, code = w.hook("SubagentStop", subagent("Explore", "x1", true))
	if code != 0 || !strings.Contains(out, "after 5 blocked stops") {
		t.Fatalf("stop past the bound: exit %d %s", code, out)
	}
	// Written (a Windows editor's BOM before the first heading), it passes.
	must(t, os.MkdirAll(filepath.Join(w.root, ".claude", "scratchpad", "Explore"), 0o755))
	must(t, os.WriteFile(filepath.Join(w.root, filepath.FromSlash(pad)), []byte("\ufeff## What I did\nread\n## Cross-agent observations\n-\n## Unresolved\n-\n"), 0o644))
	if out, errs, code := w.hook("SubagentStop", subagent("Explore", "x2", false)); code != 0 || out != "" {
		t.Fatalf("complete scratchpad: exit %d %q %q", code, out, errs)
	}
	// The coordinator may not stop on a day a subagent wrote before it has.
	if _, errs, code := w.hook("Stop", map[string]any{"stop_hook_active": false}); code != 2 || !strings.Contains(errs, "Explore wrote today's scratchpad") {
		t.Fatalf("coordinator Stop: exit %d %q", code, errs)
	}
	must(t, os.MkdirAll(filepath.Join(w.root, ".claude", "scratchpad", "coordinator"), 0o755))
	must(t, os.WriteFile(filepath.Join(w.root, ".claude", "scratchpad", "coordinator", day+".md"), []byte("## What I did\nled\n"), 0o644))
	if _, errs, code := w.hook("Stop", map[string]any{"stop_hook_active": true}); code != 0 {
		t.Fatalf("coordinator Stop after writing: exit %d %q", code, errs)
	}
	// The next session starts with the coordinator's notes.
	if out, _, _ := w.hook("SessionStart", map[string]any{"source": "startup"}); !strings.Contains(out, "## Coordinator scratchpad") || !strings.Contains(out, "led") {
		t.Fatalf("SessionStart briefing: %s", out)
	}
}

// The artifact gates and the GC line, turned on by their command (DIA,
// seed 000).
func TestArtifactsWorkflowEndToEnd(t *testing.T) {
	w := newWorld(t)
	w.enable("artifacts")
	teams := filepath.Join(w.home, ".claude", "teams", "core")
	must(t, os.MkdirAll(teams, 0o755))
	must(t, os.WriteFile(filepath.Join(teams, "config.json"), []byte(`{"name":"core","members":[{"name":"alice","cwd":"`+w.root+`"}]}`), 0o644))
	must(t, os.MkdirAll(filepath.Join(w.root, ".agent", "teams", "core"), 0o755))
	must(t, os.WriteFile(filepath.Join(w.root, ".agent", "teams", "core", "global-context.md"), []byte("---\nversion: 9\n---\ncurrent: gc-v10\n"), 0o644))
	out, _, code := w.hook("SubagentStart", subagent("general-purpose", "g1", false))
	if code != 0 || !strings.Contains(out, "[DIA-HOOK] Active team: core. Current GC: GC-v10.") {
		t.Fatalf("SubagentStart: exit %d %s", code, out)
	}
	team := map[string]any{"team_name": "core", "teammate_name": "alice"}
	if _, errs, code := w.hook("TeammateIdle", team); code != 2 || !strings.Contains(errs, "write .agent/teams/core/alice/L1-index.yaml") {
		t.Fatalf("TeammateIdle: exit %d %q", code, errs)
	}
	done := map[string]any{"team_name": "core", "teammate_name": "alice", "task_id": "7", "task_subject": "[Do] parser"}
	if _, errs, code := w.hook("TaskCompleted", done); code != 2 || !strings.Contains(errs, "Cannot complete task '[Do] parser'") {
		t.Fatalf("TaskCompleted: exit %d %q", code, errs)
	}
	dir := filepath.Join(w.root, ".agent", "teams", "core", "alice")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "L1-index.yaml"), bytes.Repeat([]byte("k: v\n"), 20), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "L2-summary.md"), bytes.Repeat([]byte("summary line\n"), 20), 0o644))
	if _, errs, code := w.hook("TeammateIdle", team); code != 0 {
		t.Fatalf("TeammateIdle with L1/L2: exit %d %q", code, errs)
	}
}

// PDCA turned on by its command: feature names as bkit's pattern takes
// them (any script, spaces, the tag anywhere).
func TestPDCAWorkflowEndToEnd(t *testing.T) {
	w := newWorld(t)
	w.enable("pdca")
	for i, subject := range []string{"[Report] 로그인 기능", "[Plan] My Feature", "Fix: [Do] parser", "[Do] my feature: build it"} {
		out, errs, code := w.hook("TaskCompleted", map[string]any{"task_id": string(rune('1' + i)), "task_subject": subject})
		if code != 0 || !strings.Contains(out, "PDCA ") {
			t.Fatalf("%q: exit %d %q %q", subject, code, out, errs)
		}
	}
	out, code := w.hwctlRun("pdca", "status", "--json")
	var wrap struct {
		Features map[string]struct {
			Phase string `json:"phase"`
		} `json:"features"`
	}
	if err := json.Unmarshal([]byte(out), &wrap); code != 0 || err != nil {
		t.Fatalf("pdca status --json: %d %v %s", code, err, out)
	}
	for name, phase := range map[string]string{"로그인 기능": "Report", "my feature": "Do", "parser": "Do"} {
		if f, ok := wrap.Features[name]; !ok || f.Phase != phase {
			t.Errorf("feature %q: %+v (ok %v), want phase %s\n%s", name, f, ok, phase, out)
		}
	}
}

// Work units turned on by their command (strict): every tool that edits
// is held to a unit; the block's own command opens one.
func TestWorkWorkflowEndToEnd(t *testing.T) {
	w := newWorld(t)
	w.enable("work")
	redirect := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "echo x > notes.md"}}
	_, errs, code := w.hook("PreToolUse", redirect)
	m := regexp.MustCompile(`run: (hwctl work start wu-[0-9a-f]{8})`).FindStringSubmatch(errs)
	if code != 2 || m == nil {
		t.Fatalf("a shell redirect outside a unit: exit %d %q", code, errs)
	}
	nb := map[string]any{"tool_name": "NotebookEdit", "tool_input": map[string]any{"notebook_path": filepath.Join(w.src, "n.ipynb"), "new_source": "x"}}
	if _, errs, code := w.hook("PreToolUse", nb); code != 2 {
		t.Fatalf("NotebookEdit outside a unit: exit %d %q", code, errs)
	}
	if _, _, code := w.hook("PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "go test ./... 2>&1 | tail"}}); code != 0 {
		t.Fatalf("a command that writes nothing: exit %d", code)
	}
	cmd := exec.Command("sh", "-c", m[1])
	cmd.Dir, cmd.Env = w.src, w.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v %s", m[1], err, out)
	}
	for _, in := range []map[string]any{redirect, nb} {
		if _, errs, code := w.hook("PreToolUse", in); code != 0 {
			t.Fatalf("inside the unit: exit %d %q", code, errs)
		}
	}
	// auto_create false: the block says how, with no ready command.
	if out, code := w.hwctlRun("work", "stop", strings.TrimPrefix(m[1], "hwctl work start ")); code != 0 {
		t.Fatalf("hwctl work stop: %d %s", code, out)
	}
	cfg := filepath.Join(w.root, ".hookwright", "config.json")
	must(t, os.WriteFile(cfg, []byte(`{"work": {"mode": "strict", "auto_create": false}}`), 0o644))
	w.session = "sess-other"
	if _, errs, code := w.hook("PreToolUse", redirect); code != 2 || strings.Contains(errs, "run: hwctl") || !strings.Contains(errs, "hwctl work start <name>") {
		t.Fatalf("auto_create false: exit %d %q", code, errs)
	}
}

// The Stop loop turned on by its command (MoAI's loop controller).
func TestLoopWorkflowEndToEnd(t *testing.T) {
	w := newWorld(t)
	w.enable("loop", "--check", "test -f done.marker")
	if _, errs, code := w.hook("Stop", map[string]any{"stop_hook_active": false}); code != 2 || !strings.Contains(errs, "loop") {
		t.Fatalf("Stop before the check passes: exit %d %q", code, errs)
	}
	must(t, os.WriteFile(filepath.Join(w.root, "done.marker"), nil, 0o644))
	if _, errs, code := w.hook("Stop", map[string]any{"stop_hook_active": true}); code != 0 {
		t.Fatalf("Stop after the check passes: exit %d %q", code, errs)
	}
	if out, code := w.hwctlRun("workflow", "disable", "loop"); code != 0 || !strings.Contains(out, "loop: off") {
		t.Fatalf("disable loop: %d %s", code, out)
	}
}

// On a release that drops an async hook's output (2.1.45 to 2.1.63) the
// asynchronous call leaves its findings pending and the session's next
// tool call, whatever the tool, hands them to the model once; the journal
// marks that call quality_warning.
func TestQualityPendingDeliveredAtTheNextToolCall(t *testing.T) {
	w := newWorld(t)
	must(t, os.MkdirAll(filepath.Join(w.home, ".config", "hookwright"), 0o755))
	must(t, os.WriteFile(filepath.Join(w.home, ".config", "hookwright", "config.json"),
		[]byte(`{"quality": {"lint": true, "commands": [{"match": "*.txt", "lint": ["echo", "slow finding"]}]}}`), 0o644))
	must(t, os.WriteFile(filepath.Join(w.src, "notes.txt"), []byte("x\n"), 0o644))
	write := map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": filepath.Join(w.src, "notes.txt"), "content": "x\n"}, "tool_response": map[string]any{"success": true}}
	release := "AI_AGENT=claude-code_2-1-50_harness"
	run := func(args string, in map[string]any) (string, string, int) {
		t.Helper()
		data, _ := json.Marshal(merge(map[string]any{"session_id": w.session, "transcript_path": "", "cwd": w.src, "hook_event_name": "PostToolUse"}, in))
		cmd := exec.Command("sh", "-c", `"`+w.hookwright+`" `+args)
		cmd.Dir, cmd.Env = w.src, w.env("CLAUDE_PROJECT_DIR="+w.root, release)
		cmd.Stdin = bytes.NewReader(data)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		_ = cmd.Run()
		return out.String(), errb.String(), cmd.ProcessState.ExitCode()
	}
	if out, errs, code := run("PostToolUse --with-async", write); code != 0 || out != "" {
		t.Fatalf("the synchronous call leaves the linter to the asynchronous one: exit %d %q %q", code, out, errs)
	}
	if out, errs, code := run("PostToolUse --async", write); code != 0 || out != "" {
		t.Fatalf("async on 2.1.50: exit %d %q %q", code, out, errs)
	}
	next := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}, "tool_response": map[string]any{}}
	out, _, code := run("PostToolUse --with-async", next)
	if code != 0 || !strings.Contains(out, "slow finding") || !strings.Contains(out, "additionalContext") {
		t.Fatalf("the next tool call: exit %d %s", code, out)
	}
	if again, _, _ := run("PostToolUse --with-async", next); strings.Contains(again, "slow finding") {
		t.Fatalf("delivered twice: %s", again)
	}
	cmd := exec.Command(w.hwctl, "events", "--dir", w.root, "--kind", "quality_warning", "--json")
	cmd.Env = w.env()
	ev, err := cmd.Output()
	if err != nil || strings.Count(strings.TrimSpace(string(ev)), "\n") != 0 || !strings.Contains(string(ev), `"tool":"Bash"`) {
		t.Fatalf("--kind quality_warning: %v\n%s", err, ev)
	}
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// The README's typed-events table, every kind with what makes it, through
// the binary: quality_warning is written (the README called it reserved).
func TestQualityWarningKindIsWritten(t *testing.T) {
	w := newWorld(t)
	must(t, os.MkdirAll(filepath.Join(w.home, ".config", "hookwright"), 0o755))
	must(t, os.WriteFile(filepath.Join(w.home, ".config", "hookwright", "config.json"),
		[]byte(`{"quality": {"lint": true, "commands": [{"match": "*.txt", "lint": ["echo", "a finding"]}]}}`), 0o644))
	must(t, os.WriteFile(filepath.Join(w.src, "notes.txt"), []byte("x\n"), 0o644))
	out, _, code := w.hook("PostToolUse", map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": filepath.Join(w.src, "notes.txt"), "content": "x\n"}, "tool_response": map[string]any{}})
	if code != 0 || !strings.Contains(out, "a finding") {
		t.Fatalf("PostToolUse: exit %d %s", code, out)
	}
	cmd := exec.Command(w.hwctl, "events", "--dir", w.root, "--kind", "quality_warning", "--json")
	cmd.Env = w.env()
	ev, err := cmd.Output()
	if err != nil || !strings.Contains(string(ev), `"kind":"quality_warning"`) || !strings.Contains(string(ev), `"tool":"Write"`) {
		t.Fatalf("hwctl events --kind quality_warning: %v\n%s", err, ev)
	}
}

// The README's quality trust note, run as documented: a project's
// quality.commands run on the next edit only where the user config
// trusts the project; otherwise they are ignored and said so.
func TestQualityCommandsNeedTrust(t *testing.T) {
	w := newWorld(t)
	must(t, os.MkdirAll(filepath.Join(w.root, ".hookwright"), 0o755))
	must(t, os.WriteFile(filepath.Join(w.root, ".hookwright", "config.json"),
		[]byte(`{"quality": {"lint": true, "commands": [{"match": "*.proto", "lint": ["touch", "{file}.linted"]}]}}`), 0o644))
	proto := filepath.Join(w.src, "api.proto")
	must(t, os.WriteFile(proto, []byte("syntax = \"proto3\";\n"), 0o644))
	edit := map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": proto, "content": "x"}, "tool_response": map[string]any{}}
	out, _, _ := w.hook("PostToolUse", edit)
	if _, err := os.Stat(proto + ".linted"); err == nil {
		t.Fatal("an untrusted project's quality command ran")
	}
	if !strings.Contains(out, "quality.commands") || !strings.Contains(out, "trust") {
		t.Errorf("the untrusted command was not reported: %s", out)
	}
	must(t, os.MkdirAll(filepath.Join(w.home, ".config", "hookwright"), 0o755))
	must(t, os.WriteFile(filepath.Join(w.home, ".config", "hookwright", "config.json"), []byte(`{"trust": [`+strconvQuote(w.root)+`]}`), 0o644))
	w.hook("PostToolUse", edit)
	if _, err := os.Stat(proto + ".linted"); err != nil {
		t.Fatalf("a trusted project's quality command did not run: %v", err)
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// The README's "--dir before or after its name", run as written: it goes
// before the command's name or after it, before the command's arguments
// (after an argument it is one more argument: a usage error); without it,
// $CLAUDE_PROJECT_DIR, else the nearest folder upwards that holds
// .hookwright, else the current folder. hwctl workflow takes it anywhere.
func TestDirFlagWhereItGoes(t *testing.T) {
	w := newWorld(t)
	must(t, os.MkdirAll(filepath.Join(w.root, ".hookwright"), 0o755))
	elsewhere := t.TempDir()
	run := func(dir string, args ...string) (string, int) {
		cmd := exec.Command(w.hwctl, args...)
		cmd.Dir, cmd.Env = dir, w.env()
		out, _ := cmd.CombinedOutput()
		return string(out), cmd.ProcessState.ExitCode()
	}
	for _, args := range [][]string{
		{"--dir", w.root, "work", "start", "a"},
		{"work", "--dir", w.root, "start", "b"},
		{"work", "start", "--dir", w.root, "c"},
		{"workflow", "enable", "pdca", "--dir", w.root},
	} {
		if out, code := run(elsewhere, args...); code != 0 {
			t.Errorf("hwctl %v: exit %d\n%s", args, code, out)
		}
	}
	if out, code := run(elsewhere, "work", "start", "d", "--dir", w.root); code != 2 {
		t.Errorf("--dir after the argument: exit %d, want a usage error\n%s", code, out)
	}
	// No --dir: the nearest .hookwright upwards from the subfolder.
	out, code := run(w.src, "work", "status")
	if code != 0 || !strings.Contains(out, "a") || !strings.Contains(out, "c") {
		t.Errorf("work status from the subfolder: exit %d\n%s", code, out)
	}
	if out, _ := run(w.src, "workflow", "status", "pdca"); !strings.Contains(out, "pdca      on") {
		t.Errorf("the workflow enabled with --dir after its name is not on:\n%s", out)
	}
}

// A .hookwright further up (a session once run in the home folder) does
// not capture a project below it that has its own .git: the nearest
// marker wins.
func TestWorkflowEnableNearestRoot(t *testing.T) {
	w := newWorld(t)
	outer := filepath.Dir(w.root)
	must(t, os.MkdirAll(filepath.Join(outer, ".hookwright"), 0o755))
	if out, code := w.hwctlRun("workflow", "enable", "pdca"); code != 0 || !strings.Contains(out, w.root) {
		t.Fatalf("enable: %d %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(outer, ".hookwright", "config.json")); err == nil {
		t.Fatal("the config went to the outer folder's .hookwright")
	}
	if _, err := os.Stat(filepath.Join(w.root, ".hookwright", "config.json")); err != nil {
		t.Fatalf("the project's config: %v", err)
	}
}

// Every hwctl command docs/workflows.md shows runs as written, in a
// project, through the shell: the page cannot drift from the binary.
func TestDocsWorkflowCommandsRun(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "workflows.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	inSh := false
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			inSh = true
		case strings.HasPrefix(line, "```"):
			inSh = false
		case inSh && strings.HasPrefix(line, "hwctl "):
			cmd, _, _ := strings.Cut(line, "  #")
			cmds = append(cmds, strings.TrimSpace(cmd))
		}
	}
	if len(cmds) < 10 {
		t.Fatalf("found %d hwctl commands in docs/workflows.md: %q", len(cmds), cmds)
	}
	w := newWorld(t)
	for _, c := range cmds {
		cmd := exec.Command("sh", "-c", c)
		cmd.Dir, cmd.Env = w.src, w.env()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", c, err, out)
		}
	}
}
