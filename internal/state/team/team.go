// Package team is hookwright's record, per agent team, of who is working
// and who is idle: .hookwright/team/<team>.json,
//
//	{"team": "core", "updated": "...",
//	 "teammates": {"alice": {"state": "idle", "last_event": "TeammateIdle",
//	                         "last_seen": "...", "open_task": "#3 [Do] login: build"}}}
//
// The teamstatus handler writes it on TeammateIdle and TaskCompleted;
// `hwctl team` shows it and next-task (package pdca) reads it. The file is
// updated under a lock and written atomically (internal/runtime/statefile);
// team and teammate names pass safepath.Name first, and at most
// [MaxTeammates] teammates are kept (the longest unseen are dropped).
package team

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
)

// Dir is the folder of the team files, relative to the project.
const Dir = config.Dir + "/team"

// MaxTeammates bounds the teammates a team file keeps.
const MaxTeammates = 100

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
