// Package teamstatus keeps, per agent team, who is working and who is idle.
//
// [Recorder] runs last on TeammateIdle and TaskCompleted (natively, or
// through the fallbacks on older releases), after the gates, so it sees
// only what went through: an idle that a gate or next-task sent back to
// work leaves the teammate active. Each call updates (package
// internal/state/team)
// .hookwright/team/<team>.json:
//
//	{"team": "core", "updated": "...",
//	 "teammates": {"alice": {"state": "idle", "last_event": "TeammateIdle",
//	                         "last_seen": "...", "open_task": "#3 [Do] login: build"}}}
//
// A teammate's stop is its idle: before 2.1.33 TeammateIdle runs through
// the Stop and SubagentStop fallbacks, so those stops land here too. No
// plain Stop handler is registered: it would run beside the fallback and
// record the stop before the artifact gate's verdict on it.
//
// A completion marks the teammate active, an idle marks it idle; open_task
// is the teammate's task in progress, else its first pending task, from the
// team's task list. The file is updated under a lock and written atomically
// (internal/runtime/statefile); team and teammate names pass safepath.Name
// first (an unsafe one is skipped without a second report: the artifact
// gate already names it), at most [MaxTeammates] teammates are kept (the
// longest unseen are dropped), and every text is bounded.
//
// `hwctl team` shows it; next-task (package pdca) reads it so that it
// does not hand an idle teammate a task another active teammate already
// has open.
package teamstatus

import (
	"context"
	"strings"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/tasklist"
	tm "github.com/hookwright/hookwright/internal/state/team"
)

// maxText bounds every text the recorder keeps.
const maxText = 120

// Recorder is the TeammateIdle and TaskCompleted handler.
type Recorder struct {
	call call.Call
	cfg  config.Team
}

// New returns the Recorder of the hook call c: its project folder,
// environment, clock and team config.
func New(c call.Call) Recorder { return Recorder{call: c, cfg: c.Config().Team} }

// Name names the handler in reports.
func (Recorder) Name() string { return "team-status" }

// Handle records the teammate's new state ([Recorder.TeammateIdle],
// [Recorder.TaskCompleted]); it ignores every other event.
func (r Recorder) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	switch e := in.(type) {
	case *hooks.TeammateIdle:
		return r.TeammateIdle(ctx, e)
	case *hooks.TaskCompleted:
		return r.TaskCompleted(ctx, e)
	}
	return hooks.Result{}, nil
}

// TeammateIdle records the teammate as idle.
func (r Recorder) TeammateIdle(_ context.Context, e *hooks.TeammateIdle) (hooks.Result, error) {
	return r.record(&e.Common, e.Team, tm.Idle)
}

// TaskCompleted records the teammate as active: it is still at work.
func (r Recorder) TaskCompleted(_ context.Context, e *hooks.TaskCompleted) (hooks.Result, error) {
	return r.record(&e.Common, e.Team, tm.Active)
}

// record writes the teammate's state, with its open task.
func (r Recorder) record(in *hooks.Common, team hooks.Team, state string) (hooks.Result, error) {
	if !r.cfg.Enabled {
		return hooks.Result{}, nil
	}
	if team.TeamName == "" || team.TeammateName == "" {
		return hooks.Result{}, nil
	}
	if safepath.Name("team", team.TeamName) != nil || safepath.Name("teammate", team.TeammateName) != nil {
		return hooks.Result{}, nil // the artifact gate reports unsafe names; one report is enough
	}
	id, subject := openTask(r.call.Getenv, team, in.Base().SessionID)
	return hooks.Result{}, tm.Set(r.call.Root(), team, tm.Teammate{
		State: state, LastEvent: string(in.Base().HookEventName), LastSeen: r.call.Now().UTC(),
		OpenTask: subject, TaskID: id,
	})
}

// openTask finds the teammate's task in progress, else its first pending
// one, in the team's task list.
func openTask(getenv func(string) string, team hooks.Team, session string) (id, label string) {
	cfgDir := tasklist.ConfigDir(getenv)
	if cfgDir == "" {
		return "", ""
	}
	for _, list := range tasklist.ListIDs(getenv, team.TeamName, session) {
		tasks, err := tasklist.List(tasklist.Dir(cfgDir, list))
		if err != nil || len(tasks) == 0 {
			continue
		}
		for _, status := range []string{tasklist.InProgress, tasklist.Pending} {
			for _, t := range tasks {
				if t.Owner == team.TeammateName && t.Status == status {
					return cut(t.ID), cut("#" + t.ID + " " + t.Subject)
				}
			}
		}
		return "", ""
	}
	return "", ""
}

func cut(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) <= maxText {
		return s
	}
	n := maxText
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
