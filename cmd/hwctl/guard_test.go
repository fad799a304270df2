package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGuardPacks(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := hwctl(t, "guard", "packs", "--dir", dir)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"database:", "database.drop", "infrastructure.kubectl-delete", "machine.kill-all", "EFFECTIVE", "publish.npm"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, ".hookwright"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, ".hookwright", "config.json")
	if err := os.WriteFile(cfg, []byte(`{"guard": {"packs": {"database": "block", "database.drop": "off"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = hwctl(t, "guard", "packs", "--dir", dir, "--json")
	var rows []packRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil || code != 0 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	eff := map[string]string{}
	for _, r := range rows {
		eff[r.ID] = r.Default + "/" + r.Effective
	}
	// database.drop off lowers a rule: from an untrusted project config it
	// is ignored, and the pack's block applies.
	if eff["database.drop"] != "ask/block" || eff["database.truncate"] != "ask/block" || eff["cloud.aws-delete"] != "ask/ask" {
		t.Errorf("effective severities: drop %s, truncate %s, aws %s", eff["database.drop"], eff["database.truncate"], eff["cloud.aws-delete"])
	}
	if err := os.WriteFile(cfg, []byte(`{"guard": {"packs": {"databse": "block"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = hwctl(t, "guard", "packs", "--dir", dir)
	if code == 0 || !strings.Contains(errs, "guard.packs.databse: no such pack") {
		t.Errorf("unknown pack: exit %d, stderr %q", code, errs)
	}
}

func TestExplainNamesPack(t *testing.T) {
	dir := t.TempDir()
	out, _, code := hwctl(t, "explain", "--dir", dir, "--", `kubectl --context prod delete ns payments`)
	if code != 0 || !strings.Contains(out, "decision:  ask (pack infrastructure, rule kubectl-delete") || !strings.Contains(out, "(pack infrastructure)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
