package doctor

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/compat"
)

// pluginCopy copies the repository's plugin tree (manifests, plugin.json,
// launcher) into a temp folder; withBinary also builds the runtime there.
func pluginCopy(t *testing.T, withBinary bool) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "hookwright")
	if out, err := exec.Command("cp", "-R", filepath.Join("..", "..", "plugin"), root).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	old, _ := filepath.Glob(filepath.Join(root, "bin", "hookwright-*"))
	for _, f := range old {
		os.Remove(f)
	}
	if withBinary {
		name := "hookwright-" + runtime.GOOS + "-" + runtime.GOARCH
		cmd := exec.Command("go", "build", "-ldflags", "-X main.version=0.1.0", "-o", filepath.Join(root, "bin", name), "github.com/hookwright/hookwright/cmd/hookwright")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	return root
}

func report(r Report) string {
	var b bytes.Buffer
	r.Write(&b)
	return b.String()
}

func TestHealthyPlugin(t *testing.T) {
	v, _ := compat.ParseVersion("2.1.33")
	r := Run(Options{Version: v, VersionHow: "test", PluginRoot: pluginCopy(t, true), Project: t.TempDir()})
	out := report(r)
	if !r.OK() {
		t.Fatalf("problems in a healthy install:\n%s", out)
	}
	for _, want := range []string{"Claude Code 2.1.33", "band 2.0.12", runtime.GOOS + "/" + runtime.GOARCH, "hookwright 0.1.0", "the defaults apply", ".hookwright/journal"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestProblemsHaveFixes(t *testing.T) {
	old, _ := compat.ParseVersion("2.0.30")
	root := pluginCopy(t, false)
	// A manifest 2.0.30 rejects, as if someone copied the newest band in.
	band, _ := os.ReadFile(filepath.Join(root, "hooks", "bands", "2.1.33.json"))
	os.WriteFile(filepath.Join(root, "hooks", "hooks.json"), band, 0o644)
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, ".hookwright"), 0o755)
	os.WriteFile(filepath.Join(project, ".hookwright", "config.json"), []byte(`{"work":{"mode":"sometimes"}}`), 0o644)
	r := Run(Options{Version: old, VersionHow: "test", PluginRoot: root, Project: project})
	out := report(r)
	if r.OK() {
		t.Fatalf("no problem found:\n%s", out)
	}
	for _, topic := range []string{"manifest", "binary", "config"} {
		found := false
		for _, f := range r {
			if f.Topic == topic && !f.OK {
				found = true
				if f.Fix == "" {
					t.Errorf("%s problem without a fix", topic)
				}
			}
		}
		if !found {
			t.Errorf("no %s problem reported:\n%s", topic, out)
		}
	}
}

func TestSettingsHooks(t *testing.T) {
	v, _ := compat.ParseVersion("2.1.33")
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"\"/nowhere/hookwright\" Stop"}]}]}}`), 0o644)
	r := Run(Options{Version: v, VersionHow: "test", Settings: []string{path}, Project: t.TempDir()})
	if r.OK() || !strings.Contains(report(r), "/nowhere/hookwright, which does not exist") {
		t.Errorf("missing settings binary not reported:\n%s", report(r))
	}
	r = Run(Options{VersionHow: "claude not on PATH", Project: t.TempDir()})
	if r.OK() || !strings.Contains(report(r), "not found") {
		t.Errorf("no release and no install not reported:\n%s", report(r))
	}
}
