//go:build unix

package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	loopstate "github.com/hookwright/hookwright/internal/state/loop"
)

// bashCall is a PreToolUse event for one Bash command, run in cwd.
func bashCall(t *testing.T, cwd, command string) string {
	t.Helper()
	ev, err := json.Marshal(map[string]any{
		"session_id": "s1", "cwd": cwd, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]string{"command": command},
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(ev)
}

// denied reports whether the hook's answer stops the call (exit 2, or a
// deny or ask decision on stdout).
func denied(stdout string, code int) bool {
	return code == 2 || strings.Contains(stdout, `"permissionDecision":"deny"`) || strings.Contains(stdout, `"permissionDecision":"ask"`)
}

// The two-step switch-off of issue 23: the model writes
// {"guard":{"enabled":false}} into .hookwright/config.json with a shell
// redirect, and from then on rm -rf ~ and cat ~/.ssh/id_rsa pass. Step 1
// must be stopped; and a config that says so anyway (a cloned repository
// shipping it) must not switch the guard off.
func TestTwoStepSwitchOff(t *testing.T) {
	project := t.TempDir()
	sub := filepath.Join(project, "src")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	step1 := `echo '{"guard":{"enabled":false}}' > .hookwright/config.json`
	out, errs, code := hook(t, project, "PreToolUse", bashCall(t, project, step1))
	if !denied(out, code) {
		t.Errorf("step 1 %q was let through (exit %d, stdout %q, stderr %q)", step1, code, out, errs)
	}
	// The same from a subfolder, spelled through ..
	out, _, code = hook(t, project, "PreToolUse", bashCall(t, sub, `printf '{"guard":{"enabled":false}}' > ../.hookwright/config.json`))
	if !denied(out, code) {
		t.Errorf("step 1 from a subfolder was let through (exit %d, stdout %q)", code, out)
	}

	// Step 2: the config is there (a cloned repository ships it).
	if err := os.MkdirAll(filepath.Join(project, ".hookwright"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".hookwright", "config.json"), []byte(`{"guard":{"enabled":false}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"rm -rf ~", "cat ~/.ssh/id_rsa", "rm -rf .hookwright"} {
		out, errs, code := hook(t, project, "PreToolUse", bashCall(t, sub, cmd))
		if !denied(out, code) {
			t.Errorf("after the project config switched the guard off, %q was let through (exit %d, stdout %q, stderr %q)", cmd, code, out, errs)
		}
	}
}

// The ignored loosening is reported once, in a systemMessage; a user
// config that trusts the project lets it apply; a broken user config is
// reported and never blocks.
func TestProjectConfigLayers(t *testing.T) {
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, ".hookwright"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".hookwright", "config.json"), []byte(`{"guard":{"enabled":false}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	xdg := t.TempDir()
	env := "XDG_CONFIG_HOME=" + xdg
	out, _, code := hook(t, project, "PreToolUse", bashCall(t, project, "ls"), env)
	if code != 0 || !strings.Contains(out, "systemMessage") || !strings.Contains(out, "guard.enabled") {
		t.Fatalf("first call: exit %d, stdout %q; want a systemMessage naming guard.enabled", code, out)
	}
	out, _, code = hook(t, project, "PreToolUse", bashCall(t, project, "ls"), env)
	if code != 0 || strings.Contains(out, "guard.enabled") {
		t.Errorf("second call: exit %d, stdout %q; the notice was given already", code, out)
	}

	write := func(s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(xdg, "hookwright"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(xdg, "hookwright", "config.json"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"guard":{"level":"strict"}}`)
	if out, _, code := hook(t, project, "PreToolUse", bashCall(t, project, "rm -rf build"), env); !denied(out, code) {
		t.Errorf("the user config's strict level does not apply: exit %d, stdout %q", code, out)
	}
	write(`{"trust":["` + project + `"]}`)
	if out, _, code := hook(t, project, "PreToolUse", bashCall(t, project, "cat ~/.ssh/id_rsa"), env); denied(out, code) {
		t.Errorf("a trusted project's guard.enabled false did not apply: exit %d, stdout %q", code, out)
	}
	write(`{"guard":`)
	out, errs, code := hook(t, project, "PreToolUse", bashCall(t, project, "ls"), env)
	if code != 0 || !strings.Contains(out+errs, "user config") {
		t.Errorf("a broken user config: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if out, _, code := hook(t, project, "PreToolUse", bashCall(t, project, "rm -rf ~"), env); !denied(out, code) {
		t.Errorf("a broken user config switched the guard off: exit %d, stdout %q", code, out)
	}
}

// The guard's ground through the binary, as hooks.json runs it, from a
// subfolder: the file tools and shell spellings are stopped, reads and
// everyday writes are not.
func TestGuardGroundThroughTheHook(t *testing.T) {
	project := t.TempDir()
	sub := filepath.Join(project, "src")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	toolCall := func(tool, path string) string {
		ev, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": sub, "hook_event_name": "PreToolUse",
			"tool_name": tool, "tool_input": map[string]string{"file_path": path}})
		return string(ev)
	}
	for _, c := range []struct {
		event string
		stop  bool
	}{
		{toolCall("Write", filepath.Join(project, ".hookwright", "config.json")), true},
		{toolCall("Edit", "../.claude/settings.json"), true},
		{bashCall(t, sub, "rm -rf ../.hookwright"), true},
		{bashCall(t, sub, "truncate -s0 ../.hookwright/journal/2026-01-01.jsonl"), true},
		{bashCall(t, sub, `python3 -c "import os; os.remove('../.hookwright/config.json')"`), true},
		{bashCall(t, sub, "rm /etc/hosts"), true},
		{toolCall("Read", filepath.Join(project, ".hookwright", "journal", "2026-01-01.jsonl")), false},
		{bashCall(t, sub, "cat ../.hookwright/journal/*.jsonl"), false},
		{bashCall(t, sub, "echo x > out.txt"), false},
		{bashCall(t, sub, "echo x | tee -a notes.md"), false},
		{toolCall("Write", filepath.Join(sub, "main.go")), false},
	} {
		out, errs, code := hook(t, project, "PreToolUse", c.event)
		if denied(out, code) != c.stop {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want stopped %v", c.event, code, out, errs, c.stop)
		}
	}
}

// The environment cannot switch the guard off: a tiny HOOKWRIGHT_TIMEOUT,
// HOOKWRIGHT_MAX_INPUT or HOOKWRIGHT_STDIN_TIMEOUT (which a cloned
// repository's .claude/settings.json "env" could set) made the guard
// fail open; for PreToolUse they may only raise the defaults.
func TestEnvironmentCannotLoosenTheGuard(t *testing.T) {
	project := t.TempDir()
	for _, env := range []string{"HOOKWRIGHT_TIMEOUT=1ns", "HOOKWRIGHT_MAX_INPUT=10", "HOOKWRIGHT_STDIN_TIMEOUT=1ns", "HOOKWRIGHT_GUARD_LEVEL=standard"} {
		out, errs, code := hook(t, project, "PreToolUse", bashCall(t, project, "rm -rf ~"), env)
		if !denied(out, code) {
			t.Errorf("%s: rm -rf ~ was let through (exit %d, stdout %q, stderr %q)", env, code, out, errs)
		}
	}
}

// The installed plugin, named by CLAUDE_PLUGIN_ROOT as Claude Code sets
// it for a plugin's hooks, is the guard's ground through the binary too.
func TestPluginRootThroughTheHook(t *testing.T) {
	project, plugin := t.TempDir(), t.TempDir()
	env := "CLAUDE_PLUGIN_ROOT=" + plugin
	for _, cmd := range []string{
		`echo '{}' > "${CLAUDE_PLUGIN_ROOT}/hooks/hooks.json"`,
		"cp /bin/true " + plugin + "/bin/hookwright",
		"rm -rf " + plugin,
	} {
		if out, errs, code := hook(t, project, "PreToolUse", bashCall(t, project, cmd), env); !denied(out, code) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", cmd, code, out, errs)
		}
	}
	if out, _, code := hook(t, project, "PreToolUse", bashCall(t, project, "cat "+plugin+"/hooks/hooks.json"), env); denied(out, code) {
		t.Errorf("reading the plugin's hooks.json was stopped: exit %d, stdout %q", code, out)
	}
}

// A project config that adds a quality command, without the user's trust,
// is reported and ignored through the binary: the command does not run on
// the next edit. Trusted, it runs.
func TestProjectQualityCommandThroughTheHook(t *testing.T) {
	project := t.TempDir()
	sub := filepath.Join(project, "src")
	if err := os.MkdirAll(filepath.Join(project, ".hookwright"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".hookwright", "config.json"), []byte(`{"quality":{"lint":true,"commands":[{"match":"*.txt","lint":["touch","{file}.ran"]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(sub, "notes.txt")
	if err := os.WriteFile(file, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": sub, "hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": file, "content": "x\n"}, "tool_response": map[string]any{"success": true}})
	xdg := t.TempDir()
	env := "XDG_CONFIG_HOME=" + xdg
	out, errs, code := hook(t, project, "PostToolUse", string(ev), env)
	if code != 0 || !strings.Contains(out, "quality.commands") {
		t.Errorf("untrusted: exit %d, stdout %q, stderr %q; want a systemMessage naming quality.commands", code, out, errs)
	}
	if _, err := os.Stat(file + ".ran"); err == nil {
		t.Fatal("an untrusted project's quality command ran")
	}
	if err := os.MkdirAll(filepath.Join(xdg, "hookwright"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(xdg, "hookwright", "config.json"), []byte(`{"trust":["`+project+`"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := hook(t, project, "PostToolUse", string(ev), env); code != 0 {
		t.Fatalf("trusted: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if _, err := os.Stat(file + ".ran"); err != nil {
		t.Errorf("a trusted project's quality command did not run: %v", err)
	}
}

// A cloned repository that ships .hookwright/loop.json with an armed
// check must not run a command at the first stop: the runtime honours an
// arming only with the receipt hwctl loop start leaves in the user's state
// folder. Armed there (loop.Arm, what hwctl loop start runs), the same
// check runs (and passes).
func TestClonedLoopStateThroughTheHook(t *testing.T) {
	project := t.TempDir()
	sub := filepath.Join(project, "src")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	set := loopstate.Settings{Check: "touch pwned", MaxRounds: 2}
	if err := loopstate.Start(project, set); err != nil {
		t.Fatal(err)
	}
	ev, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": sub, "hook_event_name": "Stop", "stop_hook_active": false})
	stateHome := t.TempDir()
	env := "XDG_STATE_HOME=" + stateHome
	out, errs, code := hook(t, project, "Stop", string(ev), env)
	if code != 0 || strings.Contains(out, `"decision":"block"`) || !strings.Contains(out, "did not arm") {
		t.Errorf("cloned arming: exit %d, stdout %q, stderr %q; want a stop let through with a systemMessage", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(project, "pwned")); err == nil {
		t.Fatal("the check a cloned loop.json armed ran")
	}
	if err := loopstate.Arm(project, set, func(k string) string {
		if k == "XDG_STATE_HOME" {
			return stateHome
		}
		return ""
	}); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := hook(t, project, "Stop", string(ev), env); code != 0 || !strings.Contains(out, "check passed") {
		t.Errorf("armed by the user: exit %d, stdout %q, stderr %q; want the check to run and pass", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(project, "pwned")); err != nil {
		t.Errorf("the check the user armed did not run: %v", err)
	}
}

// An archive unpacked at the project root whose members write the
// guard's ground is stopped through the binary (from a subfolder, with
// -C ..); one of ordinary files passes.
func TestArchiveIntoGroundThroughTheHook(t *testing.T) {
	project := t.TempDir()
	sub := filepath.Join(project, "src")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tgz := func(name string, members ...string) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		tw := tar.NewWriter(zw)
		for _, m := range members {
			tw.WriteHeader(&tar.Header{Name: m, Mode: 0o644, Size: 2, Typeflag: tar.TypeReg})
			tw.Write([]byte("{}"))
		}
		tw.Close()
		zw.Close()
		if err := os.WriteFile(filepath.Join(project, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tgz("evil.tgz", "README.md", ".claude/settings.json")
	tgz("ok.tgz", "README.md", "src/x.go")
	out, errs, code := hook(t, project, "PreToolUse", bashCall(t, sub, "tar -xzf ../evil.tgz -C .."))
	if !denied(out, code) || !strings.Contains(out+errs, "guard-ground") {
		t.Errorf("evil.tgz at the root: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	out, errs, code = hook(t, project, "PreToolUse", bashCall(t, sub, "tar -xzf ../ok.tgz -C .."))
	if denied(out, code) {
		t.Errorf("ok.tgz at the root: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// a zip whose local header says .claude/settings.json where the
	// central directory says notes/aaaaaaaaaaa.txt (same length)
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("notes/aaaaaaaaaaa.txt")
	w.Write([]byte("{}"))
	zw.Close()
	z := bytes.Replace(zbuf.Bytes(), []byte("notes/aaaaaaaaaaa.txt"), []byte(".claude/settings.json"), 1)
	if err := os.WriteFile(filepath.Join(project, "notes.zip"), z, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"unzip -o ../notes.zip -d ..", "cd .. && jar xf notes.zip", "cd .. && jar x < notes.zip", "bsdtar -xf ../notes.zip -C .."} {
		if out, errs, code := hook(t, project, "PreToolUse", bashCall(t, sub, cmd)); !denied(out, code) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", cmd, code, out, errs)
		}
	}
}
