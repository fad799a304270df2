package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookwright/hookwright/hooks"
)

// watchdogGrace is how long past the call's deadline the watchdog waits
// for a handler that ignores its context.
const watchdogGrace = 500 * time.Millisecond

// watchdog bounds the whole call, from decoding the input to writing the
// journal. Handlers run on the main goroutine; if the call is still going
// at the deadline plus a grace period, the watchdog answers in its place
// and ends the process:
//
//   - before the answer is written, it names what was running (a handler,
//     or a stage such as reading the config) on stderr and in a
//     systemMessage and exits 0 (fail open), unless a gate set to fail
//     closed has not decided yet: then it blocks, saying so;
//   - after the answer is written (the journal is being written), it exits
//     with the answer's code.
type watchdog struct {
	after   time.Duration
	event   hooks.Event
	band    hooks.Band
	stdout  io.Writer
	stderr  io.Writer
	exit    func(int)
	timer   *time.Timer
	stage   atomic.Pointer[string]
	mux     atomic.Pointer[hooks.Mux]
	mu      sync.Mutex // held while either side writes the answer
	written bool
	code    int
}

// arm starts the watchdog for a call of event; exit is os.Exit outside
// tests.
func arm(after time.Duration, event hooks.Event, band hooks.Band, stdout, stderr io.Writer, exit func(int)) *watchdog {
	w := &watchdog{after: after, event: event, band: band, stdout: stdout, stderr: stderr, exit: exit}
	w.at("starting")
	w.timer = time.AfterFunc(after+watchdogGrace, w.fire)
	return w
}

// at records the stage the call has reached, for the report.
func (w *watchdog) at(stage string) { w.stage.Store(&stage) }

// watch tells the watchdog which mux is dispatching.
func (w *watchdog) watch(m *hooks.Mux) { w.mux.Store(m) }

// answer writes the call's answer with write unless the watchdog has
// answered already. ok=false means it has: the caller must write nothing
// and wait for the exit.
func (w *watchdog) answer(write func() int) (code int, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.written {
		return 0, false
	}
	w.written = true
	w.code = write()
	return w.code, true
}

// extend moves the deadline to after from now, for a call that may take
// longer (the Stop loop's check).
func (w *watchdog) extend(after time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.written {
		return
	}
	w.after = after
	w.timer.Reset(after + watchdogGrace)
}

// disarm stops the watchdog.
func (w *watchdog) disarm() { w.timer.Stop() }

func (w *watchdog) fire() {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(w.stderr, "hookwright: internal error in the watchdog: %v (failed open)\n", p)
			w.exit(hooks.ExitError)
		}
	}()
	w.mu.Lock()
	if w.written { // answered; the journal write is what hangs
		code := w.code
		w.mu.Unlock()
		w.exit(code)
		return
	}
	w.written = true
	what := *w.stage.Load()
	var closed string
	if m := w.mux.Load(); m != nil {
		if name := m.Running(); name != "" {
			what = name
		}
		closed = m.PendingClosed()
	}
	var code int
	if closed != "" {
		reason := hooks.ClosedReason(closed, fmt.Errorf("%s did not return within %s", what, w.after))
		code = hooks.Emit(w.stdout, w.stderr, w.event, hooks.Blocked(reason), w.band)
	} else {
		msg := fmt.Sprintf("hookwright: %s did not return within %s (failed open)", what, w.after)
		fmt.Fprintln(w.stderr, msg)
		out, _ := json.Marshal(hooks.Output{SystemMessage: msg})
		w.stdout.Write(append(out, '\n'))
		code = hooks.ExitOK
	}
	w.mu.Unlock()
	w.exit(code)
}
