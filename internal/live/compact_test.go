package live

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/handlers/compact"
	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/state/work"
)

// compactHooks registers the compaction pair: the snapshot at PreCompact
// and the briefing at SessionStart.
const compactHooks = `{
  "description": "hookwright live: compaction",
  "hooks": {
    "PreCompact": [{"hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\" PreCompact", "timeout": 10}]}],
    "SessionStart": [{"hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\" SessionStart", "timeout": 10}]}]
  }
}
`

// TestCompactionBriefing proves issue 14 item 1: a real session compacts,
// hookwright snapshots it at PreCompact, and the next model request carries
// the briefing SessionStart(compact) injected as additionalContext.
//
// Two ways to compact headlessly, both seen here:
//
//   - Auto-compaction (2.1.33): CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=1 lowers the
//     threshold to 1% of the window (debug log: "autocompact: tokens=4738
//     threshold=1800 effectiveWindow=180000"), and a Bash call that prints
//     4000 lines passes it. PreCompact fires with trigger "auto", the summary
//     request follows, SessionStart fires with source "compact", and the
//     same process's next request opens with the summary and a
//     system-reminder "SessionStart hook additional context: ...". On
//     2.1.330 the window is 980000 tokens, so 1% is more than one Bash
//     output carries.
//   - /compact (2.1.33 and 2.1.330): `claude -p "/compact" --continue` runs
//     the built-in command on the project's last session: PreCompact with
//     trigger "manual", the summary request, SessionStart "compact". On
//     2.1.330 the additionalContext is kept in the transcript, so the next
//     `claude -p ... --continue` request carries it; on 2.1.33 it is not
//     (the hook answered it, the next process's request lacks it), so there
//     the briefing reaches the model only within the compacting process.
func TestCompactionBriefing(t *testing.T) {
	if testing.Short() {
		t.Skip("live tier: needs real Claude Code")
	}
	Available(t)
	t.Run("2.1.33-auto", func(t *testing.T) { testCompaction(t, "2.1.33", true) })
	t.Run("2.1.330-manual", func(t *testing.T) { testCompaction(t, "2.1.330", false) })
}

func testCompaction(t *testing.T, version string, auto bool) {
	claude := installT(t, version)
	plugin := writePlugin(t, compactHooks)
	home := filepath.Join(t.TempDir(), "home")
	dir := filepath.Join(t.TempDir(), "project")
	if err := work.Start(dir, "compact-proof", time.Now()); err != nil {
		t.Fatal(err)
	}
	script := modelapi.Script{
		bash("echo one"), modelapi.Text("first part done"),
		modelapi.Text("SUMMARY: ran echo one."), // the /compact summary request
		modelapi.Text("carrying on"),
	}
	type run struct {
		prompt string
		args   []string
	}
	runs := []run{{"Run the scripted steps.", nil}, {"/compact", []string{"--continue"}}, {"Go on with the work.", []string{"--continue"}}}
	var env []string
	if auto {
		script = modelapi.Script{bash("seq 1 4000"), modelapi.Text("SUMMARY: counted to 4000."), modelapi.Text("carrying on")}
		runs = runs[:1]
		env = []string{"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=1"}
	}
	srv := modelapi.New(script)
	srv.LogDir = requestLogDir(t)
	srv.Start()
	t.Cleanup(srv.Close)
	var last Result
	for i, r := range runs {
		res, err := Run(context.Background(), Options{Claude: claude, Prompt: r.prompt, BaseURL: srv.URL(), PluginDirs: []string{plugin},
			AllowedTools: []string{"Bash"}, Debug: true, Home: home, Dir: dir, Timeout: 90 * time.Second, Args: r.args, Env: env})
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("run %d (%s): exit %d, %v\nstdout %s\nstderr %s", i, r.prompt, res.ExitCode, err, res.Stdout, res.Stderr)
		}
		if i == 0 {
			requireRegistered(t, res)
		}
		last = res
	}
	snaps, _ := filepath.Glob(filepath.Join(dir, compact.Dir, "*.json"))
	if len(snaps) != 1 {
		t.Fatalf("snapshots after the compaction: %v, want exactly one", snaps)
	}
	// The snapshot is dated now and names today's scratchpad (a zero clock
	// once named coordinator/0001-01-01.md).
	today := time.Now().Format(time.DateOnly)
	if data, err := os.ReadFile(snaps[0]); err != nil || !strings.Contains(string(data), today) || strings.Contains(string(data), "0001-01-01") {
		t.Errorf("snapshot %s is not dated today (%s): %s", snaps[0], today, data)
	}
	reqs := srv.Requests()
	summary := -1
	for i, r := range reqs {
		if r.Kind != "side" && strings.Contains(string(r.Body), "summary of the conversation") {
			summary = i
		}
	}
	if summary < 0 {
		t.Fatalf("no compaction summary request was sent (requests in %s)", srv.LogDir)
	}
	briefed := false
	for _, r := range reqs[summary+1:] {
		if r.Kind == "main" && strings.Contains(string(r.Body), "hookwright: this conversation was just compacted") &&
			strings.Contains(string(r.Body), "Active work unit: compact-proof") && strings.Contains(string(r.Body), today) {
			briefed = true
		}
	}
	if !briefed {
		var hookLines []string
		for _, l := range strings.Split(last.DebugLog, "\n") {
			if strings.Contains(l, "SessionStart") || strings.Contains(l, "compact") {
				hookLines = append(hookLines, l)
			}
		}
		t.Errorf("no main request after the compaction carries the briefing (requests in %s); debug lines:\n%s", srv.LogDir, strings.Join(hookLines, "\n"))
	}
}
