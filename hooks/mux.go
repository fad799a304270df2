package hooks

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
)

// Mux routes hook events to handlers and merges their results.
//
// # Registration
//
// Handle registers a handler for an event and a matcher; [On] registers a
// function of one event type and takes the event from the type. Mistakes panic at
// registration, before any event is served: a nil handler, an unknown
// event, a matcher that does not compile, or the same handler name twice
// for one event and matcher.
//
// # Matching
//
// The matcher is tested against the input's [Input.MatchTarget] (the tool
// name for tool events, the source for SessionStart, the agent type for
// SubagentStart/SubagentStop, ...), with Claude Code's own rules:
//
//   - "" or "*" matches everything;
//   - a matcher made only of letters, digits, '_' and '|' is a list of exact
//     names: "Bash" matches only Bash, "Write|Edit" matches Write or Edit;
//   - anything else is an unanchored regular expression ("Notebook.*",
//     "^mcp__github__"), in Go's RE2 syntax.
//
// # Dispatch
//
// Dispatch runs every matching handler in registration order, one at a
// time, on the caller's goroutine, under the context's deadline. The
// results merge as follows:
//
//   - the strongest decision wins: Block (deny) > Ask > Allow > None, and its
//     reason travels with it (reasons of several Asks are joined with "; ");
//   - Context texts are concatenated in order, separated by a blank line;
//     system messages likewise, one per line;
//   - the first UpdatedInput wins;
//   - a Block or a Halt (continue:false) short-circuits: later handlers do
//     not run, and the first Halt wins.
//
// A handler that returns an error, panics or returns after the deadline
// does not change the result: the mux fails open and records a [Fault], and
// no handler starts once the deadline has passed. The exception is a gate
// that implements [FailCloser] and says it fails closed: when it errors,
// panics, overruns or cannot start before the deadline, Dispatch blocks
// with a reason that says so, and stops. Handlers should honour the
// context; Dispatch itself waits for a handler that does not, while a
// [Runner] (and so [Main]) answers in its place shortly after the
// deadline, naming it.
//
// # Names
//
// Every route has a name, which faults, the watchdog's report and a
// fail-closed block reason use: the one given with [WithName] or [Named],
// or a handler's own Name() method; else one derived from the event, the
// matcher and the function ("PreToolUse[Bash] main.blockForcePush", or
// "TaskCompleted gate.go:42" for a function literal), made unique with
// " #2", " #3" where the same function is registered twice.
type Mux struct {
	routes  []Route
	current atomic.Pointer[string]
	pending atomic.Pointer[[]Route] // the routes not finished yet, the running one first
}

// FailCloser is implemented by a gate whose policy may be to block when it
// cannot decide (its config says "fail": "closed"). FailClosed reports
// whether that is the policy now.
type FailCloser interface {
	FailClosed() bool
}

// failsClosed reports whether h is a gate set to fail closed.
func failsClosed(h Handler) bool {
	if n, ok := h.(named); ok { // Named keeps the policy of what it names
		h = n.Handler
	}
	fc, ok := h.(FailCloser)
	return ok && fc.FailClosed()
}

// closedReason is the block reason of a fail-closed gate that could not
// decide: it names the gate and what went wrong, and nothing else (it is
// read in the plugin's own voice).
func closedReason(name string, err error) string {
	return fmt.Sprintf("%s could not decide (%v); the gate is set to fail closed, so this is blocked until the cause is fixed or the gate is set to fail open.", name, err)
}

// Route is one registration.
type Route struct {
	Event   Event
	Matcher string
	Name    string
	Handler Handler

	names []string       // exact names, when the matcher is a list
	re    *regexp.Regexp // when the matcher is a regular expression
}

