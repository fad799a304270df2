package hooks

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

//go:generate go run github.com/hookwright/hookwright/internal/releasetable/gen -o zz_release_table.go

// The release facts in zz_release_table.go are generated from package
// compat's matrix (compat/matrix.go; the evidence for each row is in
// compat/FACTS.md). Never edit them here: change the matrix and run
// go generate ./hooks.

// Release is a Claude Code release, major.minor.patch. It is the one
// release type of this module: package compat's matrix, bands and plan
// speak it too. The zero Release is "unknown" ([Release.IsZero]).
type Release [3]int

// release is the generated table's spelling of [Release].
type release = Release

// ErrRelease is wrapped by every error [ParseRelease] returns.
var ErrRelease = errors.New("not a Claude Code version")

const releaseForms = `want 2.1.33, v2.1.33 or "2.1.33 (Claude Code)"`

// ParseRelease reads a Claude Code release as people and tools write it:
// "2.1.33", "v2.1.33", or "2.1.33 (Claude Code)" as `claude --version`
// prints it. Surrounding white space is ignored. Each part is decimal
// digits without a sign or a leading zero; pre-release and build suffixes
// are refused (Claude Code releases have none, and a loose form would hide
// a typo such as "2.1"). Any other input is an error wrapping [ErrRelease].
func ParseRelease(s string) (Release, error) {
	var r Release
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(t, " (Claude Code)")
	t = strings.TrimPrefix(t, "v")
	parts := strings.Split(t, ".")
	if len(parts) != 3 {
		return r, fmt.Errorf("%w: %q (%s)", ErrRelease, s, releaseForms)
	}
	for i, p := range parts {
		n, ok := decimal(p)
		if !ok {
			return Release{}, fmt.Errorf("%w: %q (%s)", ErrRelease, s, releaseForms)
		}
		r[i] = n
	}
	return r, nil
}

// decimal reads p as a number of at most nine ASCII digits with no
// leading zero.
func decimal(p string) (int, bool) {
	if p == "" || len(p) > 9 || len(p) > 1 && p[0] == '0' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// MustRelease is [ParseRelease] for releases written in code and tables;
// it panics on a malformed one.
func MustRelease(s string) Release {
	r, err := ParseRelease(s)
	if err != nil {
		panic(err)
	}
	return r
}

// Less reports whether r comes before o.
func (r Release) Less(o Release) bool { return r.Compare(o) < 0 }

// Compare returns -1, 0 or +1 as r comes before, is, or comes after o.
func (r Release) Compare(o Release) int {
	for i := range r {
		if r[i] != o[i] {
			if r[i] < o[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// IsZero reports whether r is the zero Release, "unknown".
func (r Release) IsZero() bool { return r == Release{} }

// String is "2.1.33".
func (r Release) String() string {
	return strconv.Itoa(r[0]) + "." + strconv.Itoa(r[1]) + "." + strconv.Itoa(r[2])
}

// Channel is how a handler can stop what its event is about, as compat's
// matrix says for one band. Its constants are generated from compat's
// (zz_release_table.go).
type Channel string

// eventFacts is one generated row: an event and what each band does with it.
type eventFacts struct {
	event    Event
	new      func() Input
	since    release
	matcher  bool
	channels []channelFrom
	inputs   []inputFrom
}

// inputFrom is an input field an event carries from a later release than
// the event itself (last_assistant_message on Stop from 2.1.47).
type inputFrom struct {
	name  string
	since release
}

// channelFrom is an event's block channel from one band edge on.
type channelFrom struct {
	from    release
	channel Channel
}

// keyFacts is the first release of one hooks.json key at one level ("file",
// "group" or "handler").
type keyFacts struct {
	level, name string
	since       release
}

// ChannelOf returns how a handler for e can block on band b: the channel of
// the greatest band edge at or below b. The zero Band, and any release below
// the plugin floor, get the floor's channel. An unknown event has
// ChannelNone.
func ChannelOf(e Event, b Band) Channel {
	info, ok := lookup(e)
	if !ok || len(info.channels) == 0 {
		return ChannelNone
	}
	c := info.channels[0].channel
	for _, cf := range info.channels[1:] {
		if b.Version.Less(cf.from) {
			break
		}
		c = cf.channel
	}
	return c
}

// canHalt reports whether some band lets e halt with {"continue":false}
// as its own channel (TeammateIdle and TaskCompleted from 2.1.69): below
// that band a halt on e must degrade to a block.
func canHalt(e Event) bool {
	info, _ := lookup(e)
	for _, cf := range info.channels {
		if cf.channel == ChannelContinue {
			return true
		}
	}
	return false
}

// EventSince returns the first release that accepts e in a plugin
// hooks.json; ok is false for an event compat's matrix does not know.
func EventSince(e Event) (since Release, ok bool) {
	info, ok := lookup(e)
	return info.since, ok
}

// KeySince returns the first release that accepts key at level ("file",
// "group" or "handler") of a hooks.json; ok is false for an unknown key.
func KeySince(level, key string) (since Release, ok bool) {
	for _, k := range releaseKeys {
		if k.level == level && k.name == key {
			return k.since, true
		}
	}
	return Release{}, false
}

// InputSince returns the first release whose e input carries field, for
// the fields compat's matrix dates later than the event itself; ok is false
// for any other field (it arrives with the event, or is not tracked).
func InputSince(e Event, field string) (since Release, ok bool) {
	info, _ := lookup(e)
	for _, in := range info.inputs {
		if in.name == field {
			return in.since, true
		}
	}
	return Release{}, false
}

// TakesMatcher reports whether e filters on a matcher (the tool name for tool
// events, the source for SessionStart, ...).
func TakesMatcher(e Event) bool {
	info, _ := lookup(e)
	return info.matcher
}
