// Package plugin_test checks the installable plugin tree: that its
// manifests are the generator's current output, that every place naming the
// version agrees with plugin.json, and that the launcher picks a binary or
// says visibly that none fits.
//
// go test ./plugin -run TestManifests -update (or make plugin-hooks)
// rewrites hooks/hooks.json and hooks/bands/*.json.
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

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/internal/runtime/native"
	"github.com/hookwright/hookwright/manifests"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/testkit"
)

func TestMain(m *testing.M) { os.Exit(testkit.Main(m)) }

var update = flag.Bool("update", false, "rewrite hooks/hooks.json and hooks/bands/*.json")

// floor is the band of the manifest the plugin ships as hooks/hooks.json:
// it loads on every release with plugins.
const floor = compat.PluginFloor

// TestManifestsAreCurrent keeps hooks/hooks.json (the floor band) and one
// hooks/bands/<edge>.json per band equal to what hookgen generates.
func TestManifestsAreCurrent(t *testing.T) {
	want := map[string][]byte{}
	for _, band := range compat.Bands() {
		got, err := manifests.Generate(manifests.Hookwright(), band)
		if err != nil {
			t.Fatalf("band %s: %v", band, err)
		}
		want[filepath.Join("hooks", "bands", band.String()+".json")] = got
		if band.String() == floor {
			want[filepath.Join("hooks", "hooks.json")] = got
		}
	}
	if _, ok := want[filepath.Join("hooks", "hooks.json")]; !ok {
		t.Fatalf("the floor %s is not a band", floor)
	}
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
	extra, _ := filepath.Glob(filepath.Join("hooks", "bands", "*.json"))
	for _, e := range extra {
		if _, ok := want[e]; ok {
			continue
		}
		if *update {
			os.Remove(e)
			continue
		}
		t.Errorf("%s belongs to no band (run make plugin-hooks)", e)
	}
}

// TestVersionIsDefinedOnce checks that plugin.json holds the version and
// that the marketplace entry and the Makefile agree with it.
func TestVersionIsDefinedOnce(t *testing.T) {
	var plugin struct{ Name, Version string }
	readJSON(t, filepath.Join(".claude-plugin", "plugin.json"), &plugin)
	if plugin.Name != "hookwright" || plugin.Version == "" {
		t.Fatalf("plugin.json: name %q version %q, want hookwright and a version", plugin.Name, plugin.Version)
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

// TestHooksCallTheLauncher checks every command in every shipped manifest
// runs the launcher by its ${CLAUDE_PLUGIN_ROOT} path: quoted in a shell
// command, so a space in the path (a Windows user name) cannot split it,
// or as the program of the exec form (no shell, from 2.1.139), with the
// event in args. The shipped hooks/hooks.json is the floor's shell form:
// before the first hook runs, nobody knows the platform.
func TestHooksCallTheLauncher(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("hooks", "bands", "*.json"))
	files = append(files, filepath.Join("hooks", "hooks.json"))
	const program = "${CLAUDE_PLUGIN_ROOT}/bin/hookwright"
	execSince, _ := hooks.ParseRelease("2.1.139")
	for _, f := range files {
		var m struct {
			Hooks map[string][]struct {
				Hooks []struct {
					Command string
					Args    []string
				}
			}
		}
		readJSON(t, f, &m)
		band, _ := hooks.ParseRelease(strings.TrimSuffix(filepath.Base(f), ".json"))
		exec := !band.IsZero() && !band.Less(execSince)
		for ev, groups := range m.Hooks {
			for _, g := range groups {
				for _, h := range g.Hooks {
					switch {
					case exec && (h.Command != program || len(h.Args) == 0):
						t.Errorf("%s: %s is %q %q, want the exec form with program %s", f, ev, h.Command, h.Args, program)
					case !exec && (!strings.HasPrefix(h.Command, `"`+program+`" `) || h.Args != nil):
						t.Errorf("%s: %s command %q does not start with the quoted %s", f, ev, h.Command, program)
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

// TestSwitchMarkerIsIgnored: the native switch writes its marker inside
// the installed plugin; a clone of the release branch used as a folder
// marketplace must not show it in git status (or stop a git pull over it),
// so the plugin's own .gitignore names it.
func TestSwitchMarkerIsIgnored(t *testing.T) {
	dir, name := filepath.Split(filepath.FromSlash(native.MarkerFile))
	data, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		t.Fatalf("no .gitignore next to the marker %s: %v", native.MarkerFile, err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == name {
			return
		}
	}
	t.Errorf("%s.gitignore does not list %s:\n%s", dir, name, data)
}
