package loop

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Bounds of what the check leaves in a block reason.
const (
	// MaxOutput is how much of the check's output is kept (the end of it).
	MaxOutput = 64 << 10
	// TailLines and TailBytes bound the lines quoted in the reason.
	TailLines = 20
	TailBytes = 2000
)

// Outcome is one run of the check.
type Outcome struct {
	Passed bool
	// Exit is the exit code; -1 when the check was killed at its timeout
	// or could not start.
	Exit     int
	TimedOut bool
	// Tail is the check's last output lines (stdout and stderr as they
	// came), bounded by TailLines and TailBytes.
	Tail string
}

// Run runs command with `sh -c` in dir, killing it (and what it started)
// after timeout; a check that hangs fails.
func Run(ctx context.Context, dir, command string, timeout time.Duration) Outcome {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = dir
	out := &tailBuffer{max: MaxOutput}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Stdin = nil
	killTree(cmd)
	cmd.WaitDelay = time.Second // a grandchild holding the pipe does not hold us
	err := cmd.Run()
	o := Outcome{Tail: tail(out.String(), TailLines, TailBytes)}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		o.Exit, o.TimedOut = -1, true
	case err == nil:
		o.Passed = true
	case errors.As(err, &exit):
		o.Exit = exit.ExitCode()
	default:
		o.Exit = -1
		o.Tail = strings.TrimSpace(o.Tail + "\n" + err.Error())
	}
	return o
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.ToValidUTF8(t.buf, []byte("\uFFFD")))
}

// tail returns the last n non-blank-trailing lines of s, at most max bytes
// (cut at a line start where it can, else mid-line on a rune boundary).
func tail(s string, n, max int) string {
	s = strings.TrimRight(s, "\n\r\t ")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := strings.Join(lines, "\n")
	for len(out) > max {
		if i := strings.IndexByte(out, '\n'); i >= 0 && len(out)-i-1 > 0 && len(out)-i-1 <= max {
			return out[i+1:]
		} else if i >= 0 && len(out)-i-1 > max {
			out = out[i+1:]
			continue
		}
		cut := len(out) - max
		for cut < len(out) && out[cut]&0xC0 == 0x80 {
			cut++
		}
		return out[cut:]
	}
	return out
}
