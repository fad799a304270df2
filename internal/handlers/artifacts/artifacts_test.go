package artifacts

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
)

// write creates files under dir: path -> size in bytes.
func write(t *testing.T, dir string, files map[string]int) {
	t.Helper()
	for name, size := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("x", size)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func idle(team, mate string) hooks.Input {
	e := &hooks.TeammateIdle{Team: hooks.Team{TeamName: team, TeammateName: mate}}
	e.HookEventName = hooks.EventTeammateIdle
	return e
}

func completed(team, mate string) hooks.Input {
	e := &hooks.TaskCompleted{Team: hooks.Team{TeamName: team, TeammateName: mate}, Task: hooks.Task{TaskID: "1"}}
	e.HookEventName = hooks.EventTaskCompleted
	return e
}

func completedTask(subject string) hooks.Input {
	e := completed("core", "alice").(*hooks.TaskCompleted)
	e.TaskID, e.TaskSubject = "7", subject
	return e
}

func TestGate(t *testing.T) {
	const (
		l1 = ".agent/teams/core/alice/L1-index.yaml"
		l2 = ".agent/teams/core/alice/L2-summary.md"
	)
	tests := []struct {
		name   string
		files  map[string]int
		dirs   []string
		in     hooks.Input
		fail   config.Fail
		off    bool
		block  bool
		errs   bool
		reason []string // substrings of the block reason or error
	}{
		{name: "no team", in: idle("", ""), dirs: []string{".agent/teams/core"}},
		{name: "lead has no teammate name", in: idle("core", ""), dirs: []string{".agent/teams/core"}},
		{name: "team folder not there yet", in: idle("core", "alice")},
		{name: "disabled", in: idle("core", "alice"), dirs: []string{".agent/teams/core"}, off: true},
		{name: "other events are ignored", in: &hooks.Stop{}, dirs: []string{".agent/teams/core"}},
		{name: "both present", in: idle("core", "alice"), files: map[string]int{l1: 50, l2: 100}},
		{name: "both present, task completed", in: completed("core", "alice"), files: map[string]int{l1: 60, l2: 200}},
		{name: "nested deeper counts", in: idle("core", "alice"),
			files: map[string]int{".agent/teams/core/phase-2/alice/L1-index.yaml": 50, ".agent/teams/core/x/y/alice/L2-summary.md": 100}},
		{name: "both missing", in: idle("core", "alice"), dirs: []string{".agent/teams/core"}, block: true,
			reason: []string{"write .agent/teams/core/alice/L1-index.yaml (at least 50 bytes", "write .agent/teams/core/alice/L2-summary.md (at least 100 bytes", `teammate "alice" of team "core"`}},
		{name: "L2 too small", in: completed("core", "alice"), files: map[string]int{l1: 50, l2: 99}, block: true,
			reason: []string{"extend .agent/teams/core/alice/L2-summary.md to at least 100 bytes (it has 99)"}},
		{name: "missing file suggested in the existing teammate folder", in: idle("core", "alice"),
			files: map[string]int{".agent/teams/core/phase-1/alice/L1-index.yaml": 80}, block: true,
			reason: []string{"write .agent/teams/core/phase-1/alice/L2-summary.md"}},
		{name: "another teammate's files do not count", in: idle("core", "alice"),
			files: map[string]int{".agent/teams/core/bob/L1-index.yaml": 80, ".agent/teams/core/bob/L2-summary.md": 300}, block: true,
			reason: []string{"write .agent/teams/core/alice/L1-index.yaml"}},
		{name: "files right in the team folder do not count", in: idle("alice", "alice"),
			files: map[string]int{".agent/teams/alice/L1-index.yaml": 80, ".agent/teams/alice/L2-summary.md": 300}, block: true,
			reason: []string{"write .agent/teams/alice/alice/L1-index.yaml"}},
		{name: "a folder named like the file does not count", in: idle("core", "alice"),
			files: map[string]int{l1 + "/inner": 80, l2: 100}, block: true, reason: []string{"L1-index.yaml"}},
		{name: "a refused completion names the task", in: completedTask("[Do] login: write the handler"), dirs: []string{".agent/teams/core"}, block: true,
			reason: []string{"Cannot complete task '[Do] login: write the handler': hookwright artifacts:", "write .agent/teams/core/alice/L1-index.yaml"}},
		{name: "a task without a subject is named by its id", in: completedTask(""), dirs: []string{".agent/teams/core"}, block: true,
			reason: []string{"Cannot complete task '#7': "}},
		{name: "a many-line subject is cut to its first line", in: completedTask("first\nsecond"), dirs: []string{".agent/teams/core"}, block: true,
			reason: []string{"Cannot complete task 'first': "}},
		{name: "an idle names no task", in: idle("core", "alice"), dirs: []string{".agent/teams/core"}, block: true,
			reason: []string{"hookwright artifacts: teammate"}},
		{name: "a fail-closed completion names the task", in: func() hooks.Input {
			e := completedTask("ship it").(*hooks.TaskCompleted)
			e.TeammateName = "a/b"
			return e
		}(), fail: config.FailClosed, block: true, reason: []string{"Cannot complete task 'ship it': hookwright artifacts: could not check"}},
		{name: "unsafe team fails open", in: idle("..", "alice"), errs: true, reason: []string{`team ".." is a relative folder`}},
		{name: "unsafe teammate fails open", in: idle("core", "../../etc"), dirs: []string{".agent/teams/core"}, errs: true,
			reason: []string{"contains a path separator"}},
		{name: "NUL in teammate fails open", in: idle("core", "a\x00b"), errs: true, reason: []string{"contains NUL"}},
		{name: "absolute team fails open", in: idle("/etc", "alice"), errs: true, reason: []string{"path separator"}},
		{name: "unsafe name fails closed when told", in: idle("core", "a/b"), fail: config.FailClosed, block: true,
			reason: []string{"could not check", "fail closed", "path separator"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tt.files)
			for _, d := range tt.dirs {
				os.MkdirAll(filepath.Join(dir, d), 0o755)
			}
			cfg := artifactsOn()
			cfg.Enabled = !tt.off
			if tt.fail != "" {
				cfg.Fail = tt.fail
			}
			g := Gate{Config: cfg, Project: dir}
			res, err := g.Handle(context.Background(), tt.in)
			if (err != nil) != tt.errs {
				t.Fatalf("err = %v, want error %v", err, tt.errs)
			}
			if got := res.Decision == hooks.Block; got != tt.block {
				t.Fatalf("blocked = %v, want %v (reason %q)", got, tt.block, res.Reason)
			}
			text := res.Reason
			if err != nil {
				text = err.Error()
			}
			for _, want := range tt.reason {
				if !strings.Contains(text, want) {
					t.Errorf("%q\ndoes not contain %q", text, want)
				}
			}
		})
	}
}

