package hooks

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Fallback is one way a Claude Code release that lacks an event stands in
// for it, from compat's fallback plan (generated into this package): a
// handler written for Canonical is registered on Fired (and Matcher) with
// `--via <Fired>` on its command line, and [Translate] turns what Fired
// delivers into Canonical's input. Exact is false where Fired only
// approximates Canonical.
type Fallback struct {
	Canonical Event
	Fired     Event
	// Matcher is the hooks.json matcher of the registration on Fired ("":
	// every occurrence).
	Matcher string
	Exact   bool
}

// Fallbacks returns compat's fallback plan, best option first for each
// canonical event:
//
//   - TaskCompleted: PostToolUse on TaskUpdate (2.1.16+; exact), else
//     PostToolUse on TodoWrite (approximate: see [Translate]);
//   - TeammateIdle: SubagentStop and Stop (approximate).
func Fallbacks() []Fallback { return append([]Fallback(nil), releaseFallbacks...) }

// FallbackFor returns the canonical event that fired stands in for, when
// exactly one does (PostToolUse stands in for TaskCompleted, SubagentStop
// and Stop for TeammateIdle): what a command line that says only
// `--via <fired>` means.
func FallbackFor(fired Event) (canonical Event, ok bool) {
	for _, f := range releaseFallbacks {
		switch {
		case f.Fired != fired:
		case canonical == "":
			canonical = f.Canonical
		case canonical != f.Canonical:
			return "", false
		}
	}
	return canonical, canonical != ""
}

// Translate returns the input of canonical, the event a handler was
// written for, given in, the input of the event Claude Code fired (its
// hook_event_name). It is what `--via` means: a hook registered as
//
//	PostToolUse[TaskUpdate] → "<your command> TaskCompleted --via PostToolUse"
//
// receives PostToolUse, and its handler must see TaskCompleted. Translate
// returns nil and no error when the fired event stands for nothing; the
// hook then answers nothing and exits 0. getenv is the hook's environment
// (nil: none); files are read through it ($CLAUDE_CONFIG_DIR, $HOME), each
// bounded, as a regular file only, and never waited on.
//
// When in is canonical itself (no fallback), it is returned as it is, but
// that a TaskCompleted or TeammateIdle that names no team gets the session's
// team, found as below, so a gate reaches the same answer on both paths.
//
// The fallbacks ([Fallbacks]):
//
//   - TaskCompleted from PostToolUse: a TaskUpdate call that moved a task
//     to "completed" (its tool_response says success and a statusChange to
//     completed: a TaskUpdate that fails, completes a task already
//     completed, or sets another status stands for nothing, as native
//     TaskCompleted does not fire for it). Its input carries only taskId
//     and status, so the subject, description and owner's team come from
//     Claude Code's task file (<config>/tasks/<list>/<id>.json; <config> is
//     $CLAUDE_CONFIG_DIR or ~/.claude; <list> is $CLAUDE_CODE_TASK_LIST_ID,
//     else the team, else the session). PostToolUse runs after the tool:
//     a block cannot keep the task open as native TaskCompleted does, the
//     reason reaches the model as feedback. When the same TaskUpdate
//     renames the task, the new subject is reported (native: the old one).
//   - TaskCompleted from PostToolUse on TodoWrite, the only task tool
//     before 2.1.16: stands for nothing. A TodoWrite call rewrites the
//     whole list and names no task, so no task id, subject or owner can be
//     told; this is the documented limit of that fallback. A handler that
//     wants to see todo lists reads the TodoWrite call itself
//     ([ToolCall.AsTodoWrite]) from a PostToolUse registration.
//   - TeammateIdle from SubagentStop or Stop: the agent is about to stop,
//     which is when a teammate goes idle. Stands for nothing when
//     stop_hook_active is set (the agent is already continuing because of
//     a stop hook; a gate there could hold it for ever). The team comes
//     from the event's teammate_name and team_name where it carries them;
//     else, for Stop, from $CLAUDE_CODE_TEAM_NAME with
//     $CLAUDE_CODE_AGENT_NAME (or $CLAUDE_CODE_AGENT_ID "name@team"), else
//     the member of Claude Code's team configs (<config>/teams) whose
//     tmuxPaneId is $TMUX_PANE; for SubagentStop, from the team config
//     whose leadSessionId is the session and that has a member named as
//     the agent_type (an in-process teammate). A lead or a plain subagent
//     gets no team: a gate lets it pass.
//
// Translate is the translation alone: whether a fallback should stand for
// nothing because the release also fires canonical to the same plugin is
// the command line's to say ([Invocation.Translate]).
//
// An error means in cannot stand in for canonical (a Stop given for
// TaskCompleted), or a file it needs could not be read.
func Translate(canonical Event, in Input, getenv func(string) string) (Input, error) {
	if in == nil {
		return nil, fmt.Errorf("%s: no input", canonical)
	}
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	fired := in.Base().HookEventName
	if fired == canonical {
		fillTeam(in, getenv)
		return in, nil
	}
	if _, err := fallbackRoute(canonical, fired); err != nil {
		return nil, err
	}
	base := *in.Base()
	base.HookEventName = canonical
	switch e := in.(type) {
	case *PostToolUse:
		if canonical == EventTaskCompleted {
			return taskFromUpdate(base, e, getenv)
		}
	case *SubagentStop:
		if canonical == EventTeammateIdle {
			if e.StopHookActive {
				return nil, nil
			}
			// A subagent is not the session: its team comes from the
			// event, or from the team config that records the session as
			// its lead and the agent type as a member (an in-process
			// teammate), never from the session's own team.
			idle := &TeammateIdle{Common: base}
			idle.Team = eventTeam(in.Base().Extra())
			if idle.Team.TeamName == "" {
				idle.Team = subagentTeam(getenv, base.SessionID, base.AgentType)
			}
			return idle, nil
		}
	case *Stop:
		if canonical == EventTeammateIdle {
			if e.StopHookActive {
				return nil, nil
			}
			idle := &TeammateIdle{Common: base}
			idle.Team = teamOf(in.Base().Extra(), getenv)
			return idle, nil
		}
	}
	return nil, fmt.Errorf("%s: no translation from %s (%T)", canonical, fired, in)
}

