package live

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/modelapi"
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
