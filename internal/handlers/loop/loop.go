// Package loop is the Stop loop: it keeps the main session (and, when
// configured, subagents) working until a completion condition holds, within
// a bounded number of rounds.
//
// # When the loop lets a stop through
//
// [Stopper] runs on Stop (and on SubagentStop with "subagents": true). When
// the loop is on, a stop ends the loop when
//
//   - the check (config loop.check, a shell command run with `sh -c` in the
//     project folder) exits 0, or
//   - the last assistant message carries <promise>TEXT</promise> with the
//     configured loop.promise as TEXT (the input's last_assistant_message on
//     2.1.47+, else the transcript's last assistant text, reading at most
//     its last 256 KiB; on 2.1.33 the Stop hook runs before the transcript
//     holds the last lines, so the loop waits up to 1.5 s for its own
//     previous feedback and the answer after it to appear).
//
// Otherwise it blocks the stop (exit 2): the reason names the round, the
// check and its last output lines (at most 20 lines, 2000 bytes), so the
// model goes on with the failure in front of it. It lets the stop through
// with a systemMessage that says why
//
//   - after loop.max_rounds blocked stops in one session;
//   - after loop.stall_rounds rounds in a row in which no file in the
//     project changed (size or modification time; .git and .hookwright
//     are not looked at, and at most 20000 entries are);
//   - when its state cannot be kept and the stop is already a continuation
//     (stop_hook_active), or the stop is a continuation the loop did not
//     cause: so a lost state file can never make it spin.
//
// A check that runs past loop.timeout seconds is killed, with every process
// it started, and counts as failed. Once a session's loop ended, later
// stops of that session go through until `hwctl loop start` arms it again.
//
// # Turning it on
//
// The loop is off by default. "loop": {"enabled": true, "check": "make
// test"} in .hookwright/config.json turns it on for every session of the
// project; `hwctl loop start --check 'make test'` arms it from the command
// line (its settings override the config's), `hwctl loop stop` cancels it
// and `hwctl loop status` shows each session's rounds. The state lives in
// .hookwright/loop.json, updated under a lock and written atomically.
package loop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
	state "github.com/hookwright/hookwright/internal/state/loop"
)

// Bounds.
const (
	maxCommand  = 200
	transcriptN = 256 << 10
	// MaxWalk bounds the entries looked at for the stall check.
	MaxWalk = 20000
)

// Stopper is the loop's Stop and SubagentStop handler.
type Stopper struct {
	call call.Call
	cfg  config.Loop
}

// New returns the Stopper of the hook call c: its project folder, clock
// and loop config.
func New(c call.Call) Stopper { return Stopper{call: c, cfg: c.Config().Loop} }

// Name names the handler in reports.
func (Stopper) Name() string { return "loop" }

// Handle decides one stop ([Stopper.Stop], [Stopper.SubagentStop]); it
// ignores every other event.
func (s Stopper) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	switch ev := in.(type) {
	case *hooks.Stop:
		return s.Stop(ctx, ev)
	case *hooks.SubagentStop:
		return s.SubagentStop(ctx, ev)
	}
	return hooks.Result{}, nil
}

// Stop decides the main agent's stop; see the package comment.
func (s Stopper) Stop(ctx context.Context, ev *hooks.Stop) (hooks.Result, error) {
	return s.decide(ctx, &ev.Common, ev.SessionID, ev.StopHookActive, ev.LastAssistantMessage)
}

// SubagentStop decides a subagent's stop, when loop.subagents is on; the
// subagent's round count is its own (session/agent id).
func (s Stopper) SubagentStop(ctx context.Context, ev *hooks.SubagentStop) (hooks.Result, error) {
	if !s.cfg.Subagents {
		return hooks.Result{}, nil
	}
	id := ev.SessionID
	if ev.AgentID != "" {
		id += "/" + ev.AgentID
	}
	return s.decide(ctx, &ev.Common, id, ev.StopHookActive, ev.LastAssistantMessage)
}

