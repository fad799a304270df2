package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	dir := t.TempDir()
	cfg, err := Load(dir)
	if err != nil || !cfg.Guard.Enabled || cfg.Work.Mode != WorkOff || cfg.Artifacts.Files[1].MinBytes != 100 ||
		cfg.Scratchpad.Enabled || cfg.Artifacts.Enabled || cfg.PDCA.Enabled || cfg.Loop.Enabled {
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
		if cfg.Work.Mode != WorkOff || !cfg.Guard.Enabled {
			t.Errorf("%s: an invalid file did not fall back to the defaults: %+v", bad, cfg)
		}
	}
}

// TestReadmeExampleIsValid keeps the copy-paste example of the
// configuration page (docs/configuration.md) loadable: its first json
// block.
func TestReadmeExampleIsValid(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "# Configuration\n")
	if !ok {
		t.Fatal("docs/configuration.md has no # Configuration")
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
	// additions (deny, protect, secrets, rules, packs, commands, tools) are
	// there for illustration.
	if len(cfg.Guard.Secrets) == 0 || len(cfg.Guard.Rules) == 0 || len(cfg.Guard.Commands) == 0 || len(cfg.Guard.Tools) == 0 {
		t.Errorf("the README's example no longer shows the guard's secrets, rules, commands and tools: %+v", cfg.Guard)
	}
	cfg.Guard.Deny, cfg.Guard.Protect, cfg.Guard.Secrets, cfg.Guard.Rules, cfg.Guard.Commands, cfg.Guard.Tools, cfg.Guard.Packs = nil, nil, nil, nil, nil, nil, nil
	// The example may switch the team workflows on (they are off by
	// default, package workflow); every other value is the default's.
	cfg.Scratchpad.Enabled, cfg.Artifacts.Enabled, cfg.PDCA.Enabled = false, false, false
	if cfg.Work.Mode != WorkOff {
		cfg.Work.Mode = WorkOff
	}
	if !reflect.DeepEqual(cfg, Default()) {
		t.Fatalf("the README's example is not the defaults:\n got %+v\nwant %+v", cfg, Default())
	}
}

// TestLifecycleSections covers the pdca.automation, loop, compact and team
// sections: their defaults, an override, and each bad value.
func TestLifecycleSections(t *testing.T) {
	d := Default()
	if d.PDCA.Automation != AutomationSemi || d.Loop.Enabled || d.Loop.MaxRounds != 5 || d.Loop.StallRounds != 3 ||
		d.Loop.Timeout != 60 || !d.Compact.Enabled || d.Compact.Keep != 20 || !d.Team.Enabled {
		t.Fatalf("defaults: %+v %+v %+v %+v", d.PDCA, d.Loop, d.Compact, d.Team)
	}
	cfg, err := Parse([]byte(`{"pdca":{"automation":"full"},"loop":{"enabled":true,"check":"make test","promise":"DONE","max_rounds":9,"stall_rounds":0,"timeout":100,"subagents":true},"compact":{"keep":1},"team":{"enabled":false}}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.PDCA.Automation != AutomationFull || cfg.Loop.Check != "make test" || cfg.Loop.MaxRounds != 9 || cfg.Loop.StallRounds != 0 ||
		!cfg.Loop.Subagents || cfg.Compact.Keep != 1 || cfg.Team.Enabled || cfg.PDCA.State != ".hookwright/pdca.json" {
		t.Fatalf("override: %+v", cfg)
	}
	for bad, mention := range map[string]string{
		`{"pdca":{"automation":"auto"}}`:                "pdca.automation",
		`{"loop":{"enabled":true}}`:                     "neither a check nor a promise",
		`{"loop":{"max_rounds":0}}`:                     "loop.max_rounds",
		`{"loop":{"stall_rounds":-1}}`:                  "loop.stall_rounds",
		`{"loop":{"timeout":0}}`:                        "loop.timeout",
		`{"loop":{"timeout":101}}`:                      "loop.timeout",
		`{"loop":{"promise":"<b>"}}`:                    "loop.promise",
		`{"compact":{"keep":0}}`:                        "compact.keep",
		`{"scratchpad":{"max_blocks":0}}`:               "scratchpad.max_blocks",
		`{"scratchpad":{"max_blocks":101}}`:             "scratchpad.max_blocks",
		`{"work":{"auto_create":"yes"}}`:                "auto_create",
		`{"loop":{"enabled":true,"check":"x","max":1}}`: "max",
		`{"team":{"enabled":true,"file":"x"}}`:          "file",
	} {
		if _, err := Parse([]byte(bad)); err == nil || !strings.Contains(err.Error(), mention) {
			t.Errorf("%s: err = %v, want it to mention %q", bad, err, mention)
		}
	}
}

func TestToolsValidate(t *testing.T) {
	for in, ok := range map[string]bool{
		`{"guard":{"tools":{"WebFetch(domain:*.example.com)":"deny","WebSearch":"ask"}}}`: true,
		`{"guard":{"tools":{"WebSearch":"block"}}}`:                                       false,
		`{"guard":{"tools":{"WebFetch(example.com)":"deny"}}}`:                            false,
		`{"guard":{"tools":{"":"deny"}}}`:                                                 false,
	} {
		if _, err := Parse([]byte(in)); (err == nil) != ok {
			t.Errorf("Parse(%s): error %v, want ok %v", in, err, ok)
		}
	}
}

// The design keys the workflows need are read: PAL Kit's auto_create and
// the scratchpad's bound, each next to its section's other keys.
func TestWorkflowKeys(t *testing.T) {
	cfg, err := Parse([]byte(`{"work":{"mode":"strict","auto_create":false},"scratchpad":{"fail":"closed","max_blocks":3}}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Work.Mode != WorkStrict || cfg.Work.AutoCreate || cfg.Scratchpad.Fail != FailClosed || cfg.Scratchpad.MaxBlocks != 3 {
		t.Fatalf("%+v %+v", cfg.Work, cfg.Scratchpad)
	}
	if d := Default(); !d.Work.AutoCreate || d.Scratchpad.MaxBlocks != 5 {
		t.Fatalf("defaults: %+v %+v", d.Work, d.Scratchpad)
	}
}
