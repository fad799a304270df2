// Package installview tells, for an installed plugin folder and any
// Claude Code release, what that release's loader makes of it: which of
// the plugin's hooks files it loads and which it refuses, and how each
// canonical event reaches the handlers (natively, through a fallback, or
// not at all). hookgen doctor and hwctl explain show it per release seen
// on the machine.
//
// The loader's verdict on each file comes from the oracle (package
// internal/oracle, the rules of compat); the routes from compat's plan.
// A fallback registered in a file the release loads counts only where the
// release does not fire the canonical event itself: elsewhere the runtime
// makes it stand for nothing (package internal/runtime/fallback).
package installview

import (
	"encoding/json"
	"fmt"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/oracle"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/manifests"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// maxFile caps what is read of one plugin file.
const maxFile = 4 << 20

// File is one hooks file of the plugin, as read.
type File struct {
	// Path is relative to the plugin root, slash-separated.
	Path string
	// Data is the file; Err says why it could not be read.
	Data []byte
	Err  error
}

// Plugin is an installed plugin folder's loader-facing files.
type Plugin struct {
	Root string
	// PluginJSON is .claude-plugin/plugin.json, nil when absent.
	PluginJSON []byte
	// Files are hooks/hooks.json, then the files plugin.json names.
	Files []File
}

// Read reads the plugin at root: bounded, regular files only, confined to
// root.
func Read(root string) Plugin {
	p := Plugin{Root: root}
	read := func(rel string) File {
		data, err := safepath.ReadFile(safepath.Path{Root: root, Rel: filepath.FromSlash(rel)}, maxFile)
		return File{Path: rel, Data: data, Err: err}
	}
	p.Files = append(p.Files, read(manifests.StandardFile))
	if pj, err := safepath.ReadFile(safepath.Path{Root: root, Rel: filepath.Join(".claude-plugin", "plugin.json")}, maxFile); err == nil {
		p.PluginJSON = pj
		var meta struct {
			Hooks any `json:"hooks"`
		}
		if json.Unmarshal(pj, &meta) == nil {
			var named []string
			switch h := meta.Hooks.(type) {
			case string:
				named = []string{h}
			case []any:
				for _, x := range h {
					if s, ok := x.(string); ok {
						named = append(named, s)
					}
				}
			}
			for _, rel := range named {
				rel = strings.TrimPrefix(rel, "./")
				if rel == manifests.StandardFile {
					continue
				}
				p.Files = append(p.Files, read(rel))
			}
		}
	}
	return p
}

// Route is how one canonical event reaches its handlers on a release.
type Route struct {
	Event string
	// How: "native", "via PostToolUse[TaskUpdate] + ...", or "not at all".
	How string
	// Missing is true when the release fires the event but runs none of
	// the plugin's handlers for it.
	Missing bool
}

// View is what one release makes of the plugin.
type View struct {
	Release hooks.Release
	// PluginRefused is set when the release refuses the whole plugin
	// (plugin.json).
	PluginRefused string
	// Loaded and Refused list the hooks files (with why, for Refused).
	Loaded  []string
	Refused map[string]string
	// Hooks is the number of handlers the release registers.
	Hooks int
	// Routes are the plugin's canonical events, in name order.
	Routes []Route
	// BelowFloor is set when the release registers fewer of
	// hooks/hooks.json's handlers than the file holds: fewer hooks than
	// the floor manifest gives every release.
	BelowFloor string
}

// Look returns what release v makes of p.
func Look(p Plugin, v hooks.Release) View {
	view := View{Release: v, Refused: map[string]string{}}
	if p.PluginJSON != nil {
		if fs, err := oracle.CheckPlugin(v, p.PluginJSON); err == nil {
			if f, bad := firstRejected(fs); bad {
				view.PluginRefused = f.What
				view.BelowFloor = "it refuses plugin.json: " + f.What
				return view
			}
		}
	}
	var regs []registration
	declared := map[string]bool{} // canonical events some file registers
	for i, f := range p.Files {
		if f.Err != nil {
			view.Refused[f.Path] = "cannot be read: " + f.Err.Error()
			if i == 0 {
				view.BelowFloor = f.Path + " cannot be read"
			}
			continue
		}
		all := registrations(f.Data)
		for _, r := range all {
			declared[r.canonical] = true
		}
		fs, err := oracle.CheckHooks(v, f.Data)
		if err != nil {
			view.Refused[f.Path] = err.Error()
			continue
		}
		if rf, bad := firstRejected(fs); bad {
			view.Refused[f.Path] = rf.What
			if i == 0 {
				view.BelowFloor = "it refuses " + f.Path + ": " + rf.What
			}
			continue
		}
		kept := 0
		for _, r := range all {
			if !dropped(fs, r.event) {
				regs = append(regs, r)
				kept++
			}
		}
		if kept == 0 && len(all) > 0 {
			view.Refused[f.Path] = "every entry dropped (its events are unknown to " + v.String() + ")"
			continue
		}
		if i == 0 && kept < len(all) {
			view.BelowFloor = fmt.Sprintf("it drops %d of %s's %d hooks", len(all)-kept, f.Path, len(all))
		}
		view.Loaded = append(view.Loaded, f.Path)
	}
	view.Hooks = len(regs)
	plan, _ := compat.Plan(v)
	var events []string
	for ev := range declared {
		events = append(events, ev)
	}
	sort.Strings(events)
	for _, ev := range events {
		natively := false
		var vias []string
		for _, r := range regs {
			if r.canonical != ev {
				continue
			}
			if r.via == "" {
				natively = true
				continue
			}
			a := r.event
			if r.matcher != "" {
				a += "[" + r.matcher + "]"
			}
			if !slices.Contains(vias, a) {
				vias = append(vias, a)
			}
		}
		sort.Strings(vias)
		rt, known := plan.Route(ev)
		fires := known && rt.Mode == compat.Native
		route := Route{Event: ev}
		switch {
		case natively && fires:
			route.How = "native"
		case fires:
			route.How, route.Missing = "not at all (the release fires it, but no file it loads registers it)", true
		case len(vias) > 0 && !natively:
			route.How = "via " + strings.Join(vias, " + ")
		default:
			route.How = "not on this release"
			if f, ok := compat.Lookup(compat.KindEvent, ev); ok {
				route.How += " (it arrives in " + f.Since + ")"
			}
		}
		view.Routes = append(view.Routes, route)
	}
	return view
}

// registration is one handler of a hooks file, with what its command
// says it stands for.
type registration struct{ event, matcher, canonical, via string }

// registrations lists a hooks file's handlers. A command's canonical event
// and --via are read from the launcher call it stands for (the direct
// form undone); a command that names no event (a script) stands for the
// event it is registered under.
func registrations(data []byte) []registration {
	var m struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct {
				Command string
				Args    []string
			}
		}
	}
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	var out []registration
	for ev, groups := range m.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				r := registration{event: ev, matcher: g.Matcher, canonical: ev}
				call, _ := manifests.LauncherCall(h.Command)
				argv, ok := manifests.SplitExec(call)
				if len(h.Args) > 0 {
					argv, ok = append([]string{h.Command}, h.Args...), true
				}
				if ok {
					for i, a := range argv {
						if i+1 < len(argv) && a == "--via" {
							r.via = argv[i+1]
						}
					}
					if r.via != "" && len(argv) > 1 {
						r.canonical = argv[1]
					}
				} else if i := strings.LastIndex(h.Command, " --via "); i >= 0 {
					if f := strings.Fields(h.Command[i+len(" --via "):]); len(f) > 0 {
						r.via = f[0]
					}
				}
				if r.via != "" && r.canonical == ev {
					r.canonical = canonicalFor(r.via, g.Matcher)
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// canonicalFor is the canonical event a fallback on via[matcher] stands
// for, per compat's fallback rules, when the command does not name it.
func canonicalFor(via, matcher string) string {
	for _, rule := range compat.Fallbacks {
		for _, opt := range rule.Options {
			for _, a := range opt.Anchors {
				if a.Event == via && (a.Matcher == "" || a.Matcher == matcher) {
					return rule.Event
				}
			}
		}
	}
	return via
}

func firstRejected(fs []oracle.Finding) (oracle.Finding, bool) {
	for _, f := range fs {
		if f.Consequence == compat.Rejected {
			return f, true
		}
	}
	return oracle.Finding{}, false
}

// dropped reports whether the findings drop event's entry or anything in
// it.
func dropped(fs []oracle.Finding, event string) bool {
	for _, f := range fs {
		// The event, a group or a handler: a key within a handler
		// (/hooks/E/0/hooks/0/args) drops the key, and the hook still runs.
		if f.Consequence == compat.Dropped && (f.Pointer == "/hooks/"+event || strings.HasPrefix(f.Pointer, "/hooks/"+event+"/")) && strings.Count(f.Pointer, "/") <= 5 {
			return true
		}
	}
	return false
}

// Line is the view in one line: what the release loads and how the
// plugin's events reach it.
func (v View) Line() string {
	if v.PluginRefused != "" {
		return fmt.Sprintf("Claude Code %s refuses the plugin: %s", v.Release, v.PluginRefused)
	}
	var b strings.Builder
	if len(v.Loaded) == 0 {
		fmt.Fprintf(&b, "Claude Code %s: no hooks", v.Release)
	} else {
		fmt.Fprintf(&b, "Claude Code %s: %d hooks from %s", v.Release, v.Hooks, strings.Join(v.Loaded, " + "))
	}
	var refused []string
	for p := range v.Refused {
		refused = append(refused, p)
	}
	sort.Strings(refused)
	if len(refused) > 0 {
		fmt.Fprintf(&b, " (skips %s)", strings.Join(refused, ", "))
	}
	var routes []string
	for _, r := range v.Routes {
		if r.How != "native" {
			routes = append(routes, r.Event+" "+r.How)
		}
	}
	if len(routes) > 0 {
		fmt.Fprintf(&b, "; %s", strings.Join(routes, "; "))
	} else {
		b.WriteString("; every event native")
	}
	return b.String()
}
