package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks/hookstest"
)

// The first run of a new plugin, as its author meets it: hookgen new in a
// folder outside this repository, then the commands its README gives.

// runIn runs name with args in dir with the test's environment plus env,
// and fails t with its output when it fails.
func runInDir(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// repoRoot is this checkout's folder.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// hostNpm builds hookgen's npm packages for this machine only (make npm's
// script, PLATFORMS set) into a temporary folder.
func hostNpm(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "npm")
	runInDir(t, repoRoot(t), []string{"PLATFORMS=" + runtime.GOOS + "/" + runtime.GOARCH}, "sh", "./cmd/hookgen/npm/build.sh", out, "0.1.0")
	return out
}

// newPlugins writes and builds both templates as the READMEs say: the Go
// one with this checkout as its hookwright (make test, make plugin), the
// JavaScript one with the npm packages built from this checkout, installed
// offline (npm install, npm test). It returns their folders.
func newPlugins(t *testing.T) (goDir, jsDir string) {
	t.Helper()
	_, npm := npmTools(t)
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	work := t.TempDir()
	goDir, jsDir = filepath.Join(work, "go-plugin"), filepath.Join(work, "js-plugin")
	if code, _, errb := newTree(t, "go", "deliverables", "--dir", goDir, "--replace", repoRoot(t)); code != exitOK {
		t.Fatalf("hookgen new go: %s", errb)
	}
	runInDir(t, goDir, nil, "make", "test")
	runInDir(t, goDir, nil, "make", "plugin")
	if code, _, errb := newTree(t, "js", "deliverables", "--dir", jsDir, "--hookgen-npm", hostNpm(t)); code != exitOK {
		t.Fatalf("hookgen new js: %s", errb)
	}
	cache := t.TempDir()
	npmEnv := []string{"npm_config_cache=" + cache, "npm_config_offline=true", "npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false"}
	runInDir(t, jsDir, npmEnv, npm, "install")
	runInDir(t, jsDir, npmEnv, npm, "test")
	return goDir, jsDir
}

// agreement is one call both plugins get.
type agreement struct {
	name, args, stdin string
	files             map[string]string
	links             map[string]string // project-relative name: target
	js                string            // the JavaScript hook's script
}

