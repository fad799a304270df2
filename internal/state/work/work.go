// Package work is the work-unit file, .hookwright/work.json: the tasks
// in progress (per session) and the named units started with `hwctl work
// start`, and the sessions already warned. The work handlers keep it;
// hwctl and the store read it. It is updated under a lock and written
// atomically (internal/runtime/statefile).
package work

import (
	"encoding/json"
	"sort"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
)

// File is the state file, relative to the project.
const File = config.Dir + "/work.json"

// State is the content of work.json.
type State struct {
	// Manual holds the units started with hwctl, by name.
	Manual map[string]Unit `json:"manual,omitempty"`
	// Tasks holds the tasks in progress, by "<session>/<task id>".
	Tasks map[string]Unit `json:"tasks,omitempty"`
	// Warned records the sessions already warned in "warn" mode.
	Warned map[string]time.Time `json:"warned,omitempty"`
}

// Unit is one work unit.
type Unit struct {
	Name    string    `json:"name"`
	Session string    `json:"session,omitempty"`
	TaskID  string    `json:"task_id,omitempty"`
	Started time.Time `json:"started"`
}

// Path returns the work.json path of the project at dir.
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
	if err := statefile.Decode("work state", path, data, &st); err != nil {
		return State{}, err
	}
	if st.Manual == nil {
		st.Manual = map[string]Unit{}
	}
	if st.Tasks == nil {
		st.Tasks = map[string]Unit{}
	}
	if st.Warned == nil {
		st.Warned = map[string]time.Time{}
	}
	return st, nil
}

// Active returns the units that cover session, manual units first, each
// group sorted by name.
func (st State) Active(session string) []Unit {
	var manual, tasks []Unit
	for _, u := range st.Manual {
		manual = append(manual, u)
	}
	for _, u := range st.Tasks {
		if u.Session == session {
			tasks = append(tasks, u)
		}
	}
	byName := func(us []Unit) {
		sort.Slice(us, func(i, j int) bool { return us[i].Name < us[j].Name })
	}
	byName(manual)
	byName(tasks)
	return append(manual, tasks...)
}

// update changes the state of the project at dir under its lock. change
// reports whether it changed anything.
// Update changes the state of the project at dir under its lock; change
// reports whether it changed anything worth writing.
func Update(dir string, change func(st *State) bool) error {
	path, err := Path(dir)
	if err != nil {
		return err
	}
	return statefile.Update(path, func(old []byte) ([]byte, error) {
		st, err := decode(path.String(), old)
		if err != nil {
			return nil, err
		}
		if !change(&st) {
			return nil, statefile.ErrNoChange
		}
		data, err := json.MarshalIndent(st, "", "  ")
		return append(data, '\n'), err
	})
}

// MaxUnits bounds each map of the state file.
const MaxUnits = 1000

// Start starts the manual unit name in the project at dir. Starting a unit
// that is already active is not an error.
func Start(dir, name string, now time.Time) error {
	if err := safepath.Name("work unit name", name); err != nil {
		return err
	}
	return Update(dir, func(st *State) bool {
		if _, ok := st.Manual[name]; ok {
			return false
		}
		if len(st.Manual) >= MaxUnits {
			return false
		}
		st.Manual[name] = Unit{Name: name, Started: now.UTC()}
		return true
	})
}

// Stop ends the manual unit name; it reports whether it was active.
func Stop(dir, name string) (bool, error) {
	found := false
	err := Update(dir, func(st *State) bool {
		_, found = st.Manual[name]
		delete(st.Manual, name)
		return found
	})
	return found, err
}
