package live

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/doctor"
	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// readFileT returns a file's text or fails t.
func readFileT(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// cloneRelease copies the release clone (a git clone of the release
// branch, .git included), so a test that installs from it owns its copy.
func cloneRelease(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "hookwright-release")
	if out, err := execCombined("cp", "-R", buildRelease(t), dst); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	return dst
}

// execCombined runs a command and returns its combined output.
func execCombined(name string, args ...string) ([]byte, error) {
	return exec.Command(name, args...).CombinedOutput()
}

// platform is this machine's suffix in a plugin's bin/.
func platform() string {
	p := runtime.GOOS + "-" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		p += ".exe"
	}
	return p
}

// releasedRuntime is the path of the runtime a release's launcher unpacks
// for this machine in the plugin folder root:
// bin/hookwright-<version>-<os>-<arch>.
func releasedRuntime(t *testing.T, root string) string {
	t.Helper()
	var meta struct{ Version string }
	if err := json.Unmarshal([]byte(readFileT(t, filepath.Join(root, ".claude-plugin", "plugin.json"))), &meta); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "bin", "hookwright-"+meta.Version+"-"+platform())
}

// floorHooks is the number of handlers in the release's hooks/hooks.json:
// every release from the floor registers at least these.
func floorHooks(t *testing.T, rel string) int {
	t.Helper()
	var m struct {
		Hooks map[string][]struct{ Hooks []json.RawMessage }
	}
	if err := json.Unmarshal([]byte(readFileT(t, filepath.Join(rel, "plugin", "hooks", "hooks.json"))), &m); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, groups := range m.Hooks {
		for _, g := range groups {
			n += len(g.Hooks)
		}
	}
	return n
}

