package live

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// fallbackTeamScript is the team run for the fallback manifest. The lead
// creates team core with two tasks and spawns alice; alice completes task
// 1 without deliverables, goes idle, writes them, reports and goes idle
// again. Via Stop, the idle right after a blocked one carries
// stop_hook_active and is let through, so the lead pings alice: her next
// idle is a fresh one, where next-task hands her task 2. (A task_assignment
// notice, sent when TaskUpdate set her as owner, may wake her first.)
func fallbackTeamScript() modelapi.Script {
	in := func(tool string, input map[string]any) modelapi.Turn {
		return modelapi.ToolUse(tool, input).In(teammateMarker)
	}
	text := func(s string) modelapi.Turn { return modelapi.Text(s).In(teammateMarker) }
	dir := ".agent/teams/core/alice"
	deliver := "mkdir -p " + dir + " && printf 'index:\\n  - task: parser\\n    files: [parser.go, parser_test.go]\\n    status: done\\n' > " + dir + "/L1-index.yaml" +
		" && printf '# Summary\\n\\nWrote the config parser and its tests. The parser rejects unknown keys and reports the line of each error.\\n' > " + dir + "/L2-summary.md"
	return modelapi.Script{
		modelapi.ToolUse("TeamCreate", map[string]any{"team_name": "core", "description": "hookwright live team"}),
		modelapi.ToolUse("TaskCreate", map[string]any{"subject": "[Do] parser: write it", "description": "parse the config", "activeForm": "Writing the parser"}),
		modelapi.ToolUse("TaskCreate", map[string]any{"subject": "[Check] parser: review the tests", "description": "review parser_test.go", "activeForm": "Reviewing the tests"}),
		modelapi.ToolUse("Task", map[string]any{"description": "alice works", "prompt": teammateMarker + ": run the scripted steps.", "subagent_type": "general-purpose", "name": "alice", "team_name": "core"}),
		modelapi.Text("lead: waiting for alice"),
		modelapi.ToolUse("SendMessage", map[string]any{"type": "message", "recipient": "alice", "content": "HW-LEAD-PING: anything left?", "summary": "ping"}).Awaiting("HW-ALICE-DELIVERED"),
		in("TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"}), // 6
		in("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),   // 7: PostToolUse blocks after the update
		in("TaskGet", map[string]any{"taskId": "1"}),                             // 8: already completed
		text("alice: going idle"),
		in("Bash", map[string]any{"command": deliver, "description": "write the deliverables"}),
		in("SendMessage", map[string]any{"type": "message", "recipient": "team-lead", "content": "HW-ALICE-DELIVERED", "summary": "deliverables written"}),
		text("alice: idle again"),
		text("alice: nothing to do"), // on the next wake: the lead's ping, or a task_assignment notice
		in("TaskUpdate", map[string]any{"taskId": "2", "status": "in_progress", "owner": "alice"}),
		in("TaskUpdate", map[string]any{"taskId": "2", "status": "completed"}),
		text("alice: all done"),
	}
}

