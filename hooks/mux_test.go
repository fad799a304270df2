package hooks

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

func answer(r Result) Handler {
	return HandlerFunc(func(context.Context, Input) (Result, error) { return r, nil })
}

func pre(tool string) Input {
	return &PreToolUse{Common: Common{HookEventName: EventPreToolUse}, ToolCall: ToolCall{ToolName: tool}}
}

func TestMatchRules(t *testing.T) {
	tests := []struct {
		matcher string
		match   []string
		miss    []string
	}{
		{"", []string{"Bash", "Write", "mcp__x__y"}, nil},
		{"*", []string{"Bash", "Anything"}, nil},
		{"Bash", []string{"Bash"}, []string{"bash", "BashOutput", "Bas"}},
		{"Write|Edit", []string{"Write", "Edit"}, []string{"MultiEdit", "Write|Edit", "Writer"}},
		{"mcp__github__create", []string{"mcp__github__create"}, []string{"mcp__github__create_issue"}},
		{"Notebook.*", []string{"NotebookEdit", "NotebookRead"}, []string{"Bash"}},
		{"^mcp__", []string{"mcp__a__b"}, []string{"xmcp__a"}},
		{"Edit$", []string{"Edit", "MultiEdit"}, []string{"Editor"}},
	}
	for _, tt := range tests {
		m := new(Mux)
		m.Handle(EventPreToolUse, tt.matcher, Named("h", answer(Result{})))
		for _, tool := range tt.match {
			if len(m.Match(EventPreToolUse, tool)) != 1 {
				t.Errorf("matcher %q should match %q", tt.matcher, tool)
			}
		}
		for _, tool := range tt.miss {
			if len(m.Match(EventPreToolUse, tool)) != 0 {
				t.Errorf("matcher %q should not match %q", tt.matcher, tool)
			}
		}
		if len(m.Match(EventPostToolUse, "Bash")) != 0 {
			t.Errorf("matcher %q matched another event", tt.matcher)
		}
	}
}

func TestHandlePanicsOnMistakes(t *testing.T) {
	tests := map[string]func(m *Mux){
		"nil handler":   func(m *Mux) { m.Handle(EventStop, "", nil) },
		"unknown event": func(m *Mux) { m.Handle("Nope", "", answer(Result{})) },
		"bad regex":     func(m *Mux) { m.Handle(EventPreToolUse, "(unclosed", answer(Result{})) },
		"empty name":    func(m *Mux) { m.Handle(EventPreToolUse, "Bash||Write", answer(Result{})) },
		"duplicate": func(m *Mux) {
			m.Handle(EventStop, "", Named("g", answer(Result{})))
			m.Handle(EventStop, "", Named("g", answer(Result{})))
		},
	}
	for name, f := range tests {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			f(new(Mux))
		})
	}
}

