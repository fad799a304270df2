package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/buildinfo"
	"github.com/hookwright/hookwright/internal/handlers/builtin"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/termsafe"
)

// version is set by the Makefile from plugin/.claude-plugin/plugin.json;
// package buildinfo decides what is reported.
var version = "dev"

const usage = `usage: hookwright <Event> [--via <FiredEvent>] [--proto <release>] [--async | --with-async]
       hookwright version
       hookwright help

Claude Code runs hookwright from a plugin's hooks.json with the hook event
JSON on stdin. Exit 0 goes on (JSON on stdout), 2 blocks (reason on stderr),
1 is a non-blocking error. --async marks the registration hooks.json runs in
the background ("async": true): it does nothing on a release that would run
it in the foreground. --with-async marks a synchronous registration whose
event has such a partner, which then does the linting. Events (also as the
source designs name them: pre-tool, post-tool, compact, on-subagent-start
...): %s.
`

// command runs the subcommands that are not a hook call (version,
// statusline); done is false for a hook call.
func command(args []string, stdin io.Reader, stdout, stderr io.Writer, env project.Env) (code int, done bool) {
	switch {
	case len(args) == 1 && (args[0] == "version" || args[0] == "--version"):
		fmt.Fprintln(stdout, "hookwright", buildinfo.Version(version))
		return hooks.ExitOK, true
	case len(args) == 1 && args[0] == "statusline":
		return statusLine(stdin, stdout, stderr, env), true
	}
	return 0, false
}

// run is the whole program in this process, for tests: main runs the same
// runner with Runner.Main. A panic is recovered and exits 1: never a block
// by our own fault.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, env project.Env) (code int) {
	defer func() {
		if p := recover(); p != nil {
			code = fail(stderr, fmt.Errorf("internal error: %v (failed open)", p))
		}
	}()
	if code, done := command(args, stdin, stdout, stderr, env); done {
		return code
	}
	return newRunner(args, env, stderr).Run(args, stdin, stdout, stderr)
}

// newRunner is hookwright as a [hooks.Runner]: the built-in handlers of
// the call's event, built from the project's config (Prepare), and the
// journal line (Finish). args decide the limits: for PreToolUse, where the
// guard runs, the environment may only raise them (guardFloors).
func newRunner(args []string, env project.Env, stderr io.Writer) *hooks.Runner {
	getenv := project.Getenv(env.Getenv)
	log := newLogger(stderr, getenv)
	event := hooks.EventPreToolUse // the input names the event: the guard's floors apply
	if inv, err := hooks.ParseInvocation(args); err == nil && inv.Event != "" {
		event = inv.Event
	} else if c, ok := hooks.FallbackFor(inv.Via); err == nil && ok {
		event = c
	}
	timeout := durationEnv(getenv, "HOOKWRIGHT_TIMEOUT", hooks.DefaultTimeout)
	if event == hooks.EventPreToolUse && timeout < hooks.DefaultTimeout {
		timeout = hooks.DefaultTimeout // see guardFloors
	}
	var (
		cl     call.Call
		cfg    config.Config
		notice string
		shown  func()
		// idle: an asynchronous registration with nothing to do on this
		// release: it answers nothing and writes no journal line.
		idle bool
		// workflows is the SessionStart note of which workflows run, and
		// mark records it as said once shown.
		workflows string
		mark      func()
	)
	return &hooks.Runner{
		Name:    "hookwright",
		Usage:   func() string { return fmt.Sprintf(usage, eventList()) },
		Timeout: timeout,
		Read:    readOptions(getenv, event),
		// Only look for the plugin folder when the variable is missing:
		// the usual call pays for no extra system call.
		Contract: hooks.Contract{RequireProject: true, RequirePluginRoot: getenv("CLAUDE_PLUGIN_ROOT") == "" && runsAsPlugin()},
		Getenv:   getenv,
		Now:      func() time.Time { return env.Time().UTC() }, // UTC: the journal never needs /etc/localtime
		Debug:    log.Debug,
		// The call, resolved once: the project folder, its config, the
		// environment and clock every handler is built with.
		Prepare: func(c *hooks.Call) (*hooks.Mux, error) {
			c.Stage("reading the config")
			var cfgErr error
			cl, cfgErr = call.Resolve(c.Input, env, c.Band, version)
			if c.WithAsync {
				cl = cl.WithAsyncPartner()
			}
			cfg = cl.Config()
			if c.Async {
				// The asynchronous registration: work only where the
				// release runs it in the background.
				if !builtin.AsyncApplies(cl, c.Event) {
					idle = true
					log.Debug("asynchronous registration with nothing to do", "event", c.Event)
					return new(hooks.Mux), nil
				}
				c.Extend(builtin.AsyncDeadline(cfg))
			}
			if cfgErr != nil {
				c.Note("hookwright: " + cfgErr.Error())
			}
			if notice, shown = configNotice(cl.Root(), cl.Layers()); notice != "" {
				c.Note(notice)
			}
			if c.Async {
				return builtin.AsyncFor(cl, c.Event), nil
			}
			if c.Event == hooks.EventSessionStart && !compacted(c.Input) {
				c.Stage("saying which workflows run")
				if workflows, mark = workflowNotice(cl); workflows != "" {
					c.Note(workflows)
				}
			}
			// The Stop loop and the quality checks may need longer than
			// the default (builtin.Deadline).
			c.Extend(builtin.Deadline(cfg, cl.Root(), c.Event, timeout, cl.Getenv))
			return builtin.For(cl, c.Event), nil
		},
		// asyncRewake: the asynchronous call's findings reach the model as
		// an exit 2's stderr, at its next request or waking it (2.1.64+).
		// It blocks nothing: the tool ran long ago.
		Answer: func(c *hooks.Call, res hooks.Result, _, stderr io.Writer) (int, bool) {
			if !c.Async || res.Context == "" || !builtin.Rewakes(cl) {
				return 0, false
			}
			fmt.Fprintln(stderr, termsafe.Text(res.Context))
			return hooks.ExitBlock, true
		},
		Finish: func(c *hooks.Call, o hooks.Outcome) {
			if idle {
				return
			}
			if o.Shown && shown != nil {
				shown()
			}
			if o.Shown && mark != nil {
				mark()
			}
			c.Stage("writing the journal")
			if cl.Root() == "" || !cfg.Journal.Enabled {
				return
			}
			in, res := c.Input, o.Result
			var notes []string
			for _, n := range o.Notes {
				if n != notice || o.Shown { // a notice not shown is shown next time
					notes = append(notes, n)
				}
			}
			e := journal.Entry{
				Time: c.Start, Session: in.Base().SessionID, Event: string(c.Event), Via: string(c.Via), Async: c.Async,
				Target: in.MatchTarget(), Band: bandName(c.Band), Handler: res.Handler, Rule: res.Rule,
				Exit: o.Code, Micros: env.Time().Sub(c.Start).Microseconds(), Faults: notes,
			}
			describe(in, &e)
			if res.Decision != hooks.None {
				e.Decision, e.Reason = res.Decision.String(), res.Reason
			}
			e.Kind = journal.KindOf(e.Event, e.Via, e.Target, e.Decision)
			if e.Kind == "" {
				e.Kind = cl.Marked()
			}
			if e.Kind == "" && strings.Contains(res.Context, journal.QualityFeedbackPrefix) {
				e.Kind = journal.KindQualityWarning
			}
			if e.Kind == "" && c.Event == hooks.EventSessionStart && res.Context != "" {
				e.Kind = journal.KindContextLoaded
			}
			if err := journal.Append(cl.Root(), e); err != nil {
				log.Debug("journal not written", "err", err)
			}
		},
	}
}

