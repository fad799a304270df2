package hooks

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/tasklist"
	"github.com/hookwright/hookwright/internal/runtime/teams"
)

// What a TaskUpdate call carries, observed on Claude Code 2.1.32 and 2.1.33
// (PostToolUse, matcher TaskUpdate):
//
//	"tool_input":    {"taskId":"1","status":"completed"}
//	"tool_response": {"success":true,"taskId":"1","updatedFields":["status"],
//	                  "statusChange":{"from":"in_progress","to":"completed"}}
//
// No subject and no description: those are in the task file
// <config>/tasks/<list>/<id>.json, which the tool has already rewritten
// when PostToolUse fires. statusChange is present only when the status
// really changed, and success is false when a native TaskCompleted hook
// blocked the update or the task does not exist; native TaskCompleted
// fires in exactly the other cases, so the fallback does too.

// taskUpdateResponse is the part of TaskUpdate's tool response Translate
// reads.
type taskUpdateResponse struct {
	Success      *bool `json:"success"`
	StatusChange *struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"statusChange"`
}

// taskFromUpdate is TaskCompleted from a PostToolUse, or nil when the call
// completed no task.
func taskFromUpdate(base Common, post *PostToolUse, getenv func(string) string) (Input, error) {
	if post.ToolName != "TaskUpdate" {
		return nil, nil // TodoWrite names no task (see Translate); any other tool completes none
	}
	u, err := post.AsTaskUpdate()
	if err != nil {
		return nil, fmt.Errorf("TaskUpdate input: %w", err)
	}
	if u.Status != tasklist.Completed || u.TaskID == "" {
		return nil, nil
	}
	if len(post.ToolResponse) > 0 {
		var r taskUpdateResponse
		if json.Unmarshal(post.ToolResponse, &r) == nil && r.Success != nil {
			if !*r.Success || r.StatusChange == nil || r.StatusChange.To != tasklist.Completed {
				return nil, nil // blocked, missing, or already completed
			}
		}
	}
	tc := &TaskCompleted{Common: base}
	tc.Team = teamOf(post.Extra(), getenv)
	tc.TaskID, tc.TaskSubject, tc.TaskDescription = u.TaskID, u.Subject, u.Description
	if cfg := tasklist.ConfigDir(getenv); cfg != "" {
		for _, list := range tasklist.ListIDs(getenv, tc.TeamName, base.SessionID) {
			t, ok, err := tasklist.Get(tasklist.Dir(cfg, list), u.TaskID)
			if err != nil {
				return nil, fmt.Errorf("TaskUpdate fallback: %w", err)
			}
			if ok {
				tc.TaskSubject, tc.TaskDescription = t.Subject, t.Description
				break
			}
		}
	}
	return tc, nil
}

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
// In-process teammates (tmuxPaneId "in-process") share the lead's process
// and cannot be told apart this way. Their SubagentStop does name them,
// though: seen on 2.1.33 (cli.js and the live tier, compat/FACTS.md) it
// carries the lead's session_id and agent_type set to the teammate's
// name, and the team config records the lead's session as
// "leadSessionId". subagentTeam matches the two. Their Stop and
// PostToolUse carry nothing that names them, so there the gates let them
// pass.

// sessionTeam returns the team and teammate of the Claude Code session the
// hook runs in; see the comment above for the sources.
func sessionTeam(getenv func(string) string) Team {
	if team := getenv("CLAUDE_CODE_TEAM_NAME"); team != "" {
		name := getenv("CLAUDE_CODE_AGENT_NAME")
		if name == "" {
			if id, _, ok := strings.Cut(getenv("CLAUDE_CODE_AGENT_ID"), "@"); ok {
				name = id
			}
		}
		return Team{TeamName: team, TeammateName: name}
	}
	pane := getenv("TMUX_PANE")
	if pane == "" {
		return Team{}
	}
	configs, ok := teamConfigs(getenv)
	if !ok {
		return Team{}
	}
	if team, mate, ok := teams.ByPane(configs, pane); ok {
		return Team{TeamName: team, TeammateName: mate}
	}
	return Team{}
}

// subagentTeam returns the team of the in-process teammate whose
// SubagentStop carries session (the lead's) and agentType (its name).
func subagentTeam(getenv func(string) string, session, agentType string) Team {
	if session == "" || agentType == "" {
		return Team{}
	}
	configs, ok := teamConfigs(getenv)
	if !ok {
		return Team{}
	}
	if team, mate, ok := teams.BySubagent(configs, session, agentType); ok {
		return Team{TeamName: team, TeammateName: mate}
	}
	return Team{}
}

// teamConfigs reads Claude Code's team configs; ok is false when there are
// none to read.
func teamConfigs(getenv func(string) string) ([]teams.Team, bool) {
	dir, err := teams.Dir(getenv)
	if err != nil {
		return nil, false
	}
	configs, err := teams.Teams(dir)
	return configs, err == nil && len(configs) > 0
}
