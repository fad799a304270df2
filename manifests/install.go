package manifests

import (
	"fmt"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/schemas"
	"slices"
	"strings"
)

// StandardFile is the hooks file every release loads from a plugin,
// relative to the plugin root.
const StandardFile = "hooks/hooks.json"

// An Install is the set of hooks files one plugin folder carries so that
// every Claude Code release from Floor on reads it right, all at the same
// time: the IDE's release and the terminal's, a downgrade, the shared
// plugin cache. Nothing in it is ever rewritten by a session.
//
// It rests on two behaviours of the loader (compat/FACTS.md):
//
//   - up to 2.1.252 a hooks file that names an event the release does not
//     know is refused whole, and from 2.1.257 the unknown entry is dropped;
//   - hooks files that plugin.json names ("hooks": ["./hooks/x.json"]) are
//     loaded one by one: a release skips the file it refuses ("Failed to
//     load hooks from ...") and keeps the plugin's other hooks.
//
// So hooks/hooks.json carries only what the floor release accepts: the
// handlers of events it knows, and fallbacks for the events it lacks
// (TaskCompleted via PostToolUse, TeammateIdle via SubagentStop and Stop).
// Every later event goes into hooks/<edge>.json, where edge is the first
// release that knows it, named in plugin.json: a release older than the
// edge refuses that file alone, and every release from the edge loads it.
// A release that fires an event natively also runs the fallbacks of
// hooks/hooks.json; each says --with-native, and the runtime makes them
// stand for nothing there (hooks.Invocation.Translate), so an event is
// handled once.
type Install struct {
	// Floor is the oldest release the install is written for.
	Floor hooks.Release
	// Files are hooks/hooks.json first, then one file per later edge,
	// oldest first.
	Files []InstallFile
	// Notes say, one line each, what the generator decided.
	Notes []string
}

// InstallFile is one hooks file of an [Install].
type InstallFile struct {
	// Path is relative to the plugin root: "hooks/hooks.json" or
	// "hooks/2.1.33.json".
	Path string
	// Edge is the first release that loads the file: Floor for
	// hooks/hooks.json, the first release of its events otherwise.
	Edge hooks.Release
	// Events are the event keys of the file, in order.
	Events []string
	// JSON is the file, byte for byte as JSON.stringify(v, null, 2) + "\n"
	// writes it.
	JSON []byte
}

// PluginHooks is the value of plugin.json's "hooks": the path of every file
// but the standard one, as the loader wants it ("./hooks/2.1.33.json"),
// oldest edge first. Empty when everything fits hooks/hooks.json.
func (in Install) PluginHooks() []string {
	var paths []string
	for _, f := range in.Files {
		if f.Path != StandardFile {
			paths = append(paths, "./"+f.Path)
		}
	}
	return paths
}

// File returns the file at path, if the install has one.
func (in Install) File(path string) (InstallFile, bool) {
	for _, f := range in.Files {
		if f.Path == path {
			return f, true
		}
	}
	return InstallFile{}, false
}

