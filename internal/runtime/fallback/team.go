package fallback

import (
	"encoding/json"
	"strings"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/teams"
)

// Where a fallback event finds its team.
//
// Native TeammateIdle and TaskCompleted (2.1.33+) carry teammate_name and
// team_name. The events that stand in for them on older releases do not:
// on 2.1.32 and 2.1.33 every hook input starts from session_id,
// transcript_path, cwd and permission_mode, and no team field is added to
// Stop, SubagentStop or PostToolUse (read from the bundled cli.js). A
// teammate in a tmux pane is a separate claude process started as
//
//	cd <cwd> && CLAUDECODE=1 [CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1] claude --agent-id alice@core --agent-name alice --team-name core ...
//
// so its name reaches the process only as arguments, which hooks do not
// see (and Claude Code sets process.title to "claude", which on Linux
// overwrites /proc/<pid>/cmdline). Hooks inherit the process environment
// plus CLAUDE_PROJECT_DIR, so what a hook can see is the pane: $TMUX_PANE,
// which the team config records for each tmux teammate as "tmuxPaneId".
//
// sessionTeam therefore tries, in order:
//
//  1. CLAUDE_CODE_TEAM_NAME with CLAUDE_CODE_AGENT_NAME, or with
//     CLAUDE_CODE_AGENT_ID ("name@team"). 2.1.32/2.1.33 do not set them
//     (their error messages only name the first two), but other tools and
//     users do; they are an explicit override;
//  2. $TMUX_PANE looked up in the team configs
//     ($CLAUDE_CONFIG_DIR/teams or ~/.claude/teams): the member whose
//     tmuxPaneId matches, never the lead.
//
// [FillTeam] applies the same lookup to a native event that names no team,
// so a gate answers the same on 2.1.33 as on 2.1.32.
//
// In-process teammates (tmuxPaneId "in-process") share the lead's process
// and cannot be told apart this way. Their SubagentStop does name them,
// though: seen on 2.1.33 (cli.js and the live tier, compat/FACTS.md) it
// carries the lead's session_id and agent_type set to the teammate's
// name, and the team config records the lead's session as
// "leadSessionId". [subagentTeam] matches the two. Their Stop and
// PostToolUse carry nothing that names them, so there the gates let them
// pass.

// eventTeam reads the team fields an event carries among its extra fields.
func eventTeam(extra map[string]json.RawMessage) hooks.Team {
	var t hooks.Team
	for key, dst := range map[string]*string{"teammate_name": &t.TeammateName, "team_name": &t.TeamName} {
		if raw, ok := extra[key]; ok {
			_ = json.Unmarshal(raw, dst)
		}
	}
	return t
}

// sessionTeam returns the team and teammate of the Claude Code session the
// hook runs in; see the comment above for the sources.
func sessionTeam(getenv func(string) string) hooks.Team {
	if team := getenv("CLAUDE_CODE_TEAM_NAME"); team != "" {
		name := getenv("CLAUDE_CODE_AGENT_NAME")
		if name == "" {
			if id, _, ok := strings.Cut(getenv("CLAUDE_CODE_AGENT_ID"), "@"); ok {
				name = id
			}
		}
		return hooks.Team{TeamName: team, TeammateName: name}
	}
	pane := getenv("TMUX_PANE")
	if pane == "" {
		return hooks.Team{}
	}
	dir, err := teams.Dir(getenv)
	if err != nil {
		return hooks.Team{}
	}
	configs, err := teams.Teams(dir)
	if err != nil {
		return hooks.Team{}
	}
	if team, mate, ok := teams.ByPane(configs, pane); ok {
		return hooks.Team{TeamName: team, TeammateName: mate}
	}
	return hooks.Team{}
}

// subagentTeam returns the team of the in-process teammate whose
// SubagentStop carries session (the lead's) and agentType (its name).
func subagentTeam(getenv func(string) string, session, agentType string) hooks.Team {
	if session == "" || agentType == "" {
		return hooks.Team{}
	}
	dir, err := teams.Dir(getenv)
	if err != nil {
		return hooks.Team{}
	}
	configs, err := teams.Teams(dir)
	if err != nil {
		return hooks.Team{}
	}
	if team, mate, ok := teams.BySubagent(configs, session, agentType); ok {
		return hooks.Team{TeamName: team, TeammateName: mate}
	}
	return hooks.Team{}
}

// FillTeam gives a native TeammateIdle or TaskCompleted that names no team
// the session's team, found as for the fallbacks, so that a gate reaches
// the same answer on both paths. An event that names its team keeps it;
// other events are left alone. getenv is main's environment.
func FillTeam(in hooks.Input, getenv func(string) string) {
	var t *hooks.Team
	switch e := in.(type) {
	case *hooks.TaskCompleted:
		t = &e.Team
	case *hooks.TeammateIdle:
		t = &e.Team
	default:
		return
	}
	if t.TeamName == "" {
		*t = sessionTeam(getenv)
	}
}
