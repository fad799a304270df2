// Package work makes every edit belong to a unit of work.
//
// # Work units
//
// A work unit is either
//
//   - a task in progress: a TaskUpdate call that set a task's status to
//     "in_progress", seen by [Observer] on PostToolUse (matcher TaskUpdate)
//     and recorded until a later TaskUpdate moves the task on (completed,
//     pending, deleted) or the session ends ([Ender] on SessionEnd). A task
//     unit belongs to the session that started it, so one agent's task does
//     not cover another session's edits; or
//   - a named unit started by hand with `hwctl work start <name>` and ended
//     with `hwctl work stop <name>`. It covers every session in the project
//     until it is stopped.
//
// Both live in .hookwright/work.json (package internal/state/work).
//
// # The gate
//
// [Gate] runs on PreToolUse for every tool that edits the project: Write,
// Edit, MultiEdit, NotebookEdit, and Bash commands that write a file in
// it ([BashEdits]: redirects, tee, sed -i, cp, mv, rm, ...). When the
// session has no active work unit, config work.mode decides:
//
//   - "strict": the edit is denied, and the reason says how to start a
//     unit (with work.auto_create, the default, a ready command under a
//     generated id);
//   - "warn": the edit goes on, its journal line is marked untracked_edit
//     (hwctl events --kind untracked_edit), and the model is told once per
//     session, as additionalContext, how to start a unit;
//   - "off" (the default: work units are a workflow a project turns on,
//     package workflow): nothing is checked or recorded.
//
// Every failure (an unreadable work.json, say) fails open.
package work

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/tasklist"
	"github.com/hookwright/hookwright/internal/runtime/toolinput"
	state "github.com/hookwright/hookwright/internal/state/work"
)

// Gate is the PreToolUse handler that checks an edit belongs to a work
// unit. Register it for PreToolUse with
// "Bash|Write|Edit|MultiEdit|NotebookEdit".
type Gate struct {
	Config config.Work
	// Dir is the project folder; empty means $CLAUDE_PROJECT_DIR or cwd.
	Dir string
	// Getenv reads the environment (main's project.Env); nil is an empty one.
	Getenv func(string) string
	// Now is the clock (main's project.Env); nil reads as the zero time.
	Now func() time.Time
	// Mark records the call's journal kind (call.Call.Mark): warn mode
	// marks every edit outside a work unit journal.KindUntrackedEdit. Nil
	// marks nothing.
	Mark func(kind string)
}

// Name names the handler in reports.
func (Gate) Name() string { return "work" }

// Hint is what the model is told when an edit has no work unit.
const Hint = "hookwright work: this edit belongs to no active work unit. " +
	"Start one first: create a task (TaskCreate) and set it in progress " +
	"(TaskUpdate status \"in_progress\"), or ask the user to run " +
	"`hwctl work start <name>`."

// StrictReason is the strict block's reason for session: the hint, ending
// with the command that opens a unit under the id [UnitID] generates, so
// the model (or the user) can run it as it stands; with autoCreate off
// (work.auto_create false) it says only how to start one.
func StrictReason(session string, autoCreate bool) string {
	r := "hookwright work: this edit belongs to no active work unit (work.mode strict). " +
		"Start one first: create a task (TaskCreate) and set it in progress " +
		"(TaskUpdate status \"in_progress\"), or "
	if !autoCreate {
		return r + "ask the user to run `hwctl work start <name>`."
	}
	return r + "run: hwctl work start " + UnitID(session)
}

// UnitID is the generated id of the work unit the strict block proposes
// for session: "wu-" and 8 hex digits of the session id's hash, the same
// for every block of one session, and a valid unit name whatever the
// session id holds.
func UnitID(session string) string {
	h := fnv.New32a()
	h.Write([]byte(session))
	return fmt.Sprintf("wu-%08x", h.Sum32())
}

// Handle serves [Gate.PreToolUse] and ignores every other event.
func (g Gate) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(g.PreToolUse).Handle(ctx, in)
}

