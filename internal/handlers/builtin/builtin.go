// Package builtin registers hookwright's own handlers: the set the plugin's
// hooks.json (manifests/hookwright.spec.json) calls. A test in the manifests
// package proves the two agree, event by event and matcher by matcher.
//
// The registrations are a table, so that one hook call builds only its own
// event's handlers ([For]) while tests and tools see them all ([Mux]). Every
// handler gets main's one [project.Env]: the environment and the clock come
// from there, never from the process.
package builtin

import (
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
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
)

// registration is one built-in handler: where it is registered, and how to
// make it from the config.
type registration struct {
	event   hooks.Event
	matcher string
	handler func(cfg config.Config, env project.Env) hooks.Handler
}

// registrations lists the built-in handlers in the order they run. Within an
// event the order matters: PDCA and next-task run after the artifact gate,
// so when it blocks, the task stays open and nothing advances.
var registrations = []registration{
	// The guard sees every tool: its command and path rules read Bash and
	// the file tools, guard.tools any tool by name (WebFetch, MCP tools).
	{hooks.EventPreToolUse, guard.Tools, guardFor},

	// Team gates and the scratchpad chain.
	{hooks.EventSessionStart, "", func(c config.Config, env project.Env) hooks.Handler { return scratchpad.Startup{Options: pad(c, env)} }},
	{hooks.EventSubagentStart, "", func(c config.Config, env project.Env) hooks.Handler {
		return teamctx.Injector{Root: c.Artifacts.Root, Getenv: env.Getenv}
	}},
	{hooks.EventSubagentStart, "", func(c config.Config, env project.Env) hooks.Handler { return scratchpad.Assign{Options: pad(c, env)} }},
	{hooks.EventSubagentStop, "", func(c config.Config, env project.Env) hooks.Handler {
		return scratchpad.SubagentGate{Options: pad(c, env)}
	}},
	{hooks.EventStop, "", func(c config.Config, env project.Env) hooks.Handler {
		return scratchpad.CoordinatorGate{Options: pad(c, env)}
	}},

	// The Stop loop runs after the scratchpad gates: a stop they block is
	// not a round.
	{hooks.EventStop, "", func(c config.Config, _ project.Env) hooks.Handler { return loop.Stopper{Config: c.Loop} }},
	{hooks.EventSubagentStop, "", func(c config.Config, _ project.Env) hooks.Handler { return loop.Stopper{Config: c.Loop} }},
	{hooks.EventTeammateIdle, "", func(c config.Config, env project.Env) hooks.Handler {
		return artifacts.Gate{Config: c.Artifacts, Getenv: env.Getenv}
	}},
	{hooks.EventTaskCompleted, "", func(c config.Config, env project.Env) hooks.Handler {
		return artifacts.Gate{Config: c.Artifacts, Getenv: env.Getenv}
	}},

	// PDCA, work units and session fingerprints.
	{hooks.EventTaskCompleted, "", func(c config.Config, env project.Env) hooks.Handler {
		return pdca.Advancer{Config: c.PDCA, Getenv: env.Getenv, Now: env.Now}
	}},
	{hooks.EventTeammateIdle, "", func(c config.Config, env project.Env) hooks.Handler {
		return pdca.NextTask{Config: c.PDCA, Getenv: env.Getenv}
	}},

	// Teammate status runs after the gates and next-task: an idle they send
	// back to work leaves the teammate active.
	{hooks.EventTeammateIdle, "", func(c config.Config, _ project.Env) hooks.Handler { return teamstatus.Recorder{Config: c.Team} }},
	{hooks.EventTaskCompleted, "", func(c config.Config, _ project.Env) hooks.Handler { return teamstatus.Recorder{Config: c.Team} }},
	{hooks.EventPreToolUse, "Bash|Write|Edit|MultiEdit", func(c config.Config, env project.Env) hooks.Handler {
		return work.Gate{Config: c.Work, Getenv: env.Getenv, Now: env.Now}
	}},
	{hooks.EventPostToolUse, "", func(c config.Config, env project.Env) hooks.Handler {
		return work.Observer{Config: c.Work, Getenv: env.Getenv, Now: env.Now}
	}},
	{hooks.EventSessionStart, "", func(_ config.Config, env project.Env) hooks.Handler {
		return session.Recorder{Getenv: env.Getenv, Now: env.Now}
	}},
	{hooks.EventSessionEnd, "", func(_ config.Config, env project.Env) hooks.Handler {
		return session.Ender{Getenv: env.Getenv, Now: env.Now}
	}},
	{hooks.EventSessionEnd, "", func(_ config.Config, env project.Env) hooks.Handler { return work.Ender{Getenv: env.Getenv} }},

	// Tool metrics: every tool call's journal line (tool, tool_ms, outcome,
	// first error line); SessionEnd sums them into the fingerprint.
	{hooks.EventPostToolUse, "", func(config.Config, project.Env) hooks.Handler { return session.ToolMetrics{} }},
	{hooks.EventPostToolUseFailure, "", func(config.Config, project.Env) hooks.Handler { return session.ToolMetrics{} }},

	// Quality: the project's formatter and linter on the file just edited
	// (quality.lint, quality.format), and quality.commands: the user's, and
	// a project's only where the user config trusts it (config.LoadLayers).
	{hooks.EventPostToolUse, "Write|Edit|MultiEdit", func(c config.Config, env project.Env) hooks.Handler {
		return quality.Checker{Config: c.Quality, Getenv: env.Getenv}
	}},

	// Compaction: a snapshot before, a briefing after.
	{hooks.EventPreCompact, "", func(c config.Config, _ project.Env) hooks.Handler { return compact.Saver{Config: c} }},
	{hooks.EventSessionStart, "", func(c config.Config, _ project.Env) hooks.Handler { return compact.Briefer{Config: c} }},
}

func guardFor(c config.Config, env project.Env) hooks.Handler {
	g := guard.New(c.Guard)
	g.Getenv = env.Getenv
	return g
}

func pad(c config.Config, env project.Env) scratchpad.Options {
	return scratchpad.Options{Config: c.Scratchpad, Getenv: env.Getenv, Now: env.Now}
}

// Mux returns a mux with every built-in handler registered for cfg, for
// tests and tools that inspect the routes. Its handlers see an empty
// environment and a zero clock; a call serves its event with [For].
func Mux(cfg config.Config) *hooks.Mux {
	m := new(hooks.Mux)
	for _, r := range registrations {
		m.Handle(r.event, r.matcher, r.handler(cfg, project.Env{}))
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
func Deadline(cfg config.Config, dir string, event hooks.Event, def time.Duration) time.Duration {
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
	if st, err := loop.Load(dir); err == nil {
		l = st.Effective(l)
	}
	if !l.Enabled {
		return def
	}
	return max(def, time.Duration(min(l.Timeout, config.MaxLoopTimeout)+10)*time.Second)
}

// For returns a mux with only event's handlers, in the same order as in
// [Mux]: all one hook call needs.
func For(cfg config.Config, event hooks.Event, env project.Env) *hooks.Mux {
	m := new(hooks.Mux)
	for _, r := range registrations {
		if r.event == event {
			m.Handle(r.event, r.matcher, r.handler(cfg, env))
		}
	}
	return m
}
