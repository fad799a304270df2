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
	"context"
	"time"

	"github.com/hookwright/hookwright/hooks"

	"github.com/hookwright/hookwright/internal/handlers/artifacts"
	"github.com/hookwright/hookwright/internal/handlers/compact"
	"github.com/hookwright/hookwright/internal/handlers/guardhook"
	"github.com/hookwright/hookwright/internal/handlers/install"
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
	"github.com/hookwright/hookwright/internal/runtime/workflow"
	loopstate "github.com/hookwright/hookwright/internal/state/loop"
)

// registration is one built-in handler: the event it is registered for,
// and how to register it on a mux for one hook call. Every handler is built
// from the call's one [call.Call]: its project folder, environment, clock
// and config.
type registration struct {
	event hooks.Event
	// async: the registration hooks.json marks "async" (the runtime runs
	// with --async); [For] leaves it out, [AsyncFor] has only these.
	async    bool
	register func(m *hooks.Mux, c call.Call)
}

// background marks r as the asynchronous registration of its event.
func background(r registration) registration {
	r.async = true
	return r
}

// builtinHandler is what every built-in handler has besides its typed
// methods: a name, for reports and the journal's handler field.
type builtinHandler interface{ Name() string }

// on registers, with [hooks.On], the typed method of the handler that
// build makes from the call, for event and matcher: under the handler's
// name, and with its fail-closed policy when it is a [hooks.FailCloser].
// The method's input type names the event; event repeats it so that [For]
// builds only one event's handlers (TestForMatchesMux holds the two equal).
func on[H builtinHandler, E hooks.Input](event hooks.Event, matcher string, build func(call.Call) H, method func(H, context.Context, E) (hooks.Result, error)) registration {
	return registration{event, false, func(m *hooks.Mux, c call.Call) {
		h := build(c)
		opts := []hooks.RouteOption{hooks.WithName(h.Name())}
		if fc, ok := any(h).(hooks.FailCloser); ok {
			opts = append(opts, hooks.WithFailCloser(fc))
		}
		hooks.On(m, matcher, func(ctx context.Context, e E) (hooks.Result, error) { return method(h, ctx, e) }, opts...)
	}}
}

