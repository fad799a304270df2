package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginWritesTheInstall: hookgen plugin writes a foreign plugin's
// install for every release, --check passes on it and fails once a file
// changes, and plugin.json's own members stay.
func TestPluginWritesTheInstall(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".claude-plugin"), 0o755)
	os.WriteFile(filepath.Join(dir, ".claude-plugin", "plugin.json"), []byte(`{"name":"demo","version":"1.0.0","keywords":["x"]}`), 0o644)
	spec := filepath.Join(t.TempDir(), "spec.json")
	os.WriteFile(spec, []byte(`{"handlers":[
		{"event":"PreToolUse","matcher":"Bash","command":"node \"${CLAUDE_PLUGIN_ROOT}/guard.js\""},
		{"event":"TeammateIdle","command":"node \"${CLAUDE_PLUGIN_ROOT}/idle.js\"","timeout":30},
		{"event":"SubagentStart","command":"node \"${CLAUDE_PLUGIN_ROOT}/start.js\""}]}`), 0o644)
	e, out, errb := fakeEnv(t)
	if code := hookgen(t, e, "plugin", "--spec", spec, dir); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"wrote hooks/hooks.json", "wrote hooks/2.0.44.json", "wrote hooks/2.1.33.json", "wrote .claude-plugin/plugin.json", "every release from 2.0.12"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	pj, _ := os.ReadFile(filepath.Join(dir, ".claude-plugin", "plugin.json"))
	if !strings.Contains(string(pj), `"./hooks/2.0.44.json",`) || !strings.Contains(string(pj), `"keywords": [`) {
		t.Errorf("plugin.json:\n%s", pj)
	}
	hooks, _ := os.ReadFile(filepath.Join(dir, "hooks", "hooks.json"))
	if !strings.Contains(string(hooks), `idle.js\" --via Stop`) || strings.Contains(string(hooks), `"TeammateIdle"`) {
		t.Errorf("hooks/hooks.json has no TeammateIdle fallback or names the event itself:\n%s", hooks)
	}
	e, out, _ = fakeEnv(t)
	if code := hookgen(t, e, "plugin", "--check", "--spec", spec, dir); code != exitOK {
		t.Fatalf("--check on what it wrote: exit %d\n%s", code, out)
	}
	os.WriteFile(filepath.Join(dir, "hooks", "2.1.33.json"), []byte("{}"), 0o644)
	e, out, _ = fakeEnv(t)
	if code := hookgen(t, e, "plugin", "--check", "--spec", spec, dir); code != exitInvalid || !strings.Contains(out.String(), "stale hooks/2.1.33.json") {
		t.Errorf("--check on a changed file: exit %d\n%s", code, out)
	}
	// --since leaves out what older releases need.
	e, _, _ = fakeEnv(t)
	if code := hookgen(t, e, "plugin", "--spec", spec, "--since", "2.1.33", dir); code != exitOK {
		t.Fatalf("--since: exit %d", code)
	}
	hooks, _ = os.ReadFile(filepath.Join(dir, "hooks", "hooks.json"))
	if !strings.Contains(string(hooks), `"TeammateIdle"`) || strings.Contains(string(hooks), "--via") {
		t.Errorf("--since 2.1.33: hooks/hooks.json:\n%s", hooks)
	}
}

func TestPluginRefuses(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "spec.json")
	os.WriteFile(spec, []byte(`{"handlers":[{"event":"Stop","command":"x"}]}`), 0o644)
	inline := t.TempDir()
	os.MkdirAll(filepath.Join(inline, ".claude-plugin"), 0o755)
	os.WriteFile(filepath.Join(inline, ".claude-plugin", "plugin.json"), []byte(`{"name":"p","hooks":{"Stop":[]}}`), 0o644)
	for name, c := range map[string]struct {
		args []string
		code int
		want string
	}{
		"no folder":         {[]string{"plugin", "--spec", spec, filepath.Join(t.TempDir(), "nope")}, exitUsage, "is not a folder"},
		"no plugin.json":    {[]string{"plugin", "--spec", spec, t.TempDir()}, exitUsage, "has no readable .claude-plugin/plugin.json"},
		"inline hooks":      {[]string{"plugin", "--spec", spec, inline}, exitUsage, "holds hooks inline"},
		"two folders":       {[]string{"plugin", "--spec", spec, "a", "b"}, exitUsage, "needs one PLUGIN-DIR"},
		"a release too old": {[]string{"plugin", "--spec", spec, "--since", "1.0.0", inline}, exitUsage, "no release before 2.0.12"},
	} {
		e, _, errb := fakeEnv(t)
		if code := hookgen(t, e, c.args...); code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", name, code, errb, c.code, c.want)
		}
	}
}
