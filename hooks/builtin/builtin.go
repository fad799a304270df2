// Package builtin registers hookwright's own handlers: the set the plugin's
// hooks.json (manifests/hookwright.spec.json) calls. A test in the manifests
// package proves the two agree, event by event and matcher by matcher.
package builtin

import (
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/hooks/artifacts"
	"github.com/hookwright/hookwright/hooks/config"
	"github.com/hookwright/hookwright/hooks/guard"
	"github.com/hookwright/hookwright/hooks/pdca"
	"github.com/hookwright/hookwright/hooks/scratchpad"
	"github.com/hookwright/hookwright/hooks/session"
	"github.com/hookwright/hookwright/hooks/teamctx"
	"github.com/hookwright/hookwright/hooks/work"
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

	// PDCA, work units and session fingerprints. PDCA and next-task run after
	// the artifact gate: when it blocks, the task stays open and nothing
	// advances.
	m.Handle(hooks.EventTaskCompleted, "", pdca.Advancer{Config: cfg.PDCA})
	m.Handle(hooks.EventTeammateIdle, "", pdca.NextTask{Config: cfg.PDCA})
	m.Handle(hooks.EventPreToolUse, "Bash|Write|Edit|MultiEdit", work.Gate{Config: cfg.Work})
	m.Handle(hooks.EventPostToolUse, "TaskUpdate", work.Observer{Config: cfg.Work})
	m.Handle(hooks.EventSessionStart, "", session.Recorder{})
	m.Handle(hooks.EventSessionEnd, "", session.Ender{})
	m.Handle(hooks.EventSessionEnd, "", work.Ender{})
	return m
}
