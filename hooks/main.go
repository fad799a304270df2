package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// DefaultTimeout bounds a hook call from the end of its read to its
// answer when [Runner.Timeout] is zero.
const DefaultTimeout = 5 * time.Second

// Main runs one hook call of the program, whose handlers m holds, and
// exits: the whole of a plugin's hook binary is
//
//	func main() {
//		m := new(hooks.Mux)
//		hooks.On(m, "Bash", blockForcePush)
//		hooks.Main(m)
//	}
//
// See [Runner] for what a call does; Main is (&Runner{Mux: m}).Main().
func Main(m *Mux) { (&Runner{Mux: m}).Main() }

// Runner runs hook calls for a plugin's program: everything between
// Claude Code starting the command and the process exiting, around the
// handlers of a [Mux]. A call, with the command line read as an
// [Invocation]:
//
//  1. reads the event from stdin: the first complete JSON value, under a
//     size cap and a deadline ([Read]; Claude Code may keep stdin open, so
//     it never waits for EOF). Empty input is a no-op (exit 0);
//  2. decodes it as the fired event ([Decode]) and translates it into the
//     canonical one ([Translate]): a fallback that stands for nothing
//     (a TaskUpdate that completes no task, a fallback on a release that
//     fires the canonical event itself) answers nothing, exit 0;
//  3. checks the [Contract]; a broken one runs no handler and fails open
//     with one line, unless a handler that would run is a gate set to fail
//     closed ([FailCloser]), which blocks and says why;
//  4. dispatches to the handlers ([Mux.Dispatch]) under the deadline
//     (Timeout). A handler that errors, panics or overruns fails open and
//     is reported on stderr and in a systemMessage; a gate set to fail
//     closed blocks instead;
//  5. writes the one answer: JSON on stdout and exit 0, or the reason on
//     stderr and exit 2, in the channel the protocol band gives the event
//     ([Invocation.Emit]).
//
// The deadline is enforced for every handler, cooperative or not: a
// watchdog armed when the input is read answers in place of a handler
// that is still running half a second after the deadline (failing open,
// or blocking for a gate set to fail closed), and Main exits. Nothing of
// ours exits 2: a bad command line, an unreadable or malformed input, a
// panic outside the handlers are one line on stderr and exit 1, which
// Claude Code shows to the user and never reads as a block. With no event
// on the command line and no input it prints the usage and exits 1;
// "help" prints it and exits 0.
//
// The zero Runner is not usable: set Mux (or Prepare).
type Runner struct {
	// Mux holds the handlers.
	Mux *Mux
	// Name starts every line the runner writes on its own account (an
	// error, a fault, the watchdog's report): "<Name>: ...". The default
	// is the program's file name.
	Name string
	// Usage, when set, returns what "help" and a usage error print; the
	// default names the command line and the routes of Mux. It is called
	// only when the text is printed.
	Usage func() string
	// Timeout bounds the call from the end of its read to its answer;
	// zero is [DefaultTimeout].
	Timeout time.Duration
	// Read bounds the read of stdin; the zero value is Read's defaults.
	Read ReadOptions
	// Contract is what must hold before handlers run; the zero Contract
	// checks the fields each event requires ([RequiredFields]).
	Contract Contract
	// Getenv reads the environment (nil: os.Getenv); the translation and
	// the contract see it.
	Getenv func(string) string
	// Now is the clock of [Call.Start] (nil: time.Now).
	Now func() time.Time
	// Prepare, when set, runs once the input is read and translated,
	// under the deadline, and returns the mux that serves this call
	// (nil: Mux). A program whose handlers depend on the project (its
	// config, its folder) builds them here; [Call.Note] and
	// [Call.Extend] adjust the call. An error fails the call open (exit
	// 1, one line).
	Prepare func(c *Call) (*Mux, error)
	// Answer, when set, may write the answer itself instead of the usual
	// one (Invocation.Emit): handled reports that it did, with the exit
	// code. An asynchronous registration that delivers its findings with
	// asyncRewake (an exit 2 whose stderr reaches the model) answers so.
	Answer func(c *Call, res Result, stdout, stderr io.Writer) (code int, handled bool)
	// Finish, when set, runs after the answer is written, still under the
	// watchdog (a Finish that hangs is cut off; the answer stands): a
	// journal line, say.
	Finish func(c *Call, o Outcome)
	// Debug, when set, is told what the runner decided without a word
	// to Claude Code (an empty input, a fallback that stands for nothing).
	Debug func(msg string, keyvals ...any)
}

