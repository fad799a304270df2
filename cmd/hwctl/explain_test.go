package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func explain(t *testing.T, home string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	code := run(context.Background(), append([]string{"hwctl", "explain"}, args...), &out, &errb, env)
	return out.String(), errb.String(), code
}

func TestExplainText(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	out, errs, code := explain(t, home, "--dir", dir, "--", `zsh -c 'rm -rf ~'`)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"simple commands:", "zsh -c 'rm -rf ~'", "via zsh -c", "path ~ -> " + home, "decision:  block (rule rm-root)", "the model reads: hookwright guard:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, _, code = explain(t, home, "--dir", dir, "--", "git", "push", "--force-with-lease", "origin", "topic")
	if code != 0 || !strings.Contains(out, "decision:  allow") || strings.Contains(out, "the model reads") {
		t.Errorf("allowed push: exit %d\n%s", code, out)
	}
	out, _, _ = explain(t, home, "--dir", dir, "--tool", "Read", "--path", "~/.ssh/id_ed25519")
	if !strings.Contains(out, home+"/.ssh/id_ed25519 (read: secret)") || !strings.Contains(out, "rule secret-read") {
		t.Errorf("Read of a key:\n%s", out)
	}
	out, _, _ = explain(t, home, "--dir", dir, "--tool", "Read", "--path", "~/.ssh/id_ed25519.pub")
	if !strings.Contains(out, "decision:  allow") {
		t.Errorf("Read of a public key:\n%s", out)
	}
	out, _, _ = explain(t, home, "--dir", dir, "--level", "strict", "--", "rm -rf build")
	if !strings.Contains(out, "level:     strict") || !strings.Contains(out, "rule rm-in-project") {
		t.Errorf("--level strict:\n%s", out)
	}
	out, _, _ = explain(t, home, "--rules")
	if !strings.Contains(out, "git-force-push") || !strings.Contains(out, "raise only") {
		t.Errorf("--rules:\n%s", out)
	}
}

func TestExplainJSON(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	// A link in the project that points at a key is that key.
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("k"), 0o600)
	os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(dir, "innocent.txt"))
	out, _, code := explain(t, home, "--dir", dir, "--json", "--", "cat innocent.txt")
	var rep struct {
		Decision, Rule, Reason string
		Commands               []struct {
			Words []string
			Paths []struct{ Arg, Resolved, Use, Class string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	real, _ := filepath.EvalSymlinks(filepath.Join(home, ".ssh", "id_rsa"))
	if rep.Decision != "block" || rep.Rule != "secret-read" || len(rep.Commands) != 1 || len(rep.Commands[0].Paths) != 1 ||
		rep.Commands[0].Paths[0].Resolved != filepath.ToSlash(real) {
		t.Fatalf("symlinked key: %+v", rep)
	}
	out, _, _ = explain(t, home, "--dir", dir, "--json", "--", "go build ./...")
	if !strings.Contains(out, `"decision": "allow"`) || !strings.Contains(out, `"prefilter"`) {
		t.Fatalf("allowed call JSON:\n%s", out)
	}
}

func TestExplainUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--dir", dir, "--tool", "Read"},
		{"--dir", dir, "--tool", "Fetch", "--path", "x"},
		{"--dir", dir, "--level", "lax", "--", "ls"},
		{"--dir", dir, "--tool", "Read", "--path", "x", "--", "ls"},
	} {
		if _, errs, code := explain(t, "/h", args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, errs)
		}
	}
}

