// Package plugin is a plugin's hook binary as an author writes it, for
// hookstest's own tests: a PreToolUse guard and a TaskCompleted gate.
package plugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/hooks"
)

// Mux is the plugin's handlers; its tests run it in process.
func Mux() *hooks.Mux {
	m := new(hooks.Mux)
	hooks.On(m, "Bash", blockForcePush)
	hooks.On(m, "", requireDeliverable)
	hooks.On(m, "", noteIdle)
	return m
}

func blockForcePush(ctx context.Context, e *hooks.PreToolUse) (hooks.Result, error) {
	bash, err := e.AsBash()
	if err != nil {
		return hooks.Result{}, err
	}
	if strings.Contains(bash.Command, "push --force") {
		return hooks.Blocked("no force pushes"), nil
	}
	return hooks.Result{}, nil
}

// requireDeliverable refuses a completion whose task names "deliverable:
// <path>" while the file is missing in the project.
func requireDeliverable(ctx context.Context, e *hooks.TaskCompleted) (hooks.Result, error) {
	_, rest, ok := strings.Cut(e.TaskDescription, "deliverable: ")
	if !ok || strings.TrimSpace(rest) == "" {
		return hooks.Result{}, nil
	}
	path := strings.Fields(rest)[0]
	if _, err := os.Stat(filepath.Join(hooks.ProjectDir(e, hooks.Env(ctx)), path)); err != nil {
		return hooks.Blocked("task " + e.TaskID + " (" + e.TaskSubject + ") names deliverable " + path + ", which is missing"), nil
	}
	return hooks.Result{}, nil
}

// noteIdle tells who went idle.
func noteIdle(ctx context.Context, e *hooks.TeammateIdle) (hooks.Result, error) {
	if e.TeammateName == "" {
		return hooks.Result{}, nil
	}
	return hooks.Blocked(e.TeammateName + " of " + e.TeamName + " went idle"), nil
}
