package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/buildinfo"
	"github.com/hookwright/hookwright/internal/handlers/builtin"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/project"
)

// exitProcess ends the process; tests replace it.
var exitProcess = os.Exit

// version is set by the Makefile from plugin/.claude-plugin/plugin.json;
// package buildinfo decides what is reported.
var version = "dev"

const usage = `usage: hookwright <Event> [--via <FiredEvent>] [--proto <release>]
       hookwright version
       hookwright help

Claude Code runs hookwright from a plugin's hooks.json with the hook event
JSON on stdin. Exit 0 goes on (JSON on stdout), 2 blocks (reason on stderr),
1 is a non-blocking error. Events: %s.
`

// invocation is the parsed command line.
type invocation struct {
	event hooks.Event // canonical event
	via   hooks.Event // fired event, when it differs
	band  hooks.Band
}

// run is the whole program; it returns the exit code. env is the one
// environment, clock and home every handler sees. A panic is recovered and
// exits 1: never a block by our own fault.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, env project.Env) (code int) {
	defer func() {
		if p := recover(); p != nil {
			code = fail(stderr, fmt.Errorf("internal error: %v (failed open)", p))
		}
	}()
	getenv := project.Getenv(env.Getenv)
	log := newLogger(stderr, getenv)
	if len(args) == 0 {
		return runUnnamed(stdin, stdout, stderr, env, log)
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintf(stderr, usage, eventList())
		return hooks.ExitOK
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(stdout, "hookwright", buildinfo.Version(version))
		return hooks.ExitOK
	}
	if args[0] == "statusline" && len(args) == 1 {
		return statusLine(stdin, stdout, stderr, env)
	}
	inv, err := parseArgs(args)
	if err != nil {
		return fail(stderr, err)
	}
	data, err := hooks.Read(stdin, readOptions(getenv, inv.event))
	if err != nil {
		return fail(stderr, err)
	}
	if data == nil {
		log.Debug("empty stdin: nothing to do", "event", inv.event)
		return hooks.ExitOK
	}
	return guarded(inv, data, stdout, stderr, env, log)
}

// guarded serves one event read from stdin under the watchdog, which
// answers for the call, failing open, if it overruns its deadline; a panic
// fails open too.
func guarded(inv invocation, data []byte, stdout, stderr io.Writer, env project.Env, log debugLog) (code int) {
	getenv := project.Getenv(env.Getenv)
	deadline := durationEnv(getenv, "HOOKWRIGHT_TIMEOUT", 5*time.Second)
	if inv.event == hooks.EventPreToolUse && deadline < 5*time.Second {
		deadline = 5 * time.Second // see guardFloors
	}
	dog := arm(deadline, inv.event, inv.band, stdout, stderr, exitProcess)
	defer dog.disarm()
	defer func() {
		if p := recover(); p != nil {
			err := fmt.Errorf("internal error: %v (failed open)", p)
			if c, ok := dog.answer(func() int { return fail(stderr, err) }); ok {
				code = c
			} else {
				select {} // the watchdog answered and is ending the process
			}
		}
	}()
	return serve(inv, data, stdout, stderr, env, dog, deadline, log)
}