// TestTeamsFallback runs a real team on 2.1.33 with the manifest of the
// band below it (2.1.16-2.1.32): TeammateIdle via SubagentStop and Stop,
// TaskCompleted via PostToolUse(TaskUpdate). Teammates run in tmux panes
// (--teammate-mode tmux), the only kind the fallbacks can name: the
// teammate is found by $TMUX_PANE in the team config. 2.1.32 itself starts
// no team offline (TestTeamsGatedOn2132).
func TestTeamsFallback(t *testing.T) {
	if testing.Short() {
		t.Skip("live tier: needs real Claude Code")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("live tier: tmux not installed; the tmux-teammate run needs it")
	}
	Available(t)
	claude := installT(t, "2.1.33")
	project, home := filepath.Join(t.TempDir(), "project"), filepath.Join(t.TempDir(), "home")
	tools := []string{"TeamCreate", "TeamDelete", "Task", "SendMessage", "TaskCreate", "TaskUpdate", "TaskGet", "TaskList", "Bash"}
	writeFiles(t, project, map[string]string{
		".agent/teams/core/README.md": "team folder\n",
		".hookwright/config.json":     `{"scratchpad": {"enabled": false}, "pdca": {"enabled": true}}` + "\n",
	})
	// A tmux teammate is a claude process of its own, started without the
	// lead's --allowedTools: the user settings allow its tools.
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions": {"allow": ["`+strings.Join(tools, `", "`)+`"]}}`+"\n")
	srv := modelapi.New(fallbackTeamScript())
	srv.LogDir = requestLogDir(t)
	srv.Start()
	t.Cleanup(srv.Close)
	done := func() bool {
		return hasSequence(idleOutcomes(t, project), []string{"artifacts", "next-task"}) && completions(t, project, 0) > 0
	}
	res, err := RunInteractive(context.Background(), InteractiveOptions{
		Claude: claude, Prompt: "Run the scripted steps.", BaseURL: srv.URL(),
		Args: []string{"--plugin-dir", teamPlugin(t, "2.1.32"), "--allowedTools", strings.Join(tools, ","),
			"--teammate-mode", "tmux", "--debug"},
		Env:  []string{"CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1", "CLAUDE_CODE_ENABLE_TASKS=1"},
		Home: home, Dir: project, Done: done, Timeout: 150 * time.Second,
	})
	if err != nil {
		t.Fatalf("interactive run: %v\nTeammateIdle outcomes: %v\nrequests logged in %s", err, idleOutcomes(t, project), srv.LogDir)
	}
	requireRegistered(t, res)
	t.Cleanup(func() { keepForInspection(t, srv.LogDir, res) })

	// No native event fired; the fallback events carry no team fields.
	for _, ev := range []string{"TeammateIdle", "TaskCompleted"} {
		if ps := payloads(t, project, ev); len(ps) > 0 {
			t.Errorf("native %s fired although the manifest does not register it: %v", ev, ps)
		}
	}
	for _, p := range append(payloads(t, project, "Stop"), payloads(t, project, "SubagentStop")...) {
		if p.str("team_name") != "" || p.str("teammate_name") != "" {
			t.Errorf("a %s payload carries team fields: %v", p.str("hook_event_name"), p)
		}
	}
	// TaskCompleted via PostToolUse: the gate finds alice by her pane, and
	// its reason reaches her beside the tool_result, but the update already
	// ran (the documented difference). 2.1.33 rewrites the team config in
	// place (truncate, then write) right as the teammate's completion
	// lands; the lookup waits the rewrite out (TEAMS.md, "A race in the
	// fallback"), so the gate must find her every time.
	refusal := `teammate "alice" of team "core" must leave its deliverables`
	jsonRefusal := strings.ReplaceAll(refusal, `"`, `\"`)
	if r, ok := srv.ToolResultFor(8); !ok || !strings.Contains(r.Content, "Status: completed") {
		t.Errorf("TaskGet after the completion = %+v (found %v), want the task completed (the fallback cannot keep it open)", r, ok)
	}
	if !laneSaw(srv, teammateMarker, "toolu_hw_0007", "PostToolUse:TaskUpdate hook blocking error", jsonRefusal) || completions(t, project, 2) == 0 {
		t.Errorf("TaskCompleted via PostToolUse did not find the teammate (exits 0: %d); see TEAMS.md", completions(t, project, 0))
	}
	// TeammateIdle via Stop found alice by her pane and held her, then
	// next-task handed her task 2 at a fresh idle.
	if !laneSaw(srv, teammateMarker, "Stop hook feedback", "TeammateIdle --via Stop", jsonRefusal) {
		t.Errorf("the teammate never received the artifact gate's refusal through Stop")
	}
	if !laneSaw(srv, teammateMarker, "Stop hook feedback", "Next task: #2 [Check] parser: review the tests") {
		t.Errorf("the teammate never received next-task's hand-over through Stop")
	}
}

// completions counts the TaskCompleted journal lines that exited with
// code exit.
func completions(t *testing.T, project string, exit int) int {
	t.Helper()
	entries, _, err := journal.ReadAll(project)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Event == "TaskCompleted" && e.Exit == exit {
			n++
		}
	}
	return n
}

// TestTeamsGatedOn2132 pins why the fallback run above uses 2.1.33: on
// 2.1.32 agent teams sit behind a server-side feature flag
// (tengu_amber_flint, default off), so offline the team tool is missing
// and spawning into a team fails.
func TestTeamsGatedOn2132(t *testing.T) {
	if testing.Short() {
		t.Skip("live tier: needs real Claude Code")
	}
	Available(t)
	script := modelapi.Script{
		modelapi.ToolUse("Teammate", map[string]any{"operation": "spawnTeam", "team_name": "core", "description": "hookwright live team"}),
		modelapi.ToolUse("Task", map[string]any{"description": "alice works", "prompt": teammateMarker + ": run the scripted steps.", "subagent_type": "general-purpose", "name": "alice", "team_name": "core"}),
	}
	srv, _ := session(t, installT(t, "2.1.32"), script, sessionOpts{
		tools: []string{"Teammate", "Task", "SendMessage"},
		env:   []string{"CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1", "CLAUDE_CODE_ENABLE_TASKS=1"},
	})
	if r, ok := srv.ToolResultFor(0); !ok || !r.IsError || !strings.Contains(r.Content, "No such tool available: Teammate") {
		t.Errorf("Teammate result = %+v (found %v), want the tool missing", r, ok)
	}
	if r, ok := srv.ToolResultFor(1); !ok || !r.IsError || !strings.Contains(r.Content, "Agent Teams is not yet available on your plan.") {
		t.Errorf("Task(team_name) result = %+v (found %v), want the plan refusal", r, ok)
	}
	for _, r := range srv.Requests() {
		if r.Marker == teammateMarker {
			t.Fatalf("a teammate request arrived on 2.1.32: %s", r.Body)
		}
	}
}

// keepForInspection copies the lead's debug log and the project's
// .hookwright folder (journal, state) beside the request logs when t failed.
func keepForInspection(t *testing.T, dir string, res Result) {
	if !t.Failed() {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	_ = os.WriteFile(filepath.Join(dir, "debug.txt"), []byte(res.DebugLog), 0o644)
	_ = os.CopyFS(filepath.Join(dir, "hookwright"), os.DirFS(filepath.Join(res.Dir, ".hookwright")))
	_ = os.CopyFS(filepath.Join(dir, "payloads"), os.DirFS(filepath.Join(res.Dir, payloadDir)))
	t.Logf("debug log, journal and payloads kept in %s", dir)
}