// TestNewPluginsAgree builds both templates and gives the Go binary (through
// its launcher) and the JavaScript hooks the same calls, as Claude Code
// runs them: they must answer alike, decision and reason, on every case
// of the gate and the guard, hostile paths included.
func TestNewPluginsAgree(t *testing.T) {
	goDir, jsDir := newPlugins(t)
	task := func(description string) string {
		var in map[string]any
		json.Unmarshal([]byte(hookstest.Recorded("2.1.33", "TaskCompleted").JSON), &in)
		in["task_description"] = description
		b, _ := json.Marshal(in)
		return string(b)
	}
	bash := func(toolInput string) string {
		var in map[string]json.RawMessage
		json.Unmarshal([]byte(hookstest.Recorded("2.1.33", "PreToolUse-Bash").JSON), &in)
		in["tool_input"] = json.RawMessage(toolInput)
		b, _ := json.Marshal(in)
		return string(b)
	}
	many := ""
	for i := range 25 {
		many += "deliverable: d" + string(rune('a'+i)) + ".txt\n"
	}
	cases := []agreement{
		{name: "missing", stdin: task("deliverable: parser.go")},
		{name: "present", stdin: task("deliverable: parser.go"), files: map[string]string{"parser.go": "x"}},
		{name: "several", stdin: task("deliverable: a.go\ndeliverable: b.go\nDeliverable: `c.go`."), files: map[string]string{"b.go": "x"}},
		{name: "climbs out", stdin: task("deliverable: ../x.txt")},
		{name: "absolute", stdin: task("deliverable: /etc/passwd")},
		{name: "drive", stdin: task(`deliverable: C:\Windows\win.ini`)},
		{name: "dots", stdin: task("deliverable: ..")},
		{name: "NUL", stdin: task("deliverable: a\x00b")},
		{name: "not ASCII", stdin: task("deliverable: \u00e9t\u00e9-\U0001F600.md")},
		{name: "long", stdin: task("deliverable: " + strings.Repeat("\u00e9", 700))},
		{name: "many", stdin: task(many)},
		{name: "link out", stdin: task("deliverable: out.txt"), links: map[string]string{"out.txt": "/etc/hostname"}},
		{name: "link in", stdin: task("deliverable: in.txt"), files: map[string]string{"here.txt": "x"}, links: map[string]string{"in.txt": "here.txt"}},
		{name: "link dir out", stdin: task("deliverable: d/hostname"), links: map[string]string{"d": "/etc"}},
		{name: "link up", stdin: task("deliverable: up/x"), links: map[string]string{"up": ".."}},
		{name: "link loop", stdin: task("deliverable: loop/x"), links: map[string]string{"loop": "loop"}},
		{name: "backslashes", stdin: task(`deliverable: docs\api.md`), files: map[string]string{"docs/api.md": "x"}},
		{name: "dot parts", stdin: task("deliverable: ./docs/./api.md"), files: map[string]string{"docs/api.md": "x"}},
		{name: "blocked", js: "guard.js", args: "PreToolUse", stdin: bash(`{"command":"git push --force"}`)},
		{name: "chained", js: "guard.js", args: "PreToolUse", stdin: bash(`{"command":"cd a && git push origin main --force"}`)},
		{name: "harmless", js: "guard.js", args: "PreToolUse", stdin: bash(`{"command":"ls -la"}`)},
		{name: "look-alike", js: "guard.js", args: "PreToolUse", stdin: bash(`{"command":"ls","COMMAND":"git push --force"}`)},
		{name: "not a string", js: "guard.js", args: "PreToolUse", stdin: bash(`{"command":["git","push","--force"]}`)},
		{name: "lease", js: "guard.js", args: "PreToolUse", stdin: bash(`{"command":"git push --force-with-lease"}`)},
	}
	goBin := filepath.Join(goDir, "plugin", "bin", "deliverables")
	wrappers := map[string]string{}
	for _, script := range []string{"task.js", "guard.js"} {
		w := filepath.Join(t.TempDir(), "run-"+script)
		os.WriteFile(w, []byte("#!/bin/sh\nexec node "+shellWord(filepath.Join(jsDir, "hooks", script))+` "$@"`+"\n"), 0o755)
		wrappers[script] = w
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.js == "" {
				tc.js, tc.args = "task.js", "TaskCompleted"
			}
			var replies []hookstest.Reply
			for _, bin := range []string{goBin, wrappers[tc.js]} {
				c := hookstest.Call{Args: tc.args, Stdin: tc.stdin, Files: tc.files, Project: t.TempDir()}
				for name, target := range tc.links {
					if err := os.Symlink(target, filepath.Join(c.Project, name)); err != nil {
						t.Skip("no symbolic links here")
					}
				}
				replies = append(replies, hookstest.Exec(t, bin, c))
			}
			g, j := replies[0], replies[1]
			t.Logf("Go: %s\nJS: %s", g, j)
			if g.Decision != j.Decision || g.Reason != j.Reason {
				t.Errorf("the plugins disagree:\nGo: %s %q\nJS: %s %q", g.Decision, g.Reason, j.Decision, j.Reason)
			}
		})
	}
}

// TestNewGoReleaseIsReproducible: make release in a new Go plugin writes
// the folder marketplace, hookgen doctor passes on it, and a second run
// gives the same bytes.
func TestNewGoReleaseIsReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("builds six platforms twice")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	dir := filepath.Join(t.TempDir(), "rel")
	if code, _, errb := newTree(t, "go", "deliverables", "--dir", dir, "--replace", repoRoot(t)); code != exitOK {
		t.Fatal(errb)
	}
	out := runInDir(t, dir, nil, "make", "release")
	for _, want := range []string{"ok  sums", "ok  binary", "(deliverables 0.1.0)", "release: plugin folder"} {
		if !strings.Contains(out, want) {
			t.Errorf("make release lacks %q:\n%s", want, out)
		}
	}
	sums := filepath.Join(dir, "dist", "release", "v0.1.0", "plugin", "bin", "SHA256SUMS")
	first := readFileString(t, sums)
	for _, p := range []string{"linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64.exe", "windows-arm64.exe"} {
		if !strings.Contains(first, "deliverables-0.1.0-"+p+".gz\n") {
			t.Errorf("SHA256SUMS lacks the %s binary:\n%s", p, first)
		}
		if _, err := os.Stat(filepath.Join(dir, "dist", "release", "v0.1.0", "plugin", "sbom", "deliverables-"+p+".cdx.json")); err != nil {
			t.Error(err)
		}
	}
	runInDir(t, dir, nil, "make", "release")
	if second := readFileString(t, sums); second != first {
		t.Errorf("a second make release differs:\n%s\n%s", first, second)
	}
}

func readFileString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
