// Package fallback turns the events an older Claude Code fires into the
// canonical events hookwright's gates are written against, so one gate
// serves both paths:
//
//   - TaskCompleted via PostToolUse: a TaskUpdate call (2.1.16+) that moved
//     a task to "completed". Its input carries only taskId and status, so
//     the subject and description come from Claude Code's task file (see
//     taskupdate.go for the observed payloads). PostToolUse runs after the
//     tool, so a block cannot keep the task open the way native
//     TaskCompleted does: the reason reaches the model as feedback instead.
//   - TeammateIdle via SubagentStop or Stop: the agent is about to stop,
//     which is when a native teammate would go idle.
//
// Adapt returns ok=false when the firing event does not stand for the
// canonical one (a TaskUpdate that only renames a task, say); the runtime
// then does nothing.
package fallback

import (
	"encoding/json"
	"fmt"

	"github.com/hookwright/hookwright/hooks"
)

// Adapt translates in, fired as via, into the canonical event.
// getenv is main's environment (see project.Env): the session's team and
// the task list are found through it.
func Adapt(canonical hooks.Event, in hooks.Input, getenv func(string) string) (out hooks.Input, ok bool, err error) {
	base := *in.Base()
	base.HookEventName = canonical
	switch canonical {
	case hooks.EventTaskCompleted:
		post, isPost := in.(*hooks.PostToolUse)
		if !isPost {
			return nil, false, fmt.Errorf("TaskCompleted can stand in only for PostToolUse, not %s", in.Base().HookEventName)
		}
		return taskFromUpdate(base, post, getenv)
	case hooks.EventTeammateIdle:
		idle := &hooks.TeammateIdle{Common: base}
		switch e := in.(type) {
		case *hooks.SubagentStop:
			if e.StopHookActive {
				return nil, false, nil
			}
			// A subagent is not the session: its team comes from the
			// event, or from the team config that records the session as
			// its lead and the agent type as a member (an in-process
			// teammate; see team.go), never from the session's own team.
			idle.Team = eventTeam(base.Extra())
			if idle.Team.TeamName == "" {
				idle.Team = subagentTeam(getenv, base.SessionID, base.AgentType)
			}
		case *hooks.Stop:
			if e.StopHookActive {
				return nil, false, nil
			}
			idle.Team = teamFromExtra(base.Extra(), getenv)
		default:
			return nil, false, fmt.Errorf("TeammateIdle can stand in only for SubagentStop or Stop, not %s", in.Base().HookEventName)
		}
		return idle, true, nil
	}
	return nil, false, fmt.Errorf("%s has no fallback", canonical)
}

// teamFromExtra reads the team fields the event carries and, where it
// names no team, the team of the session the hook runs in (see team.go).
func teamFromExtra(extra map[string]json.RawMessage, getenv func(string) string) hooks.Team {
	if t := eventTeam(extra); t.TeamName != "" {
		return t
	}
	return sessionTeam(getenv)
}
