// Package teamctx tells every subagent which agent team is active and which
// version of the team's global context is current, so an agent that was
// briefed with a stale copy notices.
//
// # What it injects
//
// Register [Injector] on SubagentStart with the matcher "". When a team is
// active it adds, as additionalContext, with ADR-003's tag:
//
//	[DIA-HOOK] Active team: core. Current GC: GC-v3. Verify your injected context version matches.
//
// When no team is active it says nothing.
//
// # The active team
//
// (package internal/runtime/teams reads the configs) Claude Code's agent teams (2.1.32+, CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1)
// keep one config per team at
//
//	$CLAUDE_CONFIG_DIR/teams/{folder}/config.json   ($CLAUDE_CONFIG_DIR defaults to ~/.claude)
//
// where {folder} is the team name with every character outside [A-Za-z0-9]
// replaced by "-" and lowered, and the file holds {"name": ..., "leadAgentId":
// ..., "members": [{"name", "agentType", "cwd", ...}], ...}. Earlier previews
// used a flat teams/{team}.json; both layouts are read.
//
// The active team is the one whose config file was modified last, among the
// teams that belong to this project: a team whose members record a cwd
// belongs to the project only when one of those cwds is the project folder or
// inside it (teams in ~/.claude are shared by every project on the machine).
// The team name is the config's "name", or the folder name when it has none.
//
// # The GC version
//
// The team's global context lives in the project at
//
//	.agent/teams/{team}/global-context.md   (the root is the artifacts root)
//
// and its version is the highest "GC-v<N>" written anywhere in it (any
// letter case), or on a line "version: <N>" of its own (front matter), so a
// file that keeps a changelog of older versions still reads as the newest. A team
// with no such file, or no GC-v<N> in it, is reported as "Current GC:
// unknown" with the path the agent should look at.
//
// # Errors
//
// The injector runs where the artifacts workflow runs (Enabled; package
// workflow decides). Everything fails open: an unreadable config is skipped, and the team name
// goes through package safepath before it becomes a path (an unsafe name is
// an error the runtime reports, and nothing is injected).
package teamctx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/teams"
)

// Tag starts the injected line, as ADR-003 writes it, so an agent (and a
// reader of the transcript) knows which hook said it.
const Tag = "[DIA-HOOK]"

// GlobalContextFile is the name of a team's global-context file.
const GlobalContextFile = "global-context.md"

// maxGC caps how much of a global-context file is read.
const maxGC = 1 << 20

// Injector is the SubagentStart handler.
type Injector struct {
	// Enabled runs it: the artifacts workflow is on in the project
	// (package workflow). The zero Injector says nothing.
	Enabled bool
	// TeamsDir holds Claude Code's team configs. Empty means
	// $CLAUDE_CONFIG_DIR/teams, or ~/.claude/teams.
	TeamsDir string
	// Root is the project-relative folder of the team folders (the
	// artifacts root, ".agent/teams" by default).
	Root string
	// Project is the project folder. Empty means $CLAUDE_PROJECT_DIR, or
	// the input's cwd.
	Project string
	// Getenv is main's environment (project.Env); nil is an empty one.
	Getenv func(string) string
}

// Name names the handler in reports.
func (Injector) Name() string { return "teamctx" }

// Handle serves [Injector.SubagentStart] and ignores every other event.
func (j Injector) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(j.SubagentStart).Handle(ctx, in)
}

// SubagentStart injects the active team and its GC version.
func (j Injector) SubagentStart(_ context.Context, ev *hooks.SubagentStart) (hooks.Result, error) {
	if !j.Enabled {
		return hooks.Result{}, nil
	}
	dir := project.Dir(j.Project, ev, j.Getenv)
	teamsDir, err := j.teamsDir()
	if err != nil {
		return hooks.Result{}, err
	}
	team, err := teams.Active(teamsDir, dir)
	if err != nil {
		return hooks.Result{}, err
	}
	if team == "" {
		return hooks.Result{}, nil
	}
	root := j.Root
	if root == "" {
		root = ".agent/teams"
	}
	rel, err := safepath.Join(filepath.FromSlash(root), "team", team, GlobalContextFile)
	if err != nil {
		return hooks.Result{}, err
	}
	path := filepath.Join(dir, rel)
	if err := safepath.Within(dir, path); err != nil {
		return hooks.Result{}, err
	}
	gc, err := Version(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return hooks.Result{}, err
	}
	if gc == "" {
		return hooks.Context(fmt.Sprintf("%s Active team: %s. Current GC: unknown (no GC-v<N> in %s). Verify your injected context version matches.", Tag, team, filepath.ToSlash(rel))), nil
	}
	return hooks.Context(fmt.Sprintf("%s Active team: %s. Current GC: %s. Verify your injected context version matches.", Tag, team, gc)), nil
}

func (j Injector) teamsDir() (string, error) {
	if j.TeamsDir != "" {
		return j.TeamsDir, nil
	}
	return teams.Dir(project.Getenv(j.Getenv))
}

// gcToken and versionLine are compiled on first use: the runtime starts on
// every hook call and must not pay for a regexp that this event never
// needs. gcToken is "GC-v<N>" in any letter case; versionLine a line of
// its own that says "version: <N>" (front matter), the number bare,
// quoted, or as GC-v<N>.
var (
	gcToken     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bGC-v(\d{1,9})\b`) })
	versionLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?im)^[ \t]*version[ \t]*:[ \t]*["']?(?:gc-v)?(\d{1,9})["']?[ \t]*$`)
	})
)

// Version returns the highest GC version the file at path names, as
// "GC-v<N>", or "" when it names none. It reads "GC-v<N>" anywhere (any
// letter case: gc-v10 is GC-v10) and a line "version: <N>" (the front
// matter's key; "version: 9", "version: \"GC-v9\""). A missing file is an
// error wrapping fs.ErrNotExist.
func Version(path string) (string, error) {
	f, _, err := safepath.Open(safepath.At(path))
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxGC))
	if err != nil {
		return "", err
	}
	best := -1
	for _, re := range []*regexp.Regexp{gcToken(), versionLine()} {
		for _, m := range re.FindAllSubmatch(data, -1) {
			if v, err := strconv.Atoi(string(m[1])); err == nil && v > best {
				best = v
			}
		}
	}
	if best < 0 {
		return "", nil
	}
	return "GC-v" + strconv.Itoa(best), nil
}
