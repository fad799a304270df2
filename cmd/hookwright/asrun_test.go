package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/handlers/builtin"
)

// The as-run test: every built-in registration run through the built
// binary exactly as Claude Code runs it, from the command strings of the
// plugin's hooks.json (the shell form) and of the newest band manifest (the
// exec form), with CLAUDE_PROJECT_DIR at the project root and the event's
// cwd in a subfolder (src/), as after the model ran `cd src`.

// asRunSession is the session id of the as-run steps.
const asRunSession = "sess-asrun"

// asRunStep is one hook call: the event Claude Code fires, its input (cwd
// and the common fields are added), and the registrations it exercises,
// as builtin.Table names them ("Event/handler").
type asRunStep struct {
	fired  string
	target string // the matcher target (tool name), "" for none
	input  map[string]any
}

// asRunChecks names what each built-in registration is checked by, keyed
// "Event/handler". Every registration in builtin.Table must have an entry
// (TestAsRunCoversEveryRegistration); the checks themselves run in
// TestAsRunInSubfolder.
var asRunChecks = map[string]string{
	"PreToolUse/guard":                      "a force push is blocked; the journal line lands under the root",
	"SessionStart/scratchpad-startup":       "today's coordinator scratchpad is named at the root",
	"SubagentStart/teamctx":                 "runs with exit 0 from the subfolder",
	"SubagentStart/scratchpad-assign":       "the subagent's scratchpad path is under the root",
	"SubagentStop/scratchpad-subagent-stop": "runs from the subfolder, nothing under src/",
	"Stop/scratchpad-coordinator-stop":      "runs from the subfolder, nothing under src/",
	"Stop/loop":                             "the check runs at the root and the state is .hookwright/loop.json at the root, dated now",
	"SubagentStop/loop":                     "as Stop/loop (subagents on)",
	"TeammateIdle/artifacts":                "runs from the subfolder, nothing under src/",
	"TaskCompleted/artifacts":               "runs from the subfolder, nothing under src/",
	"TaskCompleted/pdca":                    "the PDCA state is .hookwright/pdca.json at the root",
	"TaskCompleted/dependencies":            "runs from the subfolder, nothing under src/",
	"TeammateIdle/next-task":                "runs from the subfolder, nothing under src/",
	"TeammateIdle/team-status":              "the team file at the root records alice idle, seen now, with her open task",
	"TaskCompleted/team-status":             "the team file at the root records alice, seen now",
	"PreToolUse/work":                       "runs from the subfolder, nothing under src/",
	"PostToolUse/work-observer":             "work state, if any, at the root",
	"SessionStart/session":                  "the fingerprint is in .hookwright/sessions/<day>.jsonl at the root, started now",
	"SessionStart/install":                  "the plugin's hooks files as shipped raise no systemMessage",
	"SessionEnd/session-end":                "the fingerprint ends now",
	"SessionEnd/work-end":                   "runs from the subfolder, nothing under src/",
	"PostToolUse/tool-metrics":              "journal lines at the root",
	"PostToolUseFailure/tool-metrics":       "journal lines at the root",
	"PreCompact/compact-save":               "the snapshot is .hookwright/compact/<id>.json at the root, taken now, naming today's scratchpad",
	"SessionStart/compact-brief":            "the briefing after a compaction names today's scratchpad",
	"PostToolUse/quality":                   "gofmt, found through the root's go.mod, formats the file just written",
	"PostToolUse/quality-courier":           "runs from the subfolder, nothing under src/",
	"PostToolUse/quality-async":             "quality.lint is off here: the call does nothing, exit 0, no journal line",
}

