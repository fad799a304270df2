package compat

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks"
)

func TestBandsAreSortedUniqueAndStartAtTheFloor(t *testing.T) {
	bands := Bands()
	if bands[0].String() != PluginFloor {
		t.Fatalf("first band %s, want the plugin floor %s", bands[0], PluginFloor)
	}
	for i := 1; i < len(bands); i++ {
		if !bands[i-1].Less(bands[i]) {
			t.Errorf("bands %s then %s: not strictly increasing", bands[i-1], bands[i])
		}
	}
	// Every first version at or above the floor is an edge.
	for _, f := range Matrix {
		if f.Version().Less(bands[0]) {
			continue
		}
		if b, _ := BandOf(f.Version()); b != f.Version() {
			t.Errorf("%s %s since %s: not a band edge (band %s)", f.Kind, f.Name, f.Since, b)
		}
	}
	// Every edge adds something.
	for _, b := range bands {
		if len(Arrivals(b)) == 0 {
			t.Errorf("band %s adds nothing", b)
		}
	}
}

func TestBandOf(t *testing.T) {
	cases := map[string]string{
		"2.0.12": "2.0.12", "2.0.30": "2.0.12", "2.1.15": "2.1.15", "2.1.32": "2.1.16",
		"2.1.33": "2.1.33", "2.1.68": "2.1.64", "2.1.69": "2.1.69", "2.1.252": "2.1.251", "2.1.330": "2.1.329", "3.0.0": "2.1.329", "2.1.101": "2.1.101", "2.1.104": "2.1.101", "2.1.106": "2.1.105", "2.1.300": "2.1.295",
	}
	for in, want := range cases {
		got, err := BandOf(hooks.MustRelease(in))
		if err != nil || got.String() != want {
			t.Errorf("BandOf(%s) = %v, %v; want %s", in, got, err, want)
		}
	}
	if _, err := BandOf(hooks.MustRelease("2.0.11")); !errors.Is(err, ErrBelowFloor) {
		t.Errorf("BandOf(2.0.11) error = %v, want ErrBelowFloor", err)
	}
}

func TestPlanNativeIffArrived(t *testing.T) {
	for _, band := range Bands() {
		r, err := Plan(band)
		if err != nil {
			t.Fatal(err)
		}
		for _, rt := range r.Routes {
			if got, want := rt.Mode == Native, Has(KindEvent, rt.Event, band); got != want {
				t.Errorf("%s on %s: mode %s, but Has = %v", rt.Event, band, rt.Mode, want)
			}
			if rt.Why == "" {
				t.Errorf("%s on %s: no reason", rt.Event, band)
			}
			for _, a := range rt.Via {
				if !Has(KindEvent, a.Event, band) {
					t.Errorf("%s on %s: anchor %s does not exist there", rt.Event, band, a.Event)
				}
			}
		}
	}
}

func TestPlanFallbacksAndChannels(t *testing.T) {
	cases := []struct {
		version, event string
		mode           Mode
		via            string // "Event/Matcher,..."
		exact          bool
		channel        Channel
	}{
		{"2.1.32", "TaskCompleted", Fallback, "PostToolUse/TaskUpdate", true, ChannelFeedback},
		{"2.1.16", "TaskCompleted", Fallback, "PostToolUse/TaskUpdate", true, ChannelFeedback},
		{"2.1.15", "TaskCompleted", Fallback, "PostToolUse/TodoWrite", false, ChannelFeedback},
		{"2.0.30", "TeammateIdle", Fallback, "SubagentStop/,Stop/", false, ChannelExit2},
		{"2.1.33", "TaskCompleted", Native, "", true, ChannelExit2},
		{"2.1.33", "TeammateIdle", Native, "", true, ChannelExit2},
		{"2.1.69", "TeammateIdle", Native, "", true, ChannelContinue},
		{"2.1.330", "TaskCompleted", Native, "", true, ChannelContinue},
		{"2.1.32", "WorktreeCreate", Unavailable, "", false, ChannelNone},
		{"2.1.104", "PreCompact", Native, "", true, ChannelNone},
		{"2.1.105", "PreCompact", Native, "", true, ChannelExit2},
		{"2.0.45", "PermissionRequest", Native, "", true, ChannelDecision},
	}
	for _, c := range cases {
		r, err := Plan(hooks.MustRelease(c.version))
		if err != nil {
			t.Fatal(err)
		}
		rt, ok := r.Route(c.event)
		if !ok {
			t.Fatalf("%s: no route for %s", c.version, c.event)
		}
		var via []string
		for _, a := range rt.Via {
			via = append(via, a.Event+"/"+a.Matcher)
		}
		if rt.Mode != c.mode || strings.Join(via, ",") != c.via || rt.Exact != c.exact || rt.Channel != c.channel {
			t.Errorf("%s %s = %s via %v exact %v channel %s; want %s via %s exact %v channel %s",
				c.version, c.event, rt.Mode, via, rt.Exact, rt.Channel, c.mode, c.via, c.exact, c.channel)
		}
	}
	if _, err := Plan(hooks.MustRelease("1.0.85")); !errors.Is(err, ErrBelowFloor) {
		t.Errorf("Plan(1.0.85) error = %v, want ErrBelowFloor", err)
	}
}

func TestMatrixRowsAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Matrix {
		key := string(f.Kind) + "/" + string(f.Scope) + "/" + f.Name
		if seen[key] {
			t.Errorf("duplicate row %s", key)
		}
		seen[key] = true
		if _, err := hooks.ParseRelease(f.Since); err != nil {
			t.Errorf("%s: %v", key, err)
		}
		if f.Source == "" {
			t.Errorf("%s: no source", key)
		}
		if f.Kind == KindEvent && f.Channel == "" {
			t.Errorf("%s: no block channel", key)
		}
		if (f.Kind == KindField) != (f.Scope != "") {
			t.Errorf("%s: scope is for fields only", key)
		}
		for _, e := range f.Events {
			if _, ok := Lookup(KindEvent, e); !ok {
				t.Errorf("%s: unknown event %s", key, e)
			}
		}
		for _, ty := range f.Types {
			if _, ok := Lookup(KindHandlerType, ty); !ok {
				t.Errorf("%s: unknown handler type %s", key, ty)
			}
		}
	}
	for _, rule := range Fallbacks {
		if _, ok := Lookup(KindEvent, rule.Event); !ok {
			t.Errorf("fallback for unknown event %s", rule.Event)
		}
		for _, o := range rule.Options {
			if _, ok := Lookup(KindTool, o.Requires); o.Requires != "" && !ok {
				t.Errorf("fallback for %s requires unknown tool %s", rule.Event, o.Requires)
			}
		}
	}
}

// TestNewestKnownIsTheLastPublished: NewestKnown is the last release the
// bisection listed, so that a release newer than it is warned about.
func TestNewestKnownIsTheLastPublished(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "probes", "published.json"))
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil || len(list) == 0 {
		t.Fatalf("published.json: %v (%d releases)", err, len(list))
	}
	newest := list[0]
	for _, v := range list {
		if hooks.MustRelease(newest).Less(hooks.MustRelease(v)) {
			newest = v
		}
	}
	if NewestKnown != newest {
		t.Errorf("NewestKnown = %s, the newest published release probed is %s", NewestKnown, newest)
	}
	if NewerThanKnown(hooks.MustRelease(NewestKnown)) || !NewerThanKnown(hooks.MustRelease("99.0.0")) {
		t.Error("NewerThanKnown is wrong at the edge")
	}
}
