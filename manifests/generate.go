package manifests

import (
	"fmt"
	"slices"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/schemas"
)

// Result is a generated manifest with what the generator had to decide.
type Result struct {
	// JSON is the hooks.json, byte for byte as JSON.stringify(v, null, 2)
	// + "\n" writes it.
	JSON []byte
	// Band is the band edge of the release asked for.
	Band hooks.Release
	// Routing is compat's plan for the release.
	Routing compat.Routing
	// Notes say, one line each, what was left out, replaced or dropped.
	Notes []string
}

// Generate returns the hooks.json for spec on release v: natives where the
// release has them, fallbacks where it does not, and only fields it
// accepts. The result is checked against the band's schema; a manifest the
// release would reject is never returned.
func Generate(spec Spec, v hooks.Release) ([]byte, error) {
	r, err := Build(spec, v)
	if err != nil {
		return nil, err
	}
	return r.JSON, nil
}

// Build is [Generate] with the notes and the plan behind the manifest.
func Build(spec Spec, v hooks.Release) (Result, error) {
	if err := spec.Check(); err != nil {
		return Result{}, err
	}
	routing, err := compat.Plan(v)
	if err != nil {
		return Result{}, err
	}
	b := builder{band: routing.Band, exec: spec.Exec, direct: spec.Direct}
	// With protoFlag, the synchronous commands of an event that also has
	// an async handler in this band say so (--with-async): the runtime
	// then leaves to the async call the work it does in the background,
	// and does it itself where the manifest has no async partner.
	paired := map[string]bool{}
	if spec.ProtoFlag {
		for _, h := range spec.Handlers {
			if f, _ := compat.LookupField(compat.ScopeHandler, "async"); h.Async && !b.band.Less(f.Version()) {
				paired[h.Event] = true
			}
		}
	}
	for _, h := range spec.Handlers {
		rt, _ := routing.Route(h.Event) // Check proved the event exists
		if paired[h.Event] && !h.Async && rt.Mode == compat.Native {
			h.Command += " --with-async"
		}
		b.place(h, rt, spec.ProtoFlag)
	}
	out, err := MarshalJS(b.manifest(spec.Description))
	if err != nil {
		return Result{}, fmt.Errorf("encoding the manifest for %s: %w", v, err)
	}
	vs, err := schemas.Validate(v, out)
	if err != nil {
		return Result{}, fmt.Errorf("checking the generated manifest for %s against band %s: %w", v, routing.Band, err)
	}
	if len(vs) > 0 { // hookgen writes nothing that earns even a warning
		return Result{}, fmt.Errorf("generated manifest for %s does not fit band %s (a hookgen bug): %v", v, routing.Band, vs)
	}
	return Result{JSON: out, Band: routing.Band, Routing: routing, Notes: b.notes}, nil
}

// builder collects matcher groups per event in first-seen order.
type builder struct {
	band   hooks.Release
	exec   bool // the exec form where the band has "args"
	direct bool // the direct form (DirectForm) for commands that call a launcher in bin/
	// allKeys writes an async handler's keys whatever the band (an
	// install for every release ships it to all of them; BuildInstall).
	allKeys bool
	events  []string
	groups  map[string][]*group
	notes   []string
}

type group struct {
	matcher string
	hooks   []Object
}

