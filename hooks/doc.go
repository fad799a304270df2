// Package hooks is a Go SDK for Claude Code hooks: the wire types of every
// hook event, a mux that routes events to handlers the way hooks.json does,
// the translation of the events older releases fire in place of newer
// ones, and a runner that does a whole hook call, so that a plugin's hook
// binary is a few lines:
//
//	func main() {
//		m := new(hooks.Mux)
//		hooks.On(m, "Bash", blockForcePush)     // func(ctx, *hooks.PreToolUse) (hooks.Result, error)
//		hooks.On(m, "", requireDeliverable)     // func(ctx, *hooks.TaskCompleted) (hooks.Result, error)
//		hooks.Main(m)
//	}
//
// hookwright's own hook binary runs through the same [Runner]. Package
// hookstest runs a Mux or a built binary against recorded events in tests.
//
// # The protocol
//
// Claude Code starts a hook command through a shell, writes one JSON event on
// its stdin and reads the exit code:
//
//   - 0: go on. stdout may carry one JSON object whose fields depend on the
//     event (see the *Output types).
//   - 2: block. stdout is ignored and stderr is the reason given to Claude.
//   - anything else: a non-blocking error, shown to the user only.
//
// [Read] takes the first complete JSON value from stdin under a size cap and a
// deadline, and never waits for EOF, because Claude Code may keep stdin open.
// [Decode] turns it into one typed event per hook kind ([PreToolUse],
// [TaskCompleted], ...); fields this package does not know are kept, not
// rejected, and [Common.Extra] returns them. A tool event's input is read
// by exact key ([ToolCall.AsBash], [ToolCall.AsWrite], ..., [DecodeExact]):
// encoding/json would read a look-alike key the model can add ("COMMAND"
// for "command") in place of the one Claude Code acts on.
//
// # Handlers
//
// A [Handler] answers one event with a [Result]. Handlers are values and are
// registered on a [Mux] with the event and a matcher, exactly like Claude
// Code's own hooks.json entries; see [Mux] for matching, naming and merge
// rules. [On] registers a function of one event type and takes the event
// from the type, so it is named once:
//
//	hooks.On(m, "", func(ctx context.Context, e *hooks.TaskCompleted) (hooks.Result, error) { ... })
//
// Each decision has one constructor: [Blocked], [Asked], [Allowed]; and
// [Context] for the model, [Halted] to stop Claude Code. A gate that must
// block when it cannot decide implements [FailCloser]. A typed method of a
// gate registers the same way, with its name for reports ([WithName]) and
// its policy ([WithFailCloser]):
//
//	hooks.On(m, "", gate.TaskCompleted, hooks.WithName("artifacts"), hooks.WithFailCloser(gate))
//
// # One hook call
//
// [Main] (a [Runner]) reads the command line hookgen writes,
// `<command> [<Event>] [--via <FiredEvent>] [--proto <release>]`
// ([Invocation]), reads and decodes the event, translates a fallback into
// the canonical event ([Translate]), checks the [Contract], dispatches
// under a deadline it enforces for every handler, cooperative or not, and
// writes the one answer. Nothing of ours exits 2: a fault fails open with
// one line, unless a gate set to fail closed was to run.
//
// # Fallbacks
//
// One installed plugin is read by every Claude Code release on the
// machine. A release without TaskCompleted or TeammateIdle fires
// PostToolUse (TaskUpdate), or SubagentStop and Stop, in their place; the
// hooks.json hookgen writes registers the handler there with
// `--via <fired>`, and [Translate] turns what arrives into the canonical
// event, or into nothing (a TaskUpdate that completes no task, a TodoWrite,
// a subagent that is no teammate, a release that fires the canonical event
// itself). [Fallbacks] lists the plan, [RunningRelease] tells which
// release fired a hook.
//
// # Exit codes
//
// [Emit] is the only function that turns a merged [Result] into bytes and an
// exit code. It chooses the block channel by event and protocol band
// ([ChannelOf], [Band]): exit 2 with the reason on stderr where the event can
// block (PreCompact only from 2.1.105), `continue:false` on TeammateIdle and
// TaskCompleted from 2.1.69, a JSON decision on PermissionRequest, and a
// system message on events that cannot block.
//
// # Release facts
//
// The event constants, [Events], each event's first release ([EventSince])
// and block channel per band, the fallback plan, and the first release of
// every hooks.json key ([KeySince]) live in zz_release_table.go, which
// `go generate ./hooks` writes from package compat's matrix, the one
// hand-kept table of release facts (evidence in compat/FACTS.md). A test
// fails when the file is stale, and another walks every event on every
// band and checks Emit against the matrix. [Release] is the one release
// type of the module; compat speaks it too.
package hooks
