package live

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/state/loop"
)

// loopHooks registers only the Stop hook, as the plugin does, with the
// plugin's timeout.
const loopHooks = `{
  "description": "hookwright live: the Stop loop",
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\" Stop", "timeout": 120}]}]
  }
}
`

// TestStopLoop proves issue 14 item 2 on 2.1.33 and 2.1.330: the model is
// blocked until the file the check looks for exists; the promise ends the
// loop (read from the transcript on 2.1.33, which has no
// last_assistant_message); and a loop that changes nothing is let go after
// stall_rounds rounds.
func TestStopLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("live tier: needs real Claude Code")
	}
	Available(t)
	for _, version := range []string{"2.1.33", "2.1.330"} {
		t.Run(version, func(t *testing.T) {
			claude := installT(t, version)
			plugin := writePlugin(t, loopHooks)
			t.Run("check", func(t *testing.T) { testLoopCheck(t, claude, plugin) })
			t.Run("promise", func(t *testing.T) { testLoopPromise(t, claude, plugin) })
			t.Run("stall", func(t *testing.T) { testLoopStall(t, claude, plugin) })
		})
	}
}

// trustingHome is a HOME whose hookwright user config trusts the project
// at dir: a project's loop.check is a command, and applies only then.
func trustingHome(t *testing.T, dir string) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	writeFile(t, filepath.Join(home, ".config", "hookwright", "config.json"), `{"trust": [`+strconv.Quote(dir)+`]}`+"\n")
	return home
}

// loopProject writes a project whose config turns the loop on with cfg.
func loopProject(t *testing.T, cfg string) string {
	dir := filepath.Join(t.TempDir(), "project")
	writeFile(t, filepath.Join(dir, ".hookwright", "config.json"), `{"loop": `+cfg+`}`+"\n")
	return dir
}

// blockReasons returns the main requests that carry a loop block reason.
func blockReasons(srv *modelapi.Server, want string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Kind == "main" && strings.Contains(string(r.Body), want) {
			n++
		}
	}
	return n
}

func loopSession(t *testing.T, dir string) *loop.Session {
	t.Helper()
	st, err := loop.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st.Sessions {
		return s
	}
	t.Fatalf("no session in %s", loop.File)
	return nil
}

func testLoopCheck(t *testing.T, claude, plugin string) {
	dir := loopProject(t, `{"enabled": true, "check": "test -f done.txt || { echo 'LOOPCHECK: done.txt is missing'; exit 1; }"}`)
	script := modelapi.Script{
		modelapi.Text("I am finished."), // blocked: no done.txt
		bash("touch done.txt"),          // reachable only after the block
	}
	srv, _ := session(t, claude, script, sessionOpts{home: trustingHome(t, dir), dir: dir, pluginDirs: []string{plugin}})
	if n := blockReasons(srv, "LOOPCHECK: done.txt is missing"); n == 0 {
		t.Fatalf("no request carries the loop's block reason with the check's output (requests in %s)", srv.LogDir)
	}
	if got, ok := srv.ToolResultFor(1); !ok || got.IsError {
		t.Errorf("the Bash call after the block: %+v (found %v)", got, ok)
	}
	if s := loopSession(t, dir); s.Ended != loop.EndPassed || s.Rounds != 1 {
		t.Errorf("loop state %+v, want ended %q after 1 round", s, loop.EndPassed)
	}
}

func testLoopPromise(t *testing.T, claude, plugin string) {
	dir := loopProject(t, `{"enabled": true, "check": "exit 1", "promise": "SHIPPED"}`)
	script := modelapi.Script{
		modelapi.Text("Not yet."),
		modelapi.Text("done. <promise>SHIPPED</promise>"),
	}
	srv, _ := session(t, claude, script, sessionOpts{home: trustingHome(t, dir), dir: dir, pluginDirs: []string{plugin}})
	if n := blockReasons(srv, "print <promise>SHIPPED</promise>"); n != 1 {
		t.Errorf("%d requests carry the block reason, want 1 (requests in %s)", n, srv.LogDir)
	}
	if s := loopSession(t, dir); s.Ended != loop.EndPromise || s.Rounds != 1 {
		t.Errorf("loop state %+v, want ended %q after 1 round", s, loop.EndPromise)
	}
}

func testLoopStall(t *testing.T, claude, plugin string) {
	dir := loopProject(t, `{"enabled": true, "check": "echo LOOPSTALL; exit 1", "max_rounds": 10, "stall_rounds": 2}`)
	// One text turn, then the stand-in answers "done." to every request:
	// the model keeps stopping and never changes a file.
	srv, _ := session(t, claude, modelapi.Script{modelapi.Text("Stopping.")}, sessionOpts{home: trustingHome(t, dir), dir: dir, pluginDirs: []string{plugin}})
	if n := blockReasons(srv, "LOOPSTALL"); n != 2 {
		t.Errorf("%d requests carry the block reason, want 2 (rounds 1 and 2; requests in %s)", n, srv.LogDir)
	}
	if s := loopSession(t, dir); s.Ended != loop.EndStalled || s.Rounds != 2 {
		t.Errorf("loop state %+v, want ended %q after 2 rounds", s, loop.EndStalled)
	}
}
