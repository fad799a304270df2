// Package loop is the Stop loop's state file, .hookwright/loop.json: the
// settings `hwctl loop start` armed (which override the config's), whether
// the loop was cancelled, and each session's rounds and how its loop
// ended. The loop handler keeps it; hwctl and the runtime's deadline read
// it. It is updated under a lock and written atomically
// (internal/runtime/statefile).
package loop

import (
	"encoding/json"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
)

// Why the loop let a session stop, as Session.Ended records it.
const (
	EndPassed  = "check passed"
	EndPromise = "promise"
	EndMax     = "max_rounds"
	EndStalled = "stalled"
)

// File is the loop's state file, relative to the project.
const File = config.Dir + "/loop.json"

// MaxSessions bounds the sessions remembered in the state file; the ones
// seen longest ago are forgotten first.
const MaxSessions = 200

// State is the content of the loop's state file.
type State struct {
	// Armed is set by `hwctl loop start`: it turns the loop on and
	// overrides the config's settings where its own are set.
	Armed *Settings `json:"armed,omitempty"`
	// Cancelled is set by `hwctl loop stop`: the loop is off, whatever the
	// config says, until the next start.
	Cancelled bool `json:"cancelled,omitempty"`
	// Sessions holds each session's rounds.
	Sessions map[string]*Session `json:"sessions,omitempty"`
}

// Settings are the loop's knobs as `hwctl loop start` gives them; zero
// values keep the config's.
type Settings struct {
	Check       string    `json:"check,omitempty"`
	Promise     string    `json:"promise,omitempty"`
	MaxRounds   int       `json:"max_rounds,omitempty"`
	StallRounds int       `json:"stall_rounds,omitempty"`
	Timeout     int       `json:"timeout,omitempty"`
	Started     time.Time `json:"started"`
}

// Session is the loop's record of one session.
type Session struct {
	// Rounds counts the stops the loop blocked.
	Rounds int `json:"rounds"`
	// Stalled counts the blocked rounds in a row in which no project file
	// changed; Print is the project's fingerprint at the last round.
	Stalled int    `json:"stalled"`
	Print   string `json:"print,omitempty"`
	// Ended says why the loop let the session stop ("check passed",
	// "promise", "max_rounds", "stalled"); empty while it runs.
	Ended string `json:"ended,omitempty"`
	// LastCheck is the last line the check printed, and LastExit its exit
	// code (-1: killed at the timeout or could not start).
	LastCheck string    `json:"last_check,omitempty"`
	LastExit  int       `json:"last_exit"`
	Seen      time.Time `json:"seen"`
}

// Effective returns the loop settings for the project: cfg, with the armed
// settings over it, on when either turns it on, off after a cancel.
func (st State) Effective(cfg config.Loop) config.Loop {
	if st.Cancelled {
		cfg.Enabled = false
		return cfg
	}
	if a := st.Armed; a != nil {
		cfg.Enabled = true
		if a.Check != "" {
			cfg.Check = a.Check
		}
		if a.Promise != "" {
			cfg.Promise = a.Promise
		}
		if a.MaxRounds > 0 {
			cfg.MaxRounds = a.MaxRounds
		}
		if a.StallRounds > 0 {
			cfg.StallRounds = a.StallRounds
		}
		if a.Timeout > 0 {
			cfg.Timeout = min(a.Timeout, config.MaxLoopTimeout)
		}
	}
	return cfg
}

// Path returns the state file of the project at dir.
func Path(dir string) (safepath.Path, error) { return project.Path(dir, File) }

// Load reads the state of the project at dir; a missing file is empty.
func Load(dir string) (State, error) {
	path, err := Path(dir)
	if err != nil {
		return State{}, err
	}
	return statefile.Load(path, decode)
}

func decode(path string, data []byte) (State, error) {
	var st State
	if err := statefile.Decode("loop state", path, data, &st); err != nil {
		return State{}, err
	}
	if st.Sessions == nil {
		st.Sessions = map[string]*Session{}
	}
	return st, nil
}

// Update changes the state of the project at dir under its lock; a broken
// file is replaced by the change of an empty state.
func Update(dir string, change func(st *State) error) error {
	path, err := Path(dir)
	if err != nil {
		return err
	}
	return statefile.Update(path, func(old []byte) ([]byte, error) {
		st, err := decode(path.String(), old)
		if err != nil {
			st = State{Sessions: map[string]*Session{}}
		}
		if err := change(&st); err != nil {
			return nil, err
		}
		st.trim()
		data, err := json.MarshalIndent(st, "", "  ")
		return append(data, '\n'), err
	})
}

// trim forgets the sessions seen longest ago beyond MaxSessions.
func (st *State) trim() {
	for len(st.Sessions) > MaxSessions {
		var oldest string
		for id, s := range st.Sessions {
			if oldest == "" || s.Seen.Before(st.Sessions[oldest].Seen) {
				oldest = id
			}
		}
		delete(st.Sessions, oldest)
	}
}

// Start arms the loop for the project at dir with s (over the config) and
// forgets every session's rounds, so the loop begins afresh.
func Start(dir string, s Settings) error {
	return Update(dir, func(st *State) error {
		st.Armed, st.Cancelled = &s, false
		st.Sessions = map[string]*Session{}
		return nil
	})
}

// Stop cancels the loop for the project at dir: every stop goes through
// until the next Start.
func Stop(dir string) error {
	return Update(dir, func(st *State) error {
		st.Armed, st.Cancelled = nil, true
		return nil
	})
}
