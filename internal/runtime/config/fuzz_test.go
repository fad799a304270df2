package config

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzParse: Parse never panics; what it accepts is valid, decodes the
// same with encoding/json (so strictness only ever removes inputs), and
// survives a round trip through its JSON form. The seed corpus is in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"guard":{"enabled":false,"deny":["rm -rf"]},"work":{"mode":"strict"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data)
		if err != nil {
			if !reflect.DeepEqual(cfg, Default()) {
				t.Fatalf("a rejected config did not fall back to the defaults: %+v", cfg)
			}
			return
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("Parse accepted an invalid config %q: %v", data, err)
		}
		loose := Default()
		if err := json.Unmarshal(data, &loose); err != nil {
			t.Fatalf("Parse accepted %q, which encoding/json rejects: %v", data, err)
		}
		if !reflect.DeepEqual(loose, cfg) {
			t.Fatalf("Parse and encoding/json disagree on %q:\n%+v\n%+v", data, cfg, loose)
		}
		again, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		// The JSON form is the fixed point: an empty list and an absent
		// one both mean "none" and both print as absent (omitempty), so the
		// round trip compares what a config says, not nil against [].
		back, err := Parse(again)
		if err != nil {
			t.Fatalf("round trip of %q: Parse rejected its own output %s: %v", data, again, err)
		}
		twice, err := json.Marshal(back)
		if err != nil {
			t.Fatal(err)
		}
		if string(twice) != string(again) {
			t.Fatalf("round trip of %q changed the config:\n%s\n%s", data, again, twice)
		}
	})
}

// FuzzLayers: a user config and a project config, parsed and merged as
// LoadLayers merges them, never panic, and without trust the result is
// never looser than the user layer in any guarded field that has an
// order. The seed corpus is in testdata/fuzz/FuzzLayers.
func FuzzLayers(f *testing.F) {
	f.Add([]byte(`{"guard":{"level":"strict","rules":{"a":"block"},"deny":["x"]},"trust":["/p"]}`), []byte(`{"guard":{"enabled":false,"level":"standard","rules":{"a":"allow"},"deny":[]}}`))
	f.Add([]byte(`{}`), []byte(`{"journal":{"enabled":false},"guard":{"fail":"closed"}}`))
	f.Fuzz(func(t *testing.T, user, project []byte) {
		base, _, err := parseUser(Default(), user, "/home/u")
		if err != nil {
			base = Default()
		}
		proj, err := parseOver(base, project)
		if err != nil {
			return
		}
		out, changes := Tighten(base, proj, false)
		if err := out.Validate(); err != nil {
			t.Fatalf("Tighten made an invalid config: %v", err)
		}
		if base.Guard.Enabled && !out.Guard.Enabled || base.Journal.Enabled && !out.Journal.Enabled {
			t.Fatalf("switched off: %+v", changes)
		}
		order := TightenRules["guard.level"].Order
		if rank(order, string(out.Guard.Level)) < rank(order, string(base.Guard.Level)) {
			t.Fatalf("level lowered: %s -> %s", base.Guard.Level, out.Guard.Level)
		}
		if base.Guard.Fail == FailClosed && out.Guard.Fail != FailClosed {
			t.Fatal("fail opened")
		}
		sev := TightenRules["guard.rules"].Order
		for k, v := range base.Guard.Rules {
			if rank(sev, out.Guard.Rules[k]) < rank(sev, v) {
				t.Fatalf("rule %s lowered: %s -> %s", k, v, out.Guard.Rules[k])
			}
		}
		for _, d := range base.Guard.Deny {
			found := false
			for _, e := range out.Guard.Deny {
				found = found || e == d
			}
			if !found {
				t.Fatalf("deny entry %q dropped", d)
			}
		}
	})
}
