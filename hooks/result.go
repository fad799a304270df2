package hooks

import (
	"context"
	"encoding/json"
)

// Decision is a handler's verdict on an event. The zero value has no
// opinion. Decisions are ordered: Block > Ask > Allow > None, and the merged
// result of several handlers carries the strongest one.
type Decision int

// The decisions, weakest first.
const (
	// None: the handler has no opinion.
	None Decision = iota
	// Allow: PreToolUse and PermissionRequest run the tool without asking.
	Allow
	// Ask: PreToolUse asks the user.
	Ask
	// Block stops the action: a denied tool call, a kept-open task, a
	// teammate or agent that must keep working. The reason goes to Claude.
	Block
)

// String returns the decision's name.
func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Block:
		return "block"
	default:
		return "none"
	}
}

// Result is what a handler answers. The zero Result means "go on, nothing to
// say". Use the constructors ([Blockf], [AddContext], ...) or fill it in.
type Result struct {
	Decision Decision
	// Reason explains a decision. For Block it is what Claude reads.
	Reason string
	// Context is additional context for the model, on events that take
	// additionalContext; elsewhere it is shown as a system message.
	Context string
	// SystemMessage is shown to the user.
	SystemMessage string
	// Halt asks Claude Code to stop (continue:false) with StopReason.
	Halt       bool
	StopReason string
	// UpdatedInput replaces a PreToolUse tool input.
	UpdatedInput json.RawMessage
	// Handler is set by [Mux.Dispatch] on the merged result: the name of
	// the handler whose Decision (or Halt) it carries. Handlers leave it
	// empty; the journal records it.
	Handler string
	// Rule names the rule that decided, for a handler that has rules of
	// its own (hookwright's guard: "git-force-push", "database.drop").
	// The merged result carries the Rule of the result whose Decision it
	// carries; the journal records it beside Handler.
	Rule string
}

// Empty reports whether r says nothing at all.
func (r Result) Empty() bool {
	return r.Decision == None && r.Reason == "" && r.Context == "" &&
		r.SystemMessage == "" && !r.Halt && r.UpdatedInput == nil
}

// Blocked returns a Result that blocks with reason.
func Blocked(reason string) Result { return Result{Decision: Block, Reason: reason} }

// Context returns a Result that adds context for the model.
func Context(text string) Result { return Result{Context: text} }

// Halted returns a Result that stops Claude Code with reason (continue:false).
func Halted(reason string) Result { return Result{Halt: true, StopReason: reason} }

// Handler answers one hook event. Handlers are values: a gate is a struct
// with its config, registered on a [Mux]. A Handler must honour ctx; an error
// means "I could not decide" and the mux fails open on it, reporting the
// error under the handler's name ([Fault]), so the error need not name it.
type Handler interface {
	Handle(ctx context.Context, in Input) (Result, error)
}

// HandlerFunc adapts a plain function to a [Handler].
type HandlerFunc func(ctx context.Context, in Input) (Result, error)

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, in Input) (Result, error) { return f(ctx, in) }

// For adapts a function of one concrete event type to a [Handler]. Given an
// input of another type it does nothing, so a typed handler registered on
// the wrong event is harmless (and caught by tests through [Mux.Match]).
func For[E Input](f func(ctx context.Context, in E) (Result, error)) Handler {
	return HandlerFunc(func(ctx context.Context, in Input) (Result, error) {
		e, ok := in.(E)
		if !ok {
			return Result{}, nil
		}
		return f(ctx, e)
	})
}

// Named gives a handler a name for reports and for [Mux.Routes]. Handlers
// that implement Name() themselves need no wrapper.
func Named(name string, h Handler) Handler { return named{name, h} }

type named struct {
	name string
	Handler
}

func (n named) Name() string { return n.name }
