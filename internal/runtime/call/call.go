// Package call is one hook call, resolved once: the project root, the
// environment and the clock, the config, the protocol band, the session,
// hookwright's own version and the Claude Code release running it. The runtime builds one [Call] per hook call ([Resolve]) and
// every built-in handler is constructed from it (package builtin), so no
// handler works the project folder out again, reads the process
// environment or falls back to a zero clock.
//
// A Call's fields are unexported: the only ways to get one are [New] and
// [Resolve]. A handler constructor that takes a Call cannot be called
// without one: forgetting it is a compile error, not a zero value.
package call

import (
	"sync"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/buildinfo"
	"github.com/hookwright/hookwright/internal/runtime/ccversion"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/workflow"
)

// Call is one hook call as the runtime resolved it.
type Call struct {
	root       string
	env        project.Env
	cfg        config.Config
	layers     config.Layers
	loaded     bool // layers come from the files (Resolve, WithLayers)
	band       hooks.Band
	session    string
	transcript string
	stamped    string
	running    *running
	flows      *flows
	marks      *marks
	partner    bool
}

// marks holds what handlers noted about the call for its journal line.
type marks struct {
	mu   sync.Mutex
	kind string
}

// flows memoizes the workflows decided in this call: each is decided on
// first use, so an event no workflow reads pays for none.
type flows struct {
	mu   sync.Mutex
	done map[workflow.Name]workflow.Status
}

// running is the release learned once per call, on first use; until it
// can be told, each use looks again.
type running struct {
	mu sync.Mutex
	r  ccversion.Release
	ok bool
}

// Spec is what [New] builds a Call from.
type Spec struct {
	// Root is the project folder; "" when the call has none.
	Root string
	// Env is main's one environment, clock and home.
	Env project.Env
	// Config is the project's config.
	Config config.Config
	// Band is the protocol band hooks.json named (--proto), zero without.
	Band hooks.Band
	// Session and Transcript are the session id and transcript path of
	// the event.
	Session, Transcript string
	// Stamped is the runtime's -X main.version, "" when the build stamped
	// none (see package buildinfo).
	Stamped string
}

// New builds a Call from s.
func New(s Spec) Call {
	return Call{root: s.Root, env: s.Env, cfg: s.Config, band: s.Band, session: s.Session,
		transcript: s.Transcript, stamped: s.Stamped, running: new(running), flows: new(flows), marks: new(marks)}
}

// Resolve builds the Call for event input in, under the environment env
// and protocol band band: the project folder by the runtime's rule
// ([hooks.ProjectDir]: $CLAUDE_PROJECT_DIR, else the event's cwd), worked
// out here once, and its config: the user config and the project's, in
// layers ([config.LoadLayers]). A config that cannot be read is left out
// and returned as the error, for the runtime to report.
func Resolve(in hooks.Input, env project.Env, band hooks.Band, stamped string) (Call, error) {
	getenv := project.Getenv(env.Getenv)
	root := hooks.ProjectDir(in, getenv)
	layers, err := config.LoadLayers(root, getenv)
	b := in.Base()
	c := New(Spec{Root: root, Env: env, Config: layers.Config, Band: band, Session: b.SessionID, Transcript: b.TranscriptPath, Stamped: stamped})
	c.layers, c.loaded = layers, true
	return c, err
}

// WithLayers is c with the config layers l (and their merged config): a
// Call for tests and tools that decide workflows as the runtime does.
func (c Call) WithLayers(l config.Layers) Call {
	c.layers, c.cfg, c.flows, c.loaded = l, l.Config, new(flows), true
	return c
}

// Workflow is workflow n's state in the call's project (package
// workflow), decided on first use and kept for the call. A Call built
// with [New] and no layers decides from its config alone, as if a config
// file had set every key: so a test's config.Scratchpad{Enabled: true}
// means on.
func (c Call) Workflow(n workflow.Name) workflow.Status {
	if c.flows == nil {
		return workflow.Status{Name: n, By: workflow.ByDefault}
	}
	c.flows.mu.Lock()
	defer c.flows.mu.Unlock()
	if st, ok := c.flows.done[n]; ok {
		return st
	}
	l := c.layers
	if !c.loaded {
		l = config.Layers{Config: c.cfg, Keys: map[string]config.Source{string(n) + ".enabled": config.SourceDefault, "work.mode": config.SourceDefault}}
	}
	st := workflow.Decide(n, c.root, l, c.Getenv)
	if c.flows.done == nil {
		c.flows.done = map[workflow.Name]workflow.Status{}
	}
	c.flows.done[n] = st
	return st
}

