// Package guardhook serves hookwright's security guard as the PreToolUse
// handler: a thin [hooks.Handler] over package internal/guard, which reads
// the call and decides (and which hwctl explain runs too). The handler turns
// the guard's report into the hook's answer: block, ask, allow (a
// guard.tools allow rule only), or nothing; a fault is an error, which
// blocks only when guard.fail is "closed".
package guardhook

import (
	"context"
	"fmt"
	"os"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/guard"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
)

// Tools is the PreToolUse matcher the handler is registered with: every
// tool (see internal/guard's Tools).
const Tools = guard.Tools

// Handler is the guard's PreToolUse handler. Make one with [New].
type Handler struct {
	Guard *guard.Guard
}

// New returns the guard's handler for the hook call c: its guard config,
// environment and project folder.
func New(c call.Call) Handler {
	g := guard.New(c.Config().Guard)
	g.Getenv = c.Getenv
	g.ProjectDir = c.Root()
	return Handler{g}
}

// Name names the handler in reports.
func (Handler) Name() string { return "guard" }

// FailClosed reports whether the guard blocks when it cannot decide: with
// guard.fail "closed", an error, a panic or an overrun of the call's
// deadline blocks instead of letting the call through (hooks.FailCloser).
func (h Handler) FailClosed() bool {
	return h.Guard != nil && h.Guard.Config.Enabled && h.Guard.Config.Fail == config.FailClosed
}

// Handle serves [Handler.PreToolUse] and ignores every other event.
func (h Handler) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(h.PreToolUse).Handle(ctx, in)
}

// PreToolUse checks a tool call.
func (h Handler) PreToolUse(_ context.Context, ev *hooks.PreToolUse) (hooks.Result, error) {
	g := h.Guard
	if g == nil || !g.Config.Enabled {
		return hooks.Result{}, nil
	}
	project := g.ProjectDir
	if project == "" {
		getenv := g.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		project = hooks.ProjectDir(ev, getenv)
	}
	rep := g.Check(guard.Call{Tool: ev.ToolName, Input: ev.ToolInput, Cwd: ev.Cwd, Project: project})
	if rep.Fault != "" && rep.Decision != "block" {
		return hooks.Result{}, fmt.Errorf("guard could not check the %s call: %s", ev.ToolName, rep.Fault)
	}
	switch rep.Decision {
	case "block":
		return hooks.Blocked(rep.Reason), nil
	case "ask":
		return hooks.Asked(rep.Reason), nil
	case "allow":
		if rep.Rule == guard.ToolRulePolicy {
			return hooks.Allowed(rep.Reason), nil
		}
	}
	return hooks.Result{}, nil
}
