// Package builtin registers hookwright's own handlers: the set the plugin's
// hooks.json (manifests/hookwright.spec.json) calls. A test in the manifests
// package proves the two agree, event by event and matcher by matcher.
//
// The registrations are a table, so that one hook call builds only its own
// event's handlers ([For]) while tests and tools see them all ([Mux]). Every
// handler is built from the call's one [call.Call] (the project folder
// resolved once, main's environment and clock, the config): nothing comes
// from the process, and no handler works the project folder out again.
package builtin

import (
	"fmt"
	"github.com/hookwright/hookwright/hooks"
	"time"

	"github.com/hookwright/hookwright/internal/handlers/artifacts"
	"github.com/hookwright/hookwright/internal/handlers/compact"
	"github.com/hookwright/hookwright/internal/handlers/guard"
	"github.com/hookwright/hookwright/internal/handlers/loop"
	"github.com/hookwright/hookwright/internal/handlers/pdca"
	"github.com/hookwright/hookwright/internal/handlers/quality"
	"github.com/hookwright/hookwright/internal/handlers/scratchpad"
	"github.com/hookwright/hookwright/internal/handlers/session"
	"github.com/hookwright/hookwright/internal/handlers/teamctx"
	"github.com/hookwright/hookwright/internal/handlers/teamstatus"
	"github.com/hookwright/hookwright/internal/handlers/work"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
	loopstate "github.com/hookwright/hookwright/internal/state/loop"
)

// registration is one built-in handler: where it is registered, and how to
// make it for one hook call. Every handler is built from the call's one
// [call.Call]: its project folder, environment, clock and config.
type registration struct {
	event   hooks.Event
	matcher string
	handler func(c call.Call) hooks.Handler
}

// registrations lists the built-in handlers in the order they run. Within an
// event the order matters: PDCA and next-task run after the artifact gate,
// so when it blocks, the task stays open and nothing advances.
var registrations = []registration{
	// The guard sees every tool: its command and path rules read Bash and
	// the file tools, guard.tools any tool by name (WebFetch, MCP tools).
	{hooks.EventPreToolUse, guard.Tools, guardFor},

	// Team gates and the scratchpad chain.
	{hooks.EventSessionStart, "", func(c call.Call) hooks.Handler { return scratchpad.Startup{Options: pad(c)} }},
	{hooks.EventSubagentStart, "", func(c call.Call) hooks.Handler {
		return teamctx.Injector{Root: c.Config().Artifacts.Root, Project: c.Root(), Getenv: c.Getenv}
	}},
	{hooks.EventSubagentStart, "", func(c call.Call) hooks.Handler { return scratchpad.Assign{Options: pad(c)} }},
	{hooks.EventSubagentStop, "", func(c call.Call) hooks.Handler { return scratchpad.SubagentGate{Options: pad(c)} }},
	{hooks.EventStop, "", func(c call.Call) hooks.Handler { return scratchpad.CoordinatorGate{Options: pad(c)} }},

	// The Stop loop runs after the scratchpad gates: a stop they block is
	// not a round.
	{hooks.EventStop, "", func(c call.Call) hooks.Handler { return loop.New(c) }},
	{hooks.EventSubagentStop, "", func(c call.Call) hooks.Handler { return loop.New(c) }},
	{hooks.EventTeammateIdle, "", func(c call.Call) hooks.Handler {
		return artifacts.Gate{Config: c.Config().Artifacts, Project: c.Root(), Getenv: c.Getenv}
	}},
	{hooks.EventTaskCompleted, "", func(c call.Call) hooks.Handler {
		return artifacts.Gate{Config: c.Config().Artifacts, Project: c.Root(), Getenv: c.Getenv}
	}},

	// PDCA, work units and session fingerprints.
	{hooks.EventTaskCompleted, "", func(c call.Call) hooks.Handler {
		return pdca.Advancer{Config: c.Config().PDCA, Dir: c.Root(), Getenv: c.Getenv, Now: c.Now}
	}},
	{hooks.EventTeammateIdle, "", func(c call.Call) hooks.Handler {
		return pdca.NextTask{Config: c.Config().PDCA, Dir: c.Root(), Getenv: c.Getenv}
	}},

	// Teammate status runs after the gates and next-task: an idle they send
	// back to work leaves the teammate active.
	{hooks.EventTeammateIdle, "", func(c call.Call) hooks.Handler { return teamstatus.New(c) }},
	{hooks.EventTaskCompleted, "", func(c call.Call) hooks.Handler { return teamstatus.New(c) }},
	{hooks.EventPreToolUse, "Bash|Write|Edit|MultiEdit", func(c call.Call) hooks.Handler {
		return work.Gate{Config: c.Config().Work, Dir: c.Root(), Getenv: c.Getenv, Now: c.Now}
	}},
	{hooks.EventPostToolUse, "", func(c call.Call) hooks.Handler {
		return work.Observer{Config: c.Config().Work, Dir: c.Root(), Getenv: c.Getenv, Now: c.Now}
	}},
	{hooks.EventSessionStart, "", func(c call.Call) hooks.Handler {
		return session.Recorder{Dir: c.Root(), Getenv: c.Getenv, Now: c.Now, Version: c.Version()}
	}},
	{hooks.EventSessionEnd, "", func(c call.Call) hooks.Handler {
		return session.Ender{Dir: c.Root(), Getenv: c.Getenv, Now: c.Now}
	}},
	{hooks.EventSessionEnd, "", func(c call.Call) hooks.Handler { return work.Ender{Dir: c.Root(), Getenv: c.Getenv} }},

	// Tool metrics: every tool call's journal line (tool, tool_ms, outcome,
	// first error line); SessionEnd sums them into the fingerprint.
	{hooks.EventPostToolUse, "", func(call.Call) hooks.Handler { return session.ToolMetrics{} }},
	{hooks.EventPostToolUseFailure, "", func(call.Call) hooks.Handler { return session.ToolMetrics{} }},

	// Quality: the project's formatter and linter on the file just edited
	// (quality.lint, quality.format), and quality.commands: the user's, and
	// a project's only where the user config trusts it (config.LoadLayers).
	{hooks.EventPostToolUse, "Write|Edit|MultiEdit", func(c call.Call) hooks.Handler {
		return quality.Checker{Config: c.Config().Quality, Dir: c.Root(), Getenv: c.Getenv}
	}},

	// Compaction: a snapshot before, a briefing after.
	{hooks.EventPreCompact, "", func(c call.Call) hooks.Handler { return compact.NewSaver(c) }},
	{hooks.EventSessionStart, "", func(c call.Call) hooks.Handler { return compact.NewBriefer(c) }},
}