// ensureInstalled adds the release clone as a folder marketplace and
// installs the plugin with claude (one release) in home, the way a user
// does once per Claude Code they run; a marketplace or plugin that
// another release already added is fine.
func ensureInstalled(t *testing.T, claude, home, rel string) {
	t.Helper()
	for _, args := range [][]string{
		{"plugin", "marketplace", "add", rel},
		{"plugin", "install", "hookwright@" + marketplace},
	} {
		cmd := exec.Command(claude, args...)
		cmd.Dir, cmd.Env = home, baseEnv(home)
		out, err := cmd.CombinedOutput()
		low := strings.ToLower(string(out))
		if err != nil && !strings.Contains(low, "already") {
			t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// taskScript forces a push (with a marker command chained before it,
// which must never run), then completes a task whose deliverables are
// missing, as a teammate: the artifact gate must act on the completion
// once, natively where the release fires TaskCompleted and through the
// PostToolUse fallback where it does not.
var taskScript = modelapi.Script{
	bash("touch ran.marker && git push --force origin main"),
	modelapi.ToolUse("TaskCreate", map[string]any{"subject": "[Do] parser: write it", "description": "parse the config", "activeForm": "Writing the parser"}),
	modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"}),
	modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),
}

// TestOneInstallEveryRelease is the install's promise, live: one plugin
// folder, installed once per release in one HOME from a folder marketplace
// that is a git clone of the release branch (2.0.30 and 2.1.101+ run it in
// place, 2.1.33-2.1.100 copy it into the plugin cache), read by releases on
// both sides of every edge in alternating order, twice, and by two
// releases at the same moment. In every session the loader registers at
// least hooks/hooks.json's hooks, the guard blocks a force push whose
// chained marker never runs, and a task completed without its deliverables
// is gated once. Afterwards the clone is as the release made it, a git pull
// of a newer release needs no manual step, and hookgen doctor passes on
// every release used.
func TestOneInstallEveryRelease(t *testing.T) {
	Available(t)
	const (
		oldest   = "2.0.30"
		fallback = "2.1.32" // Task tools, no native TaskCompleted
		native   = "2.1.33"
		strict   = "2.1.252" // the last release that refuses a file whole
	)
	newest := spineVersions[len(spineVersions)-1]
	all := []string{oldest, fallback, native, strict, newest}
	claude := map[string]string{}
	for _, v := range all {
		claude[v] = installT(t, v)
	}
	rel := cloneRelease(t)
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, v := range all {
		ensureInstalled(t, claude[v], home, rel)
	}
	floor := floorHooks(t, rel)
	project := filepath.Join(t.TempDir(), "project")
	if err := os.MkdirAll(filepath.Join(project, ".agent", "teams", "core"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".agent", "teams", "core", "README.md"), []byte("team folder\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	teamEnv := []string{"CLAUDE_CODE_ENABLE_TASKS=1", "CLAUDE_CODE_TEAM_NAME=core", "CLAUDE_CODE_AGENT_NAME=alice"}
	var mu sync.Mutex // sessions share the project: one journal reader at a time
	run := func(t *testing.T, v string) {
		t.Helper()
		script, tools := forcePush, []string{"Bash"}
		tasks := !hooks.MustRelease(v).Less(hooks.MustRelease("2.1.16"))
		if tasks {
			script, tools = taskScript, []string{"Bash", "TaskCreate", "TaskUpdate"}
		}
		os.Remove(filepath.Join(project, "ran.marker"))
		// One debug log per session: the HOME is shared, and the loader's
		// summary line must be this session's.
		if err := os.RemoveAll(filepath.Join(home, ".claude", "debug")); err != nil {
			t.Fatal(err)
		}
		srv, res := session(t, claude[v], script, sessionOpts{home: home, dir: project, tools: tools, env: teamEnv})
		if StandardFileRefused(res.DebugLog) {
			t.Errorf("%s refused hooks/hooks.json:\n%s", v, loadLines(res.DebugLog))
		}
		n, ok := RegisteredHooks(res.DebugLog)
		if !ok || n < floor {
			t.Errorf("%s: RegisteredHooks = %d, %v; want at least hooks/hooks.json's %d", v, n, ok, floor)
		}
		t.Logf("%s registered %d hooks (hooks/hooks.json has %d)", v, n, floor)
		if want := map[bool]int{true: floor + 4, false: floor}[!hooks.MustRelease(v).Less(hooks.MustRelease(native))]; n != want && v != fallback {
			t.Errorf("%s registered %d hooks, want %d: every file it accepts", v, n, want)
		}
		got, ok := srv.ToolResultFor(0)
		if !ok || !got.IsError || !strings.Contains(got.Content, guardPrefix) {
			t.Errorf("%s: tool_result = %+v (found %v), want the guard's block", v, got, ok)
		}
		if _, err := os.Stat(filepath.Join(project, "ran.marker")); err == nil {
			t.Errorf("%s: ran.marker exists: the blocked command ran", v)
		}
		if !tasks {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		entries, _, err := journal.ReadAll(project)
		if err != nil {
			t.Fatal(err)
		}
		session := sessionOf(entries, res)
		var gated []string
		for _, e := range entries {
			if e.Session == session && e.Event == "TaskCompleted" && e.Decision == "block" {
				gated = append(gated, e.Event+" via "+e.Via)
			}
		}
		want := "TaskCompleted via " // native: no --via
		if hooks.MustRelease(v).Less(hooks.MustRelease(native)) {
			want = "TaskCompleted via PostToolUse"
		}
		t.Logf("%s gated the completion as %q", v, gated)
		if len(gated) != 1 || gated[0] != want {
			t.Errorf("%s: the completion was gated as %q, want once as %q", v, gated, want)
		}
	}
	order := []string{oldest, newest, fallback, strict, native, oldest, newest, fallback}
	for round := 1; round <= 2; round++ {
		for i, v := range order {
			t.Run(fmt.Sprintf("round%d/%02d-%s", round, i, v), func(t *testing.T) { run(t, v) })
		}
		// the other way round the second time
		for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
			order[i], order[j] = order[j], order[i]
		}
	}
	t.Run("at the same moment", func(t *testing.T) {
		if err := os.RemoveAll(filepath.Join(home, ".claude", "debug")); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var logs [2]string
		for i, v := range []string{oldest, newest} {
			wg.Go(func() {
				srv, res := session(t, claude[v], forcePush, sessionOpts{home: home, dir: t.TempDir()})
				logs[i] = res.DebugLog
				if got, ok := srv.ToolResultFor(0); !ok || !strings.Contains(got.Content, guardPrefix) {
					t.Errorf("%s: tool_result = %+v, want the guard's block", v, got)
				}
			})
		}
		wg.Wait()
		// Both sessions wrote their debug logs into the one HOME: each
		// one's summary line must count at least the floor's hooks.
		counts := registeredCounts(logs[0] + logs[1])
		if len(counts) < 2 {
			t.Fatalf("want two sessions' Registered lines, got %v", counts)
		}
		for _, n := range counts {
			if n < floor {
				t.Errorf("a session registered %d hooks, want at least %d (all: %v)", n, floor, counts)
			}
		}
		t.Logf("the two sessions registered %v hooks", counts)
	})
	t.Run("the clone is as released", func(t *testing.T) {
		out, err := exec.Command("git", "-C", rel, "status", "--porcelain").CombinedOutput()
		if err != nil || len(strings.TrimSpace(string(out))) != 0 {
			t.Errorf("git status in the release clone after every session: %v\n%s", err, out)
		}
		if _, err := os.Stat(releasedRuntime(t, filepath.Join(rel, "plugin"))); err != nil {
			t.Errorf("the releases that run the clone in place unpacked no runtime there: %v", err)
		}
	})
	t.Run("doctor on every release", func(t *testing.T) {
		for _, v := range all {
			root, _ := doctor.PluginRoot(home, hooks.MustRelease(v))
			r := doctor.Run(doctor.Options{Version: hooks.MustRelease(v), VersionHow: "test", PluginRoot: root, Project: project, Releases: []hooks.Release{hooks.MustRelease(oldest), hooks.MustRelease(newest)}})
			var b strings.Builder
			r.Write(&b)
			if !r.OK() {
				t.Errorf("doctor for %s (plugin at %s):\n%s", v, root, b.String())
			}
		}
	})
	t.Run("git pull of a newer release", func(t *testing.T) {
		newer := newerRelease(t, rel)
		out, err := exec.Command("git", "-C", rel, "pull", "-q", newer, "release").CombinedOutput()
		if err != nil {
			t.Fatalf("git pull of a newer release: %v\n%s", err, out)
		}
		srv, res := session(t, claude[newest], forcePush, sessionOpts{home: home, dir: t.TempDir()})
		requireGuardFired(t, srv, res)
		root := filepath.Join(rel, "plugin")
		if _, err := os.Stat(releasedRuntime(t, root)); err != nil {
			t.Errorf("the newer release's runtime was not unpacked: %v", err)
		}
		if old, _ := filepath.Glob(filepath.Join(root, "bin", "hookwright-0.1.0-*")); len(old) != 0 {
			t.Errorf("the older release's runtime is still there: %v", old)
		}
		if out, _ := exec.Command("git", "-C", rel, "status", "--porcelain").CombinedOutput(); len(strings.TrimSpace(string(out))) != 0 {
			t.Errorf("git status after the update's first session:\n%s", out)
		}
		// The releases' own update: the marketplace re-read and the plugin
		// updated (2.1.33 copies the new version into its cache), then a
		// marketplace removed and added again; every release still loads
		// the floor's hooks and blocks.
		for _, v := range []string{native, newest} {
			cli := func(args ...string) {
				cmd := exec.Command(claude[v], args...)
				cmd.Dir, cmd.Env = home, baseEnv(home)
				if out, err := cmd.CombinedOutput(); err != nil && !strings.Contains(strings.ToLower(string(out)), "already") {
					t.Errorf("%s: claude %s: %v\n%s", v, strings.Join(args, " "), err, out)
				}
			}
			cli("plugin", "marketplace", "update", marketplace)
			cli("plugin", "update", "hookwright@"+marketplace)
			if v == newest {
				cli("plugin", "marketplace", "remove", marketplace)
				cli("plugin", "marketplace", "add", rel)
				cli("plugin", "install", "hookwright@"+marketplace)
			}
		}
		for _, v := range all {
			os.RemoveAll(filepath.Join(home, ".claude", "debug"))
			srv, res := session(t, claude[v], forcePush, sessionOpts{home: home, dir: t.TempDir()})
			if n, ok := RegisteredHooks(res.DebugLog); !ok || n < floor {
				t.Errorf("%s after the update: RegisteredHooks = %d, %v; want at least %d", v, n, ok, floor)
			}
			if got, ok := srv.ToolResultFor(0); !ok || !strings.Contains(got.Content, guardPrefix) {
				t.Errorf("%s after the update: tool_result = %+v, want the guard's block", v, got)
			}
			root, _ := doctor.PluginRoot(home, hooks.MustRelease(v))
			t.Logf("%s runs the updated plugin from %s", v, root)
		}
	})
}

// registeredCounts is N of every "Registered N hooks" line of a log.
func registeredCounts(log string) []int {
	var out []int
	for _, m := range registeredRE.FindAllStringSubmatch(log, -1) {
		var n int
		fmt.Sscan(m[1], &n)
		out = append(out, n)
	}
	return out
}

// sessionOf is the session id the runtime journaled for the session that
// just ran: the last SessionStart's.
func sessionOf(entries []journal.Entry, _ Result) string {
	id := ""
	for _, e := range entries {
		if e.Event == "SessionStart" {
			id = e.Session
		}
	}
	return id
}

// loadLines is the debug log's lines about loading hooks.
func loadLines(log string) string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "ook") && (strings.Contains(l, "oad") || strings.Contains(l, "egister")) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// newerRelease makes, in a copy of the release clone's origin, a newer
// release commit on the release branch: the version bumped, the runtimes
// renamed under it and SHA256SUMS with them, as make release would write
// for the next version with the same bytes. It returns the repository to
// pull from.
func newerRelease(t *testing.T, rel string) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "origin")
	for _, s := range [][]string{
		{"git", "clone", "-q", "-b", "release", rel, src},
	} {
		if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", s, err, out)
		}
	}
	plugin := filepath.Join(src, "plugin")
	pj := filepath.Join(plugin, ".claude-plugin", "plugin.json")
	data := strings.Replace(readFileT(t, pj), `"version": "0.1.0"`, `"version": "0.1.1"`, 1)
	if err := os.WriteFile(pj, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	gzs, _ := filepath.Glob(filepath.Join(plugin, "bin", "hookwright-0.1.0-*.gz"))
	if len(gzs) == 0 {
		t.Fatal("the release ships no hookwright-0.1.0-*.gz")
	}
	for _, gz := range gzs {
		out, err := exec.Command("git", "-C", src, "mv", gz, strings.Replace(gz, "hookwright-0.1.0-", "hookwright-0.1.1-", 1)).CombinedOutput()
		if err != nil {
			t.Fatalf("git mv: %v\n%s", err, out)
		}
	}
	sums := filepath.Join(plugin, "bin", "SHA256SUMS")
	if err := os.WriteFile(sums, []byte(strings.ReplaceAll(readFileT(t, sums), "hookwright-0.1.0-", "hookwright-0.1.1-")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range [][]string{
		{"git", "-C", src, "add", "-A"},
		{"git", "-C", src, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "hookwright 0.1.1"},
	} {
		if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", s, err, out)
		}
	}
	return src
}
