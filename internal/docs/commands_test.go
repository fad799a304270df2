package docs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// notRun lists the commands the docs show that this test does not run,
// each with the reason: they need the network beyond the package
// registries, a Claude Code session with a model, a release built first,
// or they would rewrite the repository. A command the docs show that is
// neither run nor listed here fails TestDocCommands: a new page must show
// commands that run, or list them here with the reason.
var notRun = map[string]string{
	"git clone https://github.com/hookwright/hookwright && cd hookwright": "needs GitHub; TestQuickStart walks the quick start from a local clone",
	"make demo KEEP=1": "TestQuickStart runs it on a fresh clone",
	"go run ./cmd/hwctl serve --dir /tmp/hookwright-demo-4229173204": "the folder is the one the demo prints; TestQuickStart serves the printed one and opens it in Chromium",
	"make release": "builds every platform's binaries (minutes); internal/live TestReleaseFetchesTheTools builds and uses a release",
	"git clone -b release . ../hookwright-release":                "clones the release branch make release made; internal/live TestPluginMarketplaceInstall installs from such a clone",
	"claude plugin marketplace add ../hookwright-release":         "needs Claude Code; internal/live TestPluginMarketplaceInstall runs it with a real release",
	"claude plugin install hookwright@hookwright":                 "needs Claude Code; internal/live TestPluginMarketplaceInstall runs it with a real release",
	"claude plugin marketplace add hookwright/hookwright#release": "needs GitHub and a published release",
	"go install ./cmd/hwctl ./cmd/hookgen":                        "writes into the user's GOPATH; plugin TestLauncherAdviceWorks runs go install ./cmd/<tool> into a scratch GOBIN",
	"go install ./cmd/hookgen ./cmd/hwctl":                        "writes into the user's GOPATH; plugin TestLauncherAdviceWorks runs go install ./cmd/<tool> into a scratch GOBIN",
	"make demo":                                                   "a live Claude Code session; TestQuickStart runs make demo KEEP=1, cmd/hwdemo TestKeepEndsWithTheServeCommand the same program",
	"make test":                                                   "every test of the repository, this one included: it is CI itself",
	"go generate ./...":                                           "rewrites generated files in the repository; hooks TestTableIsCurrent checks they are current",
	"sha256sum -c --ignore-missing SHA256SUMS":                    "needs a release's download folder; internal/live TestReleaseFetchesTheTools checks the sums",
	"hookgen doctor":                                              "needs an installed plugin and Claude Code; internal/live TestOneInstallEveryRelease runs doctor on every release it installs",
	"cd deliverables && make test && make plugin && claude --plugin-dir plugin": "builds a new Go plugin against a published hookwright, then a Claude Code session; cmd/hookgen TestNewPluginsAgree runs make test and make plugin in one made with --replace, internal/live TestNewPluginsOnRealReleases installs it into real releases",
	"cd deliverables-js && npm install && npm test && claude --plugin-dir .":    "installs the unpublished npm package hookgen, then a Claude Code session; cmd/hookgen TestNewPluginsAgree runs npm install and npm test in one made with --hookgen-npm, internal/live TestNewPluginsOnRealReleases installs it into real releases",
	"hookgen new go deliverables --replace ../hookwright":                       "needs a clone of hookwright at ../hookwright; cmd/hookgen TestNewPluginsAgree runs hookgen new go --replace with this checkout",
	"hookgen new js deliverables-js --hookgen-npm ../hookwright/dist/npm":       "needs make npm's output in a clone at ../hookwright; cmd/hookgen TestNewPluginsAgree runs hookgen new js --hookgen-npm with the packages built from this checkout",
	"make -C deliverables release":                                              "builds six platforms (and needs a published hookwright or --replace); cmd/hookgen TestNewGoReleaseIsReproducible runs make release in a new plugin twice and compares the bytes",
}

// expect is the exit code of a command that is run and does not exit 0,
// with the reason; several codes when another branch of this round changes
// what it answers.
var expect = map[string][]int{
	// No collector listens on 127.0.0.1:4317 here: the page says it exits 3.
	"hwctl export otlp": {3},
	// The fixture's plugin has no built runtime: compat reports the cases
	// that need one as failed (1) or, where it tells a fresh clone apart, as
	// skipped (0).
	"hookgen compat plugin --spec manifests/hookwright.spec.json": {0, 1},
}

// cwd is where a command runs, relative to the fixture, when not at its
// root.
var cwd = map[string]string{
	"hookgen validate .": "plugin",
}

