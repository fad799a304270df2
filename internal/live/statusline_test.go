package live

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/modelapi"
)

// TestStatusLineInteractive proves the status line on screen: an
// interactive Claude Code 2.1.33 under tmux, with `hookwright statusline`
// as the statusLine command in the user's settings (as hookgen install
// --statusline writes it) and the guard as a plugin hook, blocks a force
// push; the pane then shows hookwright's line with the call, the block and
// its rule.
func TestStatusLineInteractive(t *testing.T) {
	if testing.Short() {
		t.Skip("live tier: needs real Claude Code")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("live tier: tmux not installed; the status line is drawn only in the interactive TUI")
	}
	Available(t)
	bin, err := runtimeBinary()
	if err != nil {
		t.Fatal(err)
	}
	plugin := writePlugin(t, spineHooks)
	project, home := filepath.Join(t.TempDir(), "project"), filepath.Join(t.TempDir(), "home")
	writeFile(t, filepath.Join(project, "README.md"), "project\n")
	writeFile(t, filepath.Join(home, ".claude", "settings.json"),
		`{"statusLine": {"type": "command", "command": "\"`+bin+`\" statusline", "padding": 0}}`+"\n")
	srv := modelapi.New(modelapi.Script{bash("git push --force origin main")})
	srv.LogDir = requestLogDir(t)
	srv.Start()
	t.Cleanup(srv.Close)
	// Done a few seconds after the blocked call's result reached the
	// model: time for the status line to be drawn again.
	var mu sync.Mutex
	var seen time.Time
	done := func() bool {
		mu.Lock()
		defer mu.Unlock()
		if _, ok := srv.ToolResultFor(0); ok && seen.IsZero() {
			seen = time.Now()
		}
		return !seen.IsZero() && time.Since(seen) > 4*time.Second
	}
	res, err := RunInteractive(context.Background(), InteractiveOptions{
		Claude: installT(t, "2.1.33"), Prompt: "Run the scripted steps.", BaseURL: srv.URL(),
		Args: []string{"--plugin-dir", plugin, "--allowedTools", "Bash", "--debug"},
		Home: home, Dir: project, Done: done, Timeout: 120 * time.Second,
	})
	if err != nil {
		t.Fatalf("interactive run: %v\nrequests logged in %s", err, srv.LogDir)
	}
	requireRegistered(t, res)
	if got, ok := srv.ToolResultFor(0); !ok || !strings.Contains(got.Content, guardPrefix) {
		t.Fatalf("the force push was not blocked: %+v (found %v)", got, ok)
	}
	if !strings.Contains(res.Stdout, "hookwright · ") || !strings.Contains(res.Stdout, "1 block (last: git-force-push)") {
		t.Errorf("the status line is not on screen; last screen:\n%s", res.Stdout)
	}
}