// BuildInstall writes spec as an [Install] for every release from floor
// (nil means the plugin floor, compat.PluginFloor). Each file is checked
// against the schema of its edge: a file that its own edge would refuse is
// never returned.
func BuildInstall(spec Spec, floor hooks.Release) (Install, error) {
	if err := spec.Check(); err != nil {
		return Install{}, err
	}
	pluginFloor, _ := hooks.ParseRelease(compat.PluginFloor)
	if floor.IsZero() {
		floor = pluginFloor
	}
	if floor.Less(pluginFloor) {
		return Install{}, fmt.Errorf("%w: no release before %s loads a plugin's hooks files", ErrSpec, compat.PluginFloor)
	}
	atFloor, err := compat.Plan(floor)
	if err != nil {
		return Install{}, err
	}
	files := map[string]*builder{} // by edge
	var edges []hooks.Release
	fileFor := func(edge hooks.Release) *builder {
		key := edge.String()
		if b, ok := files[key]; ok {
			return b
		}
		b := &builder{band: edge, exec: spec.Exec, direct: spec.Direct}
		files[key] = b
		edges = append(edges, edge)
		return b
	}
	fileFor(atFloor.Version) // hooks/hooks.json, even when every handler is later
	var notes []string
	note := func(format string, args ...any) {
		if n := fmt.Sprintf(format, args...); !slices.Contains(notes, n) {
			notes = append(notes, n)
		}
	}
	// With protoFlag, the synchronous commands of an event that has an
	// async handler say so (--with-async), as in a single release's
	// manifest: the async handler ships to every release here, and the
	// runtime leaves the background work to it where the release runs it
	// in the background, and does it itself where it does not.
	paired := map[string]bool{}
	for _, h := range spec.Handlers {
		paired[h.Event] = paired[h.Event] || spec.ProtoFlag && h.Async
	}
	for _, h := range spec.Handlers {
		ev, _ := compat.Lookup(compat.KindEvent, h.Event) // Check proved it exists
		since := ev.Version()
		if paired[h.Event] && !h.Async {
			h.Command += " --with-async"
		}
		if h.Async {
			// "async" and "asyncRewake" are handler keys an older release
			// strips, not refuses (compat/FACTS.md): there the handler runs
			// in the foreground, and must do nothing (hookwright's does,
			// once it learns the release; package hooks' RunningRelease).
			asyncSince, _ := compat.LookupField(compat.ScopeHandler, "async")
			if floor.Less(asyncSince.Version()) {
				note("%s: async from %s (asyncRewake from 2.1.64); older releases strip the keys and run this handler in the foreground, where it must do nothing", h.Event, asyncSince.Since)
			}
		}
		if !floor.Less(since) {
			rt, _ := atFloor.Route(h.Event)
			b := fileFor(floor)
			b.allKeys = h.Async
			b.place(h, rt, spec.ProtoFlag)
			b.allKeys = false
			continue
		}
		// Natively from its own edge on.
		native, err := compat.Plan(since)
		if err != nil {
			return Install{}, err
		}
		rt, _ := native.Route(h.Event)
		fileFor(since).place(h, rt, spec.ProtoFlag)
		note("%s: native from %s in hooks/%s.json", h.Event, since, since)
		// Before it, the fallbacks of every band in [floor, since), each
		// in the file of its anchor's own edge; the runtime silences them
		// on releases that fire the event.
		covered := true
		for _, band := range compat.Bands() {
			if band.Less(floor) || !band.Less(since) {
				continue
			}
			plan, err := compat.Plan(band)
			if err != nil {
				return Install{}, err
			}
			rt, _ := plan.Route(h.Event)
			if rt.Mode != compat.Fallback {
				covered = false
				continue
			}
			for _, a := range rt.Via {
				anchor, _ := compat.Lookup(compat.KindEvent, a.Event)
				edge := anchor.Version()
				if edge.Less(floor) {
					edge = floor
				}
				fileFor(edge).placeFallback(h, a)
			}
			note("%s before %s: fallback via %s (%s)", h.Event, since, compat.JoinAnchors(rt.Via), exactness(rt.Exact))
		}
		if !covered {
			note("%s: no fallback on some releases before %s; see hookgen explain", h.Event, since)
		}
	}
	slices.SortFunc(edges, func(a, b hooks.Release) int { return a.Compare(b) })
	in := Install{Floor: floor, Notes: notes}
	for _, edge := range edges {
		b := files[edge.String()]
		path := StandardFile
		description := spec.Description
		if edge != floor {
			path = "hooks/" + edge.String() + ".json"
			description = strings.TrimSpace(spec.Description + " (Claude Code " + edge.String() + " and later)")
		}
		if path != StandardFile && len(b.events) == 0 {
			continue
		}
		out, err := MarshalJS(b.manifest(description))
		if err != nil {
			return Install{}, fmt.Errorf("encoding %s: %w", path, err)
		}
		vs, err := schemas.Validate(edge, out)
		if err != nil {
			return Install{}, fmt.Errorf("checking %s against %s: %w", path, edge, err)
		}
		vs = slices.DeleteFunc(vs, strippedAsyncKey)
		if len(vs) > 0 {
			return Install{}, fmt.Errorf("%s does not fit %s (a hookgen bug): %v", path, edge, vs)
		}
		for _, n := range b.notes {
			note("%s", n)
		}
		in.Files = append(in.Files, InstallFile{Path: path, Edge: edge, Events: slices.Clone(b.events), JSON: out})
	}
	return in, nil
}

// placeFallback adds h's handler on anchor a, once per (event, matcher,
// command). The command says --with-native: the install registers h's
// event natively too, in the file of the release that fires it, so there
// the fallback stands for nothing (hooks.Invocation.Translate).
func (b *builder) placeFallback(h Handler, a compat.Anchor) {
	cmd := h.Command + " --via " + a.Event + " --with-native"
	obj := b.handler(h, cmd)
	for _, g := range b.groups[a.Event] {
		if g.matcher != a.Matcher {
			continue
		}
		for _, o := range g.hooks {
			if o[1].Value == obj[1].Value {
				return
			}
		}
	}
	b.add(a.Event, a.Matcher, obj)
}

// strippedAsyncKey reports whether v is only the warning that an older
// release strips an async handler's "async" or "asyncRewake" key, which
// BuildInstall writes on purpose (see the note it gives).
func strippedAsyncKey(v schemas.Violation) bool {
	return v.Severity == schemas.Warning && (strings.HasSuffix(v.Pointer, "/async") || strings.HasSuffix(v.Pointer, "/asyncRewake"))
}
