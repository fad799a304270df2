package live

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/state/loop"

	"github.com/hookwright/hookwright/internal/testkit"
)

// TestLoopCommands proves the plugin's slash commands on real releases:
// /<plugin>:loop-start arms the Stop loop through hwctl (on PATH) and
// /<plugin>:loop-status shows it, its output in the request to the model.
// Seen: plugin commands are namespaced ("Unknown skill: hookwright-loop" on
// 2.1.33 for the bare name), and 2.1.330 has a built-in /loop.
func TestLoopCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("live tier: needs real Claude Code")
	}
	Available(t)
	for _, version := range []string{"2.1.33", "2.1.330"} {
		t.Run(version, func(t *testing.T) { testLoopCommands(t, version) })
	}
}

func testLoopCommands(t *testing.T, version string) {
	claude := installT(t, version)
	bin := t.TempDir()
	testkit.BuildTo(t, "github.com/hookwright/hookwright/cmd/hwctl", filepath.Join(bin, "hwctl"), testkit.Options{})
	plugin := writePlugin(t, `{"hooks": {}}`+"\n")
	cmds, _ := filepath.Glob(filepath.Join("..", "..", "plugin", "commands", "*.md"))
	if len(cmds) == 0 {
		t.Fatal("no plugin/commands/*.md")
	}
	for _, c := range cmds {
		data, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(plugin, "commands", filepath.Base(c)), string(data))
	}
	home := filepath.Join(t.TempDir(), "home")
	dir := filepath.Join(t.TempDir(), "project")
	srv := modelapi.New(modelapi.Script{modelapi.Text("noted"), modelapi.Text("noted again")})
	srv.LogDir = requestLogDir(t)
	srv.Start()
	t.Cleanup(srv.Close)
	for _, prompt := range []string{"/hookwright-spine:loop-start test -f done.txt", "/hookwright-spine:loop-status"} {
		res, err := Run(context.Background(), Options{Claude: claude, Prompt: prompt, BaseURL: srv.URL(), PluginDirs: []string{plugin},
			AllowedTools: []string{"Bash"}, Debug: true, Home: home, Dir: dir, Timeout: 90 * time.Second,
			Env: []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}})
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("%s: exit %d, %v\n%s\n%s", prompt, res.ExitCode, err, res.Stdout, res.Stderr)
		}
		t.Logf("%s: stdout %q", prompt, res.Stdout)
	}
	st, err := loop.Load(dir)
	if err != nil || st.Armed == nil || st.Armed.Check != "test -f done.txt" {
		t.Fatalf("after /loop the loop is not armed with the check: %+v, %v (requests in %s)", st, err, srv.LogDir)
	}
	seen := false
	for _, r := range srv.Requests() {
		if strings.Contains(string(r.Body), `loop: armed`) {
			seen = true
		}
	}
	if !seen {
		t.Errorf("no request carries /loop-status's output (requests in %s)", srv.LogDir)
	}
}
