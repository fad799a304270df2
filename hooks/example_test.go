package hooks_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
)

// blockForcePush is a PreToolUse handler: it reads the Bash command by
// exact key (a look-alike "COMMAND" the model adds is ignored) and blocks
// a force push.
func blockForcePush(ctx context.Context, e *hooks.PreToolUse) (hooks.Result, error) {
	bash, err := e.AsBash()
	if err != nil {
		return hooks.Result{}, err // fails open, reported on stderr
	}
	if strings.Contains(bash.Command, "push --force") {
		return hooks.Blocked("no force pushes: push a new branch and open a pull request"), nil
	}
	return hooks.Result{}, nil
}

// requireDeliverable is a TaskCompleted gate: a task whose description
// names "deliverable: <path>" cannot complete while the file is missing.
func requireDeliverable(ctx context.Context, e *hooks.TaskCompleted) (hooks.Result, error) {
	_, path, ok := strings.Cut(e.TaskDescription, "deliverable: ")
	if !ok {
		return hooks.Result{}, nil
	}
	path = strings.Fields(path)[0]
	project := hooks.ProjectDir(e, hooks.Env(ctx)) // $CLAUDE_PROJECT_DIR, else the event's cwd
	if _, err := os.Stat(filepath.Join(project, path)); err != nil {
		return hooks.Blocked("task " + e.TaskID + " names deliverable " + path + ", which does not exist yet"), nil
	}
	return hooks.Result{}, nil
}

