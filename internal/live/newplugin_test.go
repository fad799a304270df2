package live

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/testkit"
)

// newPluginReleases are the releases TestNewPluginsOnRealReleases installs
// both new plugins into: the floor band of the live tier (no task tools),
// a release with task tools but no TaskCompleted (2.1.16-2.1.32), the
// first with TaskCompleted, and the newest in the matrix.
var newPluginReleases = []string{"2.0.30", "2.1.25", "2.1.33", compat.NewestKnown}

// The gate's and the guard's answers, as the templates write them for a
// plugin named deliverables with the default --block.
const (
	newGateMissing = "deliverable parser.go is missing"
	newGateAny     = "is not done:"
	newGuardReason = "deliverables blocks `git push --force`"
)

// newPlugin is one template, written by hookgen new outside the
// repository and built as its README says.
type newPlugin struct {
	lang string
	dir  string // the marketplace: the repository, or a release's folder
}

// newPlugins builds both templates once per test process.
var newPlugins = sync.OnceValues(func() ([]newPlugin, error) {
	root, ok := repoRoot()
	if !ok {
		return nil, errorString("no repository root above the working directory")
	}
	work := filepath.Join(scratchRoot, "new-plugins") // outside the repository
	hookgen := filepath.Join(scratchRoot, "hookgen")
	if err := testkit.BuildFile("github.com/hookwright/hookwright/cmd/hookgen", hookgen, testkit.Options{}); err != nil {
		return nil, err
	}
	npmOut := filepath.Join(work, "npm")
	goDir, jsDir := filepath.Join(work, "go"), filepath.Join(work, "js")
	npmCache := filepath.Join(work, "npm-cache")
	npm := []string{"npm_config_cache=" + npmCache, "npm_config_offline=true", "npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false"}
	for _, s := range []struct {
		dir  string
		env  []string
		argv []string
	}{
		{root, nil, []string{hookgen, "new", "go", "deliverables", "--dir", goDir, "--replace", root}},
		{goDir, nil, []string{"make", "test"}},
		{goDir, nil, []string{"make", "plugin"}},
		{root, []string{"PLATFORMS=" + runtime.GOOS + "/" + runtime.GOARCH}, []string{"sh", "./cmd/hookgen/npm/build.sh", npmOut, "0.1.0"}},
		{root, nil, []string{hookgen, "new", "js", "deliverables", "--dir", jsDir, "--hookgen-npm", npmOut}},
		{goDir, []string{"PLATFORMS=" + runtime.GOOS + "/" + runtime.GOARCH}, []string{"make", "release"}},
		{jsDir, npm, []string{"npm", "install"}},
		{jsDir, npm, []string{"npm", "test"}},
	} {
		cmd := exec.Command(s.argv[0], s.argv[1:]...)
		cmd.Dir, cmd.Env = s.dir, append(os.Environ(), s.env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, errorString(strings.Join(s.argv, " ") + ": " + err.Error() + "\n" + string(out))
		}
	}
	// go-release is what make release writes (this machine's platform
	// only): the launcher unpacks and checks the binary on the first call.
	return []newPlugin{{"go", goDir}, {"go-release", filepath.Join(goDir, "dist", "release", "v0.1.0")}, {"js", jsDir}}, nil
})

type errorString string

func (e errorString) Error() string { return string(e) }

// installNewPlugin adds the plugin's repository as a folder marketplace and
// installs deliverables@deliverables with claude, in a fresh HOME.
func installNewPlugin(t *testing.T, claude, dir string) (home string) {
	t.Helper()
	home = filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"plugin", "marketplace", "add", dir}, {"plugin", "install", "deliverables@deliverables"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, claude, args...)
		cmd.Dir, cmd.Env = home, baseEnv(home)
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("claude %s: %s", strings.Join(args, " "), strings.TrimSpace(string(out)))
	}
	return home
}

// firstRequestWith returns the body of the first model request that
// carries the result of the tool call the script's turn i made: the
// request that follows the call, with any hook feedback on it.
func firstRequestWith(srv *modelapi.Server, i int) string {
	r, ok := srv.ToolResultFor(i)
	if !ok {
		return ""
	}
	for _, req := range srv.Requests() {
		if strings.Contains(string(req.Body), `"tool_use_id":"`+r.ToolUseID+`"`) {
			return string(req.Body)
		}
	}
	return ""
}

