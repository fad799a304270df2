package pdca

import (
	"encoding/json"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
)

// MaxHistory bounds the steps kept per feature.
const MaxHistory = 200

// State is the content of the PDCA state file.
type State struct {
	// Features maps a feature name to its progress.
	Features map[string]*Feature `json:"features"`
}

// Feature is the progress of one feature.
type Feature struct {
	// Phase is the label of the task that completed last: "Do", "Act-2".
	Phase string `json:"phase"`
	// Iteration is the highest Act round completed, 0 before any Act.
	Iteration int `json:"iteration"`
	// Done counts the completed tasks per label.
	Done map[string]int `json:"done"`
	// Updated is when the last step was recorded.
	Updated time.Time `json:"updated"`
	// History holds the last MaxHistory steps, oldest first.
	History []Step `json:"history"`
}

// Step is one completed task.
type Step struct {
	Phase   string    `json:"phase"`
	Task    string    `json:"task"` // "<task list>/<task id>"
	Subject string    `json:"subject"`
	At      time.Time `json:"at"`
}

// Load reads the state file at path; a missing file is an empty State.
func Load(path string) (State, error) { return LoadPath(safepath.At(path)) }

// LoadPath is [Load] for a state file confined to its root.
func LoadPath(path safepath.Path) (State, error) { return statefile.Load(path, decode) }

func decode(path string, data []byte) (State, error) {
	var st State
	if err := statefile.Decode("pdca state", path, data, &st); err != nil {
		return State{Features: map[string]*Feature{}}, err
	}
	if st.Features == nil {
		st.Features = map[string]*Feature{}
	}
	return st, nil
}

// Advance records that the task key ("<list>/<id>") with subject, tagged
// tag, completed at time at. It reports whether the state changed: a task
// already in the feature's history changes nothing.
func (st *State) Advance(tag Tag, key, subject string, at time.Time) bool {
	f := st.Features[tag.Feature]
	if f == nil {
		f = &Feature{Done: map[string]int{}}
		st.Features[tag.Feature] = f
	}
	for _, s := range f.History {
		if s.Task == key {
			return false
		}
	}
	label := tag.Label()
	f.Phase = label
	if tag.Phase == Act && tag.Round > f.Iteration {
		f.Iteration = tag.Round
	}
	if f.Done == nil {
		f.Done = map[string]int{}
	}
	f.Done[label]++
	f.Updated = at.UTC()
	f.History = append(f.History, Step{Phase: label, Task: key, Subject: subject, At: at.UTC()})
	if n := len(f.History); n > MaxHistory {
		f.History = append([]Step(nil), f.History[n-MaxHistory:]...)
	}
	return true
}

// Record advances the state file at path under its lock; see
// [State.Advance]. It reports whether the file changed.
func Record(path string, tag Tag, key, subject string, at time.Time) (changed bool, err error) {
	return RecordAt(safepath.At(path), tag, key, subject, at)
}

// RecordAt is [Record] for a state file confined to its root.
func RecordAt(path safepath.Path, tag Tag, key, subject string, at time.Time) (changed bool, err error) {
	err = statefile.Update(path, func(old []byte) ([]byte, error) {
		st, err := decode(path.String(), old)
		if err != nil {
			return nil, err
		}
		if !st.Advance(tag, key, subject, at) {
			return nil, statefile.ErrNoChange
		}
		changed = true
		data, err := json.MarshalIndent(st, "", "  ")
		return append(data, '\n'), err
	})
	return changed, err
}
