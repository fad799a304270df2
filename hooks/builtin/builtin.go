// Package builtin registers hookwright's own handlers: the set the plugin's
// hooks.json (manifests/hookwright.spec.json) calls. A test in the manifests
// package proves the two agree, event by event and matcher by matcher.
package builtin

import (
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/hooks/artifacts"
	"github.com/hookwright/hookwright/hooks/config"
	"github.com/hookwright/hookwright/hooks/guard"
	"github.com/hookwright/hookwright/hooks/scratchpad"
	"github.com/hookwright/hookwright/hooks/teamctx"
)

// Mux returns a mux with every built-in handler registered for cfg.
func Mux(cfg config.Config) *hooks.Mux {
	m := new(hooks.Mux)
	m.Handle(hooks.EventPreToolUse, "Bash|Write|Edit|MultiEdit", guard.Guard{Config: cfg.Guard})

	// Team gates and the scratchpad chain (issue 5).
	pad := scratchpad.Options{Config: cfg.Scratchpad}
	m.Handle(hooks.EventSessionStart, "", scratchpad.Startup{Options: pad})
	m.Handle(hooks.EventSubagentStart, "", teamctx.Injector{Root: cfg.Artifacts.Root})
	m.Handle(hooks.EventSubagentStart, "", scratchpad.Assign{Options: pad})
	m.Handle(hooks.EventSubagentStop, "", scratchpad.SubagentGate{Options: pad})
	m.Handle(hooks.EventStop, "", scratchpad.CoordinatorGate{Options: pad})
	m.Handle(hooks.EventTeammateIdle, "", artifacts.Gate{Config: cfg.Artifacts})
	m.Handle(hooks.EventTaskCompleted, "", artifacts.Gate{Config: cfg.Artifacts})
	return m
}