// Root is the project folder, "" when the call has none.
func (c Call) Root() string { return c.root }

// Env is the call's environment, clock and home.
func (c Call) Env() project.Env { return c.env }

// Getenv reads a variable of the call's environment ("" when unset); it
// is never nil.
func (c Call) Getenv(key string) string { return c.env.Get(key) }

// Now is the call's clock; it is never nil.
func (c Call) Now() time.Time { return c.env.Time() }

// Config is the project's config.
func (c Call) Config() config.Config { return c.cfg }

// Layers is how the config was made: the files read, whether the user
// config trusts the project, and what each layer changed or had ignored
// (zero for a Call from [New]).
func (c Call) Layers() config.Layers { return c.layers }

// Band is the protocol band hooks.json named, zero without --proto.
func (c Call) Band() hooks.Band { return c.band }

// Session is the event's session id.
func (c Call) Session() string { return c.session }

// Version is hookwright's own version (package buildinfo): the release
// it was built as, or "devel <commit>".
func (c Call) Version() string { return buildinfo.Version(c.stamped) }

// Running is the Claude Code release running the call, from $AI_AGENT,
// else the transcript (package ccversion); ok is false when it cannot be
// told. Once told it is kept; until then each use looks again (the
// transcript gets its first version line during the session's first tool
// calls).
func (c Call) Running() (ccversion.Release, bool) {
	if c.running == nil {
		return ccversion.Release{}, false
	}
	c.running.mu.Lock()
	defer c.running.mu.Unlock()
	if !c.running.ok {
		r, err := ccversion.Parse(ccversion.Running(c.Getenv("AI_AGENT"), c.transcript))
		c.running.r, c.running.ok = r, err == nil
	}
	return c.running.r, c.running.ok
}

// Effective is the call's config with each workflow's switch set as
// [Call.Workflow] decides it: scratchpad, artifacts and pdca "enabled",
// work "mode", loop "enabled". It decides every workflow; a handler that
// needs one asks [Call.Workflow].
func (c Call) Effective() config.Config {
	cfg := c.cfg
	cfg.Scratchpad.Enabled = c.Workflow(workflow.Scratchpad).On
	cfg.Artifacts.Enabled = c.Workflow(workflow.Artifacts).On
	cfg.PDCA.Enabled = c.Workflow(workflow.PDCA).On
	cfg.Work.Mode = config.WorkOff
	if w := c.Workflow(workflow.Work); w.On {
		cfg.Work.Mode = config.WorkMode(w.Mode)
	}
	cfg.Loop.Enabled = c.Workflow(workflow.Loop).On
	return cfg
}

// Mark notes the kind of the call for its journal line (journal.Kind*),
// when a handler knows what happened and the event alone does not say it:
// warn mode's untracked_edit. The first mark counts; a block or an ask
// wins over it when the journal line is written.
func (c Call) Mark(kind string) {
	if c.marks == nil {
		return
	}
	c.marks.mu.Lock()
	defer c.marks.mu.Unlock()
	if c.marks.kind == "" {
		c.marks.kind = kind
	}
}

// Marked is the kind a handler marked, "" for none.
func (c Call) Marked() string {
	if c.marks == nil {
		return ""
	}
	c.marks.mu.Lock()
	defer c.marks.mu.Unlock()
	return c.marks.kind
}

// WithAsyncPartner is c for a synchronous call whose registration says an
// asynchronous registration of the same event ships beside it (hookwright
// <event> --with-async): background work is left to that one.
func (c Call) WithAsyncPartner() Call {
	c.partner = true
	return c
}

// AsyncPartner reports [Call.WithAsyncPartner].
func (c Call) AsyncPartner() bool { return c.partner }
