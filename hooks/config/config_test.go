package config

import (
	"os"
	"path/filepath"
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