// longRunning reports whether c keeps running until it is stopped (a
// server, a follower, the terminal view): it passes when it is still
// running after a few seconds.
func longRunning(c string) bool {
	return strings.Contains(c, " --follow") || strings.HasPrefix(c, "hwctl serve") || c == "hwctl dashboard"
}

// tools builds hookwright, hookgen and hwctl once, into one folder.
var tools = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "hookwright-docs-bin-")
	if err != nil {
		return "", err
	}
	for _, tool := range []string{"hookwright", "hookgen", "hwctl"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, tool), "./cmd/"+tool)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build ./cmd/%s: %v\n%s", tool, err, out)
		}
	}
	return dir, nil
})

// fixture is a project as the docs' commands expect one: a git repository
// whose hooks ran (a journal the built hookwright wrote: a session
// 7c1e9a40-…, a force push blocked, a branch delete asked about), with a
// copy of the plugin folder, the handler spec, a hooks.json, a spec of
// its own and the marketplace file.
func fixture(t *testing.T, bin, home string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "project")
	copyTree(t, filepath.Join(root, "plugin"), filepath.Join(dir, "plugin"), func(rel string) bool {
		base := filepath.Base(rel)
		return strings.HasSuffix(rel, "_test.go") || (strings.HasPrefix(base, "hookwright-") || strings.HasPrefix(base, "hookgen-") || strings.HasPrefix(base, "hwctl-"))
	})
	copyTree(t, filepath.Join(root, ".claude-plugin"), filepath.Join(dir, ".claude-plugin"), nil)
	copyFile(t, filepath.Join(root, "manifests", "hookwright.spec.json"), filepath.Join(dir, "manifests", "hookwright.spec.json"))
	copyFile(t, filepath.Join(root, "plugin", "hooks", "hooks.json"), filepath.Join(dir, "hooks.json"))
	writeFile(t, filepath.Join(dir, "my.spec.json"), `{"handlers":[{"event":"TeammateIdle","command":"node \"${CLAUDE_PLUGIN_ROOT}/scripts/idle.js\"","timeout":30}]}`)
	git := exec.Command("git", "init", "-q", dir)
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	session := "7c1e9a40-aaaa-4bbb-8ccc-000000000001"
	for _, call := range []struct{ event, input string }{
		{"SessionStart", `{"session_id":"` + session + `","hook_event_name":"SessionStart","source":"startup"}`},
		{"PreToolUse", `{"session_id":"` + session + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}`},
		{"PreToolUse", `{"session_id":"` + session + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git branch -D old"}}`},
		{"PreToolUse", `{"session_id":"` + session + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"terraform plan"}}`},
		{"Stop", `{"session_id":"` + session + `","hook_event_name":"Stop","stop_hook_active":false}`},
	} {
		cmd := exec.Command("sh", "-c", `"$HW" `+call.event+` --proto 2.1.33`)
		cmd.Dir = dir
		cmd.Env = []string{"HW=" + filepath.Join(bin, "hookwright"), "PATH=" + os.Getenv("PATH"), "HOME=" + home, "CLAUDE_PROJECT_DIR=" + dir}
		cmd.Stdin = strings.NewReader(call.input)
		_ = cmd.Run() // the force push exits 2
	}
	if j, _ := filepath.Glob(filepath.Join(dir, ".hookwright", "journal", "*.jsonl")); len(j) == 0 {
		t.Fatal("the fixture's hook calls wrote no journal")
	}
	return dir
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(from)
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, info.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, from, to string, skip func(rel string) bool) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if skip != nil && rel != "." && skip(rel) {
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		copyFile(t, p, filepath.Join(to, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// goTest checks a listed go test command against the code: its packages
// exist and its -run pattern names at least one test in them.
func goTest(t *testing.T, c Command) {
	words := strings.Fields(strings.ReplaceAll(c.Text, "'", ""))
	var pkgs []string
	run := ""
	for i := 2; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-run" && i+1 < len(words):
			run = words[i+1]
			i++
		case strings.HasPrefix(w, "./"):
			pkgs = append(pkgs, strings.TrimSuffix(w, "/..."))
		case strings.HasPrefix(w, "-") && !strings.Contains(w, "=") && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") && !strings.HasPrefix(words[i+1], "./") &&
			slices.Contains([]string{"-release", "-timeout", "-edge", "-screenshots", "-bench", "-benchtime"}, w):
			i++
		}
	}
	if len(pkgs) == 0 {
		t.Errorf("%s:%d: %q names no package", c.File, c.Line, c.Text)
		return
	}
	var tests []string
	for _, p := range pkgs {
		files, _ := filepath.Glob(filepath.Join(root, p, "*_test.go"))
		if len(files) == 0 && p != "." {
			t.Errorf("%s:%d: %q: %s has no tests", c.File, c.Line, c.Text, p)
		}
		for _, f := range files {
			b, _ := os.ReadFile(f)
			for _, m := range regexp.MustCompile(`(?m)^func (Test\w*)\(`).FindAllStringSubmatch(string(b), -1) {
				tests = append(tests, m[1])
			}
		}
	}
	if run == "" {
		return
	}
	re, err := regexp.Compile(strings.Split(run, "/")[0])
	if err != nil {
		t.Errorf("%s:%d: -run %q: %v", c.File, c.Line, run, err)
		return
	}
	for _, name := range tests {
		if re.MatchString(name) {
			return
		}
	}
	t.Errorf("%s:%d: %q: -run %s names no test in %v", c.File, c.Line, c.Text, run, pkgs)
}

// TestDocCommands runs every command the README, CONTRIBUTING.md and
// docs/*.md show, as a reader would: hwctl and hookgen (built from this
// tree, first on PATH) in a project whose hooks ran, go run at the
// repository, each page in a fresh project and a fresh HOME, the
// commands of a block in order with the block's exports and cd. Each must
// exit 0 (or as expect says); a server or a follower must still be running
// after a few seconds. A go test command is checked, not run: its
// packages exist and its -run pattern names a test. Any other command must
// be listed in notRun with the reason.
func TestDocCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tools and runs every command of the docs; skipped with -short")
	}
	bin, err := tools()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, page := range pages(t) {
		cmds := commands(t, page)
		if len(cmds) == 0 {
			continue
		}
		t.Run(page, func(t *testing.T) {
			home := t.TempDir()
			project := fixture(t, bin, home)
			env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home,
				"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
				"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "GOCACHE=" + goEnv(t, "GOCACHE"), "GOMODCACHE=" + goEnv(t, "GOMODCACHE"),
				"GOFLAGS=-buildvcs=false", "TERM=dumb"}
			for _, c := range cmds {
				seen[c.Text] = true
				switch {
				case strings.HasPrefix(c.Text, "export "):
					env = append(env, strings.Fields(strings.TrimPrefix(c.Text, "export "))...)
				case notRun[c.Text] != "":
					t.Logf("%s:%d: not run (%s): %s", c.File, c.Line, notRun[c.Text], c.Text)
				case strings.HasPrefix(c.Text, "go test "):
					goTest(t, c)
				case strings.HasPrefix(c.Text, "hwctl ") || strings.HasPrefix(c.Text, "hookgen ") || c.Text == "hookgen" || c.Text == "hwctl":
					runDoc(t, c, filepath.Join(project, cwd[c.Text]), env)
				case strings.HasPrefix(c.Text, "go run ./cmd/"):
					runDoc(t, c, root, env)
				default:
					t.Errorf("%s:%d: the docs show %q, which this test neither runs nor lists: make it a command that runs here (hwctl, hookgen, go run ./cmd/..., go test), or add it to notRun in internal/docs/commands_test.go with the reason it cannot run", c.File, c.Line, c.Text)
				}
			}
		})
	}
	for c := range notRun {
		if !seen[c] {
			t.Errorf("notRun lists %q, which no page shows any more: remove it", c)
		}
	}
	for c := range expect {
		if !seen[c] {
			t.Errorf("expect lists %q, which no page shows any more: remove it", c)
		}
	}
}

func goEnv(t *testing.T, key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// runDoc runs one command through sh in dir with env.
func runDoc(t *testing.T, c Command, dir string, env []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", c.Text)
	cmd.Dir, cmd.Env = dir, env
	// Its own process group, ended whole: sh does not exec the command
	// it runs, and a server must not outlive the test.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if longRunning(c.Text) {
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			t.Errorf("%s:%d: %q should keep running, but ended: %v\n%s", c.File, c.Line, c.Text, err, out.String())
		case <-time.After(3 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
			t.Logf("%s:%d: ran for 3 s: %s", c.File, c.Line, c.Text)
		}
		return
	}
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s:%d: %q: %v", c.File, c.Line, c.Text, err)
	}
	want := expect[c.Text]
	if want == nil {
		want = []int{0}
	}
	if !slices.Contains(want, code) {
		t.Errorf("%s:%d: %q exited %d, want %v:\n%s", c.File, c.Line, c.Text, code, want, out.String())
		return
	}
	t.Logf("%s:%d: exit %d: %s", c.File, c.Line, code, c.Text)
}
