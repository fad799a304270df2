// Package plugin_test checks the installable plugin tree: that its
// manifests are the generator's current output, that every place naming the
// version agrees with plugin.json, and that the launcher picks a binary or
// says visibly that none fits.
//
// go test ./plugin -run TestManifests -update (or make plugin-hooks)
// rewrites the hooks files and plugin.json's "hooks".
package plugin_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/buildinfo"
	"github.com/hookwright/hookwright/internal/testkit"
	"github.com/hookwright/hookwright/manifests"
)

func TestMain(m *testing.M) { os.Exit(testkit.Main(m)) }

var update = flag.Bool("update", false, "rewrite the hooks files and plugin.json's hooks list")

// TestManifestsAreCurrent keeps the plugin's hooks files equal to what
// hookgen writes for every release at once (manifests.BuildInstall):
// hooks/hooks.json for the plugin floor, one hooks/<edge>.json per later
// event, named in plugin.json's "hooks". Nothing else is a hooks file here.
func TestManifestsAreCurrent(t *testing.T) {
	in, err := manifests.BuildInstall(manifests.Hookwright(), hooks.Release{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for _, f := range in.Files {
		want[filepath.FromSlash(f.Path)] = f.JSON
	}
	pluginJSON := filepath.Join(".claude-plugin", "plugin.json")
	old, err := os.ReadFile(pluginJSON)
	if err != nil {
		t.Fatal(err)
	}
	withHooks, err := manifests.SetPluginHooks(old, in.PluginHooks())
	if err != nil {
		t.Fatal(err)
	}
	want[pluginJSON] = withHooks
	for path, data := range want {
		if *update {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(old, data) {
			t.Errorf("%s is stale or missing (run make plugin-hooks)", path)
		}
	}
	var extra []string
	filepath.WalkDir("hooks", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if _, ok := want[path]; !ok {
				extra = append(extra, path)
			}
		}
		return nil
	})
	for _, e := range extra {
		if *update {
			os.Remove(e)
			continue
		}
		t.Errorf("%s is not a file of the install (run make plugin-hooks)", e)
	}
	if *update {
		os.Remove(filepath.Join("hooks", "bands"))
	}
}

// TestVersionIsDefinedOnce checks that plugin.json holds the version and
// that the marketplace entry, the Makefile and buildinfo.Release agree
// with it.
func TestVersionIsDefinedOnce(t *testing.T) {
	var plugin struct{ Name, Version string }
	readJSON(t, filepath.Join(".claude-plugin", "plugin.json"), &plugin)
	if plugin.Name != "hookwright" || plugin.Version == "" {
		t.Fatalf("plugin.json: name %q version %q, want hookwright and a version", plugin.Name, plugin.Version)
	}
	if buildinfo.Release != plugin.Version {
		t.Errorf("buildinfo.Release = %q, plugin.json's version is %q: hookgen new would require another release of the module", buildinfo.Release, plugin.Version)
	}
	var market struct {
		Name    string
		Owner   struct{ Name string }
		Plugins []struct{ Name, Source, Version string }
	}
	readJSON(t, filepath.Join("..", ".claude-plugin", "marketplace.json"), &market)
	if market.Name == "" || market.Owner.Name == "" || len(market.Plugins) != 1 {
		t.Fatalf("marketplace.json: want a name, an owner and one plugin, got %+v", market)
	}
	if p := market.Plugins[0]; p.Name != plugin.Name || p.Source != "./plugin" || p.Version != plugin.Version {
		t.Errorf("marketplace.json plugin = %+v, want name %s, source ./plugin, version %s (from plugin.json)", p, plugin.Name, plugin.Version)
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	out, err := exec.Command("make", "-s", "-C", "..", "version").Output()
	if err != nil {
		t.Fatalf("make version: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != plugin.Version {
		t.Errorf("make version = %q, want %q: the Makefile no longer reads plugin.json", got, plugin.Version)
	}
}

// TestHooksCallTheLauncher checks every command of every shipped hooks
// file: the direct form (manifests.DirectForm) of the launcher called by
// its quoted ${CLAUDE_PLUGIN_ROOT} path, so a space in the path (a Windows
// user name) cannot split it, and one POSIX shell line that every release
// runs through sh -c. No file uses the exec form ("args"), which releases
// before 2.1.139 drop.
func TestHooksCallTheLauncher(t *testing.T) {
	in, err := manifests.BuildInstall(manifests.Hookwright(), hooks.Release{})
	if err != nil {
		t.Fatal(err)
	}
	const program = `"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" `
	for _, f := range in.Files {
		var m struct {
			Hooks map[string][]struct {
				Hooks []map[string]any
			}
		}
		readJSON(t, filepath.FromSlash(f.Path), &m)
		for ev, groups := range m.Hooks {
			for _, g := range groups {
				for _, h := range g.Hooks {
					cmd, _ := h["command"].(string)
					call, ok := manifests.LauncherCall(cmd)
					switch {
					case h["args"] != nil:
						t.Errorf("%s: %s has args, which releases before 2.1.139 drop", f.Path, ev)
					case !ok || !strings.HasPrefix(call, program):
						t.Errorf("%s: %s command %q is not the direct form of the quoted launcher", f.Path, ev, cmd)
					}
				}
			}
		}
	}
}

// launcherCopy copies the launcher into a folder whose path has a space and
// returns the launcher's path.
func launcherCopy(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the launcher is tested under sh on unix; Git Bash runs the same script")
	}
	dir := filepath.Join(t.TempDir(), "with space", "bin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("bin", "hookwright"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "hookwright")
	if err := os.WriteFile(path, src, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// hostBinary is the launcher's name for this platform's binary.
func hostBinary() string {
	name := "hookwright-" + runtime.GOOS + "-" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return name
}

// TestLauncherMissingBinaryIsVisible runs the launcher the way Claude Code
// does (sh -c with the quoted path) with no binary beside it: it must say so
// on stdout as a systemMessage and on stderr, and exit 0.
func TestLauncherMissingBinaryIsVisible(t *testing.T) {
	launcher := launcherCopy(t)
	cmd := exec.Command("sh", "-c", `"`+launcher+`" PreToolUse`)
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse"}`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("launcher exited with %v, want 0 (non-blocking); stderr: %s", err, stderr.String())
	}
	var out struct{ SystemMessage string }
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("stdout %q is not JSON: %v", stdout.String(), err)
	}
	wantPath := filepath.Join(filepath.Dir(launcher), hostBinary())
	want := "hookwright: no binary for " + runtime.GOOS + "/" + runtime.GOARCH + " at " + wantPath + "; run make plugin or reinstall"
	if out.SystemMessage != want {
		t.Errorf("systemMessage = %q, want %q", out.SystemMessage, want)
	}
	if strings.TrimSpace(stderr.String()) != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
}

// TestLauncherExecsTheBinary builds the runtime next to a launcher in a
// path with a space and checks that arguments and stdin reach it and its
// exit code comes back (the guard blocks a force push with exit 2).
func TestLauncherExecsTheBinary(t *testing.T) {
	launcher := launcherCopy(t)
	testkit.BuildTo(t, "github.com/hookwright/hookwright/cmd/hookwright", filepath.Join(filepath.Dir(launcher), hostBinary()), testkit.Options{})
	project := t.TempDir()
	in := `{"session_id":"s","transcript_path":"/nonexistent","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"},"tool_use_id":"t1"}`
	cmd := exec.Command("sh", "-c", `"`+launcher+`" PreToolUse`)
	cmd.Stdin = strings.NewReader(in)
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+project)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 2 {
		t.Fatalf("exit %d (%v), want 2 (blocked); stderr: %s", code, err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "hookwright guard:") {
		t.Errorf("stderr = %q, want the guard's reason", stderr.String())
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestLauncherPlatformNames checks the names the launcher maps each
// platform to, as bash reports it in $OSTYPE and $HOSTTYPE (macOS /bin/sh,
// Git Bash on Windows). dash reads the variables from the environment, so
// each platform can be faked; the missing binary's message names it.
func TestLauncherPlatformNames(t *testing.T) {
	if _, err := exec.LookPath("dash"); err != nil {
		t.Skip("no dash to fake other platforms with")
	}
	launcher := launcherCopy(t)
	for _, c := range []struct{ ostype, hosttype, platform, file string }{
		{"msys", "x86_64", "windows/amd64", "hookwright-windows-amd64.exe"},
		{"cygwin", "aarch64", "windows/arm64", "hookwright-windows-arm64.exe"},
		{"darwin23", "arm64", "darwin/arm64", "hookwright-darwin-arm64"},
		{"darwin19.0", "x86_64", "darwin/amd64", "hookwright-darwin-amd64"},
		{"linux-gnu", "aarch64", "linux/arm64", "hookwright-linux-arm64"},
	} {
		cmd := exec.Command("dash", launcher, "Stop")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "OSTYPE=" + c.ostype, "HOSTTYPE=" + c.hosttype}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", c.platform, err)
		}
		want := "no binary for " + c.platform + " at " + filepath.Join(filepath.Dir(launcher), c.file) + ";"
		if !strings.Contains(string(out), want) {
			t.Errorf("OSTYPE=%s HOSTTYPE=%s: stdout %q, want it to contain %q", c.ostype, c.hosttype, out, want)
		}
	}
}