// registrations lists the built-in handlers in the order they run. Within an
// event the order matters: PDCA and next-task run after the artifact gate,
// so when it blocks, the task stays open and nothing advances.
var registrations = []registration{
	// The guard sees every tool: its command and path rules read Bash and
	// the file tools, guard.tools any tool by name (WebFetch, MCP tools).
	on(hooks.EventPreToolUse, guardhook.Tools, guardhook.New, guardhook.Handler.PreToolUse),

	// The install every release reads: a session says when some release
	// would run fewer hooks than the floor manifest gives it.
	on(hooks.EventSessionStart, "", install.New, install.Checker.SessionStart),

	// Team gates and the scratchpad chain.
	on(hooks.EventSessionStart, "", func(c call.Call) scratchpad.Startup { return scratchpad.Startup{Options: pad(c)} }, scratchpad.Startup.SessionStart),
	on(hooks.EventSubagentStart, "", func(c call.Call) teamctx.Injector {
		return teamctx.Injector{Enabled: c.Workflow(workflow.Artifacts).On, Root: c.Config().Artifacts.Root, Project: c.Root(), Getenv: c.Getenv}
	}, teamctx.Injector.SubagentStart),
	on(hooks.EventSubagentStart, "", func(c call.Call) scratchpad.Assign { return scratchpad.Assign{Options: pad(c)} }, scratchpad.Assign.SubagentStart),
	on(hooks.EventSubagentStop, "", func(c call.Call) scratchpad.SubagentGate { return scratchpad.SubagentGate{Options: pad(c)} }, scratchpad.SubagentGate.SubagentStop),
	on(hooks.EventStop, "", func(c call.Call) scratchpad.CoordinatorGate { return scratchpad.CoordinatorGate{Options: pad(c)} }, scratchpad.CoordinatorGate.Stop),

	// The Stop loop runs after the scratchpad gates: a stop they block is
	// not a round.
	on(hooks.EventStop, "", loop.New, loop.Stopper.Stop),
	on(hooks.EventSubagentStop, "", loop.New, loop.Stopper.SubagentStop),
	on(hooks.EventTeammateIdle, "", artifactsGate, artifacts.Gate.TeammateIdle),
	on(hooks.EventTaskCompleted, "", artifactsGate, artifacts.Gate.TaskCompleted),

	// PDCA, work units and session fingerprints.
	on(hooks.EventTaskCompleted, "", func(c call.Call) pdca.Advancer {
		return pdca.Advancer{Config: pdcaConfig(c), Dir: c.Root(), Getenv: c.Getenv, Now: c.Now}
	}, pdca.Advancer.TaskCompleted),
	on(hooks.EventTeammateIdle, "", func(c call.Call) pdca.NextTask {
		return pdca.NextTask{Config: pdcaConfig(c), Dir: c.Root(), Getenv: c.Getenv}
	}, pdca.NextTask.TeammateIdle),

	// A completion that made another task ready: the journal's
	// dependency_resolved.
	on(hooks.EventTaskCompleted, "", func(c call.Call) session.Dependencies {
		return session.Dependencies{Getenv: c.Getenv, Mark: c.Mark}
	}, session.Dependencies.TaskCompleted),

	// Teammate status runs after the gates and next-task: an idle they send
	// back to work leaves the teammate active.
	on(hooks.EventTeammateIdle, "", teamstatus.New, teamstatus.Recorder.TeammateIdle),
	on(hooks.EventTaskCompleted, "", teamstatus.New, teamstatus.Recorder.TaskCompleted),
	on(hooks.EventPreToolUse, "Bash|Write|Edit|MultiEdit|NotebookEdit", func(c call.Call) work.Gate {
		return work.Gate{Config: workConfig(c), Dir: c.Root(), Getenv: c.Getenv, Now: c.Now, Mark: c.Mark}
	}, work.Gate.PreToolUse),
	on(hooks.EventPostToolUse, "", func(c call.Call) work.Observer {
		return work.Observer{Config: workConfig(c), Dir: c.Root(), Getenv: c.Getenv, Now: c.Now}
	}, work.Observer.PostToolUse),
	on(hooks.EventSessionStart, "", func(c call.Call) session.Recorder {
		return session.Recorder{Dir: c.Root(), Getenv: c.Getenv, Now: c.Now, Version: c.Version()}
	}, session.Recorder.SessionStart),
	on(hooks.EventSessionEnd, "", func(c call.Call) session.Ender {
		return session.Ender{Dir: c.Root(), Getenv: c.Getenv, Now: c.Now}
	}, session.Ender.SessionEnd),
	on(hooks.EventSessionEnd, "", func(c call.Call) work.Ender { return work.Ender{Dir: c.Root(), Getenv: c.Getenv} }, work.Ender.SessionEnd),

	// Tool metrics: every tool call's journal line (tool, tool_ms, outcome,
	// first error line); SessionEnd sums them into the fingerprint.
	on(hooks.EventPostToolUse, "", toolMetrics, session.ToolMetrics.PostToolUse),
	on(hooks.EventPostToolUseFailure, "", toolMetrics, session.ToolMetrics.PostToolUseFailure),

	// Quality: the project's formatter and linter on the file just edited
	// (quality.lint, quality.format), and quality.commands: the user's, and
	// a project's only where the user config trusts it (config.LoadLayers).
	// The synchronous call formats (and lints where the release has no
	// async hooks); the asynchronous one, which Claude Code runs in the
	// background, lints with a budget that fits real linters; the courier
	// hands over at the next tool call what a release that drops an async
	// hook's output left pending.
	on(hooks.EventPostToolUse, "Write|Edit|MultiEdit", func(c call.Call) quality.Checker {
		return quality.Checker{Config: c.Config().Quality, Dir: c.Root(), Getenv: c.Getenv, Release: c.Running, Paired: c.AsyncPartner()}
	}, quality.Checker.PostToolUse),
	on(hooks.EventPostToolUse, "", func(c call.Call) quality.Courier {
		return quality.Courier{Config: c.Config().Quality, Dir: c.Root(), Getenv: c.Getenv}
	}, quality.Courier.PostToolUse),
	background(on(hooks.EventPostToolUse, "Write|Edit|MultiEdit", func(c call.Call) quality.Checker {
		return quality.Checker{Config: c.Config().Quality, Dir: c.Root(), Getenv: c.Getenv, Release: c.Running, Async: true}
	}, quality.Checker.PostToolUse)),

	// Compaction: a snapshot before, a briefing after.
	on(hooks.EventPreCompact, "", compact.NewSaver, compact.Saver.PreCompact),
	on(hooks.EventSessionStart, "", compact.NewBriefer, compact.Briefer.SessionStart),
}

