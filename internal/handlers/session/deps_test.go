package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookwright/hookwright/hooks"
)

// A completed task that was the last blocker of a pending task marks the
// call dependency_resolved (PAL Kit's typed event); one that unblocks
// nothing, or leaves a blocker open, marks nothing. The task file may
// still say in_progress (native TaskCompleted fires before the update).
func TestDependencies(t *testing.T) {
	cfg := t.TempDir()
	list := filepath.Join(cfg, "tasks", "s1")
	if err := os.MkdirAll(list, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, task := range []map[string]any{
		{"id": "1", "subject": "[Plan] login", "status": "in_progress", "blocks": []string{"3"}, "blockedBy": []string{}},
		{"id": "2", "subject": "[Design] login", "status": "pending", "blocks": []string{"4"}, "blockedBy": []string{}},
		{"id": "3", "subject": "[Do] login", "status": "pending", "blocks": []string{}, "blockedBy": []string{"1"}},
		{"id": "4", "subject": "[Check] login", "status": "pending", "blocks": []string{}, "blockedBy": []string{"2", "5"}},
		{"id": "5", "subject": "other", "status": "pending", "blocks": []string{"4"}, "blockedBy": []string{}},
	} {
		data, _ := json.Marshal(task)
		if err := os.WriteFile(filepath.Join(list, task["id"].(string)+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return cfg
		}
		return ""
	}
	for id, want := range map[string]string{"1": "dependency_resolved", "2": "", "5": "", "9": ""} {
		var got string
		d := Dependencies{Getenv: getenv, Mark: func(k string) { got = k }}
		in := &hooks.TaskCompleted{Common: hooks.Common{SessionID: "s1", HookEventName: hooks.EventTaskCompleted}}
		in.TaskID = id
		res, err := d.Handle(context.Background(), in)
		if err != nil || !res.Empty() || got != want {
			t.Errorf("task %s: mark %q, want %q (%+v, %v)", id, got, want, res, err)
		}
	}
}
