package builtin

import (
	"context"
	"fmt"
	"strings"
	"time"

	loopstate "github.com/hookwright/hookwright/internal/state/loop"
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
)

// For(event) must route exactly like the full mux, for every event.
func TestForMatchesMux(t *testing.T) {
	all := Mux(config.Default())
	total := 0
	for _, ev := range hooks.Events() {
		var want, got []string
		for _, r := range all.Routes() {
			if r.Event == ev {
				want = append(want, r.Matcher+" "+r.Name)
			}
		}
		c := call.New(call.Spec{Config: config.Default()})
		for _, r := range append(For(c, ev).Routes(), AsyncFor(c, ev).Routes()...) {
			if r.Event != ev {
				t.Errorf("For(%s) registered %s", ev, r.Event)
			}
			got = append(got, r.Matcher+" "+r.Name)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: For has %q, Mux has %q", ev, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: route %d is %q in For, %q in Mux", ev, i, got[i], want[i])
			}
		}
		total += len(got)
	}
	if total != len(all.Routes()) || total == 0 {
		t.Fatalf("For covered %d routes of %d", total, len(all.Routes()))
	}
}

func TestDeadline(t *testing.T) {
	def := 5 * time.Second
	on := config.Default()
	on.Loop.Enabled, on.Loop.Check, on.Loop.Timeout = true, "true", 30
	quality := config.Default()
	quality.Quality.Lint, quality.Quality.Timeout = true, 8
	armed := t.TempDir()
	stateHome := t.TempDir()
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return stateHome
		}
		return ""
	}
	if err := loopstate.Arm(armed, loopstate.Settings{Check: "true", Timeout: 90}, getenv); err != nil {
		t.Fatal(err)
	}
	// the same arming, copied into a clone without a receipt, is ignored
	cloned := t.TempDir()
	if err := loopstate.Start(cloned, loopstate.Settings{Check: "true", Timeout: 90}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		cfg   config.Config
		dir   string
		event hooks.Event
		want  time.Duration
	}{
		{"loop off", config.Default(), t.TempDir(), hooks.EventStop, def},
		{"loop on, Stop", on, t.TempDir(), hooks.EventStop, 40 * time.Second},
		{"loop on, SubagentStop", on, t.TempDir(), hooks.EventSubagentStop, 40 * time.Second},
		{"loop on, another event", on, t.TempDir(), hooks.EventPreToolUse, def},
		{"armed by hwctl", config.Default(), armed, hooks.EventStop, 100 * time.Second},
		{"armed, no receipt", config.Default(), cloned, hooks.EventStop, def},
		{"quality on, PostToolUse", quality, t.TempDir(), hooks.EventPostToolUse, 9 * time.Second},
		{"quality off, PostToolUse", config.Default(), t.TempDir(), hooks.EventPostToolUse, def},
	}
	for _, tt := range tests {
		if got := Deadline(tt.cfg, tt.dir, tt.event, def, getenv); got != tt.want {
			t.Errorf("%s: Deadline = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestFailsClosed: which built-in routes fail closed, the policy the runtime
// applies when it cannot run a gate at all (the hook contract broken, a
// panic, the deadline). The artifact gate does where its workflow runs and
// artifacts.fail is closed; the guard where guard.fail is; the scratchpad
// chain never does, as its bound needs a count in the project.
func TestFailsClosed(t *testing.T) {
	closed := config.Default()
	closed.Artifacts.Fail, closed.Scratchpad.Fail = config.FailClosed, config.FailClosed
	closed.Artifacts.Enabled, closed.Scratchpad.Enabled = true, true
	offClosed := closed
	offClosed.Artifacts.Enabled, offClosed.Scratchpad.Enabled = false, false
	guardClosed := config.Default()
	guardClosed.Guard.Fail = config.FailClosed
	guardOff := guardClosed
	guardOff.Guard.Enabled = false
	tests := []struct {
		cfg    config.Config
		event  hooks.Event
		target string
		want   string
	}{
		{config.Default(), hooks.EventTaskCompleted, "", ""},
		{config.Default(), hooks.EventPreToolUse, "Bash", ""},
		{closed, hooks.EventTaskCompleted, "", "artifacts"},
		{closed, hooks.EventTeammateIdle, "", "artifacts"},
		// the chain's bound needs a count in the project: never held
		{closed, hooks.EventStop, "", ""},
		{closed, hooks.EventSubagentStop, "", ""},
		{closed, hooks.EventPreToolUse, "Bash", ""},
		{offClosed, hooks.EventTaskCompleted, "", ""},
		{offClosed, hooks.EventSubagentStop, "", ""},
		{guardClosed, hooks.EventPreToolUse, "Bash", "guard"},
		{guardClosed, hooks.EventPreToolUse, "mcp__db__query", "guard"},
		{guardClosed, hooks.EventStop, "", ""},
		{guardOff, hooks.EventPreToolUse, "Bash", ""},
	}
	for _, tt := range tests {
		doc := fmt.Sprintf(`{"hook_event_name":%q,"tool_name":%q,"tool_input":{"command":"ls"},"teammate_name":"a","team_name":"t","task_id":"1"}`, tt.event, tt.target)
		in, err := hooks.Decode([]byte(doc), tt.event)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // no gate can start: each fails by its policy
		res, _ := For(call.New(call.Spec{Config: tt.cfg, Root: t.TempDir()}), tt.event).Dispatch(ctx, in)
		got := ""
		if res.Decision == hooks.Block {
			got, _, _ = strings.Cut(res.Reason, " could not decide")
		}
		if got != tt.want {
			t.Errorf("%s[%s]: the route failing closed is %q, want %q", tt.event, tt.target, got, tt.want)
		}
	}
}

// The gates keep their fail-closed policy when registered by their typed
// methods: a gate set to fail closed that cannot start before the deadline
// blocks, in its own name; set to fail open, it does not. The scratchpad
// chain set to fail closed lets the stop go (TestScratchpadNeverHeldByRuntime).
func TestGatesKeepFailClosedPolicy(t *testing.T) {
	closed := config.Default()
	closed.Artifacts.Fail, closed.Scratchpad.Fail, closed.Guard.Fail = config.FailClosed, config.FailClosed, config.FailClosed
	closed.Artifacts.Enabled, closed.Scratchpad.Enabled = true, true
	for _, tt := range []struct {
		event hooks.Event
		input string
		gate  string
	}{
		{hooks.EventTaskCompleted, `{"hook_event_name":"TaskCompleted","task_id":"1","teammate_name":"a","team_name":"t"}`, "artifacts"},
		{hooks.EventTeammateIdle, `{"hook_event_name":"TeammateIdle","teammate_name":"a","team_name":"t"}`, "artifacts"},
		{hooks.EventPreToolUse, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "guard"},
	} {
		in, err := hooks.Decode([]byte(tt.input), tt.event)
		if err != nil {
			t.Fatal(err)
		}
		for _, cfg := range []config.Config{closed, config.Default()} {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			res, _ := For(call.New(call.Spec{Config: cfg, Root: t.TempDir()}), tt.event).Dispatch(ctx, in)
			isClosed := cfg.Artifacts.Fail == config.FailClosed
			if blocked := res.Decision == hooks.Block && strings.Contains(res.Reason, tt.gate+" could not decide"); blocked != isClosed {
				t.Errorf("%s, fail closed %v: result %+v, want a block by %s: %v", tt.event, isClosed, res, tt.gate, isClosed)
			}
		}
	}
}

// TestScratchpadNeverHeldByRuntime: the scratchpad chain set to fail
// closed that the runtime cannot run (here: it cannot start before the
// deadline) lets the stop go and reports the fault; its own bounded
// fail-closed stops are the only ones it makes.
func TestScratchpadNeverHeldByRuntime(t *testing.T) {
	closed := config.Default()
	closed.Scratchpad.Fail, closed.Scratchpad.Enabled = config.FailClosed, true
	for _, tt := range []struct {
		event hooks.Event
		input string
	}{
		{hooks.EventStop, `{"hook_event_name":"Stop"}`},
		{hooks.EventSubagentStop, `{"hook_event_name":"SubagentStop","agent_type":"x"}`},
	} {
		in, err := hooks.Decode([]byte(tt.input), tt.event)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, faults := For(call.New(call.Spec{Config: closed, Root: t.TempDir()}), tt.event).Dispatch(ctx, in)
		if res.Decision == hooks.Block {
			t.Errorf("%s: the runtime held the stop: %+v", tt.event, res)
		}
		if len(faults) == 0 {
			t.Errorf("%s: no fault reported for a gate that could not run", tt.event)
		}
	}
}