// Translate is [Translate] for the command line inv: the canonical event
// is inv.Event, and where inv.WithNative says the install also registers
// it natively, a fallback fired by a release that fires inv.Event itself
// (TeammateIdle and TaskCompleted from 2.1.33) stands for nothing, so a
// completion or an idle is gated once: one installed plugin is read by
// every release on the machine, and its fallback registrations fire there
// too. The release is learned with [RunningRelease]; where it cannot be (no
// AI_AGENT before 2.1.120 and no readable transcript) the fallback
// applies, as on the releases it was written for. Without WithNative the
// fallback is the plugin's only registration of the event and always
// applies.
func (inv Invocation) Translate(in Input, getenv func(string) string) (Input, error) {
	if inv.WithNative && in != nil && in.Base().HookEventName != inv.Event {
		if getenv == nil {
			getenv = func(string) string { return "" }
		}
		if _, err := fallbackRoute(inv.Event, in.Base().HookEventName); err != nil {
			return nil, err
		}
		if firesNatively(inv.Event, in, getenv) {
			return nil, nil
		}
	}
	return Translate(inv.Event, in, getenv)
}

// fallbackRoute returns the fallback by which fired stands in for
// canonical, or an error saying why fired cannot.
func fallbackRoute(canonical, fired Event) (Fallback, error) {
	var routes []Fallback
	for _, f := range releaseFallbacks {
		if f.Canonical == canonical {
			if f.Fired == fired {
				return f, nil
			}
			routes = append(routes, f)
		}
	}
	if len(routes) == 0 {
		return Fallback{}, fmt.Errorf("%s has no fallback: no other event stands in for it", canonical)
	}
	var names []string
	for _, f := range routes {
		if !contains(names, string(f.Fired)) {
			names = append(names, string(f.Fired))
		}
	}
	return Fallback{}, fmt.Errorf("%s does not stand in for %s (its fallbacks fire %s)", fired, canonical, strings.Join(names, " or "))
}

// firesNatively reports whether the release that fired in fires canonical
// itself ([RunningRelease]); an unknown release is not known to.
func firesNatively(canonical Event, in Input, getenv func(string) string) bool {
	r, ok := RunningRelease(in, getenv)
	if !ok {
		return false
	}
	since, known := EventSince(canonical)
	return known && !r.Less(since)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// eventTeam reads the team fields an event carries among its extra fields.
func eventTeam(extra map[string]json.RawMessage) Team {
	var t Team
	for key, dst := range map[string]*string{"teammate_name": &t.TeammateName, "team_name": &t.TeamName} {
		if raw, ok := extra[key]; ok {
			_ = json.Unmarshal(raw, dst)
		}
	}
	return t
}

// teamOf reads the team fields the event carries and, where it names no
// team, the team of the session the hook runs in.
func teamOf(extra map[string]json.RawMessage, getenv func(string) string) Team {
	if t := eventTeam(extra); t.TeamName != "" {
		return t
	}
	return sessionTeam(getenv)
}

// fillTeam gives a native TeammateIdle or TaskCompleted that names no team
// the session's team, so that a gate reaches the same answer on the native
// path as on the fallbacks. An event that names its team keeps it; other
// events are left alone.
func fillTeam(in Input, getenv func(string) string) {
	var t *Team
	switch e := in.(type) {
	case *TaskCompleted:
		t = &e.Team
	case *TeammateIdle:
		t = &e.Team
	default:
		return
	}
	if t.TeamName == "" {
		*t = sessionTeam(getenv)
	}
}
