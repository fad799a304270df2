//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks/hookstest"
)

// hook runs the built binary as Claude Code does, through the helper
// every plugin's tests use (hookstest.Exec): the command through sh -c,
// the event on stdin, in a hermetic environment (PATH, a temporary HOME,
// the project). A call that does not end within 30 s fails the test (the
// planted files below used to hang it forever); the limit only catches a
// hang, it measures nothing.
func hook(t *testing.T, project, args, stdin string, env ...string) (stdout, stderr string, code int) {
	t.Helper()
	r := hookstest.Exec(t, binPath, hookstest.Call{Args: args, Stdin: stdin, Env: env, Project: project})
	return r.Stdout, r.Stderr, r.Code
}

const bashEvent = `{"session_id":"s1","cwd":"$PROJECT","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`

// plant creates what at path (relative to dir): "fifo", "dir-out" (a
// symlink to outside), "devzero" (a symlink to /dev/zero), "file-out" (a
// symlink to the file outside), "hardlink" (a hard link to it), "huge" (a
// regular file of 8 MiB).
func plant(t *testing.T, dir, rel, what, outside string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	var err error
	switch what {
	case "fifo":
		err = syscall.Mkfifo(p, 0o644)
	case "devzero":
		err = os.Symlink("/dev/zero", p)
	case "dir-out":
		err = os.Symlink(outside, p)
	case "file-out":
		err = os.Symlink(filepath.Join(outside, "victim"), p)
	case "hardlink":
		err = os.Link(filepath.Join(outside, "victim"), p)
	case "huge":
		err = os.WriteFile(p, bytes.Repeat([]byte(" "), 8<<20), 0o644)
	default:
		t.Fatalf("plant %s", what)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// outsideDir is a folder outside the project with one file, victim, whose
// content must never change.
func outsideDir(t *testing.T) string {
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "victim"), []byte("untouched\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// assertUntouched fails when anything under out changed.
func assertUntouched(t *testing.T, out string) {
	t.Helper()
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 || entries[0].Name() != "victim" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("hookwright wrote outside the project: %v", names)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "victim")); string(data) != "untouched\n" {
		t.Errorf("hookwright changed a file outside the project: %q", data)
	}
}

// A FIFO, a symlink out of the project or to /dev/zero, or a huge file at
// the config: the call answers at once with the defaults and a
// systemMessage that says what is wrong, and writes nothing outside.
func TestHostileConfig(t *testing.T) {
	for what, want := range map[string]string{
		"fifo":     "not a regular file (a named pipe)",
		"devzero":  "leads outside",
		"file-out": "leads outside",
		"huge":     "file too large",
	} {
		t.Run(what, func(t *testing.T) {
			t.Parallel()
			project, out := t.TempDir(), outsideDir(t)
			plant(t, project, ".hookwright/config.json", what, out)
			stdout, stderr, code := hook(t, project, "PreToolUse", bashEvent)
			if code != 0 || !strings.Contains(stdout, `"systemMessage"`) || !strings.Contains(stdout, want) || !strings.Contains(stdout, "(using defaults)") {
				t.Fatalf("exit %d stdout %q stderr %q; want exit 0 and a systemMessage saying %q", code, stdout, stderr, want)
			}
			if strings.Contains(stdout, "did not return") {
				t.Fatalf("the watchdog had to answer: %q", stdout)
			}
			assertUntouched(t, out)
			// The defaults apply: the guard still blocks a force-push.
			_, stderr, code = hook(t, project, "PreToolUse", strings.Replace(bashEvent, `"ls"`, `"git push --force origin main"`, 1))
			if code != 2 {
				t.Fatalf("defaults not applied: exit %d stderr %q", code, stderr)
			}
		})
	}
}

// .hookwright itself a symlink to a folder outside the project, or a FIFO:
// config, journal and state all refuse it at once; nothing is written
// outside.
func TestHostileHookwrightFolder(t *testing.T) {
	for what, want := range map[string]string{"dir-out": "leads outside", "fifo": "not a directory"} {
		t.Run(what, func(t *testing.T) {
			project, out := t.TempDir(), outsideDir(t)
			plant(t, project, ".hookwright", what, out)
			stdout, stderr, code := hook(t, project, "SessionStart", `{"session_id":"s1","cwd":"$PROJECT","hook_event_name":"SessionStart","source":"startup"}`)
			if code != 0 || !strings.Contains(stdout, want) || strings.Contains(stdout, "did not return") {
				t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
			}
			assertUntouched(t, out)
		})
	}
}

// Today's journal file as a FIFO, a symlink out, a hard link to a file
// outside, or /dev/zero: the call answers as usual, and nothing outside
// changes.
func TestHostileJournal(t *testing.T) {
	for _, what := range []string{"fifo", "devzero", "file-out", "hardlink"} {
		t.Run(what, func(t *testing.T) {
			t.Parallel()
			project, out := t.TempDir(), outsideDir(t)
			today := time.Now().UTC().Format("2006-01-02")
			plant(t, project, ".hookwright/journal/"+today+".jsonl", what, out)
			stdout, stderr, code := hook(t, project, "PreToolUse", bashEvent)
			if code != 0 || stdout != "" {
				t.Fatalf("exit %d stdout %q stderr %q; want a silent pass", code, stdout, stderr)
			}
			assertUntouched(t, out)
		})
	}
	t.Run("folder-out", func(t *testing.T) {
		project, out := t.TempDir(), outsideDir(t)
		plant(t, project, ".hookwright/journal", "dir-out", out)
		if _, stderr, code := hook(t, project, "PreToolUse", bashEvent); code != 0 {
			t.Fatalf("exit %d stderr %q", code, stderr)
		}
		assertUntouched(t, out)
	})
}

// The day's session file as a FIFO, /dev/zero, a symlink or a hard link
// out: the append is refused and reported, never hangs, and nothing
// outside changes. An earlier release's per-session file planted the same
// way is never opened by a start. (Today's and tomorrow's day files are
// both planted, so that a run across midnight UTC tests the same.)
func TestHostileStateFile(t *testing.T) {
	start := `{"session_id":"s1","cwd":"$PROJECT","hook_event_name":"SessionStart","source":"resume"}`
	for what, want := range map[string]string{
		"fifo":     "not a regular file",
		"devzero":  "file is a link",
		"file-out": "file is a link",
		"hardlink": "hard links",
	} {
		t.Run(what, func(t *testing.T) {
			t.Parallel()
			project, out := t.TempDir(), outsideDir(t)
			for _, day := range []time.Time{time.Now(), time.Now().Add(24 * time.Hour)} {
				plant(t, project, ".hookwright/sessions/"+day.UTC().Format(time.DateOnly)+".jsonl", what, out)
			}
			stdout, stderr, code := hook(t, project, "SessionStart", start)
			if code != 0 || !strings.Contains(stdout, want) || !strings.Contains(stdout, "failed open") {
				t.Fatalf("exit %d stdout %q stderr %q; want exit 0 and a systemMessage saying %q", code, stdout, stderr, want)
			}
			assertUntouched(t, out)
		})
		t.Run(what+"/legacy", func(t *testing.T) {
			t.Parallel()
			project, out := t.TempDir(), outsideDir(t)
			plant(t, project, ".hookwright/sessions/s1.json", what, out)
			if stdout, stderr, code := hook(t, project, "SessionStart", start); code != 0 || strings.Contains(stdout, "failed open") {
				t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
			}
			assertUntouched(t, out)
		})
	}
	t.Run("folder-out", func(t *testing.T) {
		project, out := t.TempDir(), outsideDir(t)
		plant(t, project, ".hookwright/sessions", "dir-out", out)
		stdout, _, code := hook(t, project, "SessionStart", start)
		if code != 0 || !strings.Contains(stdout, "leads outside") {
			t.Fatalf("exit %d stdout %q", code, stdout)
		}
		assertUntouched(t, out)
	})
}

// A gate set to "fail": "closed" blocks when the call's deadline passes
// before it decides, and says so; the same gate set to "open" lets the
// call go on with a systemMessage.
func TestClosedGateThatOverrunsBlocks(t *testing.T) {
	idle := `{"session_id":"s1","cwd":"$PROJECT","hook_event_name":"TeammateIdle","teammate_name":"alice","team_name":"core"}`
	for policy, wantCode := range map[string]int{"closed": 2, "open": 0} {
		t.Run(policy, func(t *testing.T) {
			project := t.TempDir()
			if err := os.MkdirAll(filepath.Join(project, ".hookwright"), 0o755); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(project, ".hookwright", "config.json"), []byte(`{"artifacts":{"fail":"`+policy+`"}}`), 0o644)
			stdout, stderr, code := hook(t, project, "TeammateIdle", idle, "HOOKWRIGHT_TIMEOUT=1ns")
			if code != wantCode {
				t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, wantCode, stdout, stderr)
			}
			if policy == "closed" && !strings.Contains(stderr, "artifacts could not decide") || policy == "closed" && !strings.Contains(stderr, "fail closed") {
				t.Fatalf("the block does not say why: %q", stderr)
			}
			if policy == "open" && !strings.Contains(stdout, "overran the deadline") {
				t.Fatalf("the open gate's overrun is not reported: %q", stdout)
			}
		})
	}
}

