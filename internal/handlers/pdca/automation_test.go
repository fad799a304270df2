package pdca_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/handlers/pdca"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/tasklist"
	state "github.com/hookwright/hookwright/internal/state/pdca"
	teamstatus "github.com/hookwright/hookwright/internal/state/team"
)

func completedTask(id, subject string) *hooks.TaskCompleted {
	ev := &hooks.TaskCompleted{Common: hooks.Common{SessionID: "s", HookEventName: hooks.EventTaskCompleted}}
	ev.TaskID, ev.TaskSubject = id, subject
	return ev
}

// TestAutomation: manual records and says nothing; semi records and names
// the next phase; full also says next-task offers it.
func TestAutomation(t *testing.T) {
	tests := []struct {
		level   config.Automation
		subject string
		want    string // "" = no context at all
	}{
		{config.AutomationManual, "[Do] login: build", ""},
		{config.AutomationSemi, "[Do] login: build", "PDCA login: Do done; next: Check."},
		{config.AutomationFull, "[Do] login: build", "next: Check (an idle teammate is offered the next [Check] login task first)."},
		{config.AutomationFull, "[Check] login: review", "next [Act] login task"},
		{config.AutomationFull, "[Act-2] login: fix", "next [Do] login task"},
		{config.AutomationFull, "[Report] login", "PDCA login: Report done."},
		{config.AutomationSemi, "untagged work", ""},
	}
	for _, tt := range tests {
		t.Run(string(tt.level)+" "+tt.subject, func(t *testing.T) {
			project := t.TempDir()
			cfg := pdcaOn()
			cfg.Automation = tt.level
			a := pdca.Advancer{Config: cfg, Dir: project, Getenv: func(string) string { return "" }, Now: func() time.Time { return t0 }}
			res, err := a.Handle(context.Background(), completedTask("1", tt.subject))
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" && res.Context != "" || !strings.Contains(res.Context, tt.want) {
				t.Errorf("context %q, want %q", res.Context, tt.want)
			}
			_, statErr := os.Stat(filepath.Join(project, cfg.State))
			if tagged := strings.HasPrefix(tt.subject, "["); tagged != (statErr == nil) {
				t.Errorf("state written = %v, want %v (every level records)", statErr == nil, tagged)
			}
		})
	}
}

// TestNextTaskFullAutomation: in full, an idle teammate is offered the
// ready task of a feature's next phase before any other; in semi, the
// usual order holds.
func TestNextTaskFullAutomation(t *testing.T) {
	tasks := []tasklist.Task{
		{ID: "1", Subject: "[Do] login: build", Status: "completed"},
		{ID: "2", Subject: "unrelated chore", Status: "pending"},
		{ID: "3", Subject: "[Check] login: review", Status: "pending"},
		{ID: "4", Subject: "[Check] other: review", Status: "pending"},
	}
	for _, tt := range []struct {
		level config.Automation
		want  string
	}{{config.AutomationSemi, "#2 unrelated chore"}, {config.AutomationFull, "#3 [Check] login: review"}} {
		t.Run(string(tt.level), func(t *testing.T) {
			home, project := t.TempDir(), t.TempDir()
			writeTasks(t, filepath.Join(home, ".claude", "tasks", "core"), tasks...)
			cfg := pdcaOn()
			cfg.Automation = tt.level
			tag, _, _ := state.Parse("[Do] login: build")
			state.Record(filepath.Join(project, cfg.State), tag, "core/1", "[Do] login: build", t0)
			h := pdca.NextTask{Config: cfg, Dir: project, Getenv: func(k string) string {
				if k == "HOME" {
					return home
				}
				return ""
			}}
			ev := &hooks.TeammateIdle{Common: hooks.Common{SessionID: "s", HookEventName: hooks.EventTeammateIdle}}
			ev.TeammateName, ev.TeamName = "bob", "core"
			res, err := h.Handle(context.Background(), ev)
			if err != nil || !strings.Contains(res.Reason, tt.want) {
				t.Fatalf("%+v, %v; want %q", res, err, tt.want)
			}
		})
	}
}

// TestNextTaskSkipsTasksTakenByActiveTeammates: a task another active
// teammate has open (by the team status) is not offered; an idle
// teammate's open task is.
func TestNextTaskSkipsTasksTakenByActiveTeammates(t *testing.T) {
	tasks := []tasklist.Task{
		{ID: "1", Subject: "first", Status: "pending"},
		{ID: "2", Subject: "second", Status: "pending"},
	}
	for _, tt := range []struct {
		name, aliceState, want string
	}{{"alice active on #1", teamstatus.Active, "#2 second"}, {"alice idle on #1", teamstatus.Idle, "#1 first"}} {
		t.Run(tt.name, func(t *testing.T) {
			home, project := t.TempDir(), t.TempDir()
			writeTasks(t, filepath.Join(home, ".claude", "tasks", "core"), tasks...)
			team := hooks.Team{TeamName: "core", TeammateName: "alice"}
			if err := teamstatus.Set(project, team, teamstatus.Teammate{State: tt.aliceState, TaskID: "1", LastSeen: t0}); err != nil {
				t.Fatal(err)
			}
			h := pdca.NextTask{Config: pdcaOn(), Dir: project, Getenv: func(k string) string {
				if k == "HOME" {
					return home
				}
				return ""
			}}
			ev := &hooks.TeammateIdle{Common: hooks.Common{SessionID: "s", HookEventName: hooks.EventTeammateIdle}}
			ev.TeammateName, ev.TeamName = "bob", "core"
			res, err := h.Handle(context.Background(), ev)
			if err != nil || !strings.Contains(res.Reason, tt.want) {
				t.Fatalf("%+v, %v; want %q", res, err, tt.want)
			}
		})
	}
}
