package main

import (
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/manifests"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// installCopy writes hookwright's install for every release into a plugin
// folder.
func installCopy(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	in, err := manifests.BuildInstall(manifests.Hookwright(), hooks.Release{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range in.Files {
		os.MkdirAll(filepath.Dir(filepath.Join(root, f.Path)), 0o755)
		os.WriteFile(filepath.Join(root, filepath.FromSlash(f.Path)), f.JSON, 0o644)
	}
	pj, _ := manifests.SetPluginHooks([]byte(`{"name":"hookwright","version":"1.0.0"}`), in.PluginHooks())
	os.MkdirAll(filepath.Join(root, ".claude-plugin"), 0o755)
	os.WriteFile(filepath.Join(root, ".claude-plugin", "plugin.json"), pj, 0o644)
	return root
}

// TestExplainInstall: per release found on the machine (an IDE extension
// here) and per --release, which hooks files it loads and how each event
// reaches the plugin; a hooks.json rewritten for one release is marked on
// the older ones.
func TestExplainInstall(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".vscode", "extensions", "anthropic.claude-code-2.1.330-linux-x64"), 0o755)
	root := installCopy(t)
	out, errs, code := explain(t, home, "--install", "--plugin-dir", root, "--release", "2.0.30")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"Claude Code 2.1.330: 16 hooks from hooks/hooks.json + hooks/2.0.44.json + hooks/2.0.56.json + hooks/2.1.33.json; every event native",
		"Claude Code 2.0.30: 12 hooks from hooks/hooks.json (skips hooks/2.0.44.json, hooks/2.0.56.json, hooks/2.1.33.json)",
		"TeammateIdle via Stop + SubagentStop",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	band, _ := manifests.Generate(manifests.Hookwright(), hooks.MustRelease("2.1.33"))
	os.WriteFile(filepath.Join(root, "hooks", "hooks.json"), band, 0o644)
	out, _, _ = explain(t, home, "--install", "--plugin-dir", root, "--release", "2.0.30")
	if !strings.Contains(out, "! Claude Code 2.0.30: no hooks") || !strings.Contains(out, "fewer hooks than hooks/hooks.json gives every release") {
		t.Errorf("a hooks.json 2.0.30 refuses is not marked:\n%s", out)
	}
	if _, _, code := explain(t, home, "--install", "--plugin-dir", root, "--release", "two"); code != 2 {
		t.Errorf("a bad --release: exit %d, want 2", code)
	}
}