func guardFor(c call.Call) hooks.Handler {
	g := guard.New(c.Config().Guard)
	g.Getenv = c.Getenv
	g.ProjectDir = c.Root()
	return g
}

func pad(c call.Call) scratchpad.Options {
	return scratchpad.Options{Config: c.Config().Scratchpad, Project: c.Root(), Getenv: c.Getenv, Now: c.Now}
}

// Mux returns a mux with every built-in handler registered for cfg, for
// tests and tools that inspect the routes. Its handlers see an empty
// environment and a zero clock; a call serves its event with [For].
func Mux(cfg config.Config) *hooks.Mux {
	m := new(hooks.Mux)
	c := call.New(call.Spec{Config: cfg})
	for _, r := range registrations {
		m.Handle(r.event, r.matcher, r.handler(c))
	}
	return m
}

// FailsClosed names the gate on event that is configured to fail closed
// ("artifacts.fail", "scratchpad.fail"), or "" when every gate there fails
// open: what the runtime does when the hook contract is broken.
func FailsClosed(cfg config.Config, event hooks.Event) string {
	switch event {
	case hooks.EventTeammateIdle, hooks.EventTaskCompleted:
		if cfg.Artifacts.Enabled && cfg.Artifacts.Fail == config.FailClosed {
			return "artifacts.fail"
		}
	case hooks.EventStop, hooks.EventSubagentStop:
		if cfg.Scratchpad.Enabled && cfg.Scratchpad.Fail == config.FailClosed {
			return "scratchpad.fail"
		}
	}
	return ""
}

// Deadline is how long one call of event in the project at dir may take,
// given the runtime's default def: PostToolUse gets the quality budget and
// 1 s more while quality checks are on; the Stop loop's check may run up to its
// timeout, so Stop and SubagentStop get that and 10 s more while the loop
// is on (by config, or armed with hwctl loop start).
func Deadline(cfg config.Config, dir string, event hooks.Event, def time.Duration, getenv func(string) string) time.Duration {
	if event == hooks.EventPostToolUse && (cfg.Quality.Lint || cfg.Quality.Format) {
		budget := 4 * time.Second
		if t := cfg.Quality.Timeout; t > 0 {
			budget = time.Duration(min(t, config.MaxQualityTimeout)) * time.Second
		}
		return max(def, budget+time.Second)
	}
	if event != hooks.EventStop && event != hooks.EventSubagentStop {
		return def
	}
	l := cfg.Loop
	if st, err := loopstate.Load(dir); err == nil {
		st, _ = st.Honoured(dir, getenv)
		l = st.Effective(l)
	}
	if !l.Enabled {
		return def
	}
	return max(def, time.Duration(min(l.Timeout, config.MaxLoopTimeout)+10)*time.Second)
}

// For returns a mux with only event's handlers, in the same order as in
// [Mux], each built from the call c: all one hook call needs.
func For(c call.Call, event hooks.Event) *hooks.Mux {
	m := new(hooks.Mux)
	for _, r := range registrations {
		if r.event == event {
			m.Handle(r.event, r.matcher, r.handler(c))
		}
	}
	return m
}

// Registration names one built-in handler as it is registered: its event,
// its matcher ("" for every target) and the handler's name in reports.
type Registration struct {
	Event   hooks.Event
	Matcher string
	Handler string
}

// Table lists every built-in registration in order. The as-run test of
// the binary (cmd/hookwright) has a step for each entry, and fails when
// one is added here without a step there.
func Table() []Registration {
	out := make([]Registration, 0, len(registrations))
	for _, r := range registrations {
		out = append(out, Registration{r.event, r.matcher, handlerName(r.handler(call.New(call.Spec{Config: config.Default()})))})
	}
	return out
}

func handlerName(h hooks.Handler) string {
	if n, ok := h.(interface{ Name() string }); ok {
		return n.Name()
	}
	return fmt.Sprintf("%T", h)
}
