package compat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookwright/hookwright/hooks"
)

// Mode says how a canonical event reaches its handlers on one release.
type Mode string

// The delivery modes.
const (
	// Native: the release fires the event itself.
	Native Mode = "native"
	// Fallback: older events stand in for it ([Route.Via]).
	Fallback Mode = "fallback"
	// Unavailable: the release has neither the event nor a fallback.
	Unavailable Mode = "unavailable"
)

// Anchor is an event (and matcher) that stands in for a canonical event.
type Anchor struct {
	Event   string
	Matcher string // "" matches every occurrence
}

// String writes the anchor as the notes and tables do: "PostToolUse[TaskUpdate]",
// or the bare event when it has no matcher.
func (a Anchor) String() string {
	if a.Matcher == "" {
		return a.Event
	}
	return a.Event + "[" + a.Matcher + "]"
}

// JoinAnchors writes a fallback's anchors in one string:
// "PostToolUse[TaskUpdate]", "SubagentStop + Stop".
func JoinAnchors(as []Anchor) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = a.String()
	}
	return strings.Join(parts, " + ")
}

// FallbackOption is one way to stand in for a canonical event. It applies
// when every anchor's event exists and, if Requires is set, the tool it
// names exists too.
type FallbackOption struct {
	Anchors  []Anchor
	Requires string // a KindTool name the matcher depends on, or ""
	// Exact is false when the anchors only approximate the event.
	Exact bool
	Why   string
}

// FallbackRule lists, best first, the ways to stand in for Event on
// releases that lack it.
type FallbackRule struct {
	Event   string
	Options []FallbackOption
}

// Fallbacks are the stand-ins hookwright knows. A fallback handler's command
// carries "--via <anchor event>" so the runtime's adapter can turn the
// anchor's input into the canonical event.
var Fallbacks = []FallbackRule{
	{Event: "TaskCompleted", Options: []FallbackOption{
		{
			Anchors: []Anchor{{Event: "PostToolUse", Matcher: "TaskUpdate"}}, Requires: "TaskUpdate", Exact: true,
			Why: "TaskUpdate with status completed is what fires TaskCompleted; PostToolUse sees it after the tool ran, so a gate can only feed back, not keep the task open",
		},
		{
			Anchors: []Anchor{{Event: "PostToolUse", Matcher: "TodoWrite"}}, Requires: "TodoWrite", Exact: false,
			Why: "before 2.1.16 there is no TaskUpdate; TodoWrite rewrites the whole list, so the adapter must infer which item was completed. No anchor reproduces TaskCompleted exactly",
		},
	}},
	{Event: "TeammateIdle", Options: []FallbackOption{
		{
			Anchors: []Anchor{{Event: "SubagentStop"}, {Event: "Stop"}}, Exact: false,
			Why: "a teammate going idle is an agent stopping: SubagentStop for subagents, Stop for the main loop; exit 2 on either keeps the agent working",
		},
	}},
}

// Route says how one canonical event is delivered on one release.
type Route struct {
	Event string
	Mode  Mode
	// Via lists the anchors of a fallback; empty otherwise.
	Via []Anchor
	// Exact is false when a fallback only approximates the event.
	Exact bool
	// Channel is how a handler blocks on this route.
	Channel Channel
	// Why explains the choice in one or two sentences.
	Why string
}

// Routing is the answer of [Plan]: every canonical event on one release.
type Routing struct {
	Version hooks.Release // the release asked about
	Band    hooks.Release // its band edge
	Routes  []Route       // in matrix order
}

// Route returns the route of a canonical event.
func (r Routing) Route(event string) (Route, bool) {
	for _, rt := range r.Routes {
		if rt.Event == event {
			return rt, true
		}
	}
	return Route{}, false
}

// Plan returns how every event in the matrix is delivered on release v:
// native, by fallback, or not at all, with the block channel of each.
// Releases older than [PluginFloor] are an error wrapping [ErrBelowFloor].
func Plan(v hooks.Release) (Routing, error) {
	band, err := BandOf(v)
	if err != nil {
		return Routing{}, err
	}
	r := Routing{Version: v, Band: band}
	for _, ev := range All(KindEvent) {
		r.Routes = append(r.Routes, route(ev, band))
	}
	return r, nil
}

// route decides one event's route on a band.
func route(ev Feature, band hooks.Release) Route {
	if !band.Less(ev.Version()) {
		return Route{Event: ev.Name, Mode: Native, Exact: true, Channel: ChannelOf(ev.Name, band),
			Why: fmt.Sprintf("%s fires natively from %s", ev.Name, ev.Since)}
	}
	opt, ok := fallbackFor(ev.Name, band)
	if !ok {
		return Route{Event: ev.Name, Mode: Unavailable, Channel: ChannelNone,
			Why: fmt.Sprintf("%s arrives in %s and has no fallback; handlers for it are left out", ev.Name, ev.Since)}
	}
	return Route{Event: ev.Name, Mode: Fallback, Via: opt.Anchors, Exact: opt.Exact,
		Channel: fallbackChannel(opt, band),
		Why:     fmt.Sprintf("%s arrives in %s; %s", ev.Name, ev.Since, opt.Why)}
}

// fallbackFor returns the first option of event's rule that band supports.
func fallbackFor(event string, band hooks.Release) (FallbackOption, bool) {
	for _, rule := range Fallbacks {
		if rule.Event != event {
			continue
		}
		for _, opt := range rule.Options {
			if supports(opt, band) {
				return opt, true
			}
		}
	}
	return FallbackOption{}, false
}

// supports reports whether band has every anchor event and the required tool.
func supports(opt FallbackOption, band hooks.Release) bool {
	if opt.Requires != "" && !Has(KindTool, opt.Requires, band) {
		return false
	}
	for _, a := range opt.Anchors {
		if !Has(KindEvent, a.Event, band) {
			return false
		}
	}
	return true
}

// fallbackChannel is the weakest channel among a fallback's anchors: a gate
// can promise no more than its weakest path.
func fallbackChannel(opt FallbackOption, band hooks.Release) Channel {
	weakest := ChannelExit2
	for _, a := range opt.Anchors {
		if c := ChannelOf(a.Event, band); strength(c) < strength(weakest) {
			weakest = c
		}
	}
	return weakest
}

// strength orders channels from advisory to halting.
func strength(c Channel) int {
	switch c {
	case ChannelNone:
		return 0
	case ChannelFeedback:
		return 1
	case ChannelDecision:
		return 2
	case ChannelExit2:
		return 3
	case ChannelContinue:
		return 4
	}
	return 0
}

// ChannelOf returns how a native handler for event blocks on band: the
// event's own channel, raised by any output capability band has for it.
func ChannelOf(event string, band hooks.Release) Channel {
	ev, ok := Lookup(KindEvent, event)
	if !ok {
		return ChannelNone
	}
	c := ev.Channel
	for _, f := range Features(KindOutput, band) {
		if slices.Contains(f.Events, event) && strength(f.Channel) > strength(c) {
			c = f.Channel
		}
	}
	return c
}