// envKey carries the runner's environment in a handler's context.
type envKey struct{}

// Env returns the environment of the hook call ctx belongs to: the
// runner's ([Runner.Getenv]), so that a handler reads what the runner and
// the translation read, and a test that runs it (package hookstest) sees
// only what it set; os.Getenv outside a runner. Read the project folder
// with hooks.ProjectDir(in, hooks.Env(ctx)).
func Env(ctx context.Context) func(string) string {
	if f, ok := ctx.Value(envKey{}).(func(string) string); ok && f != nil {
		return f
	}
	return os.Getenv
}

// Call is one hook call as a [Runner] serves it, for [Runner.Prepare] and
// [Runner.Finish].
type Call struct {
	// Invocation is the command line, with Event resolved to the
	// canonical event.
	Invocation
	// Input is the canonical input, as the handlers see it.
	Input Input
	// Start is when the input had been read, by the runner's clock.
	Start time.Time
	// Getenv is the runner's environment; never nil.
	Getenv func(string) string

	dog   *watchdog
	after *time.Duration
	notes []string
}

// Note adds a line for the user to the call's answer: it is written on
// stderr and put before the systemMessage, unless the result blocks (a
// block's reason stands alone). Notes are in [Outcome.Notes] either way.
func (c *Call) Note(line string) { c.notes = append(c.notes, line) }

// Extend gives the call until d from now, where that is later than its
// deadline: a handler known to need longer (a test run, a linter).
func (c *Call) Extend(d time.Duration) {
	if c.dog == nil || d <= *c.after {
		return
	}
	*c.after = d
	c.dog.extend(d)
}

// Stage names what the call is doing, for the watchdog's report when it
// overruns ("reading the config").
func (c *Call) Stage(what string) {
	if c.dog != nil {
		c.dog.at(what)
	}
}

// Outcome is what a call answered, for [Runner.Finish].
type Outcome struct {
	// Result is the merged result the answer was written from.
	Result Result
	// Faults are the handlers that failed open.
	Faults []Fault
	// Notes are the lines added beside the result: each [Call.Note], then
	// one per fault. Shown reports whether they were written (not on a
	// block).
	Notes []string
	Shown bool
	// Code is the exit code.
	Code int
}

// Main runs one call with the process's arguments, stdin, stdout, stderr
// and environment, and exits with its code.
func (r *Runner) Main() {
	os.Exit(r.run(os.Args[1:], stdin(), os.Stdout, os.Stderr, os.Exit))
}

// Run runs one call in this process and returns its exit code, as Main
// would exit with it: for tests and for programs that embed a runner. A
// handler that overruns the deadline is left running, and Run returns the
// watchdog's answer.
func (r *Runner) Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	done := make(chan int, 1)
	exited := make(chan int, 1)
	go func() { done <- r.run(args, stdin, stdout, stderr, func(code int) { exited <- code }) }()
	select {
	case code := <-done:
		return code
	case code := <-exited:
		return code
	}
}

// name is the prefix of the runner's own lines.
func (r *Runner) name() string {
	if r.Name != "" {
		return r.Name
	}
	if len(os.Args) > 0 {
		n := filepath.Base(os.Args[0])
		return strings.TrimSuffix(n, filepath.Ext(n))
	}
	return "hook"
}

func (r *Runner) getenv() func(string) string {
	if r.Getenv != nil {
		return r.Getenv
	}
	return os.Getenv
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Runner) debug(msg string, kv ...any) {
	if r.Debug != nil {
		r.Debug(msg, kv...)
	}
}

