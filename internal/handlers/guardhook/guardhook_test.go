package guardhook

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/guard"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
)

const (
	testProject = "/home/u/proj"
	home        = "/home/u"
)

// newTest is the handler of a hook call in testProject, for a guard that is on
// with cfg's other settings.
func newTest(cfg config.Guard) Handler {
	cfg.Enabled = true
	if cfg.Level == "" {
		cfg.Level = config.GuardStandard
	}
	if cfg.Fail == "" {
		cfg.Fail = config.FailOpen
	}
	c := config.Default()
	c.Guard = cfg
	env := map[string]string{"HOME": home, "TMPDIR": "/tmp"}
	return New(call.New(call.Spec{Root: testProject, Config: c, Env: project.Env{Getenv: func(k string) string { return env[k] }}}))
}

func TestHandle(t *testing.T) {
	in := func(tool string, input string) hooks.Input {
		return &hooks.PreToolUse{Common: hooks.Common{Cwd: testProject, HookEventName: hooks.EventPreToolUse},
			ToolCall: hooks.ToolCall{ToolName: tool, ToolInput: json.RawMessage(input)}}
	}
	on := newTest(config.Guard{})
	r, err := on.Handle(context.Background(), in("Bash", `{"command":"git push -f"}`))
	if err != nil || r.Decision != hooks.Block || !strings.HasPrefix(r.Reason, "hookwright guard: ") || !strings.Contains(r.Reason, "rule git-force-push") {
		t.Fatalf("got %+v, %v", r, err)
	}
	// A look-alike key in another case does not hide the real one.
	r, _ = on.Handle(context.Background(), in("Bash", `{"command":"rm -rf /","COMMAND":"echo hi"}`))
	if r.Decision != hooks.Block {
		t.Fatalf("COMMAND hid command: %+v", r)
	}
	r, _ = on.Handle(context.Background(), in("Bash", `{"Command":"rm -rf /","command":"echo hi"}`))
	if r.Decision != hooks.None {
		t.Fatalf("Command (not the key Claude Code acts on) was judged: %+v", r)
	}
	r, _ = on.Handle(context.Background(), in("Read", `{"file_path":"/home/u/proj/a.go","FILE_PATH":"/home/u/.ssh/id_rsa"}`))
	if r.Decision != hooks.None {
		t.Fatalf("FILE_PATH was read: %+v", r)
	}
	r, _ = on.Handle(context.Background(), in("Read", `{"FILE_PATH":"/home/u/proj/a.go","file_path":"/home/u/.ssh/id_rsa"}`))
	if r.Decision != hooks.Block {
		t.Fatalf("file_path hidden by FILE_PATH: %+v", r)
	}
	r, _ = on.Handle(context.Background(), in("Bash", `{"command":"git branch -D x"}`))
	if r.Decision != hooks.Ask || !strings.Contains(r.Reason, "git-branch-force-delete") {
		t.Fatalf("ask: %+v", r)
	}
	off := Handler{guard.New(config.Guard{Enabled: false})}
	if r, _ := off.Handle(context.Background(), in("Bash", `{"command":"git push -f"}`)); r.Decision != hooks.None {
		t.Fatalf("disabled guard blocked: %+v", r)
	}
	if _, err := on.Handle(context.Background(), in("Bash", `"not an object"`)); err == nil {
		t.Fatal("bad tool input gave no error with fail open (the mux would not report it)")
	}
	closed := newTest(config.Guard{Fail: config.FailClosed})
	if r, err := closed.Handle(context.Background(), in("Bash", `"not an object"`)); err != nil || r.Decision != hooks.Block {
		t.Fatalf("fail closed on bad input: %+v, %v", r, err)
	}
}

// The handler keeps the guard's fail-closed policy, for the mux.
func TestFailClosed(t *testing.T) {
	if newTest(config.Guard{}).FailClosed() {
		t.Error("fail open said closed")
	}
	if !newTest(config.Guard{Fail: config.FailClosed}).FailClosed() {
		t.Error("fail closed said open")
	}
	if (Handler{guard.New(config.Guard{Fail: config.FailClosed})}).FailClosed() {
		t.Error("a disabled guard fails closed")
	}
}
