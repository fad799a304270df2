package work_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/handlers/work"
	"github.com/hookwright/hookwright/internal/runtime/config"
	state "github.com/hookwright/hookwright/internal/state/work"
)

var noEnv = func(string) string { return "" }

func pre(session, tool string) *hooks.PreToolUse {
	return &hooks.PreToolUse{
		Common:   hooks.Common{SessionID: session, HookEventName: hooks.EventPreToolUse},
		ToolCall: hooks.ToolCall{ToolName: tool, ToolInput: json.RawMessage(`{"file_path":"a.go"}`)},
	}
}

// taskUpdate is the PostToolUse shape observed on 2.1.32 and 2.1.33.
func taskUpdate(session, id, from, to string) *hooks.PostToolUse {
	return &hooks.PostToolUse{
		Common:       hooks.Common{SessionID: session, HookEventName: hooks.EventPostToolUse},
		ToolCall:     hooks.ToolCall{ToolName: "TaskUpdate", ToolInput: json.RawMessage(`{"taskId":"` + id + `","status":"` + to + `"}`)},
		ToolResponse: json.RawMessage(`{"success":true,"taskId":"` + id + `","updatedFields":["status"],"statusChange":{"from":"` + from + `","to":"` + to + `"}}`),
	}
}

func TestGateModes(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		mode      config.WorkMode
		tool      string
		wantBlock bool
		wantWarn  bool
	}{
		{config.WorkStrict, "Write", true, false},
		{config.WorkStrict, "MultiEdit", true, false},
		{config.WorkStrict, "Bash", false, false},
		{config.WorkWarn, "Edit", false, true},
		{config.WorkOff, "Write", false, false},
	} {
		dir := t.TempDir()
		g := work.Gate{Config: config.Work{Mode: tt.mode}, Dir: dir, Getenv: noEnv}
		res, err := g.Handle(ctx, pre("s1", tt.tool))
		if err != nil {
			t.Fatal(err)
		}
		if (res.Decision == hooks.Block) != tt.wantBlock || (res.Context != "") != tt.wantWarn {
			t.Errorf("%s %s: %+v", tt.mode, tt.tool, res)
		}
		if tt.wantBlock && !strings.Contains(res.Reason, "hwctl work start") {
			t.Errorf("block does not say how to start: %q", res.Reason)
		}
		if tt.wantWarn {
			if again, _ := g.Handle(ctx, pre("s1", tt.tool)); !again.Empty() {
				t.Errorf("warned twice in one session: %+v", again)
			}
			if other, _ := g.Handle(ctx, pre("s2", tt.tool)); other.Context == "" {
				t.Errorf("another session not warned")
			}
		}
	}
}

func TestTaskUnitLifecycle(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cfg := config.Work{Mode: config.WorkStrict}
	g := work.Gate{Config: cfg, Dir: dir, Getenv: noEnv}
	o := work.Observer{Config: cfg, Dir: dir, Getenv: noEnv}
	blocked := func(session string) bool {
		res, err := g.Handle(ctx, pre(session, "Write"))
		if err != nil {
			t.Fatal(err)
		}
		return res.Decision == hooks.Block
	}
	if !blocked("s1") {
		t.Fatal("no unit, not blocked")
	}
	o.Handle(ctx, taskUpdate("s1", "1", "pending", "in_progress"))
	if blocked("s1") {
		t.Fatal("task in progress, still blocked")
	}
	if !blocked("s2") {
		t.Fatal("another session's task covered s2")
	}
	o.Handle(ctx, taskUpdate("s1", "1", "in_progress", "completed"))
	if !blocked("s1") {
		t.Fatal("completed task still counts")
	}
	// A failed update (a TaskCompleted hook blocked it) changes nothing.
	o.Handle(ctx, taskUpdate("s1", "2", "pending", "in_progress"))
	failed := taskUpdate("s1", "2", "in_progress", "completed")
	failed.ToolResponse = json.RawMessage(`{"success":false,"taskId":"2","updatedFields":[],"error":"no"}`)
	o.Handle(ctx, failed)
	if blocked("s1") {
		t.Fatal("failed completion ended the unit")
	}
	work.Ender{Dir: dir, Getenv: noEnv}.Handle(ctx, &hooks.SessionEnd{Common: hooks.Common{SessionID: "s1"}})
	if !blocked("s1") {
		t.Fatal("unit survived the session end")
	}
}

func TestManualUnit(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	g := work.Gate{Config: config.Work{Mode: config.WorkStrict}, Dir: dir, Getenv: noEnv}
	if err := state.Start(dir, "../x", time.Now()); err == nil {
		t.Fatal("unsafe name accepted")
	}
	if err := state.Start(dir, "hotfix", time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"a", "b"} {
		if res, _ := g.Handle(ctx, pre(s, "Edit")); !res.Empty() {
			t.Fatalf("manual unit does not cover %s: %+v", s, res)
		}
	}
	if ok, err := state.Stop(dir, "hotfix"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if ok, _ := state.Stop(dir, "hotfix"); ok {
		t.Fatal("stopped twice")
	}
	if res, _ := g.Handle(ctx, pre("a", "Edit")); res.Decision != hooks.Block {
		t.Fatal("stopped unit still covers")
	}
}