func TestSymlinkedTeamFolderOutsideProject(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(project, ".agent/teams"), 0o755)
	if err := os.Symlink(outside, filepath.Join(project, ".agent/teams/core")); err != nil {
		t.Skip("no symlinks:", err)
	}
	g := Gate{Config: artifactsOn(), Project: project}
	_, err := g.Handle(context.Background(), idle("core", "alice"))
	if err == nil || !strings.Contains(err.Error(), "resolves outside") {
		t.Fatalf("err = %v, want a symlink escape", err)
	}
}

func TestSymlinkedFileIsNotFollowed(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	write(t, outside, map[string]int{"big": 500})
	write(t, project, map[string]int{".agent/teams/core/alice/L1-index.yaml": 50})
	if err := os.Symlink(filepath.Join(outside, "big"), filepath.Join(project, ".agent/teams/core/alice/L2-summary.md")); err != nil {
		t.Skip("no symlinks:", err)
	}
	g := Gate{Config: artifactsOn(), Project: project}
	res, err := g.Handle(context.Background(), idle("core", "alice"))
	if err != nil || res.Decision != hooks.Block || !strings.Contains(res.Reason, "L2-summary.md") {
		t.Fatalf("res = %+v, err = %v; want a block on L2-summary.md", res, err)
	}
}

func TestConfiguredRootAndFiles(t *testing.T) {
	project := t.TempDir()
	write(t, project, map[string]int{"work/teams/core/alice/PLAN.md": 10})
	cfg := config.Artifacts{Enabled: true, Root: "work/teams", Fail: config.FailOpen,
		Files: []config.ArtifactFile{{Name: "PLAN.md", MinBytes: 10}, {Name: "DONE.md", MinBytes: 1}}}
	res, err := Gate{Config: cfg, Project: project}.Handle(context.Background(), idle("core", "alice"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != hooks.Block || !strings.Contains(res.Reason, "write work/teams/core/alice/DONE.md (at least 1 bytes") || strings.Contains(res.Reason, "PLAN.md") {
		t.Fatalf("reason = %q", res.Reason)
	}
}

func TestProjectFallsBackToEnvThenCwd(t *testing.T) {
	envDir, cwdDir := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(envDir, ".agent/teams/core"), 0o755)
	in := idle("core", "alice")
	in.Base().Cwd = cwdDir
	g := Gate{Config: artifactsOn(), Getenv: os.Getenv}

	t.Setenv("CLAUDE_PROJECT_DIR", envDir)
	if res, _ := g.Handle(context.Background(), in); res.Decision != hooks.Block {
		t.Fatalf("with CLAUDE_PROJECT_DIR: not blocked: %+v", res)
	}
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	if res, _ := g.Handle(context.Background(), in); res.Decision != hooks.None {
		t.Fatalf("with cwd (no team folder): %+v", res)
	}
}

func TestRefusal(t *testing.T) {
	long := strings.Repeat("é", 100) // 200 bytes: cut on a rune boundary
	tests := []struct {
		task hooks.Task
		want string
	}{
		{hooks.Task{TaskID: "3", TaskSubject: "Write the parser"}, "Cannot complete task 'Write the parser': "},
		{hooks.Task{TaskID: "3", TaskSubject: "  padded  "}, "Cannot complete task 'padded': "},
		{hooks.Task{TaskID: "3"}, "Cannot complete task '#3': "},
		{hooks.Task{TaskID: "3", TaskSubject: "one\ntwo"}, "Cannot complete task 'one': "},
		{hooks.Task{TaskID: "3", TaskSubject: long}, "Cannot complete task '" + strings.Repeat("é", 60) + "...': "},
	}
	for _, tt := range tests {
		if got := Refusal(tt.task); got != tt.want {
			t.Errorf("Refusal(%+v) = %q, want %q", tt.task, got, tt.want)
		}
	}
}

// artifactsOn is the default artifacts section with the workflow on, as
// the runtime builds it where the project turned it on (package workflow).
func artifactsOn() config.Artifacts {
	c := config.Default().Artifacts
	c.Enabled = true
	return c
}