// place adds h's handler objects for its route.
func (b *builder) place(h Handler, rt compat.Route, protoFlag bool) {
	if h.Async && !b.allKeys {
		if f, _ := compat.LookupField(compat.ScopeHandler, "async"); b.band.Less(f.Version()) {
			b.note("%s: an async handler left out (async hooks from %s; this band would run it in the foreground)", h.Event, f.Since)
			return
		}
	}
	switch rt.Mode {
	case compat.Native:
		cmd := h.Command
		// The runtime assumes each event's channel at the plugin floor;
		// --proto tells it the band where the band's channel differs
		// (continue:false on TeammateIdle/TaskCompleted from 2.1.69,
		// exit 2 on PreCompact from 2.1.105).
		floor, _ := hooks.ParseRelease(compat.PluginFloor)
		if protoFlag && rt.Channel != compat.ChannelOf(h.Event, floor) {
			cmd += " --proto " + b.band.String()
		}
		b.add(h.Event, h.Matcher, b.handler(h, cmd))
	case compat.Fallback:
		for _, a := range rt.Via {
			b.add(a.Event, a.Matcher, b.handler(h, h.Command+" --via "+a.Event))
		}
		b.note("%s: fallback via %s (%s)", h.Event, compat.JoinAnchors(rt.Via), exactness(rt.Exact))
	default:
		b.note("%s: left out: %s", h.Event, rt.Why)
	}
}

// handler is one handler object, with only the fields the band accepts.
func (b *builder) handler(h Handler, command string) Object {
	o := Object{{"type", "command"}, {"command", command}}
	execForm := false
	if b.exec {
		if f, _ := compat.LookupField(compat.ScopeHandler, "args"); !b.band.Less(f.Version()) {
			if argv, ok := SplitExec(command); ok {
				o = Object{{"type", "command"}, {"command", argv[0]}, {"args", argv[1:]}}
				execForm = true
			} else {
				b.note("%s: kept as a shell command (the exec form needs plain words): %s", h.Event, command)
			}
		}
	}
	if b.direct && !execForm {
		if d, ok := DirectForm(command); ok {
			o = Object{{"type", "command"}, {"command", d}}
		}
	}
	if h.Timeout > 0 {
		o = append(o, Member{"timeout", h.Timeout})
	}
	if h.Async {
		o = append(o, Member{"async", true})
		if f, _ := compat.LookupField(compat.ScopeHandler, "asyncRewake"); h.AsyncRewake && (b.allKeys || !b.band.Less(f.Version())) {
			o = append(o, Member{"asyncRewake", true})
		}
	}
	if h.StatusMessage != "" {
		if f, _ := compat.LookupField(compat.ScopeHandler, "statusMessage"); b.band.Less(f.Version()) {
			b.note("%s: statusMessage dropped (accepted from %s)", h.Event, f.Since)
		} else {
			o = append(o, Member{"statusMessage", h.StatusMessage})
		}
	}
	return o
}

// add appends a handler to the (event, matcher) group, creating it.
func (b *builder) add(event, matcher string, handler Object) {
	if b.groups == nil {
		b.groups = map[string][]*group{}
	}
	gs, seen := b.groups[event]
	if !seen {
		b.events = append(b.events, event)
	}
	for _, g := range gs {
		if g.matcher == matcher {
			g.hooks = append(g.hooks, handler)
			return
		}
	}
	b.groups[event] = append(gs, &group{matcher: matcher, hooks: []Object{handler}})
}

// manifest is the hooks.json value. An empty matcher is left out: it
// matches everything, and events that take no matcher must not have one.
func (b *builder) manifest(description string) Object {
	hooks := Object{}
	for _, ev := range b.events {
		var groups []Object
		for _, g := range b.groups[ev] {
			o := Object{}
			if g.matcher != "" {
				o = append(o, Member{"matcher", g.matcher})
			}
			groups = append(groups, append(o, Member{"hooks", g.hooks}))
		}
		hooks = append(hooks, Member{ev, groups})
	}
	m := Object{}
	if description != "" {
		m = append(m, Member{"description", description})
	}
	return append(m, Member{"hooks", hooks})
}

func (b *builder) note(format string, args ...any) {
	if n := fmt.Sprintf(format, args...); !slices.Contains(b.notes, n) {
		b.notes = append(b.notes, n)
	}
}

func exactness(exact bool) string {
	if exact {
		return "same trigger; see hookgen explain"
	}
	return "approximate, no older event reproduces it exactly; see hookgen explain"
}
