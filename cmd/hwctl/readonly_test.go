package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// runIn runs the built hwctl in dir with args and a hermetic environment
// (no CLAUDE_PROJECT_DIR), as a user types it there.
func runIn(t *testing.T, hwctl, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(hwctl, args...)
	cmd.Dir = dir
	cmd.Env = hermeticEnv(t)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("hwctl %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// tree lists every path under root.
func tree(t *testing.T, root string) []string {
	t.Helper()
	var all []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			all = append(all, p)
		}
		return nil
	})
	sort.Strings(all)
	return all
}

// queries are the hwctl commands that only read: none may create a file
// where there is no journal (serve would stay up; it is refused before it
// listens).
var queries = [][]string{
	{"events"}, {"events", "--rule", "git-force-push"}, {"sessions"}, {"dashboard", "--once"}, {"log"},
	{"serve", "--addr", "127.0.0.1:0"}, {"ingest"}, {"ingest", "--rebuild"}, {"export", "otlp"},
	{"pdca", "status"}, {"work", "status"}, {"team"}, {"loop", "status"},
}

// TestQueriesOutsideAProjectCreateNothing: in a git repository where no
// hook ever ran, every query exits 3 with one line that says where it
// looked (up to the folder with .git), and the tree is unchanged.
func TestQueriesOutsideAProjectCreateNothing(t *testing.T) {
	_, hwctl := builtBinaries(t)
	repo := t.TempDir()
	sub := filepath.Join(repo, "src", "pkg")
	must(t, os.MkdirAll(sub, 0o755))
	must(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	before := tree(t, repo)
	for _, q := range queries {
		t.Run(strings.Join(q, " "), func(t *testing.T) {
			out, errs, code := runIn(t, hwctl, sub, q...)
			if code != 3 || out != "" {
				t.Errorf("exit %d, stdout %q; want 3 and nothing on stdout", code, out)
			}
			if strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "looked for .hookwright/ in "+sub+" and the 2 folders above it up to "+repo+" (stopped: the project root: it holds .git)") {
				t.Errorf("stderr %q does not say where it looked", errs)
			}
		})
	}
	if after := tree(t, repo); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("queries changed the tree:\nbefore %v\nafter  %v", before, after)
	}
}

// TestSearchStopsAtTheProjectRoot: a journal above the folder with .git
// belongs to another project and is not read.
func TestSearchStopsAtTheProjectRoot(t *testing.T) {
	hook, hwctl := builtBinaries(t)
	outer := t.TempDir()
	if _, _, code := runHook(t, hook, outer, "PreToolUse", `{"session_id":"outer","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push -f"}}`); code != 2 {
		t.Fatalf("the outer project's hook exited %d", code)
	}
	repo := filepath.Join(outer, "repo")
	must(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	_, errs, code := runIn(t, hwctl, repo, "events")
	if code != 3 || !strings.Contains(errs, "stopped: the project root") {
		t.Errorf("events in a repository under another project's journal: exit %d, %q", code, errs)
	}
	// From a subfolder of the outer project (no .git between), it is found.
	inner := filepath.Join(outer, "docs")
	must(t, os.MkdirAll(inner, 0o755))
	out, errs, code := runIn(t, hwctl, inner, "events")
	if code != 0 || !strings.Contains(out, "outer") {
		t.Errorf("events in a subfolder of the project: exit %d, %q %q", code, out, errs)
	}
}

// TestSearchNeverEntersAnotherUsersFolder: a journal in a folder another
// user owns (the shared temporary folder, say) is neither read nor written
// beside. It needs root, to give the folder away.
func TestSearchNeverEntersAnotherUsersFolder(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a folder another user owns")
	}
	hook, hwctl := builtBinaries(t)
	shared := t.TempDir()
	if _, _, code := runHook(t, hook, shared, "PreToolUse", `{"session_id":"theirs","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push -f"}}`); code != 2 {
		t.Fatalf("the other user's hook exited %d", code)
	}
	nobody := 65534
	filepath.WalkDir(shared, func(p string, d fs.DirEntry, err error) error {
		must(t, os.Lchown(p, nobody, nobody))
		return nil
	})
	mine := filepath.Join(shared, "mine")
	must(t, os.MkdirAll(mine, 0o755))
	before := tree(t, shared)
	out, errs, code := runIn(t, hwctl, mine, "events")
	if code != 3 || strings.Contains(out, "theirs") || !strings.Contains(errs, shared+" belongs to another user") {
		t.Errorf("events under another user's folder: exit %d, %q %q", code, out, errs)
	}
	// Standing in their project, their .hookwright/ is not taken either.
	out, errs, code = runIn(t, hwctl, shared, "events")
	if code != 3 || strings.Contains(out, "theirs") || !strings.Contains(errs, filepath.Join(shared, ".hookwright")+" belongs to another user") {
		t.Errorf("events in another user's project: exit %d, %q %q", code, out, errs)
	}
	if after := tree(t, shared); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("hwctl wrote in another user's folder:\nbefore %v\nafter  %v", before, after)
	}
	var st syscall.Stat_t
	if syscall.Stat(filepath.Join(shared, ".hookwright", "hookwright.db"), &st) == nil {
		t.Error("a database was created in another user's .hookwright")
	}
}

// TestHelpSaysHowTheProjectIsFound.
func TestHelpSaysHowTheProjectIsFound(t *testing.T) {
	out, _, code := hwctl(t, "--help")
	out = strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"$CLAUDE_PROJECT_DIR", "nearest folder upwards that holds .hookwright/", "the folder that holds .git", "belongs to another user"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--help lacks %q (exit %d)", want, code)
		}
	}
}
