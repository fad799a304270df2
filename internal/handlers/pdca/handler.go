package pdca

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
	"github.com/hookwright/hookwright/internal/runtime/tasklist"
	state "github.com/hookwright/hookwright/internal/state/pdca"
	teamstatus "github.com/hookwright/hookwright/internal/state/team"
)

// Advancer is the TaskCompleted handler that advances a feature's phase.
// Register it for TaskCompleted with the matcher "".
type Advancer struct {
	Config config.PDCA
	// Dir is the project folder; empty means $CLAUDE_PROJECT_DIR or the
	// input's cwd.
	Dir string
	// Getenv reads the environment (main's project.Env); nil is an empty one.
	Getenv func(string) string
	// Now is the clock (main's project.Env); nil reads as the zero time.
	Now func() time.Time
}

// Name names the handler in reports.
func (Advancer) Name() string { return "pdca" }

// Handle serves [Advancer.TaskCompleted] and ignores every other event.
func (a Advancer) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(a.TaskCompleted).Handle(ctx, in)
}

// TaskCompleted records a completed tagged task.
func (a Advancer) TaskCompleted(_ context.Context, ev *hooks.TaskCompleted) (hooks.Result, error) {
	if !a.Config.Enabled {
		return hooks.Result{}, nil
	}
	tag, ok, err := state.Parse(ev.TaskSubject)
	if err != nil {
		return hooks.Result{SystemMessage: "hookwright " + err.Error()}, nil
	}
	if !ok {
		return hooks.Result{}, nil
	}
	getenv := project.Getenv(a.Getenv)
	dir := project.Dir(a.Dir, ev, getenv)
	path, err := project.Path(dir, a.Config.State)
	if err != nil {
		return hooks.Result{}, err
	}
	key := TaskKey(getenv, ev)
	changed, err := state.RecordAt(path, tag, key, ev.TaskSubject, project.Now(a.Now))
	if err != nil {
		return hooks.Result{}, err
	}
	if !changed || a.Config.Automation == config.AutomationManual {
		return hooks.Result{}, nil
	}
	note := fmt.Sprintf("PDCA %s: %s done", tag.Feature, tag.Label())
	if next := state.Next(tag.Label()); next != "" && tag.Phase != state.Report {
		note += "; next: " + next
		if a.Config.Automation == config.AutomationFull {
			note += fmt.Sprintf(" (an idle teammate is offered the next [%s] %s task first)", nextTag(tag.Label()), tag.Feature)
		}
	}
	return hooks.Context(note + "."), nil
}

// nextTag is the tag of the phase after label, as a task subject starts:
// "Check" after "Do", "Do" after an Act round, "Act" after Check.
func nextTag(label string) string {
	switch {
	case label == state.Check:
		return state.Act
	case strings.HasPrefix(label, state.Act):
		return state.Do
	}
	return state.Next(label)
}

// TaskKey names a task across sessions: "<task list>/<task id>", with the
// list found as Claude Code finds it (see [tasklist.ListID]).
func TaskKey(getenv func(string) string, ev *hooks.TaskCompleted) string {
	list := tasklist.ListID(getenv, ev.TeamName, ev.SessionID)
	return tasklist.Sanitize(list) + "/" + tasklist.Sanitize(ev.TaskID)
}

// MaxNudges is how many times one task is offered to one idle teammate.
const MaxNudges = 2

// IdleFile is where the nudge counts live, relative to the project.
const IdleFile = config.Dir + "/idle.json"

// NextTask is the TeammateIdle handler that hands an idle teammate its next
// task. Register it for TeammateIdle with the matcher "".
type NextTask struct {
	Config config.PDCA
	// Dir is the project folder; empty means $CLAUDE_PROJECT_DIR or cwd.
	Dir string
	// Getenv reads the environment (HOME, CLAUDE_CONFIG_DIR,
	// CLAUDE_CODE_TASK_LIST_ID), main's project.Env; nil is an empty one.
	Getenv func(string) string
}

// Name names the handler in reports.
func (NextTask) Name() string { return "next-task" }

// Handle serves [NextTask.TeammateIdle] and ignores every other event.
func (n NextTask) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(n.TeammateIdle).Handle(ctx, in)
}

// TeammateIdle blocks the idle with the teammate's next task, if there is one.
func (n NextTask) TeammateIdle(_ context.Context, ev *hooks.TeammateIdle) (hooks.Result, error) {
	if !n.Config.Enabled || ev.TeammateName == "" || ev.TeamName == "" {
		return hooks.Result{}, nil
	}
	getenv := project.Getenv(n.Getenv)
	cfgDir := tasklist.ConfigDir(getenv)
	if cfgDir == "" {
		return hooks.Result{}, nil
	}
	var tasks []tasklist.Task
	var err error
	for _, list := range tasklist.ListIDs(getenv, ev.TeamName, ev.SessionID) {
		if tasks, err = tasklist.List(tasklist.Dir(cfgDir, list)); err != nil || len(tasks) > 0 {
			break
		}
	}
	if err != nil {
		return hooks.Result{}, err
	}
	dir := project.Dir(n.Dir, ev, getenv)
	tasks = n.untaken(dir, ev.Team, tasks)
	var t tasklist.Task
	ok := false
	if n.Config.Automation == config.AutomationFull {
		t, ok = n.nextPhase(dir, ev.TeammateName, tasks)
	}
	if !ok {
		t, ok = Pick(ev.TeammateName, tasks)
	}
	if !ok {
		return hooks.Result{}, nil
	}
	path, err := project.Path(dir, IdleFile)
	if err != nil {
		return hooks.Result{}, err
	}
	offer, err := nudge(path, ev.TeamName+"/"+ev.TeammateName+"/"+t.ID)
	if err != nil {
		return hooks.Result{}, err
	}
	if !offer {
		return hooks.Result{}, nil
	}
	return hooks.Blocked(Message(ev.TeammateName, t)), nil
}

