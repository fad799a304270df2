package config

import (
	"strings"
	"testing"
)

// guard.packs is parsed and checked: an unknown pack or rule, or a value
// other than off, ask or block, is a config error that names the entry.
func TestGuardPacks(t *testing.T) {
	cfg, err := Parse([]byte(`{"guard": {"packs": {"database": "ask", "cloud": "block", "payment": "off", "database.drop": "off"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Guard.Packs["cloud"] != "block" || cfg.Guard.Packs["database.drop"] != "off" || len(cfg.Guard.Packs) != 4 {
		t.Errorf("packs: %v", cfg.Guard.Packs)
	}
	for _, c := range []struct{ json, want string }{
		{`{"guard": {"packs": {"databases": "ask"}}}`, "guard.packs.databases: no such pack"},
		{`{"guard": {"packs": {"database.nope": "ask"}}}`, "guard.packs.database.nope: no such rule"},
		{`{"guard": {"packs": {"cloud": "allow"}}}`, `guard.packs.cloud: "allow" is not "off", "ask" or "block"`},
		{`{"guard": {"packs": {"cloud": 1}}}`, "guard.packs"},
	} {
		_, err := Parse([]byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.json, err, c.want)
		}
	}
}