// artifactsGate, pad, pdcaConfig and workConfig build each workflow's
// handlers with its switch as package workflow decides it for the call's
// project: a workflow the project did not ask for does nothing.
func artifactsGate(c call.Call) artifacts.Gate {
	cfg := c.Config().Artifacts
	cfg.Enabled = c.Workflow(workflow.Artifacts).On
	return artifacts.Gate{Config: cfg, Project: c.Root(), Getenv: c.Getenv}
}

func pdcaConfig(c call.Call) config.PDCA {
	cfg := c.Config().PDCA
	cfg.Enabled = c.Workflow(workflow.PDCA).On
	return cfg
}

func workConfig(c call.Call) config.Work {
	cfg := c.Config().Work
	cfg.Mode = config.WorkOff
	if st := c.Workflow(workflow.Work); st.On {
		cfg.Mode = config.WorkMode(st.Mode)
	}
	return cfg
}

func toolMetrics(call.Call) session.ToolMetrics { return session.ToolMetrics{} }

func pad(c call.Call) scratchpad.Options {
	cfg := c.Config().Scratchpad
	cfg.Enabled = c.Workflow(workflow.Scratchpad).On
	return scratchpad.Options{Config: cfg, Project: c.Root(), Getenv: c.Getenv, Now: c.Now}
}

// Mux returns a mux with every built-in handler registered for cfg, for
// tests and tools that inspect the routes. Its handlers see an empty
// environment and a zero clock; a call serves its event with [For].
func Mux(cfg config.Config) *hooks.Mux {
	m := new(hooks.Mux)
	c := call.New(call.Spec{Config: cfg})
	for _, r := range registrations {
		r.register(m, c)
	}
	return m
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
// [Mux], each built from the call c: all one hook call needs. The
// asynchronous registrations are left out ([AsyncFor]).
func For(c call.Call, event hooks.Event) *hooks.Mux {
	m := new(hooks.Mux)
	for _, r := range registrations {
		if r.event == event && !r.async {
			r.register(m, c)
		}
	}
	return m
}

// AsyncFor returns a mux with event's asynchronous registrations: what
// "hookwright <event> --async" runs.
func AsyncFor(c call.Call, event hooks.Event) *hooks.Mux {
	m := new(hooks.Mux)
	for _, r := range registrations {
		if r.event == event && r.async {
			r.register(m, c)
		}
	}
	return m
}

// AsyncApplies reports whether the asynchronous call of event has work in
// the call c: the quality checks lint, and the running release is not one
// known to run the call in the foreground (before 2.1.15, where the
// synchronous call did the work). A release that cannot be told yet is
// waited for by the call itself (package quality).
func AsyncApplies(c call.Call, event hooks.Event) bool {
	if event != hooks.EventPostToolUse || !c.Config().Quality.Lint {
		return false
	}
	r, ok := c.Running()
	return !ok || quality.DeliveryFor(r, true) != quality.DeliverNone
}

// Rewakes reports whether the asynchronous call's findings go to the model
// through asyncRewake (an exit 2 with the findings on stderr), on the
// release running the call c.
func Rewakes(c call.Call) bool {
	return quality.DeliveryFor(c.Running()) == quality.DeliverRewake
}

// AsyncDeadline is how long the asynchronous call may take: the quality
// checks' asynchronous budget, and 5 s more.
func AsyncDeadline(cfg config.Config) time.Duration {
	return quality.AsyncBudgetOf(cfg.Quality) + 5*time.Second
}

// Registration names one built-in handler as it is registered: its event,
// its matcher ("" for every target) and the handler's name in reports.
type Registration struct {
	Event   hooks.Event
	Matcher string
	Handler string
}

// Table lists every built-in registration in order, as [Mux] registers it
// with the default config. The as-run test of the binary (cmd/hookwright)
// has a step for each entry, and fails when one is added here without a
// step there.
func Table() []Registration {
	routes := Mux(config.Default()).Routes()
	out := make([]Registration, 0, len(routes))
	for _, r := range routes {
		out = append(out, Registration{r.Event, r.Matcher, r.Name})
	}
	return out
}
