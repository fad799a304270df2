package hooks

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/testkit"
)

// runT runs one call through r with stdin and the environment env.
func runT(t *testing.T, r *Runner, env map[string]string, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if r.Getenv == nil {
		r.Getenv = func(k string) string { return env[k] }
	}
	var out, errb testkit.SyncBuffer
	code = r.Run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// A handler that ignores its context cannot hold the call: the runner
// answers in its place after the deadline (here 10 ms) and names it, and
// Run returns though the handler never does.
func TestRunnerAnswersForAHandlerThatNeverReturns(t *testing.T) {
	never := make(chan struct{})
	defer close(never)
	for _, closed := range []bool{false, true} {
		m := new(Mux)
		On(m, "", func(context.Context, *Stop) (Result, error) {
			<-never // ignores its context
			return Blocked("too late"), nil
		}, WithName("stuck"), WithFailCloser(policy(closed)))
		r := &Runner{Mux: m, Name: "myplugin", Timeout: 10 * time.Millisecond}
		code, stdout, stderr := runT(t, r, nil, `{"session_id":"s","hook_event_name":"Stop"}`, "Stop")
		switch {
		case !closed && (code != ExitOK || !strings.Contains(stderr, "myplugin: stuck did not return within 10ms (failed open)") || !strings.Contains(stdout, `"systemMessage":"myplugin: stuck did not return`)):
			t.Errorf("fail open: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		case closed && (code != ExitBlock || !strings.Contains(stderr, "stuck could not decide (stuck did not return within 10ms); the gate is set to fail closed")):
			t.Errorf("fail closed: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	}
}

// The fallback is the runner's: a handler written for TaskCompleted runs on
// a completing TaskUpdate with the task file's subject, not on one that
// completes nothing, and not on a release that fires TaskCompleted itself
// where the install registers it there too (--with-native).
func TestRunnerTranslatesFallbacks(t *testing.T) {
	cfg := t.TempDir()
	os.MkdirAll(filepath.Join(cfg, "tasks", "s1"), 0o755)
	os.WriteFile(filepath.Join(cfg, "tasks", "s1", "3.json"), []byte(`{"id":"3","subject":"Write the parser","description":"deliverable: parser.go","status":"completed"}`), 0o644)
	var seen []string
	m := new(Mux)
	On(m, "", func(_ context.Context, e *TaskCompleted) (Result, error) {
		seen = append(seen, e.TaskSubject)
		return Blocked("missing " + strings.TrimPrefix(e.TaskDescription, "deliverable: ")), nil
	})
	update := func(status, to string) string {
		return `{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"TaskUpdate","tool_input":{"taskId":"3","status":"` + status +
			`"},"tool_response":{"success":true,"taskId":"3","updatedFields":["status"],"statusChange":{"from":"in_progress","to":"` + to + `"}}}`
	}
	env := map[string]string{"CLAUDE_CONFIG_DIR": cfg}
	code, stdout, stderr := runT(t, &Runner{Mux: m}, env, update("completed", "completed"), "TaskCompleted", "--via", "PostToolUse", "--proto", "2.1.16")
	if code != ExitBlock || stderr != "missing parser.go\n" || stdout != "" {
		t.Errorf("completing TaskUpdate: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// --via alone names the canonical event through the fallback plan.
	if code, _, stderr := runT(t, &Runner{Mux: m}, env, update("completed", "completed"), "--via", "PostToolUse"); code != ExitBlock || stderr != "missing parser.go\n" {
		t.Errorf("--via alone: exit %d, stderr %q", code, stderr)
	}
	if code, stdout, stderr := runT(t, &Runner{Mux: m}, env, update("in_progress", "in_progress"), "TaskCompleted", "--via", "PostToolUse"); code != ExitOK || stdout+stderr != "" {
		t.Errorf("starting TaskUpdate: exit %d, %q %q", code, stdout, stderr)
	}
	native := map[string]string{"CLAUDE_CONFIG_DIR": cfg, "AI_AGENT": "claude-code_2-1-33_harness"}
	if code, stdout, stderr := runT(t, &Runner{Mux: m}, native, update("completed", "completed"), "TaskCompleted", "--via", "PostToolUse", "--with-native"); code != ExitOK || stdout+stderr != "" {
		t.Errorf("fallback beside a native registration, on a release with native TaskCompleted: exit %d, %q %q", code, stdout, stderr)
	}
	// Without --with-native the fallback is the plugin's only registration
	// of TaskCompleted: it gates there too.
	if code, _, stderr := runT(t, &Runner{Mux: m}, native, update("completed", "completed"), "TaskCompleted", "--via", "PostToolUse"); code != ExitBlock || stderr != "missing parser.go\n" {
		t.Errorf("the only registration, on a release with native TaskCompleted: exit %d, stderr %q", code, stderr)
	}
	if strings.Join(seen, "|") != "Write the parser|Write the parser|Write the parser" {
		t.Errorf("the handler saw %q", seen)
	}
}

// The band decides the channel: a halt on TaskCompleted is
// continue:false from 2.1.69, and a block (exit 2) below it.
func TestRunnerAnswersInTheBandsChannel(t *testing.T) {
	m := new(Mux)
	On(m, "", func(context.Context, *TaskCompleted) (Result, error) { return Halted("stop the teammate"), nil })
	in := `{"session_id":"s","hook_event_name":"TaskCompleted","task_id":"1"}`
	if code, stdout, _ := runT(t, &Runner{Mux: m}, nil, in, "TaskCompleted", "--proto", "2.1.69"); code != ExitOK || stdout != `{"continue":false,"stopReason":"stop the teammate"}`+"\n" {
		t.Errorf("2.1.69: exit %d, stdout %q", code, stdout)
	}
	if code, stdout, stderr := runT(t, &Runner{Mux: m}, nil, in, "TaskCompleted", "--proto", "2.1.33"); code != ExitBlock || stdout != "" || stderr != "stop the teammate\n" {
		t.Errorf("2.1.33: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// Nothing of ours exits 2: faults fail open with one line in the plugin's
// own name, a broken contract blocks only for a gate set to fail closed.
func TestRunnerFailsOpenOnItsOwnFaults(t *testing.T) {
	m := new(Mux)
	On(m, "Bash", func(context.Context, *PreToolUse) (Result, error) { panic("boom") }, WithName("guard"))
	in := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	code, stdout, stderr := runT(t, &Runner{Mux: m, Name: "myplugin"}, nil, in, "PreToolUse")
	if code != ExitOK || !strings.Contains(stderr, "myplugin: guard: handler panicked: boom (failed open)") || !strings.Contains(stdout, "failed open") {
		t.Errorf("panicking handler: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	prep := &Runner{Mux: m, Name: "myplugin", Prepare: func(*Call) (*Mux, error) { panic("prepare exploded") }}
	if code, _, stderr := runT(t, prep, nil, in, "PreToolUse"); code != ExitError || !strings.Contains(stderr, "myplugin: internal error: prepare exploded (failed open)") {
		t.Errorf("panicking Prepare: exit %d, stderr %q", code, stderr)
	}
	for _, c := range []struct {
		args []string
		in   string
		want string
	}{
		{[]string{"PreToolUse", "--fast"}, in, `myplugin: unknown flag "--fast" (run 'myplugin help')`},
		{[]string{"NoSuchEvent"}, in, `myplugin: unknown hook event: "NoSuchEvent" (run 'myplugin help' for the list)`},
		{[]string{"Stop"}, `{"hook_event_name":"Stop"`, "myplugin: malformed hook input"},
		{[]string{"Stop"}, in, `myplugin: hook input is for another event: input says "PreToolUse", command line says "Stop"`},
		{[]string{"--via", "PreToolUse"}, in, "myplugin: --via PreToolUse: name the canonical event too"},
	} {
		code, stdout, stderr := runT(t, &Runner{Mux: m, Name: "myplugin"}, nil, c.in, c.args...)
		if code != ExitError || stdout != "" || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 and one line %q", c.args, code, stdout, stderr, c.want)
		}
	}

	gate := new(Mux)
	On(gate, "", func(context.Context, *TaskCompleted) (Result, error) { return Result{}, nil }, WithName("deliverables"), WithFailCloser(policy(true)))
	noID := `{"session_id":"s","hook_event_name":"TaskCompleted"}`
	if code, _, stderr := runT(t, &Runner{Mux: gate}, nil, noID, "TaskCompleted"); code != ExitBlock || !strings.Contains(stderr, "deliverables could not decide (hook contract not met: the TaskCompleted input lacks task_id)") {
		t.Errorf("broken contract, closed gate: exit %d, stderr %q", code, stderr)
	}
	open := new(Mux)
	On(open, "", func(context.Context, *TaskCompleted) (Result, error) { return Blocked("ran"), nil })
	if code, stdout, stderr := runT(t, &Runner{Mux: open, Name: "p"}, nil, noID, "TaskCompleted"); code != ExitOK || !strings.Contains(stderr, "p: contract: hook contract not met") || !strings.Contains(stdout, "systemMessage") {
		t.Errorf("broken contract, open handler: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// With no event on the command line the input names it (a release before
// 2.1.139 drops an exec-form handler's args); with no input either, the
// usage, exit 1. help prints the usage with the routes, exit 0.
func TestRunnerWithoutAnEvent(t *testing.T) {
	m := new(Mux)
	On(m, "Bash", func(context.Context, *PreToolUse) (Result, error) { return Blocked("no"), nil })
	in := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	if code, _, stderr := runT(t, &Runner{Mux: m}, nil, in); code != ExitBlock || stderr != "no\n" {
		t.Errorf("event from the input: exit %d, stderr %q", code, stderr)
	}
	for _, stdin := range []string{"", `{"hook_event_name":"pretooluse"}`, "not json"} {
		if code, _, stderr := runT(t, &Runner{Mux: m, Name: "p"}, nil, stdin); code != ExitError || !strings.Contains(stderr, "usage: p [<Event>]") {
			t.Errorf("stdin %q: exit %d, stderr %q", stdin, code, stderr)
		}
	}
	if code, _, stderr := runT(t, &Runner{Mux: m, Name: "p"}, nil, "", "help"); code != ExitOK || !strings.Contains(stderr, "Handles: PreToolUse[Bash].") {
		t.Errorf("help: exit %d, stderr %q", code, stderr)
	}
}

// Prepare builds the call's mux and may extend the deadline and add
// notes; Finish sees the answer. Notes go beside a result that does not
// block, and are left out of a block.
func TestRunnerPrepareAndFinish(t *testing.T) {
	var got Outcome
	var call *Call
	r := &Runner{Name: "p", Timeout: time.Second,
		Prepare: func(c *Call) (*Mux, error) {
			c.Note("p: config note")
			c.Extend(time.Hour)
			m := new(Mux)
			On(m, "", func(ctx context.Context, _ *SessionStart) (Result, error) {
				if d, _ := ctx.Deadline(); time.Until(d) < 30*time.Minute {
					return Result{}, errors.New("the deadline was not extended")
				}
				return Context("hello"), nil
			})
			return m, nil
		},
		Finish: func(c *Call, o Outcome) { call, got = c, o },
	}
	code, stdout, stderr := runT(t, r, nil, `{"session_id":"s","hook_event_name":"SessionStart","source":"startup"}`, "SessionStart")
	if code != ExitOK || stderr != "p: config note\n" || !strings.Contains(stdout, `"systemMessage":"p: config note"`) || !strings.Contains(stdout, `"additionalContext":"hello"`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if call == nil || call.Event != EventSessionStart || got.Code != ExitOK || !got.Shown || len(got.Notes) != 1 || got.Result.Context != "hello" {
		t.Fatalf("Finish saw %+v %+v", call, got)
	}
}

// A fallback fired as PostToolUse answers in PostToolUse's shape when it
// adds context, so the model reads it as additionalContext.
func TestRunnerContextOnAFallback(t *testing.T) {
	cfg := t.TempDir()
	m := new(Mux)
	On(m, "", func(context.Context, *TaskCompleted) (Result, error) { return Context("next: task 4"), nil })
	in := `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"TaskUpdate","tool_input":{"taskId":"3","status":"completed"}}`
	code, stdout, _ := runT(t, &Runner{Mux: m}, map[string]string{"CLAUDE_CONFIG_DIR": cfg}, in, "TaskCompleted", "--via", "PostToolUse")
	if code != ExitOK || stdout != `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"next: task 4"}}`+"\n" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
}

func TestParseInvocation(t *testing.T) {
	inv, err := ParseInvocation([]string{"task-completed", "--via=PostToolUse", "--proto", "v2.1.16"})
	if err != nil || inv.Event != EventTaskCompleted || inv.Via != EventPostToolUse || inv.Band.Version != (Release{2, 1, 16}) || inv.Fired() != EventPostToolUse {
		t.Fatalf("ParseInvocation = %+v, %v", inv, err)
	}
	if back, err := ParseInvocation(inv.Args()); err != nil || back != inv {
		t.Fatalf("Args round trip: %+v, %v", back, err)
	}
	if inv, err := ParseInvocation([]string{"Stop", "--via", "Stop"}); err != nil || inv.Via != "" {
		t.Fatalf("--via the event itself: %+v, %v", inv, err)
	}
	for _, bad := range [][]string{{"Stop", "extra"}, {"Stop", "--via"}, {"Stop", "--proto", "2.1"}, {"Stop", "--via", "Nope"}, {"-x"}} {
		if _, err := ParseInvocation(bad); err == nil {
			t.Errorf("ParseInvocation(%q) accepted", bad)
		}
	}
	var b bytes.Buffer
	if (Invocation{}).Args() != nil || b.Len() != 0 {
		t.Fatal("the zero Invocation has arguments")
	}
}
