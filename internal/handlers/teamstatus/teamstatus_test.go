package teamstatus

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	tm "github.com/hookwright/hookwright/internal/state/team"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func idle(team, mate string) hooks.Input {
	e := &hooks.TeammateIdle{Team: hooks.Team{TeamName: team, TeammateName: mate}}
	e.HookEventName, e.SessionID = hooks.EventTeammateIdle, "s"
	return e
}

func completed(team, mate, id string) hooks.Input {
	e := &hooks.TaskCompleted{Team: hooks.Team{TeamName: team, TeammateName: mate}, Task: hooks.Task{TaskID: id}}
	e.HookEventName, e.SessionID = hooks.EventTaskCompleted, "s"
	return e
}

func TestRecorder(t *testing.T) {
	type want struct {
		mate, state, event, task string
	}
	tests := []struct {
		name   string
		events []hooks.Input
		off    bool
		want   []want
		none   bool // no team file at all
		errs   bool
	}{
		{name: "an idle marks idle", events: []hooks.Input{idle("core", "alice")}, want: []want{{"alice", tm.Idle, "TeammateIdle", "#2 [Do] x: in progress"}}},
		{name: "a completion marks active", events: []hooks.Input{idle("core", "alice"), completed("core", "alice", "1")},
			want: []want{{"alice", tm.Active, "TaskCompleted", "#2 [Do] x: in progress"}}},
		{name: "teammates are kept apart", events: []hooks.Input{idle("core", "alice"), completed("core", "bob", "3")},
			want: []want{{"alice", tm.Idle, "TeammateIdle", "#2 [Do] x: in progress"}, {"bob", tm.Active, "TaskCompleted", "#4 bob's pending"}}},
		{name: "not a team session", events: []hooks.Input{idle("", ""), idle("core", "")}, none: true},
		{name: "other events", events: []hooks.Input{&hooks.Stop{}}, none: true},
		{name: "disabled", events: []hooks.Input{idle("core", "alice")}, off: true, none: true},
		{name: "unsafe team", events: []hooks.Input{idle("../x", "alice")}, none: true},
		{name: "unsafe teammate", events: []hooks.Input{idle("core", "a/b")}, none: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, cc := t.TempDir(), t.TempDir()
			for _, tk := range []map[string]any{
				{"id": "1", "subject": "done", "status": "completed", "owner": "alice"},
				{"id": "2", "subject": "[Do] x: in progress\nmore", "status": "in_progress", "owner": "alice"},
				{"id": "3", "subject": "alice's pending", "status": "pending", "owner": "alice"},
				{"id": "4", "subject": "bob's pending", "status": "pending", "owner": "bob"},
			} {
				data, _ := json.Marshal(tk)
				os.MkdirAll(filepath.Join(cc, "tasks", "core"), 0o755)
				os.WriteFile(filepath.Join(cc, "tasks", "core", tk["id"].(string)+".json"), data, 0o644)
			}
			env := project.Env{Now: func() time.Time { return t0 }, Getenv: func(k string) string {
				if k == "CLAUDE_CONFIG_DIR" {
					return cc
				}
				return ""
			}}
			r := New(call.New(call.Spec{Root: dir, Env: env, Config: config.Config{Team: config.Team{Enabled: !tt.off}}}))
			var lastErr error
			for _, ev := range tt.events {
				res, err := r.Handle(context.Background(), ev)
				if !res.Empty() {
					t.Errorf("the recorder answered %+v; it must only record", res)
				}
				lastErr = err
			}
			if (lastErr != nil) != tt.errs {
				t.Fatalf("err = %v, want error %v", lastErr, tt.errs)
			}
			all, err := tm.LoadAll(dir)
			if err != nil {
				t.Fatal(err)
			}
			if tt.none {
				if len(all) != 0 {
					t.Fatalf("team files written: %+v", all)
				}
				return
			}
			if len(all) != 1 || all[0].Team != "core" {
				t.Fatalf("teams: %+v", all)
			}
			for _, w := range tt.want {
				m := all[0].Teammates[w.mate]
				if m == nil || m.State != w.state || m.LastEvent != w.event || m.OpenTask != w.task || !m.LastSeen.Equal(t0) {
					t.Errorf("%s: %+v, want %+v", w.mate, m, w)
				}
			}
		})
	}
}
