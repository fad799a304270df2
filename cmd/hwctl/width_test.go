package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// widthProject is a project whose journal the built hookwright wrote:
// a force push blocked, a long command asked about, a plain call.
func widthProject(t *testing.T) string {
	t.Helper()
	hook, _ := builtBinaries(t)
	dir := t.TempDir()
	for _, stdin := range []string{
		`{"session_id":"7c1e9a40-aaaa-4bbb-8ccc-000000000001","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}`,
		`{"session_id":"7c1e9a40-aaaa-4bbb-8ccc-000000000001","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git branch -D feature/a-rather-long-branch-name-that-goes-on && echo the branch is gone for good"}}`,
		`{"session_id":"7c1e9a40-aaaa-4bbb-8ccc-000000000001","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"src/main.go"}}`,
	} {
		runHook(t, hook, dir, "PreToolUse", stdin)
	}
	return dir
}

// longest is the longest line of out, in runes.
func longest(out string) (n int, line string) {
	for _, l := range strings.Split(out, "\n") {
		if k := utf8.RuneCountInString(strings.TrimRight(l, " ")); k > n {
			n, line = k, l
		}
	}
	return n, line
}

// TestEventsFitATerminal runs hwctl events in a real terminal of 80
// columns (a tmux pane): no line wraps, and the rule and the decision are
// there. Piped, $COLUMNS sets the width; without it, and with --wide,
// every cell is whole.
func TestEventsFitATerminal(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("no tmux")
	}
	_, hwctl := builtBinaries(t)
	dir := widthProject(t)

	sock := ""
	tm := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(tmux, append([]string{"-S", sock, "-f", os.DevNull}, args...)...)
		cmd.Env = append(hermeticEnv(t), "TERM=xterm-256color")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	for _, cols := range []int{80, 120} {
		sock = filepath.Join(t.TempDir(), "s") // a server of its own: the last one ends with its session
		tm("new-session", "-d", "-s", "w", "-x", itoa(cols), "-y", "60", "exec "+hwctl+" events --dir "+dir, ";", "set-option", "-t", "w", "remain-on-exit", "on")
		deadline := time.Now().Add(30 * time.Second)
		for strings.TrimSpace(tm("display-message", "-p", "-t", "w", "#{pane_dead}")) != "1" {
			if time.Now().After(deadline) {
				t.Fatal("hwctl events did not end in the pane")
			}
			time.Sleep(50 * time.Millisecond)
		}
		screen := tm("capture-pane", "-p", "-J", "-S", "-", "-t", "w")
		tm("kill-session", "-t", "w")
		if n, l := longest(screen); n > cols {
			t.Errorf("%d columns: a line of %d wraps: %q\n%s", cols, n, l, screen)
		}
		for _, want := range []string{"RULE", "git-force-push", "block", "ask", "git-branch-force-delete"} {
			if !strings.Contains(screen, want) {
				t.Errorf("%d columns: %q is missing:\n%s", cols, want, screen)
			}
		}
	}

	cmd := exec.Command(hwctl, "events", "--dir", dir)
	cmd.Env = hermeticEnv(t, "COLUMNS=100")
	out, err := cmd.Output()
	if n, l := longest(string(out)); err != nil || n > 100 {
		t.Errorf("COLUMNS=100: %v, a line of %d: %q", err, n, l)
	}
	for _, args := range [][]string{{"events", "--dir", dir}, {"events", "--dir", dir, "--wide"}} {
		cmd := exec.Command(hwctl, args...)
		cmd.Env = hermeticEnv(t, "COLUMNS=60")
		if len(args) == 3 {
			cmd.Env = hermeticEnv(t) // a pipe without COLUMNS
		}
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), "feature/a-rather-long-branch-name-that-goes-on && echo the branch is gone for good") ||
			!strings.Contains(string(out), "git push --force rewrites shared history. Use --force-with-lease, or push a new branch. (rule git-force-push; `hwctl explain` shows how the guard read the call)") {
			t.Errorf("%v: every cell should be whole: %v\n%s", args, err, out)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestEveryTableFitsColumns: hwctl's other tables fit $COLUMNS too.
func TestEveryTableFitsColumns(t *testing.T) {
	_, hwctl := builtBinaries(t)
	dir := widthProject(t)
	for _, args := range [][]string{{"sessions"}, {"log"}, {"dashboard", "--once"}, {"guard", "packs"}, {"explain", "--rules"}} {
		for _, cols := range []int{80, 100} {
			cmd := exec.Command(hwctl, append(args, "--dir", dir)...)
			cmd.Env = hermeticEnv(t, "COLUMNS="+strconv.Itoa(cols))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("%v: %v\n%s", args, err, out)
				continue
			}
			if n, l := longest(string(out)); n > cols {
				t.Errorf("%v at %d columns: a line of %d: %q", args, cols, n, l)
			}
		}
	}
}