// untaken drops the unowned tasks the team status shows open with another
// active teammate: two idle teammates are not handed the same task before
// either has claimed it.
func (n NextTask) untaken(dir string, team hooks.Team, tasks []tasklist.Task) []tasklist.Task {
	st, err := teamstatus.Load(dir, team.TeamName)
	if err != nil || len(st.Teammates) == 0 {
		return tasks
	}
	out := tasks[:0:0]
	for _, t := range tasks {
		if t.Owner == "" && len(st.TakenBy(t.ID, team.TeammateName)) > 0 {
			continue
		}
		out = append(out, t)
	}
	return out
}

// nextPhase is full automation's choice: a ready task, owned by teammate or
// by nobody, whose tag is the next phase of a feature in the PDCA state
// (the most recently advanced feature first).
func (n NextTask) nextPhase(dir, teammate string, tasks []tasklist.Task) (tasklist.Task, bool) {
	path, err := project.Path(dir, n.Config.State)
	if err != nil {
		return tasklist.Task{}, false
	}
	st, err := state.LoadPath(path)
	if err != nil {
		return tasklist.Task{}, false
	}
	names := make([]string, 0, len(st.Features))
	for name, f := range st.Features {
		if f != nil && f.Phase != state.Report {
			names = append(names, name)
		}
	}
	sort.Slice(names, func(i, j int) bool { return st.Features[names[i]].Updated.After(st.Features[names[j]].Updated) })
	for _, name := range names {
		want := nextTag(st.Features[name].Phase)
		for _, t := range tasks {
			tag, ok, _ := state.Parse(t.Subject)
			if !ok || tag.Feature != name || tag.Phase != want || t.Status != tasklist.Pending ||
				t.Owner != "" && t.Owner != teammate || !tasklist.Ready(t, tasks) {
				continue
			}
			return t, true
		}
	}
	return tasklist.Task{}, false
}

// Pick chooses the task to hand to teammate: a task it owns that is in
// progress, else the first ready pending task it owns, else the first ready
// pending task nobody owns. Tasks are in id order.
func Pick(teammate string, tasks []tasklist.Task) (tasklist.Task, bool) {
	for _, t := range tasks {
		if t.Status == tasklist.InProgress && t.Owner == teammate {
			return t, true
		}
	}
	for _, owner := range []string{teammate, ""} {
		for _, t := range tasks {
			if t.Owner == owner && tasklist.Ready(t, tasks) {
				return t, true
			}
		}
	}
	return tasklist.Task{}, false
}

// Message is what the idle teammate reads.
func Message(teammate string, t tasklist.Task) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Next task: #%s %s", t.ID, t.Subject)
	switch {
	case t.Status == tasklist.InProgress:
		b.WriteString("\nIt is still in progress and yours: finish it, then mark it completed with TaskUpdate.")
	case t.Owner == "":
		fmt.Fprintf(&b, "\nClaim it with TaskUpdate (taskId %q, status \"in_progress\", owner %q), do it, then mark it completed.", t.ID, teammate)
	default:
		fmt.Fprintf(&b, "\nStart it with TaskUpdate (taskId %q, status \"in_progress\"), do it, then mark it completed.", t.ID)
	}
	if d := strings.TrimSpace(t.Description); d != "" {
		if len(d) > 500 {
			d = d[:500] + "..."
		}
		b.WriteString("\nDescription: " + d)
	}
	return b.String()
}

// nudge counts one offer of key and reports whether it is still allowed.
func nudge(path safepath.Path, key string) (offer bool, err error) {
	err = statefile.Update(path, func(old []byte) ([]byte, error) {
		counts := map[string]int{}
		if len(old) > 0 {
			if err := json.Unmarshal(old, &counts); err != nil {
				counts = map[string]int{} // a broken counter file only resets counts
			}
		}
		if counts[key] >= MaxNudges {
			return nil, statefile.ErrNoChange
		}
		counts[key]++
		offer = true
		if len(counts) > 5000 { // bound the file: old teams are forgotten
			counts = map[string]int{key: counts[key]}
		}
		data, err := json.MarshalIndent(counts, "", "  ")
		return append(data, '\n'), err
	})
	if err != nil {
		return false, fmt.Errorf("%s: %w", path.Base(), err)
	}
	return offer, nil
}
