package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/project"
)

// runUnnamed serves a call with no arguments. A handler written in the
// exec form ("command" the program, "args" its arguments, 2.1.139+) is run
// by an older release as "command" alone through sh -c, without "args".
// The input still names its event (hook_event_name), so hookwright serves
// it as that event, on the conservative floor channel (no --proto).
// Without such input (a terminal, an empty or unknown input) it prints the
// usage and exits 1.
func runUnnamed(stdin io.Reader, stdout, stderr io.Writer, env project.Env, log debugLog) int {
	if !isTerminal(stdin) {
		// the event is not known before the input is read: the guard's floors apply
		data, err := hooks.Read(stdin, readOptions(project.Getenv(env.Getenv), hooks.EventPreToolUse))
		switch ev, ok := namedEvent(data); {
		case err != nil:
			fmt.Fprintln(stderr, "hookwright: no event on the command line, and", err)
		case ok:
			log.Debug("no arguments: the event is the input's hook_event_name", "event", ev)
			return guarded(invocation{event: ev}, data, stdout, stderr, env, log)
		case data != nil:
			fmt.Fprintln(stderr, "hookwright: no event on the command line, and the input names no event hookwright knows")
		}
	}
	fmt.Fprintf(stderr, usage, eventList())
	return hooks.ExitError
}

// namedEvent returns the event an input names in hook_event_name, spelled
// exactly as Claude Code spells it.
func namedEvent(data []byte) (hooks.Event, bool) {
	var in struct {
		Name string `json:"hook_event_name"`
	}
	if data == nil || json.Unmarshal(data, &in) != nil {
		return "", false
	}
	ev, err := hooks.ParseEvent(in.Name)
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
