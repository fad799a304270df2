// Package install reports, at the start of a session, an installed
// plugin folder that some Claude Code release would read wrong (package
// internal/runtime/installcheck): a hooks/hooks.json that older releases
// refuse whole, or a hooks file plugin.json names that is missing. The
// report is one systemMessage with the one command that fixes it, shown by
// whichever release runs the next session, since the release that refuses
// the file runs none of the plugin's hooks and cannot say so itself.
package install

import (
	"context"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/installcheck"
)

// Checker is the SessionStart handler.
type Checker struct {
	// Root is the plugin folder (${CLAUDE_PLUGIN_ROOT}); empty when the
	// hook does not run from a plugin (hooks in a settings file).
	Root string
}

// New builds the checker for one call.
func New(c call.Call) Checker { return Checker{Root: c.Getenv("CLAUDE_PLUGIN_ROOT")} }

// Name is the handler's name in the journal.
func (Checker) Name() string { return "install" }

// SessionStart checks the plugin folder once per session. It never
// blocks: a start is never held up by the check.
func (c Checker) SessionStart(_ context.Context, _ *hooks.SessionStart) (hooks.Result, error) {
	if p, ok := installcheck.Check(c.Root); !ok {
		return hooks.Result{SystemMessage: p.Message("hookwright")}, nil
	}
	return hooks.Result{}, nil
}
