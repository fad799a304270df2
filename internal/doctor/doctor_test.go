package doctor

import (
	"bytes"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/testkit"
	"github.com/hookwright/hookwright/manifests"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) { os.Exit(testkit.Main(m)) }

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
		testkit.BuildTo(t, "github.com/hookwright/hookwright/cmd/hookwright", filepath.Join(root, "bin", name), testkit.Options{Flags: []string{"-ldflags", "-X main.version=0.1.0"}})
	}
	return root
}

func report(r Report) string {
	var b bytes.Buffer
	r.Write(&b)
	return b.String()
}

func TestHealthyPlugin(t *testing.T) {
	v, _ := hooks.ParseRelease("2.1.33")
	r := Run(Options{Version: v, VersionHow: "test", PluginRoot: pluginCopy(t, true), Project: t.TempDir()})
	out := report(r)
	if !r.OK() {
		t.Fatalf("problems in a healthy install:\n%s", out)
	}
	for _, want := range []string{"Claude Code 2.1.33", "loads on every release from 2.0.12", "every event native", runtime.GOOS + "/" + runtime.GOARCH, "hookwright 0.1.0", "the defaults apply", ".hookwright/journal"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestProblemsHaveFixes(t *testing.T) {
	old, _ := hooks.ParseRelease("2.0.30")
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
	v, _ := hooks.ParseRelease("2.1.33")
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

// TestPluginRootFollowsTheRelease lays out a folder-marketplace install as
// the releases write it and checks where each release runs the plugin.
func TestPluginRootFollowsTheRelease(t *testing.T) {
	home := t.TempDir()
	market := filepath.Join(t.TempDir(), "clone")
	write := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(market, ".claude-plugin", "marketplace.json"), `{"name":"hw","plugins":[{"name":"hookwright","source":"./plugin"}]}`)
	write(filepath.Join(home, ".claude", "plugins", "known_marketplaces.json"),
		`{"hw":{"source":{"source":"directory","path":"`+market+`"},"installLocation":"`+market+`"}}`)
	inPlace := filepath.Join(market, "plugin")
	// 2.0.30 writes no installed_plugins.json and runs the folder.
	if root, _ := PluginRoot(home, hooks.MustRelease("2.0.30")); root != inPlace {
		t.Errorf("2.0.30: PluginRoot = %q, want %q", root, inPlace)
	}
	cache := filepath.Join(home, ".claude", "plugins", "cache", "hw", "hookwright", "0.1.0")
	write(filepath.Join(home, ".claude", "plugins", "installed_plugins.json"),
		`{"version":2,"plugins":{"hookwright@hw":[{"scope":"user","installPath":"`+cache+`"}]}}`)
	for v, want := range map[string]string{"2.1.25": cache, "2.1.61": cache, "2.1.100": cache, "2.1.101": inPlace, "2.1.139": inPlace, "2.1.200": inPlace, "2.1.330": inPlace} {
		if root, how := PluginRoot(home, hooks.MustRelease(v)); root != want {
			t.Errorf("%s: PluginRoot = %q (%s), want %q", v, root, how, want)
		}
	}
	if root, _ := PluginRoot(t.TempDir(), hooks.Release{}); root != "" {
		t.Errorf("no install: PluginRoot = %q", root)
	}
}

// TestSettingsNamedPipe: a settings file that is a named pipe is reported
// at once, not waited on.
func TestSettingsNamedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := syscallMkfifo(path); err != nil {
		t.Skip(err)
	}
	v, _ := hooks.ParseRelease("2.1.33")
	done := make(chan Report, 1)
	go func() {
		done <- Run(Options{Version: v, VersionHow: "test", Settings: []string{path}, Project: t.TempDir()})
	}()
	select {
	case r := <-done:
		if r.OK() || !strings.Contains(report(r), "not a regular file") {
			t.Errorf("a named pipe as settings file not reported:\n%s", report(r))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("doctor waited on a named pipe")
	}
}

// TestReleasesSeenOnTheMachine: doctor finds the releases the native
// installer keeps and the IDE extensions bundle, and gives each a line;
// a hooks.json one release rewrote for itself (the wave-3 switch) is BAD
// on the older release, with the fix.
func TestReleasesSeenOnTheMachine(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{
		".local/share/claude/versions/2.1.330", ".local/share/claude/versions/not-a-version",
		".vscode/extensions/anthropic.claude-code-2.0.30-linux-x64", ".cursor/extensions/anthropic.claude-code-2.1.100",
		".vscode/extensions/ms-python.python-2024.1.0",
	} {
		if err := os.MkdirAll(filepath.Join(home, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, v := range MachineReleases(home) {
		got = append(got, v.String())
	}
	if strings.Join(got, " ") != "2.1.330 2.1.100 2.0.30" {
		t.Fatalf("MachineReleases = %v", got)
	}
	root := pluginCopy(t, true)
	band, err := manifests.Generate(manifests.Hookwright(), hooks.MustRelease("2.1.33"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "hooks", "hooks.json"), band, 0o644)
	v, _ := hooks.ParseRelease("2.1.330")
	r := Run(Options{Version: v, VersionHow: "test", PluginRoot: root, Project: t.TempDir(), Releases: MachineReleases(home)})
	out := report(r)
	if r.OK() || !strings.Contains(out, "BAD release    Claude Code 2.0.30: no hooks") || !strings.Contains(out, "ok  release    Claude Code 2.1.100") {
		t.Fatalf("want 2.0.30 BAD and 2.1.100 ok:\n%s", out)
	}
	if !strings.Contains(out, "fix: make plugin-hooks") {
		t.Errorf("no fix for a development checkout:\n%s", out)
	}
}
