// Package teamstatus keeps, per agent team, who is working and who is idle.
//
// [Recorder] runs last on TeammateIdle and TaskCompleted (natively, or
// through the fallbacks on older releases), after the gates, so it sees
// only what went through: an idle that a gate or next-task sent back to
// work leaves the teammate active. Each call updates
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
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
	"github.com/hookwright/hookwright/internal/runtime/tasklist"
)

// Dir is the folder of the team files, relative to the project.
const Dir = config.Dir + "/team"

// Bounds.
const (
	MaxTeammates = 100
	maxText      = 120
)

// The states a teammate can be in.
const (
	Active = "active"
	Idle   = "idle"
)

// Status is one team file.
type Status struct {
	Team      string               `json:"team"`
	Updated   time.Time            `json:"updated"`
	Teammates map[string]*Teammate `json:"teammates"`
}

// Teammate is one teammate's status.
type Teammate struct {
	State     string    `json:"state"`
	LastEvent string    `json:"last_event"`
	LastSeen  time.Time `json:"last_seen"`
	// OpenTask is "#<id> <subject>"; TaskID its id.
	OpenTask string `json:"open_task,omitempty"`
	TaskID   string `json:"task_id,omitempty"`
}

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

// Handle records the teammate's new state.
func (r Recorder) Handle(_ context.Context, in hooks.Input) (hooks.Result, error) {
	if !r.cfg.Enabled {
		return hooks.Result{}, nil
	}
	var team hooks.Team
	var state string
	switch e := in.(type) {
	case *hooks.TeammateIdle:
		team, state = e.Team, Idle
	case *hooks.TaskCompleted:
		team, state = e.Team, Active
	default:
		return hooks.Result{}, nil
	}
	if team.TeamName == "" || team.TeammateName == "" {
		return hooks.Result{}, nil
	}
	if safepath.Name("team", team.TeamName) != nil || safepath.Name("teammate", team.TeammateName) != nil {
		return hooks.Result{}, nil // the artifact gate reports unsafe names; one report is enough
	}
	id, subject := openTask(r.call.Getenv, team, in.Base().SessionID)
	return hooks.Result{}, Set(r.call.Root(), team, Teammate{
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

// File returns the status file of team in the project at dir.
func File(dir, team string) (safepath.Path, error) {
	if err := safepath.Name("team", team); err != nil {
		return safepath.Path{}, err
	}
	folder, err := project.Path(dir, Dir)
	if err != nil {
		return safepath.Path{}, err
	}
	return folder.Join(team + ".json"), nil
}

// Set records mate as team.TeammateName's status.
func Set(dir string, team hooks.Team, mate Teammate) error {
	if err := safepath.Name("teammate", team.TeammateName); err != nil {
		return err
	}
	path, err := File(dir, team.TeamName)
	if err != nil {
		return err
	}
	return statefile.Update(path, func(old []byte) ([]byte, error) {
		st := decode(old)
		st.Team, st.Updated = team.TeamName, mate.LastSeen
		st.Teammates[team.TeammateName] = &mate
		for len(st.Teammates) > MaxTeammates {
			var oldest string
			for n, t := range st.Teammates {
				if oldest == "" || t.LastSeen.Before(st.Teammates[oldest].LastSeen) {
					oldest = n
				}
			}
			delete(st.Teammates, oldest)
		}
		data, err := json.MarshalIndent(st, "", "  ")
		return append(data, '\n'), err
	})
}

func decode(data []byte) Status {
	var st Status
	if len(data) > 0 && json.Unmarshal(data, &st) != nil {
		st = Status{} // a broken file is replaced, not kept
	}
	if st.Teammates == nil {
		st.Teammates = map[string]*Teammate{}
	}
	for n, t := range st.Teammates {
		if t == nil {
			delete(st.Teammates, n)
		}
	}
	return st
}

// Load reads the status of team; a missing file is an empty Status.
func Load(dir, team string) (Status, error) {
	path, err := File(dir, team)
	if err != nil {
		return Status{}, err
	}
	data, err := statefile.Read(path)
	if err != nil {
		return Status{}, err
	}
	st := decode(data)
	if st.Team == "" {
		st.Team = team
	}
	return st, nil
}

// LoadAll reads every team file of the project at dir, by team name.
func LoadAll(dir string) ([]Status, error) {
	folder, err := project.Path(dir, Dir)
	if err != nil {
		return nil, err
	}
	entries, err := safepath.ReadDir(folder)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("team status: %w", err)
	}
	var out []Status
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !e.Type().IsRegular() || safepath.Name("team", name) != nil {
			continue
		}
		st, err := Load(dir, name)
		if err != nil {
			continue
		}
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Team < out[j].Team })
	return out, nil
}

// TakenBy returns the teammates other than except that are active with
// task id open.
func (st Status) TakenBy(id, except string) []string {
	var out []string
	for n, t := range st.Teammates {
		if n != except && t.State == Active && t.TaskID == id {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Names returns the teammates in name order.
func (st Status) Names() []string {
	out := make([]string, 0, len(st.Teammates))
	for n := range st.Teammates {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
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