// TestAsRunCoversEveryRegistration fails when a registration is added to
// builtin without a check in the as-run test, or a check names none.
func TestAsRunCoversEveryRegistration(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range builtin.Table() {
		key := string(r.Event) + "/" + r.Handler
		seen[key] = true
		if _, ok := asRunChecks[key]; !ok {
			t.Errorf("registration %s (matcher %q) has no step in the as-run test (asRunChecks)", key, r.Matcher)
		}
	}
	for key := range asRunChecks {
		if !seen[key] {
			t.Errorf("as-run check %s names no built-in registration", key)
		}
	}
}

// asRunManifest is one manifest's hook commands, by fired event.
type asRunHook struct {
	matcher string
	command string
	args    []string // nil: the shell form
}

func loadManifest(t *testing.T, path string) map[string][]asRunHook {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string   `json:"type"`
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string][]asRunHook{}
	for ev, groups := range m.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Type != "command" {
					continue
				}
				out[ev] = append(out[ev], asRunHook{g.Matcher, h.Command, h.Args})
			}
		}
	}
	return out
}

// installFiles are the plugin's hooks files, hooks/hooks.json first, as
// plugin.json names them.
func installFiles(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..", "plugin")
	files := []string{filepath.Join(root, "hooks", "hooks.json")}
	var pj struct{ Hooks []string }
	data, err := os.ReadFile(filepath.Join(root, ".claude-plugin", "plugin.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &pj); err != nil {
		t.Fatal(err)
	}
	for _, p := range pj.Hooks {
		files = append(files, filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(p, "./"))))
	}
	return files
}

// TestAsRunInSubfolder drives every registration of the installed plugin
// as two releases load it: 2.0.30 (hooks/hooks.json alone: the fallbacks
// stand in for TeammateIdle and TaskCompleted) and 2.1.330 (every file:
// the native events, and the fallbacks of hooks/hooks.json fire too but
// stand for nothing, since the transcript says the release fires the
// events itself).
func TestAsRunInSubfolder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the launcher is a shell script")
	}
	files := installFiles(t)
	if len(files) < 2 {
		t.Fatalf("plugin.json names no hooks files beyond hooks/hooks.json: %v", files)
	}
	for _, c := range []struct {
		release string
		files   []string
	}{
		{"2.0.30", files[:1]},
		{"2.1.330", files},
	} {
		t.Run(c.release, func(t *testing.T) {
			t.Parallel()
			manifest := map[string][]asRunHook{}
			for _, f := range c.files {
				for ev, hs := range loadManifest(t, f) {
					manifest[ev] = append(manifest[ev], hs...)
				}
			}
			asRun(t, manifest, c.release)
		})
	}
}

