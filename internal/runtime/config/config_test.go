package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	cfg, err := Load(dir)
	if err != nil || !cfg.Guard.Enabled || cfg.Work.Mode != WorkWarn || cfg.Artifacts.Files[1].MinBytes != 100 {
		t.Fatalf("defaults: %+v, %v", cfg, err)
	}
	write := func(s string) {
		os.MkdirAll(filepath.Join(dir, Dir), 0o755)
		if err := os.WriteFile(filepath.Join(dir, File), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"work":{"mode":"strict"},"artifacts":{"fail":"closed"}}`)
	cfg, err = Load(dir)
	if err != nil || cfg.Work.Mode != WorkStrict || cfg.Artifacts.Fail != FailClosed || cfg.Artifacts.Root != ".agent/teams" {
		t.Fatalf("override kept defaults wrong: %+v, %v", cfg, err)
	}
	for bad, mention := range map[string]string{
		`{"work":{"mode":"loud"}}`:                               "work.mode",
		`{"artifacts":{"fail":"maybe"}}`:                         "artifacts.fail",
		`{"artifacts":{"root":"../elsewhere"}}`:                  "artifacts.root",
		`{"pdca":{"state":"/etc/pdca.json"}}`:                    "pdca.state",
		`{"artifacts":{"files":[{"name":"a/b","min_bytes":1}]}}`: "plain file name",
		`{"guard":{"enabeld":true}}`:                             "enabeld",
		`{"guard":`:                                              "unexpected EOF",
		`{"Guard":{"Enabled":false}}`:                            `unknown key "Guard" (keys are case-sensitive: did you mean "guard"?)`,
		`{"guard":{"Enabled":false}}`:                            `guard: unknown key "Enabled"`,
		`{"artifacts":{"files":[{"Name":"x","min_bytes":1}]}}`:   `artifacts.files[0]: unknown key "Name"`,
		`{"work":{"mode":"warn"}} {"work":{"mode":"off"}}`:       "data after the config object",
		`{} x`:           "data after the config object",
		`null`:           "the config is null",
		`{"guard":null}`: "guard: null is not an object",
		`{"work":{"mode":"off"},"work":{"mode":"strict"}}`: `key "work" given twice`,
		``:                          "the file is empty",
		`[]`:                        "is not an object",
		`{"guard":{"level":"lax"}}`: "guard.level",
		`{"guard":{"fail":"shut"}}`: "guard.fail",
		`{"guard":{"rules":{"git-force-push":"off"}}}`:              "guard.rules.git-force-push",
		`{"guard":{"commands":[{"match":" ","severity":"ask"}]}}`:   "guard.commands[0].match",
		`{"guard":{"commands":[{"match":"x","severity":"allow"}]}}`: "guard.commands[0].severity",
	} {
		write(bad)
		cfg, err := Load(dir)
		if err == nil || !strings.Contains(err.Error(), mention) || !strings.Contains(err.Error(), "using defaults") {
			t.Errorf("%s: err = %v, want it to mention %q", bad, err, mention)
		}
		if cfg.Work.Mode != WorkWarn || !cfg.Guard.Enabled {
			t.Errorf("%s: an invalid file did not fall back to the defaults: %+v", bad, cfg)
		}
	}
}

// TestReadmeExampleIsValid keeps the copy-paste example in the README
// loadable: the first json block after "## Configuration".
func TestReadmeExampleIsValid(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "## Configuration")
	if !ok {
		t.Fatal("README has no Configuration section")
	}
	_, block, ok := strings.Cut(section, "```json\n")
	if !ok {
		t.Fatal("the Configuration section has no json block")
	}
	block, _, _ = strings.Cut(block, "```")
	cfg, err := Parse([]byte(block))
	if err != nil {
		t.Fatalf("the README's example config does not load: %v", err)
	}
	ct := reflect.TypeOf(Config{})
	for i := 0; i < ct.NumField(); i++ {
		if key := `"` + ct.Field(i).Tag.Get("json") + `"`; !strings.Contains(block, key) {
			t.Errorf("the README's example leaves out the %s section", key)
		}
	}
	// The README says the example shows the defaults; only the guard's
	// additions (deny, protect, secrets, rules, commands) are there for
	// illustration.
	if len(cfg.Guard.Secrets) == 0 || len(cfg.Guard.Rules) == 0 || len(cfg.Guard.Commands) == 0 {
		t.Errorf("the README's example no longer shows the guard's secrets, rules and commands: %+v", cfg.Guard)
	}
	cfg.Guard.Deny, cfg.Guard.Protect, cfg.Guard.Secrets, cfg.Guard.Rules, cfg.Guard.Commands = nil, nil, nil, nil, nil
	if !reflect.DeepEqual(cfg, Default()) {
		t.Fatalf("the README's example is not the defaults:\n got %+v\nwant %+v", cfg, Default())
	}
}