// compacted reports a SessionStart after a compaction: the same session
// going on, not a session's start.
func compacted(in hooks.Input) bool {
	ss, ok := in.(*hooks.SessionStart)
	return ok && ss.Source == "compact"
}

// runsAsPlugin reports whether this binary lives in a plugin's bin/ folder
// (<root>/bin/<binary> with <root>/.claude-plugin/plugin.json), where
// Claude Code always sets CLAUDE_PLUGIN_ROOT.
func runsAsPlugin() bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	root := filepath.Dir(filepath.Dir(exe))
	_, err = os.Stat(filepath.Join(root, ".claude-plugin", "plugin.json"))
	return err == nil
}

// fail reports err on one line and returns the non-blocking error code.
func fail(stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, "hookwright:", strings.ReplaceAll(err.Error(), "\n", " "))
	return hooks.ExitError
}

// readOptions reads the input limits from the environment. For
// PreToolUse, where the guard runs, they may only raise the defaults
// (guardFloors).
func readOptions(getenv func(string) string, event hooks.Event) hooks.ReadOptions {
	opts := hooks.ReadOptions{Timeout: durationEnv(getenv, "HOOKWRIGHT_STDIN_TIMEOUT", 0)}
	if n, err := strconv.ParseInt(getenv("HOOKWRIGHT_MAX_INPUT"), 10, 64); err == nil && n > 0 {
		opts.MaxBytes = n
	}
	if event == hooks.EventPreToolUse {
		guardFloors(&opts)
	}
	return opts
}

// guardFloors keeps the environment from switching the guard off: a
// tiny input cap or wait for input (or call deadline, in newRunner) makes
// the call fail open, and the environment of a hook may come from a
// project's .claude/settings.json "env", which a cloned repository
// ships. For PreToolUse the variables may only raise the defaults.
func guardFloors(opts *hooks.ReadOptions) {
	if opts.MaxBytes != 0 && opts.MaxBytes < hooks.DefaultMaxInput {
		opts.MaxBytes = hooks.DefaultMaxInput
	}
	if opts.Timeout != 0 && opts.Timeout < hooks.DefaultReadTimeout {
		opts.Timeout = hooks.DefaultReadTimeout
	}
}

func durationEnv(getenv func(string) string, name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(getenv(name)); err == nil && d > 0 {
		return d
	}
	return def
}

func eventList() string {
	var names []string
	for _, e := range hooks.Events() {
		names = append(names, string(e))
	}
	return strings.Join(names, ", ")
}