func asRun(t *testing.T, manifest map[string][]asRunHook, release string) {
	// The plugin folder as installed: its hooks files and plugin.json, the
	// launcher and this platform's binary.
	plugin := t.TempDir()
	launcher, err := os.ReadFile(filepath.Join("..", "..", "plugin", "bin", "hookwright"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range append(installFiles(t), filepath.Join("..", "..", "plugin", ".claude-plugin", "plugin.json")) {
		data, err := os.ReadFile(rel)
		must(t, err)
		to := filepath.Join(plugin, strings.TrimPrefix(rel, filepath.Join("..", "..", "plugin")+string(filepath.Separator)))
		must(t, os.MkdirAll(filepath.Dir(to), 0o755))
		must(t, os.WriteFile(to, data, 0o644))
	}
	must(t, os.MkdirAll(filepath.Join(plugin, "bin"), 0o755))
	must(t, os.WriteFile(filepath.Join(plugin, "bin", "hookwright"), launcher, 0o755))
	must(t, os.Symlink(binPath, filepath.Join(plugin, "bin", "hookwright-"+runtime.GOOS+"-"+runtime.GOARCH)))

	root := t.TempDir()
	src := filepath.Join(root, "src")
	must(t, os.MkdirAll(src, 0o755))
	must(t, os.WriteFile(filepath.Join(root, ".root-marker"), nil, 0o644))
	must(t, os.MkdirAll(filepath.Join(root, ".hookwright"), 0o755))
	// The loop's check passes only at the root. A check is a command, so
	// the user's own config trusts the project; quality formats Go files.
	// Every workflow is on, as hwctl workflow enable writes it, so each
	// registration does its work.
	must(t, os.WriteFile(filepath.Join(root, ".hookwright", "config.json"),
		[]byte(`{"loop": {"enabled": true, "check": "test -f .root-marker", "subagents": true}, "quality": {"format": true},
		"scratchpad": {"enabled": true}, "artifacts": {"enabled": true}, "pdca": {"enabled": true}, "work": {"mode": "warn"}}`), 0o644))
	home := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(home, ".config", "hookwright"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, ".config", "hookwright", "config.json"), []byte(`{"trust": [`+strconv.Quote(root)+`]}`), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/asrun\n\ngo 1.22\n"), 0o644))
	goFile := filepath.Join(root, "fmt.go")
	must(t, os.WriteFile(goFile, []byte("package asrun\nfunc  f( ) {}\n"), 0o644))
	cfgDir := filepath.Join(home, ".claude")
	// alice's task in progress, in the team's task list.
	must(t, os.MkdirAll(filepath.Join(cfgDir, "tasks", "core"), 0o755))
	must(t, os.WriteFile(filepath.Join(cfgDir, "tasks", "core", "1.json"),
		[]byte(`{"id":"1","subject":"build the parser","description":"","owner":"alice","status":"in_progress","blocks":[],"blockedBy":[]}`), 0o644))
	// The team as 2.1.33 writes its config: the lead's session, alice
	// in-process.
	must(t, os.MkdirAll(filepath.Join(cfgDir, "teams", "core"), 0o755))
	must(t, os.WriteFile(filepath.Join(cfgDir, "teams", "core", "config.json"), []byte(`{"name":"core",
		"leadAgentId":"team-lead@core","leadSessionId":"`+asRunSession+`","members":[
		{"agentId":"team-lead@core","name":"team-lead","agentType":"team-lead","tmuxPaneId":""},
		{"agentId":"alice@core","name":"alice","agentType":"general-purpose","tmuxPaneId":"in-process"}]}`), 0o644))
	// The transcript as the release writes it: every line carries its
	// version, which the fallbacks read.
	transcript := filepath.Join(home, "transcript.jsonl")
	must(t, os.WriteFile(transcript, []byte(`{"type":"user","version":"`+release+`","message":{"role":"user","content":"go"}}`+"\n"), 0o644))

	team := map[string]any{"team_name": "core", "teammate_name": "alice"}
	steps := []asRunStep{
		{fired: "SessionStart", input: map[string]any{"source": "startup"}},
		{fired: "SubagentStart", input: map[string]any{"agent_id": "a1", "agent_type": "general-purpose"}},
		{fired: "PreToolUse", target: "Bash", input: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "git push --force origin main"}}},
		{fired: "PreToolUse", target: "Read", input: map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": "main.go"}}},
		{fired: "PostToolUse", target: "Bash", input: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}, "tool_response": map[string]any{}}},
		{fired: "PostToolUse", target: "Write", input: map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": goFile, "content": "package asrun\nfunc  f( ) {}\n"}, "tool_response": map[string]any{"success": true}}},
		{fired: "PostToolUseFailure", target: "Bash", input: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "false"}, "error": "exit 1"}},
		{fired: "PreCompact", input: map[string]any{"trigger": "manual", "custom_instructions": ""}},
		{fired: "SessionStart", input: map[string]any{"source": "compact"}},
		{fired: "SubagentStop", input: map[string]any{"agent_id": "a1", "agent_type": "general-purpose", "stop_hook_active": false}},
		// An in-process teammate's stop as 2.1.33 sends it: the lead's
		// session, agent_type the teammate's name, no team fields. Where
		// TeammateIdle is a fallback (hooks.json), it is alice's idle;
		// next-task hands her the open task twice first.
		{fired: "SubagentStop", input: map[string]any{"agent_id": "b2c3d4e", "agent_type": "alice", "stop_hook_active": false}},
		{fired: "SubagentStop", input: map[string]any{"agent_id": "b2c3d4e", "agent_type": "alice", "stop_hook_active": false}},
		{fired: "SubagentStop", input: map[string]any{"agent_id": "b2c3d4e", "agent_type": "alice", "stop_hook_active": false}},
		{fired: "TaskCompleted", input: merge(team, map[string]any{"task_id": "1", "task_subject": "build the parser"})},
		// next-task hands alice her open task twice (pdca.MaxNudges); the
		// third idle goes through and is recorded.
		{fired: "TeammateIdle", input: team},
		{fired: "TeammateIdle", input: team},
		{fired: "TeammateIdle", input: team},
		{fired: "Stop", input: map[string]any{"stop_hook_active": false}},
		{fired: "Stop", input: map[string]any{"stop_hook_active": false}},
		{fired: "Stop", input: map[string]any{"stop_hook_active": false}},
		{fired: "SessionEnd", input: map[string]any{"reason": "other"}},
	}
	start := time.Now()
	var briefings []string
	for _, s := range steps {
		hooks := manifest[s.fired]
		for _, h := range hooks {
			if h.matcher != "" && h.matcher != "*" && !regexp.MustCompile("^(?:"+h.matcher+")$").MatchString(s.target) {
				continue
			}
			in := merge(map[string]any{
				"session_id": asRunSession, "transcript_path": transcript, "cwd": src,
				"permission_mode": "default", "hook_event_name": s.fired,
			}, s.input)
			stdout, stderr, code := runHook(t, plugin, root, home, h, in)
			t.Logf("%s %v: exit %d %s %s", s.fired, h.args, code, stdout, stderr)
			if code != 0 && code != 2 {
				t.Errorf("%s %s %v: exit %d, stderr %s", s.fired, h.command, h.args, code, stderr)
			}
			if strings.Contains(stderr, "failed open") || strings.Contains(stdout, "failed open") {
				t.Errorf("%s %v: a handler failed: %s%s", s.fired, h.args, stdout, stderr)
			}
			if s.fired == "SessionStart" && s.input["source"] == "compact" {
				briefings = append(briefings, stdout)
			}
			if s.fired == "SessionStart" && strings.Contains(stdout, "fix:") {
				t.Errorf("the install check reports the plugin as shipped: %s", stdout)
			}
		}
	}
	now := time.Now()
	today := map[string]bool{start.Format(time.DateOnly): true, start.UTC().Format(time.DateOnly): true,
		now.Format(time.DateOnly): true, now.UTC().Format(time.DateOnly): true}

	// Nothing lands in the subfolder.
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if p != src {
			t.Errorf("written under the working folder: %s", p)
		}
		return nil
	})
	// Every date in every file written is today, every timestamp within a
	// minute of now.
	dateRE := regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)
	stampRE := regexp.MustCompile(`\d{4}-\d{2}-\d{2}T[0-9:.]+(Z|[+-]\d{2}:\d{2})`)
	var written []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".root-marker") || strings.HasSuffix(p, "config.json") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		written = append(written, rel)
		data, _ := os.ReadFile(p)
		for _, d := range dateRE.FindAllString(rel+"\n"+string(data), -1) {
			if !today[d] {
				t.Errorf("%s: date %s is not today", rel, d)
			}
		}
		for _, s := range stampRE.FindAllString(string(data), -1) {
			ts, err := time.Parse(time.RFC3339Nano, s)
			if err != nil {
				t.Errorf("%s: timestamp %s: %v", rel, s, err)
				continue
			}
			if ts.Before(start.Add(-time.Minute)) || ts.After(now.Add(time.Minute)) {
				t.Errorf("%s: timestamp %s is not within a minute of now", rel, s)
			}
		}
		return nil
	})
	t.Logf("written: %s", strings.Join(written, " "))
	has := func(rel string) []byte {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Errorf("not at the root: %s", rel)
		}
		return data
	}
	day := now.Format(time.DateOnly)

	// Quality: the Write in the root was formatted in place.
	if _, err := exec.LookPath("gofmt"); err != nil {
		t.Logf("gofmt is not on PATH: the quality step is not checked")
	} else if got, _ := os.ReadFile(goFile); string(got) != "package asrun\n\nfunc f() {}\n" {
		t.Errorf("quality: %s was not formatted: %q", goFile, got)
	}

	// Team status: alice recorded, with her open task: natively from
	// TeammateIdle, in hooks.json through the SubagentStop fallback (no
	// team variable is set: Claude Code sets none).
	var status struct {
		Teammates map[string]struct {
			State    string    `json:"state"`
			LastSeen time.Time `json:"last_seen"`
			OpenTask string    `json:"open_task"`
		} `json:"teammates"`
	}
	if data := has(".hookwright/team/core.json"); data != nil {
		must(t, json.Unmarshal(data, &status))
		alice, ok := status.Teammates["alice"]
		if !ok || alice.State != "idle" || alice.LastSeen.IsZero() || !strings.Contains(alice.OpenTask, "build the parser") {
			t.Errorf("team status: alice is %+v in %s", alice, data)
		}
	}
	// The compaction snapshot, taken now, naming today's scratchpad.
	var snap struct {
		Taken      time.Time `json:"taken"`
		Scratchpad string    `json:"scratchpad"`
	}
	if data := has(".hookwright/compact/" + asRunSession + ".json"); data != nil {
		must(t, json.Unmarshal(data, &snap))
		if snap.Taken.IsZero() || !strings.Contains(snap.Scratchpad, day) {
			t.Errorf("snapshot: %s", data)
		}
	}
	// The briefing after the compaction names today's scratchpad.
	if len(briefings) == 0 || !strings.Contains(strings.Join(briefings, ""), day) {
		t.Errorf("briefing after the compaction does not name today's scratchpad (%s): %q", day, briefings)
	}
	// The session fingerprint and the loop's state.
	if data := has(".hookwright/sessions/" + now.UTC().Format(time.DateOnly) + ".jsonl"); data != nil && !strings.Contains(string(data), `"session_id":"`+asRunSession+`"`) {
		t.Errorf("the day's session file does not record the session: %s", data)
	}
	if data := has(".hookwright/loop.json"); data != nil && !strings.Contains(string(data), "check passed") {
		t.Errorf("loop state: the check did not pass at the root: %s", data)
	}
	has(".hookwright/journal/" + now.UTC().Format(time.DateOnly) + ".jsonl")
}

// runHook runs h as Claude Code does: the shell form through sh -c with
// CLAUDE_PLUGIN_ROOT in the environment, the exec form with the variable
// expanded in the command and the args passed as they are.
func runHook(t *testing.T, plugin, root, home string, h asRunHook, in map[string]any) (stdout, stderr string, code int) {
	t.Helper()
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var cmd *exec.Cmd
	if h.args == nil {
		cmd = exec.CommandContext(ctx, "sh", "-c", h.command)
	} else {
		cmd = exec.CommandContext(ctx, strings.ReplaceAll(h.command, "${CLAUDE_PLUGIN_ROOT}", plugin), h.args...)
	}
	cmd.Dir = in["cwd"].(string)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
		"CLAUDE_PROJECT_DIR=" + root, "CLAUDE_PLUGIN_ROOT=" + plugin, "HOOKWRIGHT_STDIN_TIMEOUT=10s", "HOOKWRIGHT_TIMEOUT=30s"}
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(data), &out, &errb
	err = cmd.Run()
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("%s %v: %v", h.command, h.args, err)
	}
	return out.String(), errb.String(), code
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

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
