package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/ccversion"
	"github.com/hookwright/hookwright/internal/runtime/native"
)

// execFormCommands returns, per event, the "command" string of the newest
// shipped band (exec form, 2.1.139+) as the native switch writes it into
// the installed copy: the platform binary called directly, its arguments
// in "args".
func execFormCommands(t *testing.T) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "plugin", "hooks", "bands", "*.json"))
	var newest string
	var newestV native.Release
	for _, f := range files {
		v, err := ccversion.Parse(strings.TrimSuffix(filepath.Base(f), ".json"))
		if err == nil && newestV.Less(v) {
			newest, newestV = f, v
		}
	}
	data, err := os.ReadFile(newest)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(native.Direct(data, native.Platform()), &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for ev, groups := range m.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if len(h.Args) == 0 {
					t.Fatalf("%s: %s is not in the exec form", newest, ev)
				}
				out[ev] = h.Command
			}
		}
	}
	return out
}

// A release from 2.1.139 switches a cached copy to the exec form. When the
// user goes back to a release before 2.1.139 that reads the same copy, that
// release ignores "args" and runs "command" alone through sh -c: hookwright
// starts with no arguments and must take the event from the input.
func TestDowngradedExecFormRunsWithoutArgs(t *testing.T) {
	cmds := execFormCommands(t)
	pre, ok := cmds["PreToolUse"]
	if !ok {
		t.Fatal("the newest band has no PreToolUse handler")
	}
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(binPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bin", "hookwright-"+native.Platform()), bin, 0o755); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	run := func(command, stdin string) (stdout, stderr string, code int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", "-c", command)
		cmd.Dir = project
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(),
			"CLAUDE_PLUGIN_ROOT=" + root, "CLAUDE_PROJECT_DIR=" + project}
		cmd.Stdin = strings.NewReader(stdin)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return o.String(), e.String(), exitErr.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return o.String(), e.String(), 0
	}

	forcePush := `{"session_id":"s1","transcript_path":"/t","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"},"tool_use_id":"t1"}`
	_, stderr, code := run(pre, forcePush)
	if code != 2 || !strings.Contains(stderr, "git push --force rewrites shared history") {
		t.Errorf("PreToolUse with no args: exit %d, stderr %q; want the guard's block (exit 2)", code, stderr)
	}

	plain := `{"session_id":"s1","transcript_path":"/t","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t2"}`
	if _, stderr, code := run(pre, plain); code != 0 {
		t.Errorf("a plain command with no args: exit %d, stderr %q; want 0", code, stderr)
	}

	// Input that names no event hookwright knows is still a usage error:
	// one line saying why, then the usage, exit 1 (never 2).
	for name, stdin := range map[string]string{
		"empty":         "",
		"unknown event": `{"hook_event_name":"NoSuchEvent"}`,
		"no event":      `{"tool_name":"Bash"}`,
		"not json":      `git push --force`,
	} {
		_, stderr, code := run(pre, stdin)
		if code != 1 || !strings.Contains(stderr, "usage: hookwright") {
			t.Errorf("%s stdin with no args: exit %d, stderr %q; want the usage and exit 1", name, code, stderr)
		}
	}
}
