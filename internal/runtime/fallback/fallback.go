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
//
// # Once, on every release
//
// One installed plugin is read by every release on the machine, so its
// fallback registrations fire on releases that also fire the canonical
// event themselves (2.1.33+ for TeammateIdle and TaskCompleted). There a
// fallback stands for nothing: Adapt learns the running release (package
// ccversion: AI_AGENT, else the transcript's "version") and returns
// ok=false when that release fires the canonical event natively, so a
// completion or an idle is gated once. Where the release cannot be learned
// (no AI_AGENT before 2.1.120 and no readable transcript), the fallback
// applies, as on the older releases it was written for.
package fallback

import (
	"encoding/json"
	"fmt"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/ccversion"
)

// Adapt translates in, fired as via, into the canonical event.
// getenv is main's environment (see project.Env): the session's team and
// the task list are found through it.
func Adapt(canonical hooks.Event, in hooks.Input, getenv func(string) string) (out hooks.Input, ok bool, err error) {
	if Native(canonical, Running(in, getenv)) {
		return nil, false, nil
	}
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

// Running is the release that fired in, as "2.1.33", or "" when it cannot
// be learned: AI_AGENT (2.1.120+), else the first "version" in the
// transcript's head (package ccversion).
func Running(in hooks.Input, getenv func(string) string) string {
	return ccversion.Running(getenv("AI_AGENT"), in.Base().TranscriptPath)
}

// Native reports whether release fires canonical itself, from the release
// table package hooks carries: a fallback standing for canonical is then
// silent. An empty or unreadable release is not known to, so it reports
// false.
func Native(canonical hooks.Event, release string) bool {
	if release == "" {
		return false
	}
	r, err := ccversion.Parse(release)
	if err != nil {
		return false
	}
	since, ok := hooks.EventSince(canonical)
	return ok && !r.Less(since)
}
