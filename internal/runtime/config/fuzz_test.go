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
