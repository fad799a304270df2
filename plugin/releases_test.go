package plugin_test

import (
	"encoding/json"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/oracle"
	"github.com/hookwright/hookwright/manifests"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// registration is one handler a release registers from the plugin.
type registration struct {
	file, event, matcher string
	canonical, via       string // from the command: <Event> [--via <Fired>]
	withNative           bool   // the command says --with-native
}

// TestEveryReleaseReadsTheInstallRight is the install's guarantee, judged
// by the oracle for every published release from the plugin floor to the
// newest (compat/testdata/probes/published.json): the files are static, so
// whatever set of releases reads the folder, in any order, each one
//
//   - loads plugin.json and hooks/hooks.json whole, with nothing dropped:
//     every hook of the floor manifest, the guard's PreToolUse included;
//   - loads each hooks/<edge>.json exactly when it is at or after the edge
//     (an older release refuses that file alone, or drops all of it);
//   - serves every canonical event of the spec once: natively where it
//     fires the event, and there every fallback registration for it is
//     silent (the runtime's rule in hooks.Invocation.Translate: each says
//     --with-native, and a release at or after hooks.EventSince fires the
//     event itself); through the fallbacks
//     where it does not.
func TestEveryReleaseReadsTheInstallRight(t *testing.T) {
	var published []string
	readJSON(t, filepath.Join("..", "compat", "testdata", "probes", "published.json"), &published)
	floor := hooks.MustRelease(compat.PluginFloor)
	in, err := manifests.BuildInstall(manifests.Hookwright(), hooks.Release{})
	if err != nil {
		t.Fatal(err)
	}
	pluginJSON, err := os.ReadFile(filepath.Join(".claude-plugin", "plugin.json"))
	if err != nil {
		t.Fatal(err)
	}
	var named struct{ Hooks []string }
	if err := json.Unmarshal(pluginJSON, &named); err != nil {
		t.Fatal(err)
	}
	files := append([]string{manifests.StandardFile}, func() []string {
		var out []string
		for _, p := range named.Hooks {
			out = append(out, strings.TrimPrefix(p, "./"))
		}
		return out
	}()...)
	spec := manifests.Hookwright()
	perEvent := map[string]int{} // the spec's handlers of each event
	for _, h := range spec.Handlers {
		perEvent[h.Event]++
	}
	checked := 0
	for _, r := range published {
		v := hooks.MustRelease(r)
		if v.Less(floor) {
			continue
		}
		checked++
		if fs, _ := oracle.CheckPlugin(v, pluginJSON); rejected(fs) {
			t.Errorf("%s refuses plugin.json: %v", r, fs)
		}
		var regs []registration
		for _, path := range files {
			data, err := os.ReadFile(filepath.FromSlash(path))
			if err != nil {
				t.Fatal(err)
			}
			fs, err := oracle.CheckHooks(v, data)
			if err != nil {
				t.Fatal(err)
			}
			f, _ := in.File(path)
			loadsIt := !v.Less(f.Edge)
			all := registrations(t, path, data)
			var kept []registration
			if !rejected(fs) {
				for _, reg := range all {
					if !droppedEvent(fs, reg.event) {
						kept = append(kept, reg)
					}
				}
			}
			switch {
			case loadsIt && (rejected(fs) || len(kept) != len(all)):
				t.Errorf("%s should load %s whole (edge %s) but: %v", r, path, f.Edge, fs)
			case !loadsIt && len(kept) != 0:
				t.Errorf("%s is older than %s's edge %s but registers %d of its hooks", r, path, f.Edge, len(kept))
			}
			regs = append(regs, kept...)
		}
		guard := false
		for _, reg := range regs {
			guard = guard || (reg.event == "PreToolUse" && reg.canonical == "PreToolUse")
		}
		if !guard {
			t.Errorf("%s registers no guard (PreToolUse)", r)
		}
		plan, err := compat.Plan(v)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range spec.Handlers {
			route, _ := plan.Route(h.Event)
			native, fallbacks := 0, map[string]bool{}
			for _, reg := range regs {
				if reg.canonical != h.Event {
					continue
				}
				if reg.via == "" {
					native++
					continue
				}
				// The runtime's rule (hooks.Invocation.Translate): a fallback
				// that says --with-native stands for nothing on a release
				// that fires the event itself.
				if !reg.withNative {
					t.Errorf("%s: the fallback of %s on %s does not say --with-native, so a release that fires %s runs it beside the native registration", reg.file, h.Event, reg.event, h.Event)
				}
				if since, ok := hooks.EventSince(hooks.Event(h.Event)); !ok || !reg.withNative || hooks.MustRelease(r).Less(since) {
					fallbacks[reg.event+"["+reg.matcher+"]"] = true
				}
			}
			switch route.Mode {
			case compat.Native:
				if native != perEvent[h.Event] || len(fallbacks) != 0 {
					t.Errorf("%s fires %s: want each of its %d handlers once natively and every fallback silent; got %d native, live fallbacks %v", r, h.Event, perEvent[h.Event], native, fallbacks)
				}
			case compat.Fallback:
				if native != 0 {
					t.Errorf("%s lacks %s but registers it natively", r, h.Event)
				}
				for _, a := range route.Via {
					if !fallbacks[a.Event+"["+a.Matcher+"]"] {
						t.Errorf("%s lacks %s and its fallback %s is not registered (live: %v)", r, h.Event, a, fallbacks)
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("checked %d releases; the published list is too short", checked)
	}
}

func rejected(fs []oracle.Finding) bool {
	for _, f := range fs {
		if f.Consequence == compat.Rejected {
			return true
		}
	}
	return false
}

// droppedEvent reports whether the findings drop the whole event entry
// /hooks/<event> (an unknown event from 2.1.257) or anything under it.
func droppedEvent(fs []oracle.Finding, event string) bool {
	for _, f := range fs {
		// The event, a group or a handler: a key within a handler
		// (/hooks/E/0/hooks/0/args) drops the key, and the hook still runs.
		if f.Consequence == compat.Dropped && (f.Pointer == "/hooks/"+event || strings.HasPrefix(f.Pointer, "/hooks/"+event+"/")) && strings.Count(f.Pointer, "/") <= 5 {
			return true
		}
	}
	return false
}

// registrations lists the handlers of one hooks file, with the runtime
// arguments of each command (direct form undone).
func registrations(t *testing.T, path string, data []byte) []registration {
	t.Helper()
	var m struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Command string }
		}
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []registration
	for ev, groups := range m.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				call, ok := manifests.LauncherCall(h.Command)
				if !ok {
					t.Fatalf("%s: %s: not the direct form: %q", path, ev, h.Command)
				}
				argv, _ := manifests.SplitExec(call)
				inv, err := hooks.ParseInvocation(argv[1:])
				if err != nil {
					t.Fatalf("%s: %s: the runtime cannot read %q: %v", path, ev, argv[1:], err)
				}
				reg := registration{file: path, event: ev, matcher: g.Matcher, canonical: string(inv.Event), via: string(inv.Via), withNative: inv.WithNative}
				out = append(out, reg)
			}
		}
	}
	return out
}
