package builtin

import (
	"context"
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
		cfg   config.Config
		event hooks.Event
		want  string
	}{
		{config.Default(), hooks.EventTaskCompleted, ""},
		{config.Default(), hooks.EventPreToolUse, ""},
		{closed, hooks.EventTaskCompleted, "artifacts.fail"},
		{closed, hooks.EventTeammateIdle, "artifacts.fail"},
		// the chain's bound needs a count in the project: never held
		{closed, hooks.EventStop, ""},
		{closed, hooks.EventSubagentStop, ""},
		{closed, hooks.EventPreToolUse, ""},
		{offClosed, hooks.EventTaskCompleted, ""},
		{offClosed, hooks.EventSubagentStop, ""},
		{guardClosed, hooks.EventPreToolUse, "guard.fail"},
		{guardClosed, hooks.EventStop, ""},
		{guardOff, hooks.EventPreToolUse, ""},
	}
	for _, tt := range tests {
		if got := FailsClosed(call.New(call.Spec{Config: tt.cfg}), tt.event); got != tt.want {
			t.Errorf("FailsClosed(%s) = %q, want %q", tt.event, got, tt.want)
		}
	}
}

// The gates keep their fail-closed policy when registered by their typed
// methods: a gate set to fail closed that cannot start before the deadline
// blocks, in its own name; set to fail open, it does not.
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
		{hooks.EventStop, `{"hook_event_name":"Stop"}`, "scratchpad-coordinator-stop"},
		{hooks.EventPreToolUse, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "guard"},
		{hooks.EventSubagentStop, `{"hook_event_name":"SubagentStop","agent_type":"x"}`, "scratchpad-subagent-stop"},
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