// requestBefore is the body of the last request that does not yet carry
// the result of turn i.
func requestBefore(srv *modelapi.Server, i int) string {
	r, ok := srv.ToolResultFor(i)
	if !ok {
		return ""
	}
	last := ""
	for _, req := range srv.Requests() {
		if strings.Contains(string(req.Body), `"tool_use_id":"`+r.ToolUseID+`"`) {
			return last
		}
		last = string(req.Body)
	}
	return last
}

// newRefusals is how many gate refusals turn i's call added to the
// conversation.
func newRefusals(srv *modelapi.Server, i int) int {
	return strings.Count(firstRequestWith(srv, i), newGateAny) - strings.Count(requestBefore(srv, i), newGateAny)
}

// TestNewPluginsOnRealReleases creates both templates with hookgen new in
// a folder outside the repository (the Go one with this checkout as its
// hookwright, the JavaScript one with the npm packages built from it),
// builds them as their READMEs say (make test, make plugin, make release;
// npm install, npm test), installs each with claude plugin install from
// its repository as a folder marketplace (and the Go one's release too,
// whose launcher unpacks the binary on the first call) into 2.0.30,
// 2.1.25, 2.1.33 and the newest release, and runs a session in each:
//
//   - the guard blocks the force push, whose chained marker never runs;
//   - from 2.1.16 (task tools): a task naming a missing deliverable is
//     refused when completed, with the gate's reason naming the file,
//     natively on TaskCompleted from 2.1.33 (the task stays open) and
//     through the PostToolUse[TaskUpdate] fallback before; the TaskUpdate
//     that starts it is never gated, nor is the fallback on a release that
//     fires TaskCompleted itself; a task whose deliverable exists completes;
//   - on 2.0.30, which has no task tools, the TodoWrite fallback stands for
//     nothing (a todo names no task): a completed todo is not gated.
func TestNewPluginsOnRealReleases(t *testing.T) {
	Available(t)
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node for the JavaScript plugin")
	}
	plugins, err := newPlugins()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range newPluginReleases {
		claude := installT(t, v)
		for _, p := range plugins {
			t.Run(v+"/"+p.lang, func(t *testing.T) {
				t.Parallel()
				testNewPlugin(t, claude, v, p)
			})
		}
	}
}

