// Package hooks is the hookwright runtime library: the Claude Code hook wire
// types, the stdin/stdout protocol, the handler mux and the single place where
// a result becomes an exit code.
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
// rejected, and [Common.Extra] returns them.
//
// # Handlers
//
// A [Handler] answers one event with a [Result]. Handlers are values and are
// registered on a [Mux] with the event and a matcher, exactly like Claude
// Code's own hooks.json entries; see [Mux] for matching and merge rules.
// [On] registers a function of one event type and takes the event from the
// type, so it is named once:
//
//	hooks.On(m, "", func(ctx context.Context, e *hooks.TaskCompleted) (hooks.Result, error) { ... })
//
// A gate that must block when it cannot decide implements [FailCloser].
// A typed method of a gate registers the same way, with its name for
// reports ([WithName]) and its policy ([WithFailCloser]):
//
//	hooks.On(m, "", gate.TaskCompleted, hooks.WithName("artifacts"), hooks.WithFailCloser(gate))
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
// and block channel per band, and the first release of every hooks.json key
// ([KeySince]) live in zz_release_table.go, which `go generate ./hooks`
// writes from package compat's matrix, the one hand-kept table of release
// facts (evidence in compat/FACTS.md). A test fails when the file is stale,
// and another walks every event on every band and checks Emit against the
// matrix.
package hooks
