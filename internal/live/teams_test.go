package live

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	teamstate "github.com/hookwright/hookwright/internal/state/team"
	"github.com/hookwright/hookwright/manifests"
)

// The agent-team tests: a real lead spawns a real teammate, alice, against
// the scripted model, with hookwright's own generated manifest loaded. What
// each release does is written down in TEAMS.md.

// teammateMarker routes the teammate's requests to its own lane: it is in
// the spawn prompt, which becomes the teammate's first user message.
const teammateMarker = "HW-TEAMMATE-ALICE"

// payloadDir is where the recorder hook leaves every payload it sees,
// relative to the project.
const payloadDir = ".hw-payloads"

// recordedEvents are the events whose raw payloads the tests keep.
var recordedEvents = []string{"TeammateIdle", "TaskCompleted", "SubagentStop", "Stop", "PostToolUse"}

// teamPlugin writes a plugin with the manifest hookgen generates for
// version, plus a recorder hook on recordedEvents that keeps each raw
// payload as a file under payloadDir.
func teamPlugin(t *testing.T, version string) string {
	t.Helper()
	raw, err := manifests.Generate(manifests.Hookwright(), hooks.MustRelease(version))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Description string                      `json:"description"`
		Hooks       map[string][]map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	// The file name carries the tmux pane (%N) the hook ran in, if any.
	record := `d="$CLAUDE_PROJECT_DIR/` + payloadDir + `"; mkdir -p "$d" && head -c 65536 > "$d/$$-pane${TMUX_PANE#%}.json"`
	for _, ev := range recordedEvents {
		if _, ok := doc.Hooks[ev]; ok {
			doc.Hooks[ev] = append(doc.Hooks[ev], map[string]any{"hooks": []any{
				map[string]any{"type": "command", "command": record, "timeout": 10}}})
		}
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return writePlugin(t, string(data))
}

// payload is one recorded hook input.
type payload map[string]any

func (p payload) str(key string) string { s, _ := p[key].(string); return s }

// payloads returns the recorded inputs of event.
func payloads(t *testing.T, project, event string) []payload {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(project, payloadDir, "*.json"))
	var out []payload
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var p payload
		if err := json.Unmarshal(data, &p); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if p.str("hook_event_name") == event {
			out = append(out, p)
		}
	}
	return out
}

// requireTeamFields fails t unless some recorded event payload names
// teammate and team.
func requireTeamFields(t *testing.T, project, event, teammate, team string) payload {
	t.Helper()
	ps := payloads(t, project, event)
	for _, p := range ps {
		if p.str("teammate_name") == teammate && p.str("team_name") == team {
			return p
		}
	}
	t.Errorf("no %s payload with teammate_name %q and team_name %q; recorded: %v", event, teammate, team, ps)
	return nil
}

// teamScenario is the part of a scenario file (compat/testdata/scenarios)
// the team tests read; internal/compatsuite runs the same file.
type teamScenario struct {
	Args         []string          `json:"args"`
	Env          []string          `json:"env"`
	AllowedTools []string          `json:"allowedTools"`
	Files        map[string]string `json:"files"`
	Turns        []struct {
		Lane, Text, Tool, Wait string
		Input                  json.RawMessage
	} `json:"turns"`
}

// loadTeamScenario reads compat/testdata/scenarios/<name>.json.
func loadTeamScenario(t *testing.T, name string) teamScenario {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "compat", "testdata", "scenarios", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var s teamScenario
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// script returns the scenario's turns for the stand-in.
func (s teamScenario) script() modelapi.Script {
	var out modelapi.Script
	for _, tu := range s.Turns {
		turn := modelapi.Turn{Text: tu.Text, Tool: tu.Tool, Marker: tu.Lane, WaitFor: tu.Wait}
		if len(tu.Input) > 0 {
			turn.Input = tu.Input
		}
		out = append(out, turn)
	}
	return out
}

// writeFiles writes files (project-relative names) into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), data)
	}
}

// laneSaw reports whether some request of the teammate's lane carries all
// of texts.
func laneSaw(srv *modelapi.Server, marker string, texts ...string) bool {
	for _, r := range srv.Requests() {
		if r.Marker != marker {
			continue
		}
		all := true
		for _, s := range texts {
			all = all && strings.Contains(string(r.Body), s)
		}
		if all {
			return true
		}
	}
	return false
}

// idleOutcomes returns the TeammateIdle journal lines of project in order:
// "artifacts" for a block by the artifact gate, "next-task" for a block
// handing over a task, "pass" for exit 0, "other" otherwise.
func idleOutcomes(t *testing.T, project string) []string {
	t.Helper()
	entries, _, err := journal.ReadAll(project)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Event != "TeammateIdle" {
			continue
		}
		switch {
		case e.Exit == 0:
			out = append(out, "pass")
		case strings.HasPrefix(e.Reason, "hookwright artifacts:"):
			out = append(out, "artifacts")
		case strings.HasPrefix(e.Reason, "Next task:"):
			out = append(out, "next-task")
		default:
			out = append(out, "other")
		}
	}
	return out
}

// wantIdleSequence is what a teammate's idles go through in the team
// scenario: held by the artifact gate, then handed the next task, then let
// go.
var wantIdleSequence = []string{"artifacts", "next-task", "pass"}

