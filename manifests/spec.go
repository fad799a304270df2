package manifests

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/internal/jsonerr"
	"github.com/hookwright/hookwright/schemas"
)

// ErrSpec is wrapped by every error about a spec's content.
var ErrSpec = errors.New("invalid spec")

// Spec lists the handlers a plugin registers, independent of any release.
// Its JSON form:
//
//	{
//	  "description": "shown in /hooks",
//	  "protoFlag": true,
//	  "exec": true,
//	  "direct": true,
//	  "handlers": [
//	    {"event": "PreToolUse", "matcher": "Bash|Write", "command": "...", "timeout": 10, "statusMessage": "..."}
//	  ]
//	}
type Spec struct {
	// Description becomes hooks.json's "description".
	Description string `json:"description"`
	// ProtoFlag appends "--proto <band>" to the commands of events whose
	// block channel depends on the band (TeammateIdle and TaskCompleted
	// from 2.1.69), so the runtime need not guess, and "--with-async" to
	// the synchronous commands of an event that has an async handler in
	// the band. Off for scripts that do not expect them.
	ProtoFlag bool `json:"protoFlag,omitempty"`
	// Exec writes each command in the exec form ("command" the program,
	// "args" its arguments; see [SplitExec]) on bands that accept "args"
	// (2.1.139+), where Claude Code starts it with no shell. Commands that
	// need a shell stay shell commands. Off by default.
	Exec bool `json:"exec,omitempty"`
	// Direct writes each command that calls a launcher in the plugin's
	// bin/ ("${CLAUDE_PLUGIN_ROOT}/bin/<name>" followed by plain words) in
	// the direct form ([DirectForm]): one shell line that runs this
	// machine's binary beside the launcher without a second shell, and the
	// launcher where it cannot tell. Off by default.
	Direct bool `json:"direct,omitempty"`
	// Handlers, in the order they are registered.
	Handlers []Handler `json:"handlers"`
}

// Handler is one registration: a canonical event, a matcher and a command.
type Handler struct {
	// Event is the canonical event, e.g. "TaskCompleted", even where a
	// release delivers it through a fallback.
	Event string `json:"event"`
	// Matcher filters the event (tool name, source, ...); empty matches
	// every occurrence. Only events that take a matcher may have one.
	Matcher string `json:"matcher,omitempty"`
	// Command is a shell command line: ours, or any script such as
	// node "${CLAUDE_PLUGIN_ROOT}/scripts/x.js". On a fallback, hookgen
	// appends " --via <FiringEvent>".
	Command string `json:"command"`
	// Timeout in whole seconds; 0 leaves Claude Code's default.
	Timeout int `json:"timeout,omitempty"`
	// StatusMessage is the spinner text while the hook runs; it is
	// written only on releases that accept it.
	StatusMessage string `json:"statusMessage,omitempty"`
	// Async runs the command in the background (Claude Code's "async":
	// true, from 2.1.15): the model goes on while it runs. A release
	// without async hooks would run it in the foreground, so the
	// handler is left out of its manifest; the command must still do
	// nothing where a release reads it and runs it in the foreground
	// (hookwright's --async does nothing there).
	Async bool `json:"async,omitempty"`
	// AsyncRewake lets an async command's exit 2 reach the model, or wake
	// it when its turn is over ("asyncRewake", from 2.1.64); written only
	// on releases that accept it, and only with Async.
	AsyncRewake bool `json:"asyncRewake,omitempty"`
}

//go:embed hookwright.spec.json
var hookwrightSpec []byte

// Hookwright returns the spec of the hookwright plugin itself.
func Hookwright() Spec {
	s, err := ParseSpec(hookwrightSpec)
	if err != nil {
		panic(err) // a test keeps the embedded spec valid
	}
	return s
}

// ParseSpec reads a spec and checks it: unknown keys, unknown events,
// matchers on events that take none, empty commands and timeouts that are
// not whole seconds within bounds are errors wrapping [ErrSpec].
func ParseSpec(data []byte) (Spec, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	var s Spec
	if err := d.Decode(&s); err != nil {
		return Spec{}, fmt.Errorf("%w: %w", ErrSpec, jsonerr.Describe(err))
	}
	if _, err := d.Token(); err != io.EOF {
		return Spec{}, fmt.Errorf("%w: trailing data after the spec object", ErrSpec)
	}
	if err := s.Check(); err != nil {
		return Spec{}, err
	}
	return s, nil
}

// Check reports the first problem in s, wrapping [ErrSpec].
func (s Spec) Check() error {
	if len(s.Handlers) == 0 {
		return fmt.Errorf("%w: no handlers", ErrSpec)
	}
	for i, h := range s.Handlers {
		if err := h.check(); err != nil {
			return fmt.Errorf("%w: handlers[%d] (%s): %w", ErrSpec, i, h.Event, err)
		}
	}
	return nil
}

func (h Handler) check() error {
	ev, ok := compat.Lookup(compat.KindEvent, h.Event)
	switch {
	case !ok:
		return fmt.Errorf("unknown event %q (names are case-sensitive; see hookgen matrix)", h.Event)
	case h.Matcher != "" && ev.Matcher == "":
		return fmt.Errorf("%s takes no matcher, but has %q", h.Event, h.Matcher)
	case h.Command == "":
		return errors.New("empty command")
	case h.Timeout != 0 && h.Timeout > schemas.MaxTimeout:
		return fmt.Errorf("timeout is in seconds, at most %d; %d looks like milliseconds", schemas.MaxTimeout, h.Timeout)
	case h.Timeout < 0:
		return fmt.Errorf("timeout %d: must be a positive number of seconds (0 leaves it unset)", h.Timeout)
	case h.AsyncRewake && !h.Async:
		return errors.New("asyncRewake without async")
	}
	return nil
}
