package hooks

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// watchdogGrace is how long past a call's deadline a [Runner] waits for a
// handler that ignores its context before it answers in the handler's
// place.
const watchdogGrace = 500 * time.Millisecond

// watchdog bounds a whole call, from decoding the input to the runner's
// Finish. Handlers run on the caller's goroutine; if the call is still
// going at the deadline plus watchdogGrace, the watchdog answers in its
// place and calls exit:
//
//   - before the answer is written, it names what was running (a handler,
//     or a stage such as reading the config) on stderr and in a
//     systemMessage and exits 0 (fail open), unless a gate set to fail
//     closed has not decided yet: then it blocks, saying so;
//   - after the answer is written (Finish is running), it exits with the
//     answer's code.
type watchdog struct {
	name    string
	after   time.Duration
	inv     Invocation
	stdout  io.Writer
	stderr  io.Writer
	exit    func(int)
	timer   *time.Timer
	stage   atomic.Pointer[string]
	mux     atomic.Pointer[Mux]
	mu      sync.Mutex // held while either side writes the answer
	written bool
	code    int
}

// arm starts the watchdog for a call; exit is os.Exit in Main.
func arm(name string, after time.Duration, inv Invocation, stdout, stderr io.Writer, exit func(int)) *watchdog {
	w := &watchdog{name: name, after: after, inv: inv, stdout: stdout, stderr: stderr, exit: exit}
	w.at("starting")
	w.timer = time.AfterFunc(after+watchdogGrace, w.fire)
	return w
}

// at records the stage the call has reached, for the report.
func (w *watchdog) at(stage string) { w.stage.Store(&stage) }

// watch tells the watchdog which mux is dispatching.
func (w *watchdog) watch(m *Mux) { w.mux.Store(m) }

// answer writes the call's answer with write unless the watchdog has
// answered already. ok=false means it has, and code is its answer's: the
// caller must write nothing more and return code.
func (w *watchdog) answer(write func() int) (code int, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.written {
		return w.code, false
	}
	w.written = true
	w.code = write()
	return w.code, true
}

// extend moves the deadline to after from now, for a call that may take
// longer.
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
			fmt.Fprintf(w.stderr, "%s: internal error in the watchdog: %v (failed open)\n", w.name, p)
			w.exit(ExitError)
		}
	}()
	w.mu.Lock()
	if w.written { // answered; Finish is what hangs
		code := w.code
		w.mu.Unlock()
		w.exit(code)
		return
	}
	w.written = true
	what := *w.stage.Load()
	var closed string
	if m := w.mux.Load(); m != nil {
		if name := m.running(); name != "" {
			what = name
		}
		closed = m.pendingClosed()
	}
	if closed != "" {
		reason := closedReason(closed, fmt.Errorf("%s did not return within %s", what, w.after))
		w.code = w.inv.Emit(w.stdout, w.stderr, Blocked(reason))
	} else {
		msg := fmt.Sprintf("%s: %s did not return within %s (failed open)", w.name, what, w.after)
		fmt.Fprintln(w.stderr, msg)
		out, _ := json.Marshal(Output{SystemMessage: msg})
		w.stdout.Write(append(out, '\n'))
		w.code = ExitOK
	}
	code := w.code
	w.mu.Unlock()
	w.exit(code)
}