// A complete plugin binary. Its main.go is
//
//	package main
//
//	import "github.com/hookwright/hookwright/hooks"
//
//	func main() {
//		m := new(hooks.Mux)
//		hooks.On(m, "Bash", blockForcePush)
//		hooks.On(m, "", requireDeliverable)
//		hooks.Main(m)
//	}
//
// and its hooks.json, written by hookgen, runs it as
// `"${CLAUDE_PLUGIN_ROOT}/bin/myplugin" PreToolUse` and
// `... TaskCompleted`, or on a release without TaskCompleted as
// `... TaskCompleted --via PostToolUse` on PostToolUse[TaskUpdate].
// hooks.Main does the rest: the bounded read, the translation, the
// deadline, the exit code. Here the same mux runs three calls in this
// process with Runner.Run, as Main would run them.
func ExampleMain() {
	m := new(hooks.Mux)
	hooks.On(m, "Bash", blockForcePush)
	hooks.On(m, "", requireDeliverable)
	r := &hooks.Runner{Mux: m, Name: "myplugin", Getenv: func(string) string { return "" }} // an empty environment, as in a test

	project, _ := os.MkdirTemp("", "project")
	defer os.RemoveAll(project)
	call := func(stdin string, args ...string) {
		code := r.Run(args, strings.NewReader(strings.ReplaceAll(stdin, "$P", project)), os.Stdout, os.Stdout)
		fmt.Println("exit", code)
	}
	call(`{"session_id":"s1","cwd":"$P","hook_event_name":"PreToolUse","tool_name":"Bash",
		"tool_input":{"command":"git push --force origin main","COMMAND":"ls"}}`, "PreToolUse")
	call(`{"session_id":"s1","cwd":"$P","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "PreToolUse")
	call(`{"session_id":"s1","cwd":"$P","hook_event_name":"TaskCompleted","task_id":"3","task_subject":"Write the parser",
		"task_description":"deliverable: parser.go"}`, "TaskCompleted", "--proto", "2.1.33")
	// Output:
	// no force pushes: push a new branch and open a pull request
	// exit 2
	// exit 0
	// task 3 names deliverable parser.go, which does not exist yet
	// exit 2
}

// The building blocks Runner puts together, for a program that serves
// hook events its own way: read the event from stdin, dispatch it to the
// handlers registered for it, and emit the merged result as Claude Code
// expects.
func ExampleMux_Dispatch() {
	m := new(hooks.Mux)
	hooks.On(m, "Bash", blockForcePush)

	stdin := strings.NewReader(`{"session_id":"s1","cwd":"/p","hook_event_name":"PreToolUse",
		"tool_name":"Bash","tool_input":{"command":"git push --force"}}`)
	data, err := hooks.Read(stdin, hooks.ReadOptions{Timeout: time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	in, err := hooks.Decode(data, hooks.EventPreToolUse)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, _ := m.Dispatch(context.Background(), in)
	code := hooks.Emit(os.Stdout, os.Stdout, hooks.EventPreToolUse, res, hooks.Band{})
	fmt.Println("exit", code)
	// Output:
	// no force pushes: push a new branch and open a pull request
	// exit 2
}

// Translate is what --via means: a PostToolUse of a TaskUpdate that
// completed task 3 stands for TaskCompleted, with the subject and
// description from Claude Code's task file; one that only started it
// stands for nothing.
func ExampleTranslate() {
	config, _ := os.MkdirTemp("", "claude-config")
	defer os.RemoveAll(config)
	os.MkdirAll(filepath.Join(config, "tasks", "s1"), 0o755)
	os.WriteFile(filepath.Join(config, "tasks", "s1", "3.json"),
		[]byte(`{"id":"3","subject":"Write the parser","description":"deliverable: parser.go","status":"completed"}`), 0o644)
	getenv := func(k string) string { return map[string]string{"CLAUDE_CONFIG_DIR": config}[k] }

	for _, status := range []string{"in_progress", "completed"} {
		fired, _ := hooks.Decode([]byte(`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"TaskUpdate",
			"tool_input":{"taskId":"3","status":"`+status+`"},
			"tool_response":{"success":true,"taskId":"3","updatedFields":["status"],"statusChange":{"from":"pending","to":"`+status+`"}}}`), hooks.EventPostToolUse)
		in, err := hooks.Translate(hooks.EventTaskCompleted, fired, getenv)
		switch {
		case err != nil:
			fmt.Println(err)
		case in == nil:
			fmt.Println(status + ": stands for nothing")
		default:
			tc := in.(*hooks.TaskCompleted)
			fmt.Printf("%s: %s #%s %q (%s)\n", status, tc.HookEventName, tc.TaskID, tc.TaskSubject, tc.TaskDescription)
		}
	}
	// Output:
	// in_progress: stands for nothing
	// completed: TaskCompleted #3 "Write the parser" (deliverable: parser.go)
}

// On names the event once, by its input type.
func ExampleOn() {
	m := new(hooks.Mux)
	hooks.On(m, "", func(ctx context.Context, e *hooks.TaskCompleted) (hooks.Result, error) {
		return hooks.Context("task " + e.TaskID + " done"), nil
	})
	for _, r := range m.Routes() {
		fmt.Println(r.Event, r.Matcher == "")
	}
	// Output:
	// TaskCompleted true
}

// Decode keeps the fields it does not know: Extra returns them.
func ExampleDecode() {
	in, err := hooks.Decode([]byte(`{"session_id":"s1","hook_event_name":"Stop","stop_hook_active":true,"new_field":1}`), hooks.EventStop)
	if err != nil {
		fmt.Println(err)
		return
	}
	stop := in.(*hooks.Stop)
	fmt.Println(stop.SessionID, stop.StopHookActive, string(stop.Extra()["new_field"]))
	// Output:
	// s1 true 1
}

// The block channel depends on the protocol band: TeammateIdle halts with
// continue:false from 2.1.69.
func ExampleChannelOf() {
	old, _ := hooks.ParseBand("2.1.33")
	newer, _ := hooks.ParseBand("2.1.69")
	fmt.Println(hooks.ChannelOf(hooks.EventTeammateIdle, old), hooks.ChannelOf(hooks.EventTeammateIdle, newer))
	// Output:
	// exit2 json-continue
}

// Releases compare as major.minor.patch.
func ExampleParseRelease() {
	r, err := hooks.ParseRelease("2.1.33")
	if err != nil {
		fmt.Println(err)
		return
	}
	since, _ := hooks.EventSince(hooks.EventTeammateIdle)
	fmt.Println(r, since, since.Less(r))
	// Output:
	// 2.1.33 2.1.33 false
}

// gate is a handler value with a fail-closed policy and a typed method.
type gate struct{ closed bool }

func (g gate) FailClosed() bool { return g.closed }

func (g gate) TaskCompleted(ctx context.Context, e *hooks.TaskCompleted) (hooks.Result, error) {
	return hooks.Result{}, fmt.Errorf("cannot read task %s", e.TaskID)
}

// WithName names a route registered with On, for the mux's reports; a gate
// registered by its typed method keeps its fail-closed policy with
// WithFailCloser.
func ExampleWithName() {
	m := new(hooks.Mux)
	g := gate{closed: true}
	hooks.On(m, "", g.TaskCompleted, hooks.WithName("artifacts"), hooks.WithFailCloser(g))
	for _, r := range m.Routes() {
		fmt.Println(r.Event, r.Name)
	}
	in, err := hooks.Decode([]byte(`{"hook_event_name":"TaskCompleted","task_id":"7"}`), hooks.EventTaskCompleted)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, faults := m.Dispatch(context.Background(), in)
	fmt.Println(res.Decision, faults[0])
	// Output:
	// TaskCompleted artifacts
	// block artifacts: cannot read task 7
}