// usage is the text "help" and usage errors print.
func (r *Runner) usage() string {
	if r.Usage != nil {
		return r.Usage()
	}
	var b strings.Builder
	name := r.name()
	fmt.Fprintf(&b, "usage: %s [<Event>] [--via <FiredEvent>] [--proto <release>]\n\n", name)
	fmt.Fprintf(&b, "Claude Code runs %s from a plugin's hooks.json with the hook event JSON on\n", name)
	b.WriteString("stdin. Exit 0 goes on (JSON on stdout), 2 blocks (reason on stderr), 1 is a\nnon-blocking error.")
	if r.Mux != nil && len(r.Mux.routes) > 0 {
		var seen []string
		for _, rt := range r.Mux.routes {
			s := string(rt.Event)
			if rt.Matcher != "" {
				s += "[" + rt.Matcher + "]"
			}
			if !slices.Contains(seen, s) {
				seen = append(seen, s)
			}
		}
		b.WriteString(" Handles: " + strings.Join(seen, ", ") + ".")
	}
	b.WriteString("\n")
	return b.String()
}

// fail reports err on one line and returns the non-blocking error code.
func (r *Runner) fail(stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, r.name()+":", strings.ReplaceAll(err.Error(), "\n", " "))
	return ExitError
}

// run is one call; exit ends it from the watchdog. A panic is recovered
// and exits 1: never a block by our own fault.
func (r *Runner) run(args []string, stdin io.Reader, stdout, stderr io.Writer, exit func(int)) (code int) {
	defer func() {
		if p := recover(); p != nil {
			code = r.fail(stderr, fmt.Errorf("internal error: %v (failed open)", p))
		}
	}()
	if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(stderr, r.usage())
		return ExitOK
	}
	inv, err := ParseInvocation(args)
	if err != nil {
		switch {
		case errors.Is(err, ErrUnknownEvent) && !strings.HasPrefix(err.Error(), "--"):
			err = fmt.Errorf("%w (run '%s help' for the list)", err, r.name())
		case strings.HasPrefix(err.Error(), "unknown flag") || strings.HasPrefix(err.Error(), "unexpected argument"):
			err = fmt.Errorf("%w (run '%s help')", err, r.name())
		}
		return r.fail(stderr, err)
	}
	if inv.Event == "" && inv.Via != "" {
		canonical, ok := FallbackFor(inv.Via)
		if !ok {
			return r.fail(stderr, fmt.Errorf("--via %s: name the canonical event too (%s stands in for no event, or for more than one)", inv.Via, inv.Via))
		}
		inv.Event = canonical
	}
	if inv.Event == "" && isTerminal(stdin) {
		fmt.Fprint(stderr, r.usage())
		return ExitError
	}
	data, err := Read(stdin, r.Read)
	if inv.Event == "" {
		// No event on the command line: the input names it. A release
		// before 2.1.139 runs a handler written in the exec form without
		// its "args", so the hook must still serve it.
		ev, ok := namedEvent(data)
		switch {
		case err != nil:
			fmt.Fprintln(stderr, r.name()+": no event on the command line, and", err)
		case ok:
			r.debug("no event on the command line: the input's hook_event_name", "event", ev)
			inv.Event = ev
			return r.guarded(inv, data, stdout, stderr, exit)
		case data != nil:
			fmt.Fprintf(stderr, "%s: no event on the command line, and the input names no event %s knows\n", r.name(), r.name())
		}
		fmt.Fprint(stderr, r.usage())
		return ExitError
	}
	if err != nil {
		return r.fail(stderr, err)
	}
	if data == nil {
		r.debug("empty stdin: nothing to do", "event", inv.Event)
		return ExitOK
	}
	return r.guarded(inv, data, stdout, stderr, exit)
}

// namedEvent returns the event an input names in hook_event_name, spelled
// exactly as Claude Code spells it.
func namedEvent(data []byte) (Event, bool) {
	var in struct {
		Name string `json:"hook_event_name"`
	}
	if data == nil || json.Unmarshal(data, &in) != nil {
		return "", false
	}
	ev, err := ParseEvent(in.Name)
	return ev, err == nil && string(ev) == in.Name
}

