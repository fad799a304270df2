package live

import (
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/manifests"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// qualityHooks registers the runtime for PostToolUse on the edit tools.
const qualityHooks = `{
  "description": "hookwright quality: format and lint after edits",
  "hooks": {
    "PostToolUse": [
      {"matcher": "Write|Edit|MultiEdit", "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\" PostToolUse", "timeout": 10}]}
    ]
  }
}
`

// badGoFile is badly formatted and has a vet error.
const badGoFile = "package pkg\n\nimport \"fmt\"\n\nfunc F() {\n      fmt.Printf(\"%d\\n\")\n}\n"

// TestQualityAfterEdit proves quality feedback on real releases: the model
// writes a badly formatted Go file with a vet error; the file ends
// formatted, and the model's next request carries go vet's finding.
func TestQualityAfterEdit(t *testing.T) {
	Available(t)
	goenv, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Skip("live tier: no go toolchain for the hook's gofmt and go vet")
	}
	vals := strings.Split(strings.TrimSpace(string(goenv)), "\n")
	env := []string{"GOCACHE=" + vals[0], "GOMODCACHE=" + vals[1], "GOPATH=" + vals[2]}
	plugin := writePlugin(t, qualityHooks)
	for _, v := range []string{"2.1.33", "2.1.330"} {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "project")
			writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.21\n")
			writeFile(t, filepath.Join(dir, ".hookwright", "config.json"), `{"quality": {"lint": true, "format": true, "timeout": 8}}`+"\n")
			file := filepath.Join(dir, "pkg", "m.go")
			script := modelapi.Script{modelapi.ToolUse("Write", map[string]any{"file_path": file, "content": badGoFile})}
			srv, res := session(t, installT(t, v), script, sessionOpts{pluginDirs: []string{plugin}, dir: dir, tools: []string{"Write"}, env: env, timeout: 150e9})
			requireRegistered(t, res)
			got, err := os.ReadFile(file)
			if err != nil || !strings.Contains(string(got), "\n\tfmt.Printf") {
				t.Errorf("the file did not end formatted (%v):\n%s", err, got)
			}
			if !laneSaw(srv, "", "hookwright quality, after the edit of pkg/m.go", "go vet", "Printf") {
				t.Errorf("no request after the edit carries go vet's finding; requests logged in %s", srv.LogDir)
			}
		})
	}
}

// TestQualityAsyncColdVet is the third acceptance: a go vet from a
// cold build cache (14 s here) reaches the model as feedback on releases
// with asynchronous hooks, without holding it. The plugin's hooks are the
// band manifest hookgen writes from hookwright's spec for the release
// (the synchronous PostToolUse --with-async and the asynchronous
// PostToolUse --async). The model writes a Go file with a vet error, then
// works on (a long Bash step); on 2.1.33 the finding arrives as the async
// hook's output with a later tool result, on 2.1.330 through asyncRewake.
func TestQualityAsyncColdVet(t *testing.T) {
	Available(t)
	goenv, err := exec.Command("go", "env", "GOMODCACHE", "GOPATH", "GOROOT").Output()
	if err != nil {
		t.Skip("live tier: no go toolchain for the hook's go vet")
	}
	vals := strings.Split(strings.TrimSpace(string(goenv)), "\n")
	for _, v := range []string{"2.1.33", "2.1.330"} {
		t.Run(v, func(t *testing.T) {
			manifest, err := manifests.Generate(manifests.Hookwright(), hooks.MustRelease(v))
			if err != nil {
				t.Fatal(err)
			}
			plugin := writePlugin(t, string(manifest))
			dir := filepath.Join(t.TempDir(), "project")
			writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.21\n")
			// The asynchronous budget at its most: the build machine is
			// shared, and a cold go vet took 12 to over 60 s under load.
			writeFile(t, filepath.Join(dir, ".hookwright", "config.json"), `{"quality": {"lint": true, "format": true, "async_timeout": 240}}`+"\n")
			// The model works on until the background check has written its
			// journal line (a script, so that 2.1.330's Bash takes the wait).
			writeFile(t, filepath.Join(dir, "wait.sh"), "until grep -qs '\"async\":true' .hookwright/journal/*.jsonl; do sleep 1; done\necho worked on\n")
			cold := filepath.Join(t.TempDir(), "gocache") // a build cache nobody filled
			env := []string{"GOCACHE=" + cold, "GOMODCACHE=" + vals[0], "GOPATH=" + vals[1], "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod"}
			file := filepath.Join(dir, "pkg", "m.go")
			script := modelapi.Script{
				modelapi.ToolUse("Write", map[string]any{"file_path": file, "content": badGoFile}),
				bash("echo right after the edit"),
				modelapi.ToolUse("Bash", map[string]any{"command": "timeout 280 sh wait.sh", "description": "work on", "timeout": 300000}),
				bash("echo and on"),
			}
			start := time.Now()
			srv, res := session(t, installT(t, v), script, sessionOpts{pluginDirs: []string{plugin}, dir: dir,
				tools: []string{"Write", "Bash"}, env: env, timeout: 360 * time.Second})
			requireRegistered(t, res)
			// The model was not held: the request after the Write came
			// before go vet could have finished from a cold cache.
			var vetMillis, syncMillis int64
			entries, _, _ := journal.ReadAll(dir)
			for _, e := range entries {
				switch {
				case e.Async:
					vetMillis = e.Micros / 1000
				case e.Event == "PostToolUse" && e.Tool == "Write":
					syncMillis = e.Micros / 1000
				}
			}
			first, found := -1, false
			for i, r := range srv.Requests() {
				if r.Kind != "main" {
					continue
				}
				if strings.Contains(string(r.Body), "hookwright quality, after the edit of pkg/m.go") && strings.Contains(string(r.Body), "reads arg #1") {
					first, found = i, true
					break
				}
			}
			if !found {
				t.Fatalf("no request carries go vet's finding (async call %d ms); requests in %s", vetMillis, srv.LogDir)
			}
			// Main requests: 1 the prompt, 2 the Write's result. The finding
			// came later: the edit was not held for go vet.
			mains := 0
			for i, r := range srv.Requests() {
				if r.Kind == "main" {
					mains++
				}
				if i == first && mains <= 2 {
					t.Errorf("the finding came with the Write's own result: the model was held for go vet")
				}
			}
			if got, _ := os.ReadFile(file); !strings.Contains(string(got), "\n\tfmt.Printf") {
				t.Errorf("the file did not end formatted:\n%s", got)
			}
			if vetMillis == 0 {
				t.Errorf("no asynchronous call in the journal")
			}
			t.Logf("%s: the synchronous call (gofmt) took %d ms; the asynchronous go vet %d ms from a cold cache; its finding first reached the model in request %d (session %s)",
				v, syncMillis, vetMillis, first+1, time.Since(start).Round(time.Second))
		})
	}
}
