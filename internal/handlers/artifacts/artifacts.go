// Package artifacts is the L1/L2 artifact gate: a teammate of an agent team
// may not go idle or complete a task until it has left its deliverables in
// the team folder.
//
// # What it checks
//
// Register [Gate] on TeammateIdle and TaskCompleted with the matcher "". On
// older Claude Code releases the runtime reaches it through the fallbacks
// (TaskCompleted via PostToolUse(TaskUpdate), TeammateIdle via SubagentStop
// or Stop; see hooks.Translate).
//
// In a team session the teammate must have written, with the defaults,
//
//	{teammate}/L1-index.yaml   at least 50 bytes
//	{teammate}/L2-summary.md   at least 100 bytes
//
// somewhere under .agent/teams/{team}/ in the project, at any depth: a file
// counts when its name matches and the folder holding it is named after the
// teammate (.agent/teams/core/alice/L1-index.yaml and
// .agent/teams/core/phase-2/alice/L1-index.yaml both count for alice).
// Symlinks are not followed. The root (.agent/teams), the file names and
// the minimum sizes come from the "artifacts" section of the project config.
//
// When a file is missing or too small the gate blocks (exit 2: the teammate
// keeps working, or the task stays open) and says exactly which file to
// write, at which project-relative path, and how large it must be.
//
// # When it does not check
//
//   - not a team session (no team name): pass;
//   - the lead (a team name but no teammate name): pass;
//   - the team folder does not exist yet: pass;
//   - "enabled": false: pass.
//
// # Errors and unsafe names
//
// Team and teammate names come from Claude Code (and, through it, from the
// model), so they pass through package safepath before they touch a path:
// "..", absolute paths, NUL, path separators and a team folder that is a
// symlink pointing outside the project are rejected. An unsafe name is
// treated like any other internal error: by default the gate fails open and
// the runtime reports the reason on stderr and as a system message
// ("artifacts: unsafe name: team "../x" contains a path separator"). With
// "fail": "closed" the gate blocks instead and says it could not check.
// Blocking on an unsafe name by default would let a bad team name wedge
// every teammate; failing open keeps work going while the report makes the
// problem visible.
package artifacts

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// MaxEntries bounds the walk of one team folder, so a huge tree cannot eat
// the hook's deadline. Past it the gate reports an error (and fails open or
// closed by config).
const MaxEntries = 50000

// ErrTooMany is returned when a team folder holds more than [MaxEntries]
// entries.
var ErrTooMany = errors.New("team folder too large to search")

// Gate is the artifact gate handler. The zero Project means the project is
// $CLAUDE_PROJECT_DIR, or the input's cwd when that is unset.
type Gate struct {
	Config  config.Artifacts
	Project string
	// Getenv is main's environment (project.Env); nil is an empty one.
	Getenv func(string) string
}

// Name names the handler in reports.
func (Gate) Name() string { return "artifacts" }

// FailClosed reports whether the gate blocks when it cannot decide (see
// hooks.FailCloser).
func (g Gate) FailClosed() bool { return g.Config.Enabled && g.Config.Fail == config.FailClosed }

// Handle checks the teammate's deliverables on TeammateIdle and
// TaskCompleted ([Gate.TeammateIdle], [Gate.TaskCompleted]); it ignores
// every other event.
func (g Gate) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	switch e := in.(type) {
	case *hooks.TeammateIdle:
		return g.TeammateIdle(ctx, e)
	case *hooks.TaskCompleted:
		return g.TaskCompleted(ctx, e)
	}
	return hooks.Result{}, nil
}

// TeammateIdle checks the deliverables of a teammate about to go idle.
func (g Gate) TeammateIdle(ctx context.Context, e *hooks.TeammateIdle) (hooks.Result, error) {
	return g.check(ctx, e, e.Team, "")
}

// TaskCompleted checks the deliverables of a teammate completing a task;
// a refusal names the task.
func (g Gate) TaskCompleted(ctx context.Context, e *hooks.TaskCompleted) (hooks.Result, error) {
	return g.check(ctx, e, e.Team, Refusal(e.Task))
}

// check blocks when team's teammate has deliverables missing; prefix
// starts the refusal.
func (g Gate) check(ctx context.Context, in hooks.Input, team hooks.Team, prefix string) (hooks.Result, error) {
	if !g.Config.Enabled {
		return hooks.Result{}, nil
	}
	missing, err := g.Check(ctx, project.Dir(g.Project, in, g.Getenv), team)
	if err != nil {
		if g.Config.Fail == config.FailClosed {
			return hooks.Blocked(prefix + fmt.Sprintf("hookwright artifacts: could not check the deliverables of %q (%v); the gate is set to fail closed.", team.TeammateName, err)), nil
		}
		return hooks.Result{}, err
	}
	if len(missing) == 0 {
		return hooks.Result{}, nil
	}
	return hooks.Blocked(prefix + Feedback(team, missing)), nil
}