// isTerminal reports whether r is a terminal, where nobody pipes an event.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// guarded serves one event read from stdin under the watchdog, which
// answers for the call, failing open, if it overruns its deadline; a panic
// fails open too.
func (r *Runner) guarded(inv Invocation, data []byte, stdout, stderr io.Writer, exit func(int)) (code int) {
	after := r.Timeout
	if after <= 0 {
		after = DefaultTimeout
	}
	dog := arm(r.name(), after, inv, stdout, stderr, exit)
	defer dog.disarm()
	defer func() {
		if p := recover(); p != nil {
			err := fmt.Errorf("internal error: %v (failed open)", p)
			code, _ = dog.answer(func() int { return r.fail(stderr, err) })
		}
	}()
	return r.serve(inv, data, stdout, stderr, dog, &after)
}

// serve decodes, translates, prepares, dispatches, answers and finishes
// one event, all under the watchdog.
func (r *Runner) serve(inv Invocation, data []byte, stdout, stderr io.Writer, dog *watchdog, after *time.Duration) int {
	getenv := r.getenv()
	start := r.now()
	failed := func(err error) int {
		code, _ := dog.answer(func() int { return r.fail(stderr, err) })
		return code
	}
	dog.at("decoding the input")
	in, err := Decode(data, inv.Fired())
	if err != nil {
		return failed(err)
	}
	dog.at("reading the team and task files")
	canonical, err := inv.Translate(in, getenv)
	if err != nil {
		return failed(err)
	}
	if canonical == nil {
		r.debug("the fired event stands for nothing", "event", inv.Event, "via", inv.Via)
		return ExitOK
	}
	c := &Call{Invocation: inv, Input: canonical, Start: start, Getenv: getenv, dog: dog, after: after}
	mux := r.Mux
	if r.Prepare != nil {
		dog.at("preparing the call")
		m, err := r.Prepare(c)
		if err != nil {
			return failed(err)
		}
		if m != nil {
			mux = m
		}
	}
	if mux == nil {
		mux = new(Mux)
	}
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), envKey{}, getenv), *after)
	defer cancel()
	dog.watch(mux)
	dog.at("dispatching")
	res, faults := r.dispatch(ctx, mux, canonical, getenv)
	notes := c.notes
	for _, f := range faults {
		notes = append(notes, r.name()+": "+f.Error()+" (failed open)")
	}
	shown := len(notes) > 0 && res.Decision != Block
	answer := res
	if shown {
		answer.SystemMessage = strings.TrimSuffix(strings.Join(append(slices.Clone(notes), res.SystemMessage), "\n"), "\n")
	}
	code, ok := dog.answer(func() int {
		if shown {
			for _, n := range notes {
				fmt.Fprintln(stderr, n)
			}
		}
		if r.Answer != nil {
			if code, handled := r.Answer(c, answer, stdout, stderr); handled {
				return code
			}
		}
		return inv.Emit(stdout, stderr, answer)
	})
	if !ok {
		return code // the watchdog answered
	}
	if r.Finish != nil {
		dog.at("finishing")
		r.Finish(c, Outcome{Result: answer, Faults: faults, Notes: notes, Shown: shown, Code: code})
	}
	return code
}

// dispatch checks the contract, then runs the handlers. A broken contract
// runs no handler: it fails open with a fault, or blocks where a gate that
// would run is set to fail closed.
func (r *Runner) dispatch(ctx context.Context, mux *Mux, in Input, getenv func(string) string) (Result, []Fault) {
	if err := r.Contract.Check(in, getenv); err != nil {
		for _, rt := range mux.Match(in.Base().HookEventName, in.MatchTarget()) {
			if failsClosed(rt.Handler) {
				return Result{Decision: Block, Handler: "contract", Reason: closedReason(rt.Name, err)}, nil
			}
		}
		return Result{}, []Fault{{Handler: "contract", Err: err}}
	}
	return mux.Dispatch(ctx, in)
}