// explain names the layer that loosened or tightened what, and what was
// ignored; with the user config's trust the loosening applies.
func TestExplainConfigLayers(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".hookwright"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".hookwright", "config.json"), []byte(`{"guard":{"enabled":false,"level":"strict"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := explain(t, home, "--dir", dir, "--", "rm -rf ~")
	for _, want := range []string{
		"layer:     built-in default",
		"(not trusted: it may only tighten the guard)",
		"guard.enabled: the project config loosens it (true -> false); ignored",
		`guard.level: the project config tightens it ("standard" -> "strict")`,
		"decision:  block",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d, stderr %q, output lacks %q:\n%s", code, errs, want, out)
		}
	}
	if err := os.MkdirAll(filepath.Join(home, ".config", "hookwright"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "hookwright", "config.json"), []byte(`{"trust":["`+dir+`"],"guard":{"fail":"closed"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ = explain(t, home, "--dir", dir, "--", "rm -rf ~")
	for _, want := range []string{
		"layer:     user config " + filepath.Join(home, ".config", "hookwright", "config.json"),
		`guard.fail: the user config tightens it ("open" -> "closed")`,
		"(trusted by the user config's",
		"guard.enabled is false",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("trusted: output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "ignored") {
		t.Errorf("trusted: something was ignored:\n%s", out)
	}
	out, _, _ = explain(t, home, "--dir", dir, "--json", "--", "ls")
	if !strings.Contains(out, `"config_changes"`) || !strings.Contains(out, `"field": "guard.enabled"`) || !strings.Contains(out, `"source": "project config"`) {
		t.Errorf("--json lacks the config changes:\n%s", out)
	}
}

// guard.tools shows in explain: the rule, the decision, the reason.
func TestExplainToolPolicy(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".hookwright"), 0o755)
	os.WriteFile(filepath.Join(dir, ".hookwright", "config.json"), []byte(`{"guard": {"tools": {"WebFetch(domain:*.example.com)": "deny", "Task": "allow"}}}`), 0o644)
	// An allow is a loosening: from the project config it is ignored ...
	out, _, _ := explain(t, home, "--dir", dir, "--tool", "Task", "--input", `{"subagent_type":"Explore"}`)
	if !strings.Contains(out, `guard.tools.Task: the project config loosens it ("none" -> "allow"); ignored`) || strings.Contains(out, "rule tool-policy") {
		t.Errorf("a project's allow applied without trust:\n%s", out)
	}
	// ... and from the user config it applies.
	os.MkdirAll(filepath.Join(home, ".config", "hookwright"), 0o755)
	os.WriteFile(filepath.Join(home, ".config", "hookwright", "config.json"), []byte(`{"guard": {"tools": {"Task": "allow"}}}`), 0o644)
	out, errs, code := explain(t, home, "--dir", dir, "--tool", "WebFetch", "--input", `{"url":"https://docs.example.com/a"}`)
	if code != 0 || errs != "" || !strings.Contains(out, "decision:  block (rule tool-policy)") || !strings.Contains(out, "WebFetch(domain:*.example.com)") {
		t.Errorf("denied WebFetch: exit %d, stderr %q\n%s", code, errs, out)
	}
	out, _, _ = explain(t, home, "--dir", dir, "--tool", "WebFetch", "--input", `{"url":"https://example.net/a"}`)
	if !strings.Contains(out, "decision:  allow") || strings.Contains(out, "tool-policy") {
		t.Errorf("allowed WebFetch:\n%s", out)
	}
	out, _, _ = explain(t, home, "--dir", dir, "--tool", "Task", "--input", `{"subagent_type":"Explore"}`)
	if !strings.Contains(out, "decision:  allow (rule tool-policy)") {
		t.Errorf("allowed Task:\n%s", out)
	}
	if _, _, code := explain(t, home, "--dir", dir, "--tool", "WebFetch", "--input", `[1]`); code != 2 {
		t.Errorf("--input that is no object: exit %d, want 2", code)
	}
	if _, _, code := explain(t, home, "--dir", dir, "--tool", "WebFetch"); code != 2 {
		t.Errorf("WebFetch without --input: exit %d, want 2", code)
	}
}

// explain lists which workflows run in the project and why: alone (no
// call to explain), after a call's report, and in the JSON of both.
func TestExplainWorkflows(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".agent", "teams"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".hookwright"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".hookwright", "config.json"), []byte(`{"scratchpad": {"enabled": true}, "pdca": {"enabled": false}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"workflow:  scratchpad on: scratchpad.enabled is true in the project config",
		"workflow:  artifacts  on: the project has .agent/teams/, the workflow's own folder",
		"workflow:  pdca       off: pdca.enabled is false in the project config",
		"workflow:  work       off: not turned on (hwctl workflow enable work)",
		"workflow:  loop       off: not turned on (hwctl workflow enable loop)",
	}
	for _, args := range [][]string{{"--dir", dir}, {"--dir", dir, "--", "git push -f"}} {
		out, errs, code := explain(t, home, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", args, w, out)
			}
		}
	}
	out, _, _ := explain(t, home, "--dir", dir, "--json", "--", "ls")
	var rep struct {
		Decision  string `json:"decision"`
		Workflows []struct {
			Name string `json:"name"`
			On   bool   `json:"on"`
			By   string `json:"by"`
		} `json:"workflows"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Decision != "allow" || len(rep.Workflows) != 5 || !rep.Workflows[1].On || rep.Workflows[1].By != "folder" {
		t.Fatalf("JSON: %v %+v\n%s", err, rep, out)
	}
}
