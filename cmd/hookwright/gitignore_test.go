package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateFolderKeepsItselfOutOfGit runs the built binary as Claude Code
// does, in a fresh git repository: the first calls make .hookwright/ (the
// journal, the session fingerprint) and its .gitignore, so git status shows
// nothing of it; a config.json the user adds there is still offered to git.
func TestStateFolderKeepsItselfOutOfGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	gitIn := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	gitIn("init", "-q")
	home := t.TempDir()
	for _, c := range []struct{ event, stdin string }{
		{"SessionStart", `{"session_id":"s1","cwd":"` + repo + `","hook_event_name":"SessionStart","source":"startup"}`},
		{"PreToolUse", `{"session_id":"s1","cwd":"` + repo + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}`},
	} {
		cmd := exec.Command("sh", "-c", `"$HW" `+c.event+` --proto 2.1.33`)
		cmd.Dir = repo
		cmd.Env = []string{"HW=" + binPath, "PATH=" + os.Getenv("PATH"), "HOME=" + home, "CLAUDE_PROJECT_DIR=" + repo}
		cmd.Stdin = strings.NewReader(c.stdin)
		_ = cmd.Run() // the force push exits 2; what matters is what it left
	}
	if j, _ := filepath.Glob(filepath.Join(repo, ".hookwright", "journal", "*.jsonl")); len(j) == 0 {
		t.Fatal("the calls wrote no journal: the test did not exercise the state folder")
	}
	if got := gitIn("status", "--porcelain", "--untracked-files=all"); got != "" {
		t.Errorf("git status after hook calls shows hookwright's files:\n%s", got)
	}
	if err := os.WriteFile(filepath.Join(repo, ".hookwright", "config.json"), []byte(`{"guard":{"level":"strict"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := gitIn("status", "--porcelain", "--untracked-files=all"); got != "?? .hookwright/config.json\n" {
		t.Errorf("git status with a project config = %q, want the config alone offered to git", got)
	}
}
