package hooks

import (
	"fmt"
	"io"
	"strings"
)

// Invocation is a hook command line, as hookgen writes it into a plugin's
// hooks.json:
//
//	<command> [<Event>] [--via <FiredEvent>] [--proto <release>] [--async | --with-async]
//
// Event is the canonical event the handler is written for. Via names the
// event Claude Code fires in its place on a release that lacks it (a
// fallback registration, see [Translate]); Band is the first release of
// the protocol band (--proto), which decides how a handler blocks
// ([ChannelOf]).
type Invocation struct {
	// Event is the canonical event; "" when the command line names none
	// (the runner then takes it from --via's fallback, or from the input's
	// hook_event_name).
	Event Event
	// Via is the event Claude Code fires in Event's place; "" when it
	// fires Event itself.
	Via Event
	// Band is the protocol band; the zero Band is the conservative floor.
	Band Band
	// Async marks the registration hooks.json runs in the background
	// ("async": true, from 2.1.15): an older release, which strips the key,
	// runs it in the foreground, where its handlers should do nothing
	// (see [RunningRelease]). WithAsync marks a synchronous registration
	// whose event has such a partner, which does the background work.
	Async, WithAsync bool
	// WithNative marks a fallback registration whose install also
	// registers Event natively for the releases that fire it (hookgen
	// plugin writes both, in different hooks files): on such a release
	// the fallback stands for nothing ([Invocation.Translate]). Without
	// it the fallback is the plugin's only registration of Event (a
	// hooks.json written for one older release) and applies everywhere.
	WithNative bool
}

// ParseInvocation reads [<Event>] [--via <FiredEvent>] [--proto <release>]
// [--async | --with-async] [--with-native] (--via and --proto also as
// --flag=value). Event
// names are read as [ParseEvent] reads them. Anything else is an error.
func ParseInvocation(args []string) (Invocation, error) {
	var inv Invocation
	rest := args
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		ev, err := ParseEvent(rest[0])
		if err != nil {
			return inv, err
		}
		inv.Event, rest = ev, rest[1:]
	}
	for len(rest) > 0 {
		flag, val, hasVal := strings.Cut(rest[0], "=")
		if (flag == "--async" || flag == "--with-async") && !hasVal {
			inv.Async = inv.Async || flag == "--async"
			inv.WithAsync = inv.WithAsync || flag == "--with-async"
			rest = rest[1:]
			continue
		}
		if flag == "--with-native" && !hasVal {
			inv.WithNative = true
			rest = rest[1:]
			continue
		}
		if flag != "--via" && flag != "--proto" {
			if strings.HasPrefix(flag, "-") {
				return inv, fmt.Errorf("unknown flag %q", flag)
			}
			return inv, fmt.Errorf("unexpected argument %q", rest[0])
		}
		if !hasVal {
			if len(rest) < 2 {
				return inv, fmt.Errorf("%s needs a value", flag)
			}
			val, rest = rest[1], rest[1:]
		}
		rest = rest[1:]
		var err error
		switch flag {
		case "--via":
			if inv.Via, err = ParseEvent(val); err != nil {
				return inv, fmt.Errorf("--via: %w", err)
			}
		case "--proto":
			if inv.Band, err = ParseBand(val); err != nil {
				return inv, fmt.Errorf("--proto: %w", err)
			}
		}
	}
	if inv.Via == inv.Event {
		inv.Via = "" // --via naming the event itself is no fallback
	}
	return inv, nil
}

// Fired is the event Claude Code fires for this command line: Via, else
// Event.
func (inv Invocation) Fired() Event {
	if inv.Via != "" {
		return inv.Via
	}
	return inv.Event
}

// Args writes inv back as a command line's arguments, the form
// [ParseInvocation] reads.
func (inv Invocation) Args() []string {
	var args []string
	if inv.Event != "" {
		args = append(args, string(inv.Event))
	}
	if inv.Via != "" {
		args = append(args, "--via", string(inv.Via))
	}
	if inv.Band != (Band{}) {
		args = append(args, "--proto", inv.Band.Version.String())
	}
	if inv.Async {
		args = append(args, "--async")
	}
	if inv.WithAsync {
		args = append(args, "--with-async")
	}
	if inv.WithNative {
		args = append(args, "--with-native")
	}
	return args
}

// Emit writes res as the answer to this call and returns the exit code,
// in the channel Event has on Band ([Emit]). A fallback fired as
// PostToolUse that neither blocks nor halts answers in PostToolUse's
// shape, so that its Context reaches the model as additionalContext
// (TaskCompleted takes none).
func (inv Invocation) Emit(stdout, stderr io.Writer, res Result) int {
	event := inv.Event
	if inv.Via == EventPostToolUse && res.Decision != Block && !res.Halt {
		event = inv.Via
	}
	return Emit(stdout, stderr, event, res, inv.Band)
}
