package hooks_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
)

// A hook binary: read the event from stdin, dispatch it to the handlers
// registered for it, and emit the merged result as Claude Code expects.
// Here a PreToolUse handler blocks force pushes; stdin is a string.
func Example() {
	m := new(hooks.Mux)
	hooks.On(m, "Bash", func(ctx context.Context, e *hooks.PreToolUse) (hooks.Result, error) {
		if strings.Contains(string(e.ToolInput), "push --force") {
			return hooks.Blocked("no force pushes"), nil
		}
		return hooks.Result{}, nil
	})

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
	// no force pushes
	// exit 2
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
