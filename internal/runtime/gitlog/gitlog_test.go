package gitlog

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs git in dir with a fixed identity and no user config.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimRight(string(out), "\n")
}

// history builds a repository with a branch and a merge, commits whose
// dates interleave, a multi-line subject, and a file large enough that a
// repack stores deltas; init takes more options (--object-format=sha256).
func history(t *testing.T, init ...string) string {
	dir := t.TempDir()
	git(t, dir, append([]string{"init", "-q", "-b", "main"}, init...)...)
	big := strings.Repeat("line of text that repeats\n", 2000)
	for i := range 12 {
		os.WriteFile(filepath.Join(dir, "f.txt"), []byte(big+fmt.Sprint(i)), 0o644)
		git(t, dir, "add", ".")
		msg := fmt.Sprintf("commit %d", i)
		if i == 3 {
			msg = "a subject\nthat goes on\n\nand a body"
		}
		git(t, dir, "commit", "-q", "-m", msg, "--date", fmt.Sprintf("2026-01-01T00:%02d:00Z", i))
		if i == 5 {
			git(t, dir, "checkout", "-q", "-b", "side")
		}
		if i == 8 {
			git(t, dir, "checkout", "-q", "main")
		}
	}
	git(t, dir, "merge", "-q", "--no-edit", "-X", "theirs", "side")
	return dir
}

func TestLogMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := history(t)
	check := func(what string) {
		t.Helper()
		for _, n := range []int{1, 5, 20} {
			want := git(t, dir, "log", "--oneline", "--no-color", fmt.Sprintf("-%d", n))
			if got := Log(dir, n); got != want {
				t.Errorf("%s, -%d:\ngot\n%s\nwant\n%s", what, n, got, want)
			}
		}
	}
	check("loose objects")
	git(t, dir, "repack", "-a", "-d", "-q", "--depth=10")
	git(t, dir, "pack-refs", "--all")
	check("packed, with deltas and packed refs")
	// A worktree reads through its "gitdir:" file and commondir.
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, dir, "worktree", "add", "-q", wt, "side")
	if got, want := Log(wt, 5), git(t, wt, "log", "--oneline", "--no-color", "-5"); got != want {
		t.Errorf("worktree:\ngot\n%s\nwant\n%s", got, want)
	}
}

// A repository of SHA-256 object ids (git init --object-format=sha256)
// lists its commits too, loose and packed.
func TestLogSHA256(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	probe := t.TempDir()
	cmd := exec.Command("git", "init", "-q", "--object-format=sha256", probe)
	if err := cmd.Run(); err != nil {
		t.Skip("this git has no SHA-256 repositories")
	}
	dir := history(t, "--object-format=sha256")
	check := func(what string) {
		t.Helper()
		for _, n := range []int{1, 5, 20} {
			want := git(t, dir, "log", "--oneline", "--no-color", fmt.Sprintf("-%d", n))
			if got := Log(dir, n); got != want {
				t.Errorf("%s, -%d:\ngot\n%s\nwant\n%s", what, n, got, want)
			}
		}
	}
	check("SHA-256, loose objects")
	git(t, dir, "repack", "-a", "-d", "-q", "--depth=10")
	git(t, dir, "pack-refs", "--all")
	check("SHA-256, packed, with deltas and packed refs")
}

func TestLogOfNothing(t *testing.T) {
	dir := t.TempDir()
	if Log(dir, 5) != "" || Log("", 5) != "" {
		t.Error("a folder without .git has a log")
	}
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/../../x\n"), 0o644)
	if Log(dir, 5) != "" {
		t.Error("a ref outside refs/ was followed")
	}
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte(strings.Repeat("ab", 20)+"\n"), 0o644)
	if Log(dir, 5) != "" {
		t.Error("a missing object has a log")
	}
}

// This repository itself, when the tests run in a checkout: real history,
// real packs.
func TestLogOfThisRepository(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", ".."))
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("not a git checkout")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	want := git(t, root, "log", "--oneline", "--no-color", "--no-show-signature", "-30")
	if got := Log(root, 30); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// FuzzApplyDelta: no delta, however malformed, panics or grows past its
// declared size.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("hello world"), []byte{11, 5, 0x90, 5, 1, '!'})
	f.Add([]byte(""), []byte{0, 3, 3, 'a', 'b', 'c'})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta)
		if err == nil && len(out) > MaxObject {
			t.Fatalf("%d bytes", len(out))
		}
	})
}

// FuzzLoose: no loose object file, however malformed, panics.
func FuzzLoose(f *testing.F) {
	f.Add([]byte{0x78, 0x9c, 0x4b, 0xca, 0xc9, 0x4f, 0x52, 0x30, 0x64, 0x00, 0x00, 0x0b, 0xb8, 0x02, 0xb6})
	f.Add([]byte("not zlib"))
	f.Fuzz(func(t *testing.T, data []byte) {
		loose(strings.NewReader(string(data)))
	})
}
