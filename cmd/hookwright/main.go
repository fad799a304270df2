// Command hookwright is the hook runtime Claude Code starts on every hook
// event. A plugin's hooks files call it as
//
//	"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" <Event> [--via <FiredEvent>] [--proto <release>]
//
// through the launcher script bin/hookwright, or, where the shell can name
// this machine's binary without forking, bin/hookwright-<os>-<arch>
// directly (see plugin/README.md). The installed files are never rewritten:
// every Claude Code release on the machine reads the same ones.
//
// With no arguments and event JSON on stdin, it serves the event the input
// names in hook_event_name: a release before 2.1.139 runs a handler written
// in the exec form without its "args".
//
// The hook call itself is a [hooks.Runner], the one every Go plugin runs
// with hooks.Main: hookwright adds its built-in handlers, built from the
// project's config, and the journal line (run.go).
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
// duration, default 5s) bounds the call after stdin is read; HOOKWRIGHT_STDIN_TIMEOUT
// (default 1s) bounds the wait for input; HOOKWRIGHT_MAX_INPUT (bytes,
// default 5 MiB) caps it. For PreToolUse the three may only raise the
// defaults, so that the environment cannot make the guard fail open.
//
// # Never a block by our own fault
//
// Only a handler's decision exits 2. Every file the call touches (config,
// journal, state, scratchpads, task files, transcript) is opened without
// blocking, as a regular file only, confined to its root and read with a
// cap (package safepath). A watchdog covers the whole call, from decoding
// the input to writing the journal: when it runs out it answers with the
// defaults and a systemMessage (exit 0), or, when a gate set to "fail":
// "closed" has not decided, blocks and says so. A panic anywhere is
// recovered and exits 1; the heap runs under a soft limit ([memoryLimit]).
//
// One thing Go cannot recover from: a fatal error of the Go runtime itself
// (out of memory despite the caps, a concurrent map write, a stack
// overflow, a corrupted heap). Go then prints "fatal error:" and exits 2,
// which Claude Code reads as a block. The caps above exist so that no input
// can cause one.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// memoryLimit is the soft heap limit: far above what a call needs (stdin
// is capped at 5 MiB, state files at 4 MiB), low enough that the garbage
// collector works hard long before the machine runs out.
const memoryLimit = 512 << 20

func main() {
	growStack(len(os.Args))
	debug.SetMemoryLimit(memoryLimit)
	// One call opens the project for the config, the journal and state
	// files: open each root folder once, not once per file.
	safepath.KeepRoots = true
	env := project.Env{Getenv: os.Getenv, Now: time.Now, Home: os.UserHomeDir}
	r, code, done := setup(os.Args[1:], env)
	if done {
		os.Exit(code)
	}
	r.Main() // the hook call, through the same runner as any plugin's (hooks.Main)
}

// setup runs a subcommand that is not a hook call (done), or returns the
// runner for the hook call; a panic is recovered and exits 1.
func setup(args []string, env project.Env) (r *hooks.Runner, code int, done bool) {
	defer func() {
		if p := recover(); p != nil {
			r, code, done = nil, fail(os.Stderr, fmt.Errorf("internal error: %v (failed open)", p)), true
		}
	}()
	if code, done := command(args, os.Stdin, os.Stdout, os.Stderr, env); done {
		return nil, code, true
	}
	return newRunner(args, env, os.Stderr), 0, false
}

// stackReserve is the stack frame growStack takes: enough that the main
// goroutine's stack, grown once to hold it, covers a whole hook call.
const stackReserve = 16 << 10

// growStack grows the main goroutine's stack once, while it holds only a
// few frames, to the size a hook call needs (decoding the input, the
// guard's parser). Left to grow on demand, the stack is copied two or
// three times from deep inside encoding/json, and every copy walks and
// adjusts each frame on it: about 60k instructions (callgrind, PreToolUse
// Bash) and 40 us of a 1.6 ms call (hookbench). Using n keeps the compiler
// from folding the array away.
//
//go:noinline
func growStack(n int) byte {
	var buf [stackReserve]byte
	buf[n%len(buf)] = byte(n)
	return buf[(n*7)%len(buf)]
}