// decide runs one round for the stop of session (or session/agent) id.
func (s Stopper) decide(ctx context.Context, base *hooks.Common, id string, active bool, last string) (hooks.Result, error) {
	dir := s.call.Root()
	st, err := state.Load(dir)
	if err != nil {
		return letGo(active, err)
	}
	st, dropped := st.Honoured(dir, s.call.Getenv)
	cfg := st.Effective(s.cfg)
	if !cfg.Enabled {
		if dropped {
			return hooks.Result{SystemMessage: "hookwright loop: " + state.File + " holds a loop that hwctl loop start did not arm for you in this project (a state file from a clone or a copy, or written by hand); it is ignored. Run hwctl loop start to arm one."}, nil
		}
		return hooks.Result{}, nil
	}
	rec := st.Sessions[id]
	switch {
	case rec != nil && rec.Ended != "":
		return hooks.Result{}, nil
	case active && (rec == nil || rec.Rounds == 0):
		return hooks.Result{}, nil // a continuation the loop did not cause
	}

	var verdict string
	var out Outcome
	if cfg.Promise != "" {
		if last == "" {
			rounds := 0
			if rec != nil {
				rounds = rec.Rounds
			}
			last = awaitAssistantText(ctx, base.TranscriptPath, rounds)
		}
		if HasPromise(last, cfg.Promise) {
			verdict = state.EndPromise
		}
	}
	if verdict == "" && strings.TrimSpace(cfg.Check) != "" {
		out = Run(ctx, dir, cfg.Check, time.Duration(cfg.Timeout)*time.Second)
		if out.Passed {
			verdict = state.EndPassed
		}
	}
	print := Fingerprint(dir)
	now := s.call.Now().UTC()
	var res hooks.Result
	err = state.Update(dir, func(st *state.State) error {
		r := st.Sessions[id]
		if r == nil {
			r = &state.Session{}
			st.Sessions[id] = r
		}
		if r.Ended != "" {
			res = hooks.Result{}
			return nil
		}
		r.Seen, r.LastExit, r.LastCheck = now, out.Exit, lastLine(out.Tail)
		if r.Rounds > 0 {
			if print == r.Print {
				r.Stalled++
			} else {
				r.Stalled = 0
			}
		}
		r.Print = print
		switch {
		case verdict != "":
			r.Ended = verdict
			res = hooks.Result{SystemMessage: fmt.Sprintf("hookwright loop: %s after %d blocked stop(s); the loop is over.", ended(verdict), r.Rounds)}
		case r.Rounds >= cfg.MaxRounds:
			r.Ended = state.EndMax
			res = hooks.Result{SystemMessage: fmt.Sprintf("hookwright loop: let the stop through after %d blocked stops (loop.max_rounds) without the check passing%s.", r.Rounds, promiseNote(cfg))}
		case cfg.StallRounds > 0 && r.Stalled >= cfg.StallRounds:
			r.Ended = state.EndStalled
			res = hooks.Result{SystemMessage: fmt.Sprintf("hookwright loop: let the stop through: no file in the project changed in the last %d rounds (loop.stall_rounds), so the loop is making no progress.", r.Stalled)}
		default:
			r.Rounds++
			res = hooks.Blocked(Reason(cfg, r.Rounds, out))
		}
		return nil
	})
	if err != nil {
		return letGo(active, err)
	}
	return res, nil
}

// letGo is the answer when the loop's state cannot be kept: on a
// continuation the stop goes through with a message, so the loop can never
// spin; otherwise the error fails open.
func letGo(active bool, err error) (hooks.Result, error) {
	if active {
		return hooks.Result{SystemMessage: "hookwright loop: let the stop through: " + err.Error()}, nil
	}
	return hooks.Result{}, err
}

func ended(verdict string) string {
	switch verdict {
	case state.EndPromise:
		return "the completion promise was printed"
	default:
		return "the check passed"
	}
}

func promiseNote(cfg config.Loop) string {
	if cfg.Promise == "" {
		return ""
	}
	return " or the promise being printed"
}

// Reason is the block reason of round n of cfg's loop after the check's
// outcome out.
func Reason(cfg config.Loop, n int, out Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "hookwright loop (round %d of %d): the task is not complete yet.", n, cfg.MaxRounds)
	if c := strings.TrimSpace(cfg.Check); c != "" {
		if len(c) > maxCommand {
			c = c[:maxCommand] + "..."
		}
		switch {
		case out.TimedOut:
			fmt.Fprintf(&b, " The check `%s` did not finish within %d s and was stopped.", c, cfg.Timeout)
		default:
			fmt.Fprintf(&b, " The check `%s` failed (exit %d).", c, out.Exit)
		}
		if out.Tail != "" {
			b.WriteString(" Its last lines:\n")
			b.WriteString(out.Tail)
			b.WriteString("\n")
		} else {
			b.WriteString(" It printed nothing.\n")
		}
		b.WriteString("Keep working until the check passes, then finish again.")
	} else {
		b.WriteString("\nKeep working, then finish again.")
	}
	if cfg.Promise != "" {
		fmt.Fprintf(&b, " When the task is truly complete, print <promise>%s</promise> in your final message.", cfg.Promise)
	}
	return b.String()
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// HasPromise reports whether text carries <promise>promise</promise>
// (surrounding space inside the tags ignored).
func HasPromise(text, promise string) bool {
	promise = strings.TrimSpace(promise)
	if promise == "" {
		return false
	}
	for {
		i := strings.Index(text, "<promise>")
		if i < 0 {
			return false
		}
		text = text[i+len("<promise>"):]
		j := strings.Index(text, "</promise>")
		if j < 0 {
			return false
		}
		if strings.Join(strings.Fields(text[:j]), " ") == strings.Join(strings.Fields(promise), " ") {
			return true
		}
		text = text[j:]
	}
}

