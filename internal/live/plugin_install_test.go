package live

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/doctor"
	"github.com/hookwright/hookwright/internal/modelapi"
)

// marketplace is the name in .claude-plugin/marketplace.json; the plugin
// installs as hookwright@hookwright.
const marketplace = "hookwright"

// claudeCLI runs a claude subcommand (plugin ...) with home as HOME and
// returns its combined output.
func claudeCLI(t *testing.T, claude, home string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, args...)
	cmd.Dir = home
	cmd.Env = baseEnv(home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// installFromMarketplace adds the release clone as a marketplace and
// installs the plugin from it, the way a user does, in a fresh HOME.
func installFromMarketplace(t *testing.T, claude, rel string) (home string) {
	t.Helper()
	home = filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	out := claudeCLI(t, claude, home, "plugin", "marketplace", "add", rel)
	if !strings.Contains(out, "Successfully added marketplace: "+marketplace) {
		t.Fatalf("marketplace add printed %q", out)
	}
	out = claudeCLI(t, claude, home, "plugin", "install", "hookwright@"+marketplace)
	if !strings.Contains(out, "Successfully installed plugin: hookwright@"+marketplace) {
		t.Fatalf("plugin install printed %q", out)
	}
	return home
}

// readHooksRE is the loader's line naming the hooks.json it read for
// the plugin: "Read hooks.json for plugin hookwright (enabled=true):
// <root>/hooks/hooks.json" (seen on 2.1.152+), "Loaded hooks from standard
// location for plugin hookwright: <root>/hooks/hooks.json" (seen on 2.1.105
// to 2.1.139).
var readHooksRE = regexp.MustCompile(`(?:Read hooks\.json|Loaded hooks from standard location) for plugin hookwright[^:\n]*: (.+)/hooks/hooks\.json`)

// installedRoot returns the folder the release runs the installed plugin
// from, as hookgen doctor finds it (internal/doctor.PluginRoot). Where the
// session's debug log names the hooks.json the loader read, the two must
// agree: some releases copy a folder marketplace's plugin to the cache,
// others run it in place.
func installedRoot(t *testing.T, home, release, debugLog string) string {
	t.Helper()
	root, how := doctor.PluginRoot(home, hooks.MustRelease(release))
	if root == "" {
		t.Fatalf("doctor finds no installed hookwright plugin under %s", home)
	}
	if m := readHooksRE.FindStringSubmatch(debugLog); m != nil {
		t.Logf("%s reads the plugin's hooks from %s", release, m[1])
		if filepath.Clean(m[1]) != filepath.Clean(root) {
			t.Errorf("doctor says %s runs the plugin from %s (%s), the loader read %s", release, root, how, m[1])
			return m[1]
		}
	} else {
		t.Logf("%s names no hooks.json path in its debug log; doctor says %s (%s)", release, root, how)
	}
	return root
}

// requireGuardFired checks the session's force push was blocked by the
// installed plugin's guard and the runtime wrote its journal.
func requireGuardFired(t *testing.T, srv *modelapi.Server, res Result) {
	t.Helper()
	if StandardFileRefused(res.DebugLog) {
		t.Fatalf("the loader refused the installed plugin's hooks/hooks.json")
	}
	got, ok := srv.ToolResultFor(0)
	if !ok || !got.IsError || !strings.Contains(got.Content, guardPrefix) {
		t.Errorf("tool_result = %+v (found %v), want the guard's block", got, ok)
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "ran.marker")); err == nil {
		t.Errorf("ran.marker exists: the blocked command ran")
	}
	if j, _ := filepath.Glob(filepath.Join(res.Dir, ".hookwright", "journal", "*.jsonl")); len(j) == 0 {
		t.Errorf("no journal under %s/.hookwright/journal", res.Dir)
	}
}

// TestPluginMarketplaceInstall proves the release a user gets from git
// installs with the real CLI (claude plugin marketplace add, claude plugin
// install) and that its hooks fire in the next claude -p session.
func TestPluginMarketplaceInstall(t *testing.T) {
	Available(t)
	for _, v := range spineVersions {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			// Each release gets its own clone: 2.0.30 and 2.1.330 run the
			// plugin in place, and its runtime switches the manifest there.
			rel := cloneRelease(t)
			claude := installT(t, v)
			home := installFromMarketplace(t, claude, rel)
			srv, res := session(t, claude, forcePush, sessionOpts{home: home})
			root := installedRoot(t, home, v, res.DebugLog)
			t.Logf("%s runs the installed plugin from %s", v, root)
			requireGuardFired(t, srv, res)
			requireLight(t, root)
			// The release's own hookgen (its launcher, fetching the
			// binary from the release's download files on 127.0.0.1, no
			// Go needed): doctor, right after the install, finds the
			// plugin where the release runs it, its binaries as shipped,
			// and nothing wrong.
			env := append(baseEnv(home), "HOOKWRIGHT_DOWNLOAD_URL="+serveDownloads(t, releaseDist(t)))
			hookgenDoctor := func() (string, error) {
				doctor := exec.Command(filepath.Join(rel, "plugin", "bin", "hookgen"), "doctor", "--cc-version", v)
				doctor.Dir, doctor.Env = res.Dir, env
				out, err := doctor.CombinedOutput()
				return string(out), err
			}
			out, err := hookgenDoctor()
			if err != nil || !strings.Contains(out, root) || !strings.Contains(out, "ok  sums") {
				t.Errorf("hookgen doctor after an install on %s: %v, want exit 0 naming %s and its sums ok:\n%s", v, err, root, out)
			}
			// One flipped byte of the installed runtime: doctor exits
			// non-zero and names the file.
			bin := releasedRuntime(t, root)
			flipByte(t, bin)
			out, err = hookgenDoctor()
			if err == nil || !strings.Contains(out, "BAD sums") || !strings.Contains(out, bin) {
				t.Errorf("hookgen doctor after a flipped byte of %s on %s: %v, want a non-zero exit naming it:\n%s", bin, v, err, out)
			}
			if n, ok := RegisteredHooks(res.DebugLog); !ok || n < 9 {
				t.Errorf("RegisteredHooks = %d, %v; want the plugin's 9 handlers at least", n, ok)
			}
		})
	}
}

// TestPluginValidate runs claude plugin validate on the plugin tree and the
// marketplace on the latest release.
func TestPluginValidate(t *testing.T) {
	Available(t)
	claude := installT(t, spineVersions[len(spineVersions)-1])
	root, _ := repoRoot()
	home := t.TempDir()
	for _, p := range []string{filepath.Join(root, "plugin"), root} {
		out := claudeCLI(t, claude, home, "plugin", "validate", p)
		if !strings.Contains(strings.ToLower(out), "validation passed") {
			t.Errorf("claude plugin validate %s printed %q, want it to pass", p, out)
		}
	}
}
