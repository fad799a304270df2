package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/hookwright/hookwright/hooks"
)

// watchdogGrace is how long past the handlers' deadline the watchdog waits
// for a handler that ignores its context.
const watchdogGrace = 500 * time.Millisecond

// watchdog fails the call open when a handler never returns. Dispatch runs
// handlers on the main goroutine; if one is still running at the deadline
// plus a grace period, the watchdog names it on stderr and in a
// systemMessage and exits 0, so Claude Code goes on instead of waiting for
// its own timeout to kill the hook.
type watchdog struct {
	claimed atomic.Bool // set by whichever side writes the answer
	timer   *time.Timer
}

// arm starts the watchdog for mux; exit is os.Exit outside tests.
func arm(after time.Duration, mux *hooks.Mux, stdout, stderr io.Writer, exit func(int)) *watchdog {
	w := new(watchdog)
	w.timer = time.AfterFunc(after+watchdogGrace, func() {
		if !w.claimed.CompareAndSwap(false, true) {
			return // the answer is already being written
		}
		msg := fmt.Sprintf("hookwright: %s did not return within %s (failed open)", orUnknown(mux.Running()), after)
		fmt.Fprintln(stderr, msg)
		out, _ := json.Marshal(hooks.Output{SystemMessage: msg})
		stdout.Write(append(out, '\n'))
		exit(hooks.ExitOK)
	})
	return w
}

// disarm stops the watchdog and reports whether the caller may write the
// answer; false means the watchdog fired and is ending the process.
func (w *watchdog) disarm() bool {
	w.timer.Stop()
	return w.claimed.CompareAndSwap(false, true)
}

func orUnknown(name string) string {
	if name == "" {
		return "a handler"
	}
	return name
}