// transcriptWait bounds how long the loop waits for the transcript to catch
// up with the stop.
const transcriptWait = 1500 * time.Millisecond

// awaitAssistantText is LastAssistantText, waiting (at most transcriptWait)
// until the transcript has caught up with the stop: seen on 2.1.33, the
// Stop hook runs before the last lines are written, so the transcript may
// still end before the loop's own feedback of round rounds, or before the
// assistant's answer to it.
func awaitAssistantText(ctx context.Context, path string, rounds int) string {
	deadline := time.Now().Add(transcriptWait)
	for {
		text, settled := lastAssistant(path, rounds)
		if settled || time.Now().After(deadline) {
			return text
		}
		select {
		case <-ctx.Done():
			return text
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// LastAssistantText returns the text of the last assistant message in the
// transcript at path, reading only its last 256 KiB of a regular file; ""
// when there is none.
func LastAssistantText(path string) string {
	text, _ := lastAssistant(path, 0)
	return text
}

// lastAssistant returns LastAssistantText and whether the transcript has
// settled: after the loop's block of round rounds (0: none yet) it holds
// that feedback and an assistant text after it; before any block, its last
// message line is the assistant's.
func lastAssistant(path string, rounds int) (text string, settled bool) {
	if path == "" {
		return "", true
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false // 2.1.33 may not have written it yet: wait for it
	}
	if err != nil {
		return "", true
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return "", true
	}
	off := max(info.Size()-transcriptN, 0)
	data, err := io.ReadAll(io.NewSectionReader(f, off, transcriptN))
	if err != nil {
		return "", true
	}
	lines := bytes.Split(data, []byte("\n"))
	if off > 0 && len(lines) > 0 {
		lines = lines[1:] // the first line is cut
	}
	first := true
	feedback := []byte(fmt.Sprintf("hookwright loop (round %d of", rounds))
	for i := len(lines) - 1; i >= 0; i-- {
		if !bytes.Contains(lines[i], []byte(`"type"`)) {
			continue
		}
		var line struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(lines[i], &line) != nil || line.Type != "assistant" && line.Type != "user" {
			continue
		}
		if rounds == 0 && first {
			settled = line.Type == "assistant"
		}
		first = false
		if line.Type == "user" {
			if rounds > 0 && bytes.Contains(lines[i], feedback) {
				return text, text != "" // our feedback: the text after it, if any
			}
			continue
		}
		if text == "" {
			text = contentText(line.Message.Content)
			if text != "" && rounds == 0 {
				return text, settled
			}
		}
	}
	return text, rounds == 0 && settled // no message line yet: not settled
}

// contentText returns the text of a message content: a string, or the text
// blocks of a block list joined by newlines.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Fingerprint sums the names, sizes and modification times of the files
// under dir (not .git or .hookwright, at most MaxWalk entries), so that
// two equal fingerprints mean no file changed.
func Fingerprint(dir string) string {
	if dir == "" {
		return ""
	}
	h := fnv.New64a()
	w := bufio.NewWriter(h)
	n := 0
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > MaxWalk {
			return filepath.SkipAll
		}
		if d.IsDir() && path != dir && (d.Name() == ".git" || d.Name() == config.Dir) {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		w.WriteString(path)
		w.WriteByte(0)
		w.WriteString(strconv.FormatInt(info.Size(), 10))
		w.WriteByte(0)
		w.WriteString(strconv.FormatInt(info.ModTime().UnixNano(), 10))
		w.WriteByte('\n')
		return nil
	})
	w.Flush()
	return strconv.FormatUint(h.Sum64(), 16)
}