// PreToolUse denies (strict) or flags (warn) an edit outside a work unit.
func (g Gate) PreToolUse(_ context.Context, ev *hooks.PreToolUse) (hooks.Result, error) {
	if g.Config.Mode == config.WorkOff {
		return hooks.Result{}, nil
	}
	dir := project.Dir(g.Dir, ev, project.Getenv(g.Getenv))
	switch ev.ToolName {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
	case "Bash":
		var in struct {
			Command string `json:"command"`
		}
		if toolinput.Decode(ev.ToolInput, &in) != nil || !BashEdits(in.Command, ev.Cwd, dir) {
			return hooks.Result{}, nil
		}
	default:
		return hooks.Result{}, nil
	}
	st, err := state.Load(dir)
	if err != nil {
		return hooks.Result{}, err
	}
	if len(st.Active(ev.SessionID)) > 0 {
		return hooks.Result{}, nil
	}
	if g.Config.Mode == config.WorkStrict {
		return hooks.Blocked(StrictReason(ev.SessionID, g.Config.AutoCreate)), nil
	}
	if g.Mark != nil {
		g.Mark(journal.KindUntrackedEdit)
	}
	if _, done := st.Warned[ev.SessionID]; done {
		return hooks.Result{}, nil
	}
	first := false
	err = state.Update(dir, func(st *state.State) bool {
		if _, done := st.Warned[ev.SessionID]; done {
			return false
		}
		if len(st.Warned) >= state.MaxUnits {
			clear(st.Warned)
		}
		st.Warned[ev.SessionID] = project.Now(g.Now).UTC()
		first = true
		return true
	})
	if err != nil {
		return hooks.Result{}, err
	}
	if !first {
		return hooks.Result{}, nil
	}
	return hooks.Context(Hint + " (This warning is shown once per session.)"), nil
}

// Observer is the PostToolUse handler that records tasks going in and out
// of progress. Register it for PostToolUse with "TaskUpdate".
type Observer struct {
	Config config.Work
	Dir    string
	Getenv func(string) string
	Now    func() time.Time
}

// Name names the handler in reports.
func (Observer) Name() string { return "work-observer" }

// Handle serves [Observer.PostToolUse] and ignores every other event.
func (o Observer) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(o.PostToolUse).Handle(ctx, in)
}

// PostToolUse records a TaskUpdate's status change.
func (o Observer) PostToolUse(_ context.Context, ev *hooks.PostToolUse) (hooks.Result, error) {
	if ev.ToolName != "TaskUpdate" || o.Config.Mode == config.WorkOff {
		return hooks.Result{}, nil
	}
	var u struct {
		TaskID string `json:"taskId"`
		Status string `json:"status"`
	}
	if err := toolinput.Decode(ev.ToolInput, &u); err != nil {
		return hooks.Result{}, fmt.Errorf("TaskUpdate input: %w", err)
	}
	if u.Status == "" || u.TaskID == "" {
		return hooks.Result{}, nil
	}
	var r struct {
		Success *bool `json:"success"`
	}
	if json.Unmarshal(ev.ToolResponse, &r) == nil && r.Success != nil && !*r.Success {
		return hooks.Result{}, nil
	}
	getenv := project.Getenv(o.Getenv)
	key := ev.SessionID + "/" + u.TaskID
	name := "task #" + u.TaskID
	if u.Status == tasklist.InProgress {
		if cfg := tasklist.ConfigDir(getenv); cfg != "" {
			dir := tasklist.Dir(cfg, tasklist.ListID(getenv, "", ev.SessionID))
			if t, ok, _ := tasklist.Get(dir, u.TaskID); ok && t.Subject != "" {
				name += " " + t.Subject
			}
		}
	}
	err := state.Update(project.Dir(o.Dir, ev, getenv), func(st *state.State) bool {
		_, had := st.Tasks[key]
		if u.Status != tasklist.InProgress {
			delete(st.Tasks, key)
			return had
		}
		if had || len(st.Tasks) >= state.MaxUnits {
			return false
		}
		st.Tasks[key] = state.Unit{Name: name, Session: ev.SessionID, TaskID: u.TaskID, Started: project.Now(o.Now).UTC()}
		return true
	})
	if err != nil {
		return hooks.Result{}, err
	}
	return hooks.Result{}, nil
}

// Ender is the SessionEnd handler that drops the ending session's task
// units and warning mark. Register it for SessionEnd with "".
type Ender struct {
	Dir    string
	Getenv func(string) string
}

// Name names the handler in reports.
func (Ender) Name() string { return "work-end" }

// Handle serves [Ender.SessionEnd] and ignores every other event.
func (e Ender) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(e.SessionEnd).Handle(ctx, in)
}

// SessionEnd forgets the session.
func (e Ender) SessionEnd(_ context.Context, ev *hooks.SessionEnd) (hooks.Result, error) {
	dir := project.Dir(e.Dir, ev, project.Getenv(e.Getenv))
	if path, err := state.Path(dir); err != nil {
		return hooks.Result{}, err
	} else if _, err := safepath.Stat(path); err != nil {
		return hooks.Result{}, nil // nothing recorded, nothing to forget
	}
	err := state.Update(dir, func(st *state.State) bool {
		changed := false
		for k, u := range st.Tasks {
			if u.Session == ev.SessionID {
				delete(st.Tasks, k)
				changed = true
			}
		}
		if _, ok := st.Warned[ev.SessionID]; ok {
			delete(st.Warned, ev.SessionID)
			changed = true
		}
		return changed
	})
	if err != nil {
		return hooks.Result{}, err
	}
	return hooks.Result{}, nil
}
