package manifests

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/hookwright/hookwright/compat"
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
//	  "handlers": [
//	    {"event": "PreToolUse", "matcher": "Bash|Write", "command": "...", "timeout": 10, "statusMessage": "..."}
//	  ]
//	}
type Spec struct {
	// Description becomes hooks.json's "description".
	Description string `json:"description"`
	// ProtoFlag appends "--proto <band>" to the commands of events whose
	// block channel depends on the band (TeammateIdle and TaskCompleted
	// from 2.1.69), so the runtime need not guess. Off for scripts that do
	// not expect it.
	ProtoFlag bool `json:"protoFlag,omitempty"`
	// Exec writes each command in the exec form ("command" the program,
	// "args" its arguments; see [SplitExec]) on bands that accept "args"
	// (2.1.139+), where Claude Code starts it with no shell. Commands that
	// need a shell stay shell commands. Off by default.
	Exec bool `json:"exec,omitempty"`
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
		return Spec{}, fmt.Errorf("%w: %w", ErrSpec, err)
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
	}
	return nil
}
