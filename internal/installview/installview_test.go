package installview

import (
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/manifests"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plugin writes hookwright's install for every release into a folder.
func plugin(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	in, err := manifests.BuildInstall(manifests.Hookwright(), hooks.Release{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range in.Files {
		write(t, filepath.Join(root, filepath.FromSlash(f.Path)), f.JSON)
	}
	pj, _ := manifests.SetPluginHooks([]byte(`{"name":"hookwright","version":"1.0.0"}`), in.PluginHooks())
	write(t, filepath.Join(root, ".claude-plugin", "plugin.json"), pj)
	return root
}

func write(t *testing.T, p string, data []byte) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLookPerRelease(t *testing.T) {
	p := Read(plugin(t))
	for _, c := range []struct {
		release string
		want    []string
	}{
		{"2.0.30", []string{"from hooks/hooks.json (skips hooks/2.0.44.json, hooks/2.0.56.json, hooks/2.1.33.json)", "TaskCompleted via PostToolUse[TaskUpdate] + PostToolUse[TodoWrite]", "TeammateIdle via Stop + SubagentStop", "SubagentStart not on this release (it arrives in 2.0.44)"}},
		{"2.1.20", []string{"from hooks/hooks.json + hooks/2.0.44.json + hooks/2.0.56.json (skips hooks/2.1.33.json)", "TeammateIdle via Stop + SubagentStop"}},
		{"2.1.33", []string{"from hooks/hooks.json + hooks/2.0.44.json + hooks/2.0.56.json + hooks/2.1.33.json;", "every event native"}},
		{"2.1.330", []string{"hooks/2.1.33.json;", "every event native"}},
	} {
		v := Look(p, hooks.MustRelease(c.release))
		line := v.Line()
		for _, w := range c.want {
			if !strings.Contains(line, w) {
				t.Errorf("%s: %q lacks %q", c.release, line, w)
			}
		}
		if v.BelowFloor != "" {
			t.Errorf("%s: below the floor: %s", c.release, v.BelowFloor)
		}
		for _, r := range v.Routes {
			if r.Missing {
				t.Errorf("%s: %s missing: %s", c.release, r.Event, r.How)
			}
		}
	}
}

// hooks/hooks.json rewritten to one release's band (what the wave-3
// native switch did): the older release is below the floor.
func TestLookBelowTheFloor(t *testing.T) {
	root := plugin(t)
	band, err := manifests.Generate(manifests.Hookwright(), hooks.MustRelease("2.1.33"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "hooks", "hooks.json"), band)
	p := Read(root)
	v := Look(p, hooks.MustRelease("2.0.30"))
	if !strings.Contains(v.BelowFloor, "it refuses hooks/hooks.json") || v.Hooks != 0 || !strings.Contains(v.Line(), "no hooks (skips") {
		t.Errorf("2.0.30: BelowFloor %q, %d hooks, line %q; want hooks.json refused and no hook", v.BelowFloor, v.Hooks, v.Line())
	}
	guard := false
	for _, r := range v.Routes {
		guard = guard || r.Event == "PreToolUse" && r.Missing
	}
	if !guard {
		t.Errorf("2.0.30: the guard is not reported missing: %q", v.Line())
	}
	if v := Look(p, hooks.MustRelease("2.1.33")); v.BelowFloor != "" {
		t.Errorf("2.1.33: %s", v.BelowFloor)
	}
}
