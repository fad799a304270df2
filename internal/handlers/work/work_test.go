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
		{config.WorkStrict, "NotebookEdit", true, false},
		{config.WorkStrict, "Read", false, false},
		{config.WorkWarn, "Edit", false, true},
		{config.WorkOff, "Write", false, false},
	} {
		dir := t.TempDir()
		g := work.Gate{Config: config.Work{Mode: tt.mode, AutoCreate: true}, Dir: dir, Getenv: noEnv}
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

func bash(session, cwd, command string) *hooks.PreToolUse {
	in, _ := json.Marshal(map[string]string{"command": command})
	return &hooks.PreToolUse{
		Common:   hooks.Common{SessionID: session, Cwd: cwd, HookEventName: hooks.EventPreToolUse},
		ToolCall: hooks.ToolCall{ToolName: "Bash", ToolInput: in},
	}
}

// Strict mode covers every tool that edits the project: the file tools,
// NotebookEdit, and Bash commands that write a file in it (redirects,
// tee, sed -i, cp, mv, rm, ...). Reading and writing elsewhere (/tmp,
// /dev/null) need no unit.
func TestStrictCoversBashWrites(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	g := work.Gate{Config: config.Work{Mode: config.WorkStrict, AutoCreate: true}, Dir: dir, Getenv: noEnv}
	for cmd, edits := range map[string]bool{
		"echo x > notes.md":                    true,
		"printf 'a' >> src/a.go":               true,
		"cat <<'EOF' > gen.go\npackage a\nEOF": true,
		"go test ./... | tee out.log":          true,
		"sed -i 's/a/b/' main.go":              true,
		"sed --in-place=.bak 's/a/b/' main.go": true,
		"perl -pi -e 's/a/b/' main.go":         true,
		"cp /tmp/x.go main.go":                 true,
		"mv a.go b.go":                         true,
		"rm -f old.go":                         true,
		"touch new.go":                         true,
		"truncate -s0 log.txt":                 true,
		"dd if=/dev/zero of=blob bs=1 count=1": true,
		"git apply fix.patch":                  true,
		"patch -p1 < fix.patch":                true,
		"cd src && echo x > a.go":              true,
		"bash -c 'echo x > a.go'":              true,
		"echo $X > \"$OUT\"":                   true,
		"ls -la":                               false,
		"go test ./... 2>&1":                   false,
		"go build ./... > /dev/null 2>&1":      false,
		"echo x > /tmp/scratch.txt":            false,
		"cp main.go /tmp/main.go.bak":          false,
		"grep -r foo . | sort | uniq -c":       false,
		"sed 's/a/b/' main.go":                 false,
		"cat main.go >&2":                      false,
		"git status && git diff":               false,
	} {
		res, err := g.Handle(ctx, bash("s1", dir, cmd))
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Decision == hooks.Block; got != edits {
			t.Errorf("%q: blocked %v, want %v (%+v)", cmd, got, edits, res)
		}
	}
}

// Warn mode records every edit outside a work unit (the journal's kind
// untracked_edit), and tells the model once per session.
func TestWarnMarksEveryUntrackedEdit(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var marks []string
	g := work.Gate{Config: config.Work{Mode: config.WorkWarn, AutoCreate: true}, Dir: dir, Getenv: noEnv, Mark: func(k string) { marks = append(marks, k) }}
	for i, in := range []hooks.Input{pre("s1", "Write"), pre("s1", "Edit"), bash("s1", dir, "echo x > a.txt"), bash("s1", dir, "ls")} {
		res, err := g.Handle(ctx, in)
		if err != nil || res.Decision == hooks.Block || (res.Context != "") != (i == 0) {
			t.Fatalf("call %d: %+v, %v", i, res, err)
		}
	}
	if strings.Join(marks, ",") != "untracked_edit,untracked_edit,untracked_edit" {
		t.Fatalf("marks = %q, want three untracked edits (not the ls)", marks)
	}
	if err := state.Start(dir, "parser", time.Now()); err != nil {
		t.Fatal(err)
	}
	marks = nil
	if res, _ := g.Handle(ctx, pre("s1", "Write")); !res.Empty() || len(marks) != 0 {
		t.Fatalf("inside a unit: %+v, marks %q", res, marks)
	}
}

// auto_create (PAL Kit's tracking.auto_create) decides whether a strict
// block proposes a ready command with a generated unit id.
func TestAutoCreate(t *testing.T) {
	ctx := context.Background()
	for _, auto := range []bool{true, false} {
		g := work.Gate{Config: config.Work{Mode: config.WorkStrict, AutoCreate: auto}, Dir: t.TempDir(), Getenv: noEnv}
		res, _ := g.Handle(ctx, pre("s1", "Write"))
		proposes := strings.Contains(res.Reason, "run: hwctl work start "+work.UnitID("s1"))
		if res.Decision != hooks.Block || proposes != auto || !strings.Contains(res.Reason, "hwctl work start") {
			t.Errorf("auto_create %v: %q", auto, res.Reason)
		}
	}
}

// FuzzBashEdits: any command line is read without a panic, and a line
// with no redirection and no program at all edits nothing.
func FuzzBashEdits(f *testing.F) {
	for _, s := range []string{"echo x > a", "sed -i s/a/b/ f", "cp -t", "dd of=", "cd .. && rm -rf x", "patch", "$(", "'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		edits := work.BashEdits(cmd, "/p/src", "/p")
		if strings.TrimSpace(cmd) == "" && edits {
			t.Fatalf("an empty line edits")
		}
	})
}
