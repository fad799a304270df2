package pdca_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/handlers/pdca"
	"github.com/hookwright/hookwright/internal/runtime/tasklist"
)

func writeTasks(t *testing.T, dir string, tasks ...tasklist.Task) {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	for _, tk := range tasks {
		if tk.BlockedBy == nil {
			tk.BlockedBy = []string{}
		}
		data, _ := json.Marshal(tk)
		os.WriteFile(filepath.Join(dir, tk.ID+".json"), data, 0o644)
	}
}

func TestNextTask(t *testing.T) {
	tests := []struct {
		name  string
		tasks []tasklist.Task
		want  string // substring of the block reason; "" means no block
	}{
		{"nothing to do", []tasklist.Task{{ID: "1", Subject: "a", Status: "completed"}}, ""},
		{"own task in progress", []tasklist.Task{
			{ID: "1", Subject: "[Do] f: one", Status: "pending"},
			{ID: "2", Subject: "[Do] f: two", Status: "in_progress", Owner: "bob"},
		}, "Next task: #2 [Do] f: two\nIt is still in progress"},
		{"own pending before unowned", []tasklist.Task{
			{ID: "1", Subject: "free", Status: "pending"},
			{ID: "2", Subject: "mine", Status: "pending", Owner: "bob"},
		}, "Next task: #2 mine\nStart it"},
		{"unowned ready", []tasklist.Task{
			{ID: "1", Subject: "theirs", Status: "pending", Owner: "alice"},
			{ID: "2", Subject: "blocked", Status: "pending", BlockedBy: []string{"3"}},
			{ID: "3", Subject: "free", Status: "pending", Description: "do the thing"},
		}, "Next task: #3 free\nClaim it with TaskUpdate (taskId \"3\", status \"in_progress\", owner \"bob\")"},
		{"blocked by completed is ready", []tasklist.Task{
			{ID: "1", Subject: "done", Status: "completed"},
			{ID: "10", Subject: "after", Status: "pending", BlockedBy: []string{"1"}},
		}, "#10 after"},
		{"only blocked or others'", []tasklist.Task{
			{ID: "1", Subject: "x", Status: "pending", BlockedBy: []string{"2"}},
			{ID: "2", Subject: "y", Status: "in_progress", Owner: "alice"},
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, project := t.TempDir(), t.TempDir()
			writeTasks(t, filepath.Join(home, ".claude", "tasks", "my-team"), tt.tasks...)
			h := pdca.NextTask{Config: pdcaOn(), Dir: project, Getenv: func(k string) string {
				if k == "HOME" {
					return home
				}
				return ""
			}}
			ev := &hooks.TeammateIdle{Common: hooks.Common{SessionID: "s", HookEventName: hooks.EventTeammateIdle}}
			ev.TeammateName, ev.TeamName = "bob", "my team" // sanitized to my-team, as Claude Code does
			for round := 1; round <= pdca.MaxNudges+1; round++ {
				res, err := h.Handle(context.Background(), ev)
				if err != nil {
					t.Fatal(err)
				}
				want := tt.want != "" && round <= pdca.MaxNudges
				if got := res.Decision == hooks.Block; got != want || want && !strings.Contains(res.Reason, tt.want) {
					t.Fatalf("round %d: %+v, want block=%v with %q", round, res, want, tt.want)
				}
			}
		})
	}
}

func TestNextTaskOutsideTeam(t *testing.T) {
	h := pdca.NextTask{Config: pdcaOn(), Dir: t.TempDir(), Getenv: func(string) string { return "" }}
	for _, team := range []hooks.Team{{}, {TeamName: "t"}} { // no team; the lead
		ev := &hooks.TeammateIdle{Team: team}
		if res, err := h.Handle(context.Background(), ev); !res.Empty() || err != nil {
			t.Errorf("%+v: %+v %v", team, res, err)
		}
	}
}

// A teammate named by the CLAUDE_CODE_TEAM_NAME override: Claude Code keeps
// its tasks under the session's list, since it does not read the override.
func TestNextTaskFindsTheSessionList(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	writeTasks(t, filepath.Join(home, ".claude", "tasks", "sess-1"), tasklist.Task{ID: "1", Subject: "[Check] parser: review", Status: "pending"})
	h := pdca.NextTask{Config: pdcaOn(), Dir: project, Getenv: func(k string) string {
		return map[string]string{"HOME": home}[k]
	}}
	ev := &hooks.TeammateIdle{Common: hooks.Common{SessionID: "sess-1", HookEventName: hooks.EventTeammateIdle}}
	ev.TeammateName, ev.TeamName = "alice", "core"
	res, err := h.Handle(context.Background(), ev)
	if err != nil || res.Decision != hooks.Block || !strings.Contains(res.Reason, "Next task: #1 [Check] parser: review") {
		t.Fatalf("got %+v, %v", res, err)
	}
}
