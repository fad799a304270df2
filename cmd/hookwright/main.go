// Command hookwright is the hook runtime Claude Code starts on every hook
// event. A plugin's hooks.json calls it as
//
//	"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" <Event> [--via <FiredEvent>] [--proto <release>]
//
// through the launcher script bin/hookwright as shipped, and, once the
// native switch has written the running release's band (package
// internal/runtime/native), as bin/hookwright-<os>-<arch> directly: one
// quoted shell command before 2.1.139, the exec form ("args", no shell)
// from 2.1.139.
//
// With no arguments and event JSON on stdin, it serves the event the input
// names in hook_event_name: a release before 2.1.139 that reads a copy a
// later release switched to the exec form drops "args" (see unnamed.go).
//
// It reads the event JSON from stdin, runs the built-in handlers registered
// for that event, and answers in Claude Code's protocol:
//
//	exit 0  go on; stdout carries JSON when there is something to say
//	exit 1  non-blocking error: bad arguments or input, one line on stderr
//	exit 2  block; stderr is the reason given to Claude
//
// <Event> is the canonical event, as hooks.json spells it (PreToolUse) or
// in kebab case (pre-tool-use). --via names the event Claude Code actually
// fired when an older release lacks the canonical one (TaskCompleted
// --via PostToolUse). --proto is the first release of the protocol band,
// written by hookgen, which decides the block channel.
//
// Environment: HOOKWRIGHT_DEBUG=1 logs to stderr; HOOKWRIGHT_TIMEOUT (a Go
// duration, default 5s) bounds the handlers; HOOKWRIGHT_STDIN_TIMEOUT
// (default 1s) bounds the wait for input; HOOKWRIGHT_MAX_INPUT (bytes,
// default 5 MiB) caps it.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], stdin(), os.Stdout, os.Stderr, os.Getenv)) }