// A FIFO where a scratchpad folder or today's scratchpad should be: the
// briefing and the stop gate answer at once.
func TestHostileScratchpad(t *testing.T) {
	today := time.Now().Format("2006-01-02")
	for _, c := range []struct{ rel, args, stdin string }{
		{".claude/scratchpad/coordinator", "SessionStart", `{"session_id":"s1","cwd":"$PROJECT","hook_event_name":"SessionStart","source":"startup"}`},
		{".claude/scratchpad/ego/" + today + ".md", "SubagentStart", `{"session_id":"s1","cwd":"$PROJECT","hook_event_name":"SubagentStart","agent_type":"Explore"}`},
		{".claude/scratchpad/Explore/" + today + ".md", "SubagentStop", `{"session_id":"s1","cwd":"$PROJECT","hook_event_name":"SubagentStop","agent_type":"Explore","stop_hook_active":false}`},
	} {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			project := t.TempDir()
			plant(t, project, c.rel, "fifo", "")
			os.MkdirAll(filepath.Join(project, ".hookwright"), 0o755)
			os.WriteFile(filepath.Join(project, ".hookwright", "config.json"), []byte(`{"scratchpad": {"enabled": true}}`), 0o644)
			if c.args == "SubagentStart" {
				os.WriteFile(filepath.Join(project, ".claude/scratchpad/ego/older.md"), []byte("# old\n"), 0o644)
			}
			stdout, stderr, code := hook(t, project, c.args, c.stdin)
			if code == 2 && c.args != "SubagentStop" || strings.Contains(stdout, "did not return") {
				t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
			}
			if c.args != "SubagentStart" && !strings.Contains(stdout+stderr, "named pipe") { // Newest passes over what is not a file
				t.Fatalf("the planted pipe is not reported: stdout %q stderr %q", stdout, stderr)
			}
		})
	}
}