// hasSequence reports whether want occurs in got in order (not
// necessarily adjacent).
func hasSequence(got, want []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

// TestTeamsPrintMode drives a real agent team on 2.1.33 in -p mode, where
// teammates run in-process: the scenario team-native (internal/compatsuite runs
// it too), checked here down to the payloads.
func TestTeamsPrintMode(t *testing.T) {
	if testing.Short() {
		t.Skip("live tier: needs real Claude Code")
	}
	Available(t)
	const version = "2.1.33"
	sc := loadTeamScenario(t, "team-native")
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, sc.Files)
	srv, res := session(t, installT(t, version), sc.script(), sessionOpts{
		dir: project, pluginDirs: []string{teamPlugin(t, version)},
		tools: sc.AllowedTools, env: sc.Env, timeout: 120 * time.Second,
	})
	requireRegistered(t, res)
	checkTeamRun(t, srv, project, "core", 8, 9)

	// The lead: the teammate's notices arrive as <teammate-message> user
	// messages, and the team is cleaned up after the shutdown approval.
	for _, want := range []string{"idle_notification", "HW-ALICE-FINISHED", "shutdown_approved"} {
		if !laneSaw(srv, "", want) {
			t.Errorf("the lead never saw %q", want)
		}
	}
	if r, ok := srv.ToolResultFor(6); !ok || r.IsError || !strings.Contains(r.Content, `Cleaned up`) {
		t.Errorf("TeamDelete result = %+v (found %v), want the team cleaned up", r, ok)
	}
}

// checkTeamRun checks what both team runs must show: native TeammateIdle
// and TaskCompleted with the team fields, the refused completion
// (completeTurn) leaving the task open (getTurn), and the idle sequence.
func checkTeamRun(t *testing.T, srv *modelapi.Server, project, team string, completeTurn, getTurn int) {
	t.Helper()
	requireTeamFields(t, project, "TeammateIdle", "alice", team)
	requireTeamFields(t, project, "TaskCompleted", "alice", team)
	refusal := `teammate \"alice\" of team \"` + team + `\" must leave its deliverables`
	if r, ok := srv.ToolResultFor(completeTurn); !ok || r.IsError || !strings.Contains(r.Content, "TaskCompleted hook feedback") ||
		!strings.Contains(r.Content, strings.ReplaceAll(refusal, `\"`, `"`)) {
		t.Errorf("the teammate's TaskUpdate(completed) result = %+v (found %v), want the gate's refusal as TaskCompleted hook feedback", r, ok)
	}
	if r, ok := srv.ToolResultFor(getTurn); !ok || !strings.Contains(r.Content, "in_progress") {
		t.Errorf("TaskGet after the refusal = %+v (found %v), want the task still in progress", r, ok)
	}
	if !laneSaw(srv, teammateMarker, "TeammateIdle hook feedback", refusal) {
		t.Errorf("the teammate never received the artifact gate's TeammateIdle refusal")
	}
	if !laneSaw(srv, teammateMarker, "TeammateIdle hook feedback", "Next task: #2 [Check] parser: review the tests") {
		t.Errorf("the teammate never received next-task's hand-over of task #2")
	}
	if got := idleOutcomes(t, project); !hasSequence(got, wantIdleSequence) {
		t.Errorf("TeammateIdle outcomes = %v, want %v in order", got, wantIdleSequence)
	}
	if _, err := os.Stat(filepath.Join(project, ".agent", "teams", team, "alice", "L2-summary.md")); err != nil {
		t.Errorf("the teammate's deliverables are missing: %v", err)
	}
	// Team status: the idle that went through is recorded at the project
	// root, seen today.
	st, err := teamstate.Load(project, team)
	if alice := st.Teammates["alice"]; err != nil || alice == nil || time.Since(alice.LastSeen) > time.Hour || alice.LastEvent == "" {
		t.Errorf("team status of alice = %+v, %v: want her recorded, seen now", alice, err)
	}
}

// TestTeamsInteractive drives a real agent team on the newest release in
// an interactive session under tmux (2.1.330 starts no teammate in -p): the
// scenario team-interactive (internal/compatsuite runs it too), checked here down
// to the payloads.
func TestTeamsInteractive(t *testing.T) {
	if testing.Short() {
		t.Skip("live tier: needs real Claude Code")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("live tier: tmux not installed; the interactive team run needs it")
	}
	Available(t)
	const version = "2.1.330"
	// The implicit team is named after the session: session-<first 8 of
	// its id>. The scenario fixes the id (--session-id), so the team's
	// folder can exist beforehand.
	const team = "session-5e55104a"
	sc := loadTeamScenario(t, "team-interactive")
	claude := installT(t, version)
	project, home := filepath.Join(t.TempDir(), "project"), filepath.Join(t.TempDir(), "home")
	writeFiles(t, project, sc.Files)
	srv := modelapi.New(sc.script())
	srv.LogDir = requestLogDir(t)
	srv.Start()
	t.Cleanup(srv.Close)
	// Done once the teammate was let go and the lead heard of it.
	done := func() bool {
		return hasSequence(idleOutcomes(t, project), wantIdleSequence) && laneSaw(srv, "", "idle_notification")
	}
	args := append([]string{"--plugin-dir", teamPlugin(t, version), "--allowedTools", strings.Join(sc.AllowedTools, ","), "--debug"}, sc.Args...)
	res, err := RunInteractive(context.Background(), InteractiveOptions{
		Claude: claude, Prompt: "Run the scripted steps.", BaseURL: srv.URL(), Args: args,
		Env: sc.Env, Home: home, Dir: project, Done: done, Timeout: 150 * time.Second,
	})
	if err != nil {
		t.Fatalf("interactive run: %v\nTeammateIdle outcomes: %v\nrequests logged in %s", err, idleOutcomes(t, project), srv.LogDir)
	}
	requireRegistered(t, res)
	checkTeamRun(t, srv, project, team, 5, 6)
	if !laneSaw(srv, "", "idle_notification") {
		t.Errorf("the lead never saw the teammate's idle notification")
	}
}
