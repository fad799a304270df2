// Package teams reads Claude Code's agent-team configs (2.1.32+,
// CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1), one per team at
//
//	$CLAUDE_CONFIG_DIR/teams/{folder}/config.json   ($CLAUDE_CONFIG_DIR defaults to ~/.claude)
//
// or, in earlier previews, teams/{team}.json: the team's name, its lead
// (agent id and, from 2.1.33, session id) and its members (name, agent
// type, tmux pane, cwd). The runtime's fallbacks find a teammate through
// them ([ByPane], [BySubagent]) and the teamctx handler the active team
// ([Active]). Reads go through package safepath, capped, without
// blocking, and wait out Claude Code's in-place rewrites.
package teams

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// maxConfig caps how much of a team config is read.
const maxConfig = 1 << 20

// Dir is where Claude Code keeps team configs:
// $CLAUDE_CONFIG_DIR/teams, or ~/.claude/teams.
func Dir(getenv func(string) string) (string, error) {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "teams"), nil
	}
	for _, k := range []string{"HOME", "USERPROFILE"} { // as project.Home; package hooks imports this one
		if h := getenv(k); h != "" {
			return filepath.Join(h, ".claude", "teams"), nil
		}
	}
	return "", errors.New("no home folder: $HOME is not set")
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
// blocking, regular files only, at most maxConfig bytes; waiting out an
// in-place rewrite.
func readTeam(p safepath.Path) (Team, fs.FileInfo, bool) {
	for try := 1; ; try++ {
		f, info, err := safepath.Open(p)
		if err != nil {
			return Team{}, nil, false
		}
		data, err := io.ReadAll(io.LimitReader(f, maxConfig+1))
		f.Close()
		if err != nil || len(data) > maxConfig {
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

// Active returns the name of the team, among those configured under
// teamsDir that belong to project, whose config changed last; "" when there
// is none. A missing teamsDir is no team, not an error.
func Active(teamsDir, project string) (string, error) {
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
