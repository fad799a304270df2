package session

import (
	"context"
	"slices"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/tasklist"
)

// Dependencies is the TaskCompleted handler that records, as the call's
// journal kind, a completion that made another task ready: PAL Kit's
// dependency_resolved event. It reads the task list and says nothing to
// the model. Register it for TaskCompleted with the matcher "".
type Dependencies struct {
	// Getenv finds the task list (CLAUDE_CONFIG_DIR, HOME,
	// CLAUDE_CODE_TASK_LIST_ID); nil is an empty environment.
	Getenv func(string) string
	// Mark records the call's journal kind (call.Call.Mark).
	Mark func(kind string)
}

// Name names the handler in reports.
func (Dependencies) Name() string { return "dependencies" }

// Handle serves [Dependencies.TaskCompleted] and ignores every other event.
func (d Dependencies) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(d.TaskCompleted).Handle(ctx, in)
}

// TaskCompleted marks the call when the completed task was the last open
// blocker of a pending task. The task's own file may still say it is in
// progress (native TaskCompleted fires before the update): it counts as
// completed here.
func (d Dependencies) TaskCompleted(_ context.Context, ev *hooks.TaskCompleted) (hooks.Result, error) {
	if d.Mark == nil || ev.TaskID == "" {
		return hooks.Result{}, nil
	}
	getenv := project.Getenv(d.Getenv)
	cfg := tasklist.ConfigDir(getenv)
	if cfg == "" {
		return hooks.Result{}, nil
	}
	var tasks []tasklist.Task
	for _, list := range tasklist.ListIDs(getenv, ev.TeamName, ev.SessionID) {
		if ts, err := tasklist.List(tasklist.Dir(cfg, list)); err == nil && len(ts) > 0 {
			tasks = ts
			break
		}
	}
	for i := range tasks {
		if tasks[i].ID == ev.TaskID {
			tasks[i].Status = tasklist.Completed
		}
	}
	for _, t := range tasks {
		if slices.Contains(t.BlockedBy, ev.TaskID) && tasklist.Ready(t, tasks) {
			d.Mark(journal.KindDependencyResolved)
			break
		}
	}
	return hooks.Result{}, nil
}
