package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks/hookstest"
)

// A handler in the exec form ("command" the program, "args" its
// arguments) loses its arguments on a release before 2.1.139, which drops
// "args" and runs "command" alone through sh -c (compat/FACTS.md, seen on
// 2.1.105). hookwright started with no arguments takes the event from the
// input, so a plugin that writes the exec form keeps its guard there.
func TestNoArgumentsServesTheInputsEvent(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(binPath)
	if err != nil {
		t.Fatal(err)
	}
	pre := filepath.Join(root, "bin", "hookwright-bare")
	if err := os.WriteFile(pre, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	run := func(command, stdin string) (stdout, stderr string, code int) {
		t.Helper()
		r := hookstest.Exec(t, command, hookstest.Call{Stdin: stdin, Project: project, Env: []string{"CLAUDE_PLUGIN_ROOT=" + root}})
		return r.Stdout, r.Stderr, r.Code
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