// serve decodes, adapts, dispatches, emits and journals one event, all
// under the watchdog.
func serve(inv invocation, data []byte, stdout, stderr io.Writer, env project.Env, dog *watchdog, deadline time.Duration, log debugLog) int {
	start := env.Time().UTC() // UTC: the journal never needs /etc/localtime
	getenv := project.Getenv(env.Getenv)
	fired := inv.event
	if inv.via != "" {
		fired = inv.via
	}
	failed := func(err error) int {
		if code, ok := dog.answer(func() int { return fail(stderr, err) }); ok {
			return code
		}
		select {} // the watchdog answered and is ending the process
	}
	dog.at("decoding the input")
	in, err := hooks.Decode(data, fired)
	if err != nil {
		return failed(err)
	}
	dog.at("reading the team and task files")
	// A fallback becomes the canonical event, or stands for nothing; a
	// native team event that names no team gets the session's.
	adapted, err := hooks.Translate(inv.event, in, getenv)
	if err != nil {
		return failed(err)
	}
	if adapted == nil {
		log.Debug("fallback does not apply", "event", inv.event, "via", inv.via)
		return hooks.ExitOK
	}
	in = adapted
	// The call, resolved once: the project folder, its config, the
	// environment and clock every handler is built with.
	dog.at("reading the config")
	c, cfgErr := call.Resolve(in, env, inv.band, version)
	project, cfg := c.Root(), c.Config()
	notice, shown := configNotice(project, c.Layers())
	// The Stop loop may need longer than the default (builtin.Deadline).
	if d := builtin.Deadline(cfg, project, in.Base().HookEventName, deadline, c.Getenv); d != deadline {
		deadline = d
		dog.extend(d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	mux := builtin.For(c, in.Base().HookEventName)
	dog.watch(mux)
	dog.at("dispatching")
	res, faults := dispatch(ctx, mux, in, cfg, getenv)
	var notes []string
	if cfgErr != nil {
		notes = append(notes, "hookwright: "+cfgErr.Error())
	}
	if notice != "" && res.Decision != hooks.Block {
		notes = append(notes, notice)
		shown()
	}
	for _, f := range faults {
		notes = append(notes, "hookwright: "+f.Error()+" (failed open)")
	}
	if len(notes) > 0 && res.Decision != hooks.Block {
		res.SystemMessage = strings.Join(append(notes, res.SystemMessage), "\n")
		res.SystemMessage = strings.TrimSuffix(res.SystemMessage, "\n")
	}
	code, ok := dog.answer(func() int {
		if len(notes) > 0 && res.Decision != hooks.Block {
			for _, n := range notes {
				fmt.Fprintln(stderr, n)
			}
		}
		return hooks.Emit(stdout, stderr, replyAs(inv, res), res, inv.band)
	})
	if !ok {
		select {} // the watchdog answered and is ending the process
	}
	dog.at("writing the journal")
	if project != "" && cfg.Journal.Enabled {
		e := journal.Entry{
			Time: start, Session: in.Base().SessionID, Event: string(inv.event), Via: string(inv.via),
			Target: in.MatchTarget(), Band: bandName(inv.band), Handler: res.Handler,
			Exit: code, Micros: env.Time().Sub(start).Microseconds(), Faults: notes,
		}
		describe(in, &e)
		if res.Decision != hooks.None {
			e.Decision, e.Reason = res.Decision.String(), res.Reason
		}
		e.Kind = journal.KindOf(e.Event, e.Via, e.Target, e.Decision)
		if e.Kind == "" && strings.Contains(res.Context, journal.QualityFeedbackPrefix) {
			e.Kind = journal.KindQualityWarning
		}
		if err := journal.Append(project, e); err != nil {
			log.Debug("journal not written", "err", err)
		}
	}
	return code
}

// replyAs is the event whose output shape the reply takes: the canonical
// event, except that a fallback fired as PostToolUse answers as PostToolUse
// when it neither blocks nor halts, so that Context reaches the model as
// additionalContext (TaskCompleted itself takes none).
func replyAs(inv invocation, res hooks.Result) hooks.Event {
	if inv.via == hooks.EventPostToolUse && res.Decision != hooks.Block && !res.Halt {
		return inv.via
	}
	return inv.event
}

// parseArgs reads <Event> [--via E] [--proto V].
func parseArgs(args []string) (invocation, error) {
	var inv invocation
	ev, err := hooks.ParseEvent(args[0])
	if err != nil {
		return inv, fmt.Errorf("%w (run 'hookwright help' for the list)", err)
	}
	inv.event = ev
	rest := args[1:]
	for len(rest) > 0 {
		flag, val, hasVal := strings.Cut(rest[0], "=")
		if flag != "--via" && flag != "--proto" {
			return inv, fmt.Errorf("unknown flag %q (run 'hookwright help')", flag)
		}
		if !hasVal {
			if len(rest) < 2 {
				return inv, fmt.Errorf("%s needs a value", flag)
			}
			val, rest = rest[1], rest[1:]
		}
		rest = rest[1:]
		switch flag {
		case "--via":
			if inv.via, err = hooks.ParseEvent(val); err != nil {
				return inv, fmt.Errorf("--via: %w", err)
			}
		case "--proto":
			if inv.band, err = hooks.ParseBand(val); err != nil {
				return inv, fmt.Errorf("--proto: %w", err)
			}
		}
	}
	return inv, nil
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
// tiny input cap or wait for input (or call deadline, in guarded) makes
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