func testNewPlugin(t *testing.T, claude, v string, p newPlugin) {
	home := installNewPlugin(t, claude, p.dir)
	tasks := !hooks.MustRelease(v).Less(hooks.MustRelease("2.1.16"))
	native := !hooks.MustRelease(v).Less(hooks.MustRelease("2.1.33"))
	script := modelapi.Script{bash("touch ran.marker && git push --force origin main")}
	tools := []string{"Bash"}
	const (
		startT1, completeT1, writeNotes, completeT2, getT1 = 3, 4, 5, 7, 8
	)
	if tasks {
		script = append(script,
			modelapi.ToolUse("TaskCreate", map[string]any{"subject": "Write the parser", "description": "deliverable: parser.go", "activeForm": "Writing the parser"}),
			modelapi.ToolUse("TaskCreate", map[string]any{"subject": "Write the notes", "description": "Notes for the release.\ndeliverable: notes.md", "activeForm": "Writing the notes"}),
			modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"}), // 3
			modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),   // 4: refused
			bash("printf 'notes\\n' > notes.md"), // 5
			modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "2", "status": "in_progress"}),
			modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "2", "status": "completed"}), // 7: passes
			modelapi.ToolUse("TaskGet", map[string]any{"taskId": "1"}),                           // 8
		)
		tools = append(tools, "TaskCreate", "TaskUpdate", "TaskGet")
	} else {
		script = append(script, modelapi.ToolUse("TodoWrite", map[string]any{"todos": []any{
			map[string]any{"content": "Write the parser (deliverable: parser.go)", "status": "completed", "activeForm": "Writing the parser"}}}))
		tools = append(tools, "TodoWrite")
	}
	srv, res := session(t, claude, script, sessionOpts{home: home, tools: tools, timeout: 4 * time.Minute,
		env: []string{"CLAUDE_CODE_ENABLE_TASKS=1"}})
	// One install for every release: hooks/hooks.json (the guard and the
	// two fallbacks) loads everywhere; hooks/2.1.33.json (TaskCompleted)
	// from 2.1.33, while an older release refuses that file alone.
	if StandardFileRefused(res.DebugLog) {
		t.Errorf("%s refused hooks/hooks.json:\n%s", v, loadLines(res.DebugLog))
	}
	want := map[bool]int{false: 3, true: 4}[native]
	if n, ok := RegisteredHooks(res.DebugLog); !ok || n < want {
		t.Errorf("%s registered %d hooks (%v), want %d:\n%s", v, n, ok, want, loadLines(res.DebugLog))
	} else {
		t.Logf("%s registered %d hooks", v, n)
	}

	if p.lang == "go-release" {
		// The launcher unpacked this machine's binary beside its .gz, in
		// the marketplace folder (run in place) or in the plugin cache.
		name := "deliverables-0.1.0-" + runtime.GOOS + "-" + runtime.GOARCH
		found := ""
		for _, dir := range []string{filepath.Join(p.dir, "plugin", "bin"), filepath.Join(home, ".claude", "plugins")} {
			filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && d.Name() == name {
					found = path
				}
				return nil
			})
		}
		if found == "" {
			t.Errorf("no unpacked %s: the release's binary did not run", name)
		} else {
			t.Logf("the launcher unpacked %s", found)
		}
	}
	// The guard.
	got, ok := srv.ToolResultFor(0)
	if !ok || !got.IsError || !strings.Contains(got.Content, newGuardReason) {
		t.Errorf("the force push: tool_result = %+v (found %v), want the guard's block %q", got, ok, newGuardReason)
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "ran.marker")); err == nil {
		t.Errorf("ran.marker exists: the blocked command ran")
	}

	for i := range script {
		if firstRequestWith(srv, i) == "" {
			t.Fatalf("no request carries the result of turn %d (%s): the session did not run the script", i, script[i].Tool)
		}
	}
	if !tasks {
		if r, _ := srv.ToolResultFor(1); strings.Contains(firstRequestWith(srv, 1), newGateAny) {
			t.Errorf("the completed todo was gated on %s, where a TodoWrite names no task: %+v", v, r)
		}
		return
	}
	// The gate: task 1 refused once, on its completion, naming parser.go.
	for i := 1; i <= getT1; i++ {
		r, _ := srv.ToolResultFor(i)
		t.Logf("turn %d: %.300q", i, r.Content)
	}
	if k := newRefusals(srv, startT1); k != 0 {
		t.Errorf("the TaskUpdate that started task 1 was gated (%d refusals)", k)
	}
	if body := firstRequestWith(srv, completeT1); !strings.Contains(body, newGateMissing) || newRefusals(srv, completeT1) < 1 {
		t.Errorf("completing task 1 without parser.go: the next request does not carry %q", newGateMissing)
	} else {
		i := strings.Index(body, newGateMissing)
		t.Logf("the refusal, as the model reads it: %q", body[max(0, i-160):min(len(body), i+len(newGateMissing)+20)])
	}
	if k := newRefusals(srv, completeT2); k != 0 {
		t.Errorf("completing task 2, whose notes.md exists, was refused (%d refusals)", k)
	}
	if countRequests(srv, "deliverable notes.md") != 0 {
		t.Errorf("a refusal names notes.md, which exists")
	}
	completed, _ := srv.ToolResultFor(completeT1)
	fallbackErrors := countRequests(srv, "PostToolUse:TaskUpdate hook blocking error")
	if native {
		if !strings.Contains(completed.Content, newGateMissing) {
			t.Errorf("%s fires TaskCompleted: the completing TaskUpdate's result = %q, want the refusal", v, completed.Content)
		}
		if fallbackErrors != 0 {
			t.Errorf("%s: the PostToolUse fallback gated too, on a release that fires TaskCompleted itself", v)
		}
		if task, _ := srv.ToolResultFor(getT1); strings.Contains(strings.ToLower(task.Content), "status: completed") || strings.Contains(task.Content, `"completed"`) {
			t.Errorf("TaskGet after the refusal = %q: task 1 completed", task.Content)
		}
	} else if fallbackErrors == 0 {
		t.Errorf("%s has no TaskCompleted: want the refusal as PostToolUse feedback on the completing TaskUpdate", v)
	}
	if testing.Verbose() {
		b, _ := json.MarshalIndent(srv.ToolResults(), "", "  ")
		t.Logf("tool results:\n%s", b)
	}
}