func TestDispatchMerge(t *testing.T) {
	tests := []struct {
		name     string
		results  []Result
		want     Result
		ran      int
		describe string
	}{
		{name: "nothing", results: nil, want: Result{}},
		{name: "deny beats allow and ask", ran: 3,
			results: []Result{{Decision: Allow, Reason: "ok"}, {Decision: Ask, Reason: "sure?"}, {Decision: Block, Reason: "no"}},
			want:    Result{Decision: Block, Reason: "no"}},
		{name: "ask beats allow", ran: 2,
			results: []Result{{Decision: Ask, Reason: "a"}, {Decision: Allow, Reason: "b"}},
			want:    Result{Decision: Ask, Reason: "a"}},
		{name: "asks join", ran: 2,
			results: []Result{{Decision: Ask, Reason: "a"}, {Decision: Ask, Reason: "b"}},
			want:    Result{Decision: Ask, Reason: "a; b"}},
		{name: "context concatenates", ran: 3,
			results: []Result{{Context: "one"}, {}, {Context: "two", SystemMessage: "m"}},
			want:    Result{Context: "one\n\ntwo", SystemMessage: "m"}},
		{name: "block short-circuits", ran: 2,
			results: []Result{{Context: "c"}, {Decision: Block, Reason: "stop"}, {Context: "never"}},
			want:    Result{Decision: Block, Reason: "stop", Context: "c"}},
		{name: "first halt wins", ran: 1,
			results: []Result{{Halt: true, StopReason: "first"}, {Halt: true, StopReason: "second"}},
			want:    Result{Halt: true, StopReason: "first"}},
		{name: "the rule comes with the decision", ran: 2,
			results: []Result{{Decision: Ask, Reason: "a", Rule: "ask-rule"}, {Decision: Block, Reason: "no", Rule: "block-rule"}, {Decision: Allow, Rule: "allow-rule"}},
			want:    Result{Decision: Block, Reason: "no", Rule: "block-rule"}},
		{name: "a weaker decision's rule is not taken", ran: 2,
			results: []Result{{Decision: Ask, Reason: "a", Rule: "ask-rule"}, {Decision: Allow, Rule: "allow-rule"}},
			want:    Result{Decision: Ask, Reason: "a", Rule: "ask-rule"}},
		{name: "first updated input wins", ran: 2,
			results: []Result{{UpdatedInput: []byte(`{"a":1}`)}, {UpdatedInput: []byte(`{"a":2}`)}},
			want:    Result{UpdatedInput: []byte(`{"a":1}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := new(Mux)
			ran := 0
			for i, r := range tt.results {
				r := r
				m.Handle(EventPreToolUse, "", Named(string(rune('a'+i)), HandlerFunc(func(context.Context, Input) (Result, error) {
					ran++
					return r, nil
				})))
			}
			got, faults := m.Dispatch(context.Background(), pre("Bash"))
			if len(faults) != 0 {
				t.Fatalf("faults: %v", faults)
			}
			if got.Decision != tt.want.Decision || got.Reason != tt.want.Reason || got.Context != tt.want.Context ||
				got.SystemMessage != tt.want.SystemMessage || got.Halt != tt.want.Halt || got.StopReason != tt.want.StopReason ||
				string(got.UpdatedInput) != string(tt.want.UpdatedInput) || got.Rule != tt.want.Rule {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			if ran != tt.ran {
				t.Fatalf("%d handlers ran, want %d", ran, tt.ran)
			}
		})
	}
}

func TestDispatchFailsOpen(t *testing.T) {
	m := new(Mux)
	m.Handle(EventPreToolUse, "", Named("panics", HandlerFunc(func(context.Context, Input) (Result, error) { panic("boom") })))
	m.Handle(EventPreToolUse, "", Named("errs", HandlerFunc(func(context.Context, Input) (Result, error) {
		return Blocked("must not count"), errors.New("disk on fire")
	})))
	m.Handle(EventPreToolUse, "", Named("ok", answer(Context("still here"))))
	got, faults := m.Dispatch(context.Background(), pre("Bash"))
	if got.Decision != None || got.Context != "still here" {
		t.Fatalf("got %+v", got)
	}
	if len(faults) != 2 || !errors.Is(faults[0].Err, ErrPanic) || faults[0].Handler != "panics" ||
		!strings.Contains(faults[1].Error(), "disk on fire") {
		t.Fatalf("faults = %v", faults)
	}
}

func TestDispatchDeadline(t *testing.T) {
	m := new(Mux)
	var during string
	m.Handle(EventStop, "", Named("fast", answer(Context("kept"))))
	m.Handle(EventStop, "", Named("slow", HandlerFunc(func(ctx context.Context, _ Input) (Result, error) {
		during = m.running()
		<-ctx.Done() // returns only after the deadline: its answer must not count
		return Blocked("too late"), nil
	})))
	m.Handle(EventStop, "", Named("after", answer(Blocked("never runs"))))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	got, faults := m.Dispatch(ctx, &Stop{Common: Common{HookEventName: EventStop}})
	if got.Decision != None || got.Context != "kept" {
		t.Fatalf("overrun changed the result: %+v", got)
	}
	if during != "slow" || m.running() != "" {
		t.Fatalf("running() = %q during the slow handler, %q after", during, m.running())
	}
	if len(faults) != 2 || !errors.Is(faults[0].Err, ErrDeadline) || faults[0].Handler != "slow" ||
		!errors.Is(faults[1].Err, ErrDeadline) || faults[1].Handler != "after" {
		t.Fatalf("faults = %v", faults)
	}
}

func TestForIgnoresOtherEvents(t *testing.T) {
	h := For(func(_ context.Context, e *Stop) (Result, error) { return Blocked("stop " + e.SessionID), nil })
	if r, _ := h.Handle(context.Background(), pre("Bash")); !r.Empty() {
		t.Fatalf("typed handler answered another event: %+v", r)
	}
	r, _ := h.Handle(context.Background(), &Stop{Common: Common{SessionID: "s"}})
	if r.Reason != "stop s" {
		t.Fatalf("got %+v", r)
	}
}

func TestOnTakesTheEventFromTheType(t *testing.T) {
	m := new(Mux)
	On(m, "", func(_ context.Context, e *TaskCompleted) (Result, error) { return Blocked("task " + e.TaskID), nil })
	On(m, "Bash", func(context.Context, *PreToolUse) (Result, error) { return Context("bash"), nil })
	routes := m.Routes()
	if len(routes) != 2 || routes[0].Event != EventTaskCompleted || routes[1].Event != EventPreToolUse || routes[1].Matcher != "Bash" {
		t.Fatalf("routes = %+v", routes)
	}
	got, _ := m.Dispatch(context.Background(), &TaskCompleted{Common: Common{HookEventName: EventTaskCompleted}, Task: Task{TaskID: "7"}})
	if got.Decision != Block || got.Reason != "task 7" {
		t.Fatalf("got %+v", got)
	}
	for name, register := range map[string]func(){
		"interface": func() { On(m, "", func(context.Context, Input) (Result, error) { return Result{}, nil }) },
		"nil":       func() { On[*Stop](m, "", nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: On did not panic", name)
				}
			}()
			register()
		}()
	}
}

// closing is a gate set to fail closed.
type closing struct {
	Handler
	closed bool
}

func (c closing) FailClosed() bool { return c.closed }

func TestFailClosedGateBlocksOnErrorPanicAndDeadline(t *testing.T) {
	for name, h := range map[string]Handler{
		"error": HandlerFunc(func(context.Context, Input) (Result, error) { return Result{}, errors.New("disk on fire") }),
		"panic": HandlerFunc(func(context.Context, Input) (Result, error) { panic("boom") }),
		"overrun": HandlerFunc(func(ctx context.Context, _ Input) (Result, error) {
			<-ctx.Done()
			return Result{}, nil
		}),
	} {
		for _, closed := range []bool{true, false} {
			m := new(Mux)
			m.Handle(EventStop, "", Named("gate", closing{h, closed}))
			m.Handle(EventStop, "", Named("after", answer(Context("after"))))
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
			got, faults := m.Dispatch(ctx, &Stop{Common: Common{HookEventName: EventStop}})
			cancel()
			if len(faults) == 0 {
				t.Errorf("%s closed=%v: no fault recorded", name, closed)
			}
			if closed && (got.Decision != Block || !strings.Contains(got.Reason, "gate could not decide") || !strings.Contains(got.Reason, "fail closed")) {
				t.Errorf("%s: a closed gate did not block: %+v", name, got)
			}
			if !closed && got.Decision != None {
				t.Errorf("%s: an open gate blocked: %+v", name, got)
			}
		}
	}
	// Not started before the deadline: a closed gate still to run blocks.
	m := new(Mux)
	m.Handle(EventStop, "", Named("gate", closing{answer(Result{}), true}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, _ := m.Dispatch(ctx, &Stop{Common: Common{HookEventName: EventStop}}); got.Decision != Block {
		t.Fatalf("a closed gate that never started did not block: %+v", got)
	}
	if m.pendingClosed() != "" {
		t.Fatalf("pendingClosed after Dispatch = %q", m.pendingClosed())
	}
}

type policy bool

func (p policy) FailClosed() bool { return bool(p) }

// On's options: the name is the route's (reports, duplicate check), and the
// fail-closed policy is asked at dispatch, like a gate's own.
func TestOnOptions(t *testing.T) {
	_, _, line, _ := runtime.Caller(0)
	fails := func(context.Context, *Stop) (Result, error) { return Result{}, errors.New("no") }
	for _, closed := range []bool{true, false} {
		m := new(Mux)
		On(m, "", fails, WithName("gate"), WithFailCloser(policy(closed)))
		got, faults := m.Dispatch(context.Background(), &Stop{Common: Common{HookEventName: EventStop}})
		if len(faults) != 1 || faults[0].Handler != "gate" {
			t.Fatalf("closed=%v: faults %v, want one from gate", closed, faults)
		}
		if (got.Decision == Block) != closed || closed && !strings.Contains(got.Reason, "gate could not decide") {
			t.Errorf("closed=%v: result %+v", closed, got)
		}
	}
	m := new(Mux)
	On(m, "", fails)
	if name, want := m.Routes()[0].Name, fmt.Sprintf("Stop mux_test.go:%d", line+1); name != want {
		t.Errorf("unnamed route is %q, want the event and where the literal is", name)
	}
	On(m, "", fails, WithName("twice"))
	defer func() {
		if recover() == nil {
			t.Error("the same name twice for one event and matcher did not panic")
		}
	}()
	On(m, "", fails, WithName("twice"))
}

func blockForcePush(context.Context, *PreToolUse) (Result, error) { return Result{}, nil }

type namedGate struct{}

func (namedGate) TaskCompleted(context.Context, *TaskCompleted) (Result, error) { return Result{}, nil }

type plainHandler struct{}

func (*plainHandler) Handle(context.Context, Input) (Result, error) { return Result{}, nil }

// An unnamed route is named for its event, matcher and function, never by
// its position and adapter type: faults, the watchdog and block reasons
// name something an author can find.
func TestRouteNamesByDefault(t *testing.T) {
	m := new(Mux)
	On(m, "Bash", blockForcePush)
	On(m, "Bash", blockForcePush) // the same function twice: made unique
	On(m, "", namedGate{}.TaskCompleted)
	_, _, line, _ := runtime.Caller(0)
	m.Handle(EventStop, "", HandlerFunc(func(context.Context, Input) (Result, error) { return Result{}, nil }))
	m.Handle(EventStop, "", For(blockForcePush))
	m.Handle(EventStop, "", &plainHandler{})
	m.Handle(EventStop, "", Named("mine", &plainHandler{}))
	var got []string
	for _, r := range m.Routes() {
		got = append(got, r.Name)
	}
	want := []string{"PreToolUse[Bash] hooks.blockForcePush", "PreToolUse[Bash] hooks.blockForcePush #2", "TaskCompleted hooks.namedGate.TaskCompleted",
		fmt.Sprintf("Stop mux_test.go:%d", line+1), "Stop hooks.blockForcePush", "Stop hooks.plainHandler", "mine"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("names:\n got %q\nwant %q", got, want)
	}
}
