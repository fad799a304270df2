package builtin

import (
	"bytes"
	"context"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
)

// The benchmarks behind MoAI's SPEC-HOOK-001 budgets (section 4.7): JSON
// parse < 1 ms, serialize < 1 ms, the contract check < 1 ms, each handler
// < 100 ms, the whole dispatch < 200 ms. `make bench` runs them and prints
// each beside its budget (cmd/hookbench/budgets).

// benchInputs are one input per event the built-in handlers serve, as
// Claude Code sends them; $PROJECT is the project folder.
var benchInputs = []struct {
	name    string
	event   hooks.Event
	payload string
}{
	{"PreToolUse-Bash", hooks.EventPreToolUse, `{"session_id":"bench","transcript_path":"/nowhere","cwd":"$PROJECT/src","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main && rm -rf ~/x | sh -c 'cat ~/.ssh/id_rsa'","description":"d"},"tool_use_id":"t1"}`},
	{"PreToolUse-Write", hooks.EventPreToolUse, `{"session_id":"bench","cwd":"$PROJECT","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"$PROJECT/src/a.go","content":"package a\n"},"tool_use_id":"t2"}`},
	{"PreToolUse-WebFetch", hooks.EventPreToolUse, `{"session_id":"bench","cwd":"$PROJECT","hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://docs.example.com/x","prompt":"p"},"tool_use_id":"t3"}`},
	{"PostToolUse", hooks.EventPostToolUse, `{"session_id":"bench","cwd":"$PROJECT","hook_event_name":"PostToolUse","tool_name":"TaskUpdate","tool_input":{"taskId":"3","status":"in_progress"},"tool_response":{"success":true,"taskId":"3","updatedFields":["status"],"statusChange":{"from":"pending","to":"in_progress"}},"duration_ms":3}`},
	{"PostToolUseFailure", hooks.EventPostToolUseFailure, `{"session_id":"bench","cwd":"$PROJECT","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"false"},"error":"exit 1"}`},
	{"SessionStart", hooks.EventSessionStart, `{"session_id":"bench","cwd":"$PROJECT","hook_event_name":"SessionStart","source":"startup"}`},
	{"SessionEnd", hooks.EventSessionEnd, `{"session_id":"bench","cwd":"$PROJECT","hook_event_name":"SessionEnd","reason":"other"}`},
	{"SubagentStart", hooks.EventSubagentStart, `{"session_id":"bench","cwd":"$PROJECT","hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"Explore"}`},
	{"SubagentStop", hooks.EventSubagentStop, `{"session_id":"bench","cwd":"$PROJECT","hook_event_name":"SubagentStop","agent_type":"Explore","stop_hook_active":false}`},
	{"Stop", hooks.EventStop, `{"session_id":"bench","cwd":"$PROJECT","hook_event_name":"Stop","stop_hook_active":false}`},
	{"TeammateIdle", hooks.EventTeammateIdle, `{"session_id":"bench","cwd":"$PROJECT","hook_event_name":"TeammateIdle","teammate_name":"alice","team_name":"core"}`},
	{"TaskCompleted", hooks.EventTaskCompleted, `{"session_id":"bench","cwd":"$PROJECT","hook_event_name":"TaskCompleted","task_id":"3","task_subject":"[Do] parser: write it","task_description":"d","teammate_name":"alice","team_name":"core"}`},
	{"PreCompact", hooks.EventPreCompact, `{"session_id":"bench","cwd":"$PROJECT","hook_event_name":"PreCompact","trigger":"auto","custom_instructions":""}`},
}

// benchProject is a project folder with a config that turns on what the
// defaults leave off (the tool policy, the strict work mode) and a HOME.
func benchProject(b *testing.B) (dir string, cfg config.Config, env project.Env) {
	b.Helper()
	dir = b.TempDir()
	home := filepath.Join(dir, "home")
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	cfg = config.Default()
	cfg.Guard.Tools = map[string]string{"WebFetch(domain:*.example.com)": "deny", "mcp__github__*": "ask", "Task": "allow"}
	vars := map[string]string{"CLAUDE_PROJECT_DIR": dir, "HOME": home}
	env = project.Env{Getenv: func(k string) string { return vars[k] }, Now: time.Now}
	return dir, cfg, env
}

func benchInput(b *testing.B, dir, payload string, event hooks.Event) ([]byte, hooks.Input) {
	b.Helper()
	data := []byte(strings.ReplaceAll(payload, "$PROJECT", dir))
	in, err := hooks.Decode(data, event)
	if err != nil {
		b.Fatal(err)
	}
	return data, in
}

// BenchmarkParse: reading the event from stdin and decoding it (budget
// 1 ms).
func BenchmarkParse(b *testing.B) {
	dir, _, _ := benchProject(b)
	for _, bi := range benchInputs[:1] {
		data, _ := benchInput(b, dir, bi.payload, bi.event)
		b.Run(bi.name, func(b *testing.B) {
			for b.Loop() {
				raw, err := hooks.Read(bytes.NewReader(data), hooks.ReadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := hooks.Decode(raw, bi.event); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSerialize: writing the answer (budget 1 ms).
func BenchmarkSerialize(b *testing.B) {
	band, err := hooks.ParseBand("2.1.33")
	if err != nil {
		b.Fatal(err)
	}
	res := hooks.Result{Decision: hooks.Ask, Reason: "hookwright guard: " + strings.Repeat("a reason ", 20), Context: "context"}
	for b.Loop() {
		hooks.Emit(io.Discard, io.Discard, hooks.EventPreToolUse, res, band)
	}
}

// BenchmarkContract: the hook contract check (budget 1 ms).
func BenchmarkContract(b *testing.B) {
	dir, _, env := benchProject(b)
	_, in := benchInput(b, dir, benchInputs[0].payload, benchInputs[0].event)
	c := hooks.Contract{RequireProject: true}
	for b.Loop() {
		if err := c.Check(in, env.Getenv); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandler: each built-in handler on its event (budget 100 ms).
func BenchmarkHandler(b *testing.B) {
	dir, cfg, env := benchProject(b)
	ctx := context.Background()
	for _, bi := range benchInputs {
		_, in := benchInput(b, dir, bi.payload, bi.event)
		for _, r := range For(call.New(call.Spec{Root: dir, Env: env, Config: cfg}), bi.event).Match(bi.event, in.MatchTarget()) {
			b.Run(bi.name+"/"+r.Name, func(b *testing.B) {
				for b.Loop() {
					r.Handler.Handle(ctx, in)
				}
			})
		}
	}
}

// BenchmarkDispatch: every handler of the event, as one call runs them
// (budget 200 ms).
func BenchmarkDispatch(b *testing.B) {
	dir, cfg, env := benchProject(b)
	ctx := context.Background()
	for _, bi := range benchInputs {
		_, in := benchInput(b, dir, bi.payload, bi.event)
		m := For(call.New(call.Spec{Root: dir, Env: env, Config: cfg}), bi.event)
		b.Run(bi.name, func(b *testing.B) {
			for b.Loop() {
				m.Dispatch(ctx, in)
			}
		})
	}
}
