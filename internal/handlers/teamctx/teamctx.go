// Package teamctx tells every subagent which agent team is active and which
// version of the team's global context is current, so an agent that was
// briefed with a stale copy notices.
//
// # What it injects
//
// Register [Injector] on SubagentStart with the matcher "". When a team is
// active it adds, as additionalContext:
//
//	Active team: core. Current GC: GC-v3. Verify your injected context version matches.
//
// When no team is active it says nothing.
//
// # The active team
//
// Claude Code's agent teams (2.1.32+, CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1)
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
// and its version is the highest "GC-v<N>" written anywhere in it, so a file
// that keeps a changelog of older versions still reads as the newest. A team
// with no such file, or no GC-v<N> in it, is reported as "Current GC:
// unknown" with the path the agent should look at.
//
// # Errors
//
// Everything fails open: an unreadable config is skipped, and the team name
// goes through package safepath before it becomes a path (an unsafe name is
// an error the runtime reports, and nothing is injected).
package teamctx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// GlobalContextFile is the name of a team's global-context file.
const GlobalContextFile = "global-context.md"

// maxGC caps how much of a global-context file is read.
const maxGC = 1 << 20

// Injector is the SubagentStart handler.
type Injector struct {
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

// Handle injects the active team and its GC version on SubagentStart.
func (j Injector) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	if _, ok := in.(*hooks.SubagentStart); !ok {
		return hooks.Result{}, nil
	}
	dir := project.Dir(j.Project, in, j.Getenv)
	teamsDir, err := j.teamsDir()
	if err != nil {
		return hooks.Result{}, err
	}
	team, err := ActiveTeam(teamsDir, dir)
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
		return hooks.Context(fmt.Sprintf("Active team: %s. Current GC: unknown (no GC-v<N> in %s). Verify your injected context version matches.", team, filepath.ToSlash(rel))), nil
	}
	return hooks.Context(fmt.Sprintf("Active team: %s. Current GC: %s. Verify your injected context version matches.", team, gc)), nil
}

func (j Injector) teamsDir() (string, error) {
	if j.TeamsDir != "" {
		return j.TeamsDir, nil
	}
	return DefaultTeamsDir(project.Getenv(j.Getenv))
}

// DefaultTeamsDir is where Claude Code keeps team configs:
// $CLAUDE_CONFIG_DIR/teams, or ~/.claude/teams.
func DefaultTeamsDir(getenv func(string) string) (string, error) {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "teams"), nil
	}
	home, err := project.Home(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".claude", "teams"), nil
}

// Team is one Claude Code team config, as far as hookwright reads it.
type Team struct {
	// Name is the config's "name", or the folder (file) name without it.
	Name        string `json:"name"`
	LeadAgentID string `json:"leadAgentId"`
	// LeadSessionID is the lead's session id (2.1.33 writes it): the
	// session_id every hook of an in-process teammate carries.
	LeadSessionID string   `json:"leadSessionId"`
	Members       []Member `json:"members"`
	// ModTime is when the config file last changed.
	ModTime time.Time `json:"-"`
}

// Member is one team member. Teammates in tmux panes record their pane
// ("%5"); in-process teammates record "in-process"; the lead records "".
type Member struct {
	AgentID    string `json:"agentId"`
	Name       string `json:"name"`
	AgentType  string `json:"agentType"`
	TmuxPaneID string `json:"tmuxPaneId"`
	Cwd        string `json:"cwd"`
}

// Teams reads every team config under dir, in both layouts
// ({folder}/config.json and {team}.json). Unreadable or malformed configs
// are skipped; a missing dir is no teams.
func Teams(dir string) ([]Team, error) {
	entries, err := safepath.ReadDir(safepath.Path{Root: dir, Rel: "."})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Team
	for _, e := range entries {
		var rel, fallbackName string
		switch {
		case e.IsDir():
			rel, fallbackName = filepath.Join(e.Name(), "config.json"), e.Name()
		case strings.HasSuffix(e.Name(), ".json"):
			rel, fallbackName = e.Name(), strings.TrimSuffix(e.Name(), ".json")
		default:
			continue
		}
		t, info, ok := readTeam(safepath.Path{Root: dir, Rel: rel})
		if !ok {
			continue
		}
		if t.Name == "" {
			t.Name = fallbackName
		}
		t.ModTime = info.ModTime()
		out = append(out, t)
	}
	return out, nil
}