// maxSubject bounds the task subject quoted in a refusal.
const maxSubject = 120

// Refusal is the first words of a refused completion, naming the task:
// "Cannot complete task '<subject>': ". The subject is the one on the
// event: natively Claude Code's, on the PostToolUse(TaskUpdate) fallback
// the one read back from the task file. It is cut to one line of at most
// 120 bytes; without a subject the task id stands in ("#3").
func Refusal(t hooks.Task) string {
	name, _, _ := strings.Cut(strings.TrimSpace(t.TaskSubject), "\n")
	name = strings.TrimSpace(name)
	if name == "" {
		name = "#" + t.TaskID
	}
	if len(name) > maxSubject {
		cut := maxSubject
		for cut > 0 && name[cut]&0xC0 == 0x80 {
			cut--
		}
		name = name[:cut] + "..."
	}
	return "Cannot complete task '" + name + "': "
}

// Problem is one deliverable that is missing or too small.
type Problem struct {
	File config.ArtifactFile
	// Path is project-relative, with forward slashes: where the file was
	// found, or where to write it.
	Path string
	// Size is the size of the file found, or -1 when there is none.
	Size int64
}

// Check returns the deliverables team.TeammateName still owes under
// project. It returns nothing when there is nothing to check (see the
// package comment), and an error when the names are unsafe or the folder
// cannot be read.
func (g Gate) Check(ctx context.Context, project string, team hooks.Team) ([]Problem, error) {
	if team.TeamName == "" || team.TeammateName == "" {
		return nil, nil
	}
	if project == "" {
		return nil, errors.New("no project folder (CLAUDE_PROJECT_DIR and cwd are empty)")
	}
	if err := safepath.Name("team", team.TeamName); err != nil {
		return nil, err
	}
	if err := safepath.Name("teammate", team.TeammateName); err != nil {
		return nil, err
	}
	rel := filepath.Join(filepath.FromSlash(g.Config.Root), team.TeamName)
	dir := filepath.Join(project, rel)
	if err := safepath.Within(project, dir); err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}

	best := make(map[string]int64) // file name -> largest size found
	where := make(map[string]string)
	var homes []string // folders named after the teammate
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			return nil // an unreadable corner does not stop the search
		}
		if n++; n > MaxEntries {
			return fmt.Errorf("%w: more than %d entries under %s", ErrTooMany, MaxEntries, rel)
		}
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if d.IsDir() {
			if path != dir && d.Name() == team.TeammateName {
				homes = append(homes, path)
			}
			return nil
		}
		parent := filepath.Dir(path)
		if !d.Type().IsRegular() || parent == dir || filepath.Base(parent) != team.TeammateName {
			return nil
		}
		for _, f := range g.Config.Files {
			if d.Name() != f.Name {
				continue
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			if old, seen := best[f.Name]; !seen || info.Size() > old {
				best[f.Name], where[f.Name] = info.Size(), path
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}

	home := filepath.Join(dir, team.TeammateName)
	if len(homes) > 0 {
		home = homes[0] // the shallowest teammate folder, first in lexical order
		for _, h := range homes[1:] {
			if strings.Count(h, string(filepath.Separator)) < strings.Count(home, string(filepath.Separator)) {
				home = h
			}
		}
	}
	var out []Problem
	for _, f := range g.Config.Files {
		size, seen := best[f.Name]
		if seen && size >= f.MinBytes {
			continue
		}
		p := Problem{File: f, Size: -1, Path: relSlash(project, filepath.Join(home, f.Name))}
		if seen {
			p.Size, p.Path = size, relSlash(project, where[f.Name])
		}
		out = append(out, p)
	}
	return out, nil
}

// Feedback is the block reason for missing deliverables: one line per file
// that says what to write, where, and how large.
func Feedback(team hooks.Team, missing []Problem) string {
	var b strings.Builder
	fmt.Fprintf(&b, "hookwright artifacts: teammate %q of team %q must leave its deliverables before it stops:\n", team.TeammateName, team.TeamName)
	for _, p := range missing {
		if p.Size < 0 {
			fmt.Fprintf(&b, "- write %s (at least %d bytes; it does not exist yet)\n", p.Path, p.File.MinBytes)
		} else {
			fmt.Fprintf(&b, "- extend %s to at least %d bytes (it has %d)\n", p.Path, p.File.MinBytes, p.Size)
		}
	}
	b.WriteString("Write them with the Write tool (paths are relative to the project folder), then finish again.")
	return b.String()
}

func relSlash(project, path string) string {
	rel, err := filepath.Rel(project, path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}
