package hooks

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/testkit"
)

func TestWatchdogFailsOpenOnAHungHandler(t *testing.T) {
	m := new(Mux)
	release := make(chan struct{})
	m.Handle(EventStop, "", Named("stuck", HandlerFunc(func(context.Context, Input) (Result, error) {
		<-release // ignores its context
		return Blocked("too late"), nil
	})))
	var stdout, stderr testkit.SyncBuffer
	exited := make(chan int, 1)
	dog := arm("hookwright", 10*time.Millisecond, Invocation{Event: EventStop}, &stdout, &stderr, func(code int) { exited <- code; close(release) })
	dog.watch(m)
	go m.Dispatch(context.Background(), &Stop{Common: Common{HookEventName: EventStop}})
	if code := <-exited; code != ExitOK {
		t.Fatalf("exit %d, want 0 (fail open)", code)
	}
	if _, ok := dog.answer(func() int { t.Error("the caller wrote a second answer"); return 0 }); ok {
		t.Fatal("answer after the watchdog fired let the caller write a second answer")
	}
	want := "hookwright: stuck did not return within 10ms (failed open)"
	if !strings.Contains(stderr.String(), want) || !strings.Contains(stdout.String(), `{"systemMessage":"`+want+`"}`) {
		t.Fatalf("stdout %q stderr %q", stdout.String(), stderr.String())
	}
}

func TestWatchdogStaysQuietWhenHandlersReturn(t *testing.T) {
	var stdout, stderr testkit.SyncBuffer
	dog := arm("hookwright", 10*time.Millisecond, Invocation{Event: EventStop}, &stdout, &stderr, func(int) { t.Error("watchdog fired after disarm") })
	if _, ok := dog.answer(func() int { return 0 }); !ok {
		t.Fatal("answer refused before the deadline")
	}
	dog.disarm()
	time.Sleep(10*time.Millisecond + watchdogGrace + 50*time.Millisecond)
	if stdout.String() != "" || stderr.String() != "" {
		t.Fatalf("watchdog wrote %q %q", stdout.String(), stderr.String())
	}
}

// closedGate is a gate set to fail closed that never returns.
type closedGate struct{ release chan struct{} }

func (closedGate) Name() string     { return "closed-gate" }
func (closedGate) FailClosed() bool { return true }
func (g closedGate) Handle(context.Context, Input) (Result, error) {
	<-g.release
	return Result{}, nil
}

func TestWatchdogBlocksForAClosedGate(t *testing.T) {
	m := new(Mux)
	gate := closedGate{make(chan struct{})}
	m.Handle(EventStop, "", gate)
	var stdout, stderr testkit.SyncBuffer
	exited := make(chan int, 1)
	dog := arm("hookwright", 10*time.Millisecond, Invocation{Event: EventStop}, &stdout, &stderr, func(code int) { exited <- code; close(gate.release) })
	dog.watch(m)
	go m.Dispatch(context.Background(), &Stop{Common: Common{HookEventName: EventStop}})
	if code := <-exited; code != ExitBlock {
		t.Fatalf("exit %d, want %d (a closed gate that overruns blocks)", code, ExitBlock)
	}
	if !strings.Contains(stderr.String(), "closed-gate could not decide") || !strings.Contains(stderr.String(), "fail closed") {
		t.Fatalf("stderr %q does not say the gate failed closed", stderr.String())
	}
}

func TestWatchdogKeepsTheAnswerWhileJournaling(t *testing.T) {
	var stdout, stderr testkit.SyncBuffer
	exited := make(chan int, 1)
	dog := arm("hookwright", 10*time.Millisecond, Invocation{Event: EventStop}, &stdout, &stderr, func(code int) { exited <- code })
	if _, ok := dog.answer(func() int { return ExitBlock }); !ok {
		t.Fatal("answer refused")
	}
	dog.at("writing the journal") // and hang there
	if code := <-exited; code != ExitBlock {
		t.Fatalf("exit %d, want the answer's %d", code, ExitBlock)
	}
	if stdout.String() != "" || stderr.String() != "" {
		t.Fatalf("watchdog wrote a second answer: %q %q", stdout.String(), stderr.String())
	}
}