// Claude Code rewrites a team's config in place, and the file is empty for
// 40-300 ms at each write (seen on 2.1.33; internal/live/TEAMS.md). A config
// that is empty or does not parse is read again, every rewriteWait, for up
// to rewriteTries reads, before it is skipped.
const (
	rewriteWait  = 50 * time.Millisecond
	rewriteTries = 9
)

// readTeam reads one team config: inside the teams folder, without
// blocking, regular files only, at most maxGC bytes; waiting out an
// in-place rewrite.
func readTeam(p safepath.Path) (Team, fs.FileInfo, bool) {
	for try := 1; ; try++ {
		f, info, err := safepath.Open(p)
		if err != nil {
			return Team{}, nil, false
		}
		data, err := io.ReadAll(io.LimitReader(f, maxGC+1))
		f.Close()
		if err != nil || len(data) > maxGC {
			return Team{}, nil, false
		}
		var t Team
		if len(data) > 0 && json.Unmarshal(data, &t) == nil {
			return t, info, true
		}
		if try == rewriteTries {
			return Team{}, nil, false
		}
		time.Sleep(rewriteWait)
	}
}

// ByPane returns the team and the teammate that run in tmux pane pane
// ($TMUX_PANE, e.g. "%5"). The lead is never returned as a teammate.
func ByPane(teams []Team, pane string) (team, teammate string, ok bool) {
	if pane == "" {
		return "", "", false
	}
	for _, t := range teams {
		for _, m := range t.Members {
			if m.TmuxPaneID == pane && m.Name != "" && (t.LeadAgentID == "" || m.AgentID != t.LeadAgentID) {
				return t.Name, m.Name, true
			}
		}
	}
	return "", "", false
}

// BySubagent returns the team and the in-process teammate that a
// SubagentStop with session id session and agent type agentType stands
// for: 2.1.33 gives such a stop no team fields, the lead's session id and
// the teammate's name as agent_type (compat/FACTS.md). The team is the
// one whose lead session is session and that has a member of that name;
// the lead is never returned as a teammate, and a name two such teams
// share is ambiguous (ok false).
func BySubagent(teams []Team, session, agentType string) (team, teammate string, ok bool) {
	if session == "" || agentType == "" {
		return "", "", false
	}
	for _, t := range teams {
		if t.LeadSessionID != session {
			continue
		}
		for _, m := range t.Members {
			if m.Name == agentType && (t.LeadAgentID == "" || m.AgentID != t.LeadAgentID) {
				if ok {
					return "", "", false
				}
				team, teammate, ok = t.Name, m.Name, true
			}
		}
	}
	return team, teammate, ok
}

// ActiveTeam returns the name of the team, among those configured under
// teamsDir that belong to project, whose config changed last; "" when there
// is none. A missing teamsDir is no team, not an error.
func ActiveTeam(teamsDir, project string) (string, error) {
	teams, err := Teams(teamsDir)
	if err != nil {
		return "", err
	}
	var best *Team
	for i := range teams {
		t := &teams[i]
		if !belongs(*t, project) {
			continue
		}
		if best == nil || t.ModTime.After(best.ModTime) || t.ModTime.Equal(best.ModTime) && t.Name > best.Name {
			best = t
		}
	}
	if best == nil {
		return "", nil
	}
	return best.Name, nil
}

// belongs reports whether a team belongs to project: true when no member
// records a cwd, or when one of the recorded cwds is inside project.
func belongs(cfg Team, project string) bool {
	known := false
	for _, m := range cfg.Members {
		if m.Cwd == "" {
			continue
		}
		known = true
		if project != "" && inside(project, m.Cwd) {
			return true
		}
	}
	return !known
}

func inside(root, path string) bool {
	r, err1 := filepath.Abs(root)
	p, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return false
	}
	if rr, err := filepath.EvalSymlinks(r); err == nil {
		r = rr
	}
	if pp, err := filepath.EvalSymlinks(p); err == nil {
		p = pp
	}
	rel, err := filepath.Rel(r, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// gcToken is compiled on first use: the runtime starts on every hook call and
// must not pay for a regexp that this event never needs.
var gcToken = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bGC-v(\d{1,9})\b`) })

// Version returns the highest "GC-v<N>" in the file at path, or "" when
// there is none. A missing file is an error wrapping fs.ErrNotExist.
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
	for _, m := range gcToken().FindAllSubmatch(data, -1) {
		if v, err := strconv.Atoi(string(m[1])); err == nil && v > best {
			best = v
		}
	}
	if best < 0 {
		return "", nil
	}
	return "GC-v" + strconv.Itoa(best), nil
}