// isNameList reports whether Claude Code treats matcher m as a list of
// exact names.
func isNameList(m string) bool {
	for _, r := range m {
		if !(r == '_' || r == '|' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Handle registers h for event and matcher. See [Mux] for the rules.
func (m *Mux) Handle(event Event, matcher string, h Handler) {
	if h == nil {
		panic("hooks: nil handler for " + string(event))
	}
	if _, ok := lookup(event); !ok {
		panic(fmt.Sprintf("hooks: Handle: unknown event %q", event))
	}
	name, derived := handlerName(h)
	if derived {
		name = m.unique(routeLabel(event, matcher) + " " + name)
	}
	r := Route{Event: event, Matcher: matcher, Handler: h, Name: name}
	switch {
	case matcher == "" || matcher == "*":
	case isNameList(matcher):
		for _, n := range strings.Split(matcher, "|") {
			if n == "" {
				panic(fmt.Sprintf("hooks: Handle: empty name in matcher %q", matcher))
			}
			r.names = append(r.names, n)
		}
	default:
		re, err := regexp.Compile(matcher)
		if err != nil {
			panic(fmt.Sprintf("hooks: Handle: matcher %q: %v", matcher, err))
		}
		r.re = re
	}
	for _, old := range m.routes {
		if old.Event == event && old.Matcher == matcher && old.Name == r.Name {
			panic(fmt.Sprintf("hooks: Handle: %s registered twice for %s %q", r.Name, event, matcher))
		}
	}
	m.routes = append(m.routes, r)
}

// On registers f for the event whose input type is E, with matcher (see
// [Mux] for the matcher rules). The event is named once, by the type, so a
// handler cannot be registered on an event whose input it never receives:
//
//	hooks.On(m, "", func(ctx context.Context, e *hooks.TaskCompleted) (hooks.Result, error) { ... })
//
// Options name the route for reports ([WithName]) and give it a gate's
// fail-closed policy ([WithFailCloser]); without a name the route is named
// for the event, the matcher and f (see [Mux]).
//
// E must be one event's input type (*PreToolUse, *TaskCompleted, ...); any
// other type panics at registration.
func On[E Input](m *Mux, matcher string, f func(ctx context.Context, in E) (Result, error), opts ...RouteOption) {
	if f == nil {
		panic("hooks: On: nil function")
	}
	var found []Event
	for _, info := range releaseEvents {
		if _, ok := info.new().(E); ok {
			found = append(found, info.event)
		}
	}
	if len(found) != 1 {
		var zero E
		panic(fmt.Sprintf("hooks: On: %T is not the input type of exactly one event (matches %d)", zero, len(found)))
	}
	var o routeOptions
	for _, opt := range opts {
		opt(&o)
	}
	h := For(f)
	if o.failCloser != nil {
		h = withPolicy{h, o.failCloser}
	}
	if o.name != "" {
		h = Named(o.name, h)
	}
	m.Handle(found[0], matcher, h)
}

// A RouteOption adjusts one registration made with [On].
type RouteOption func(*routeOptions)

type routeOptions struct {
	name       string
	failCloser FailCloser
}

// WithName names the route: the name [Mux.Routes], [Fault], [Mux.Running]
// and a fail-closed block reason report, and the one that must be unique
// for the event and matcher. An empty name leaves the route unnamed.
func WithName(name string) RouteOption {
	return func(o *routeOptions) { o.name = name }
}

// WithFailCloser gives the route fc's fail-closed policy: when fc says it
// fails closed, the route's error, panic or overrun blocks (see [Mux]).
// fc is asked at dispatch, so a policy that depends on config stays live.
// Pass the gate whose typed method is registered.
func WithFailCloser(fc FailCloser) RouteOption {
	return func(o *routeOptions) { o.failCloser = fc }
}

// withPolicy is a handler with the fail-closed policy of another value.
type withPolicy struct {
	Handler
	fc FailCloser
}

func (w withPolicy) FailClosed() bool { return w.fc.FailClosed() }

// HandleFunc registers a function; see [Mux.Handle].
func (m *Mux) HandleFunc(event Event, matcher string, f func(context.Context, Input) (Result, error)) {
	m.Handle(event, matcher, HandlerFunc(f))
}

// handlerName is h's own name, or one derived from its function or type
// (derived is then true).
func handlerName(h Handler) (name string, derived bool) {
	if n, ok := h.(interface{ Name() string }); ok {
		if s := n.Name(); s != "" {
			return s, false
		}
	}
	switch f := h.(type) {
	case HandlerFunc:
		return funcName(reflect.ValueOf(f).Pointer()), true
	case interface{ entry() uintptr }:
		return funcName(f.entry()), true
	}
	t := reflect.TypeOf(h)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() == "" {
		return t.String(), true
	}
	return lastElem(t.PkgPath()) + "." + t.Name(), true
}

// funcName names the function at pc as a reader finds it: "pkg.Func",
// "pkg.Type.Method", or "file.go:42" for a function literal.
func funcName(pc uintptr) string {
	fn := runtime.FuncForPC(pc)
	if fn == nil {
		return "func"
	}
	name := strings.TrimSuffix(fn.Name(), "-fm") // a method value
	name = name[strings.LastIndex(name, "/")+1:]
	name = strings.NewReplacer("(*", "", ")", "").Replace(name)
	if isLiteral(name) {
		file, line := fn.FileLine(pc)
		return fmt.Sprintf("%s:%d", filepath.Base(file), line)
	}
	return name
}

// isLiteral reports whether a runtime function name is a function
// literal's ("main.main.func1", "pkg.F.func2.1").
func isLiteral(name string) bool {
	i := strings.LastIndex(name, ".func")
	if i < 0 {
		return false
	}
	for _, c := range name[i+len(".func"):] {
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return true
}

func lastElem(path string) string { return path[strings.LastIndex(path, "/")+1:] }

// routeLabel is "Event" or "Event[matcher]".
func routeLabel(event Event, matcher string) string {
	if matcher == "" {
		return string(event)
	}
	return string(event) + "[" + matcher + "]"
}

// unique returns name, or name with " #2", " #3", ... when a route has it.
func (m *Mux) unique(name string) string {
	taken := func(n string) bool {
		for _, r := range m.routes {
			if r.Name == n {
				return true
			}
		}
		return false
	}
	if !taken(name) {
		return name
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s #%d", name, i); !taken(n) {
			return n
		}
	}
}

// matches reports whether r's matcher accepts target.
func (r *Route) matches(target string) bool {
	switch {
	case r.re != nil:
		return r.re.MatchString(target)
	case r.names != nil:
		for _, n := range r.names {
			if n == target {
				return true
			}
		}
		return false
	default:
		return true
	}
}

// Routes returns every registration in order.
func (m *Mux) Routes() []Route { return append([]Route(nil), m.routes...) }

// Match returns the routes that would run for event with the given match
// target, in the order they would run. It has no side effects.
func (m *Mux) Match(event Event, target string) []Route {
	var out []Route
	for _, r := range m.routes {
		if r.Event == event && r.matches(target) {
			out = append(out, r)
		}
	}
	return out
}

// Fault records a handler that failed open.
type Fault struct {
	Handler string
	Err     error
}

// Error names the handler and what went wrong.
func (f Fault) Error() string { return f.Handler + ": " + f.Err.Error() }

// Faults a handler can cause besides returning an error.
var (
	ErrPanic    = errors.New("handler panicked")
	ErrDeadline = errors.New("handler overran the deadline")
)

// Dispatch runs the handlers that match in and merges their results; see
// [Mux] for the rules. Faults are returned, never turned into a block.
func (m *Mux) Dispatch(ctx context.Context, in Input) (Result, []Fault) {
	var (
		merged Result
		faults []Fault
	)
	defer m.current.Store(nil)
	defer m.pending.Store(nil)
	routes := m.Match(in.Base().HookEventName, in.MatchTarget())
	for i, r := range routes {
		rest := routes[i:]
		m.pending.Store(&rest)
		if err := ctx.Err(); err != nil {
			err = fmt.Errorf("%w: not started: %v", ErrDeadline, err)
			faults = append(faults, Fault{r.Name, err})
			for _, later := range rest {
				if failsClosed(later.Handler) {
					merge(&merged, Result{Decision: Block, Reason: closedReason(later.Name, err)}, later.Name)
					break
				}
			}
			break
		}
		m.current.Store(&r.Name)
		res, err := call(ctx, r.Handler, in)
		if err == nil && ctx.Err() != nil {
			err = fmt.Errorf("%w: returned after %v", ErrDeadline, ctx.Err())
		}
		if err != nil {
			faults = append(faults, Fault{r.Name, err})
			if failsClosed(r.Handler) {
				merge(&merged, Result{Decision: Block, Reason: closedReason(r.Name, err)}, r.Name)
				break
			}
			continue
		}
		if merge(&merged, res, r.Name) {
			break
		}
	}
	return merged, faults
}

// running returns the name of the handler Dispatch is running, or "".
// It is safe to call from another goroutine, such as the watchdog.
func (m *Mux) running() string {
	if p := m.current.Load(); p != nil {
		return *p
	}
	return ""
}

// pendingClosed returns the name of the first gate set to fail closed that
// Dispatch has not finished (the one running, or one still to run), or "".
// It is safe to call from another goroutine: the watchdog that gives up on
// a handler asks it whether giving up must block.
func (m *Mux) pendingClosed() string {
	p := m.pending.Load()
	if p == nil {
		return ""
	}
	for _, r := range *p {
		if failsClosed(r.Handler) {
			return r.Name
		}
	}
	return ""
}

// call runs h, turning a panic into an error.
func call(ctx context.Context, h Handler, in Input) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = Result{}, fmt.Errorf("%w: %v", ErrPanic, p)
		}
	}()
	return h.Handle(ctx, in)
}

// merge folds res, from the handler named name, into acc and reports
// whether dispatch must stop.
func merge(acc *Result, res Result, name string) (stop bool) {
	switch {
	case res.Decision > acc.Decision:
		acc.Decision, acc.Reason, acc.Handler, acc.Rule = res.Decision, res.Reason, name, res.Rule
	case res.Decision == acc.Decision && res.Decision == Ask && res.Reason != "":
		acc.Reason = join(acc.Reason, res.Reason, "; ")
	}
	acc.Context = join(acc.Context, res.Context, "\n\n")
	acc.SystemMessage = join(acc.SystemMessage, res.SystemMessage, "\n")
	if acc.UpdatedInput == nil {
		acc.UpdatedInput = res.UpdatedInput
	}
	if res.Halt {
		acc.Halt, acc.StopReason = true, res.StopReason
		if acc.Decision == None {
			acc.Handler = name
		}
	}
	return res.Halt || res.Decision == Block
}

func join(a, b, sep string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + sep + b
}
