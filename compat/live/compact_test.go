package live

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/modelapi"
)

const compactHooks = `{
  "description": "hookwright live: compaction",
  "hooks": {
    "PreCompact": [{"hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\" PreCompact", "timeout": 10}]}],
    "SessionStart": [{"hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\" SessionStart", "timeout": 10}]}]
  }
}
`

func TestCompactExplore(t *testing.T) {
	Available(t)
	claude := installT(t, os.Getenv("CCV"))
	plugin := writePlugin(t, compactHooks)
	home := filepath.Join(t.TempDir(), "home")
	dir := filepath.Join(t.TempDir(), "project")
	srv := modelapi.New(modelapi.Script{bash("echo one"), modelapi.Text("first done"), modelapi.Text("after compact")})
	srv.LogDir = "/tmp/cexp/" + os.Getenv("CCV")
	srv.Start()
	defer srv.Close()
	for i, p := range []struct {
		prompt string
		args   []string
	}{{"Run the scripted steps.", nil}, {"/compact", []string{"--continue"}}, {"go on", []string{"--continue"}}} {
		res, err := Run(context.Background(), Options{Claude: claude, Prompt: p.prompt, BaseURL: srv.URL(), PluginDirs: []string{plugin},
			AllowedTools: []string{"Bash"}, Debug: true, Home: home, Dir: dir, Timeout: 90 * time.Second, Args: p.args})
		t.Logf("run %d: exit %d err %v\nstdout %s\nstderr %s", i, res.ExitCode, err, res.Stdout, res.Stderr)
	}
	j, _ := os.ReadFile(filepath.Join(dir, ".hookwright/journal", time.Now().UTC().Format("2006-01-02")+".jsonl"))
	t.Logf("journal:\n%s", j)
}
