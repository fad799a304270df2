package loop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	state "github.com/hookwright/hookwright/internal/state/loop"
)

func stop(active bool, last string) *hooks.Stop {
	e := &hooks.Stop{StopHookActive: active, LastAssistantMessage: last}
	e.HookEventName, e.SessionID = hooks.EventStop, "s1"
	return e
}

func loopCfg(check string) config.Loop {
	c := config.Default().Loop
	c.Enabled, c.Check, c.Timeout = true, check, 5
	return c
}

// step is one stop in a sequence: what happens before it, the input, and
// what the loop must answer.
type step struct {
	before  func(dir string)
	in      hooks.Input
	block   bool
	message string // substring of the systemMessage ("" = none expected)
	reason  []string
}

func TestStopper(t *testing.T) {
	touch := func(name string) func(string) {
		return func(dir string) { os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644) }
	}
	withRounds := func(c config.Loop, max, stall int) config.Loop { c.MaxRounds, c.StallRounds = max, stall; return c }
	promise := func(c config.Loop, p string) config.Loop { c.Promise = p; return c }
	tests := []struct {
		name  string
		cfg   config.Loop
		steps []step
	}{
		{name: "off by default", cfg: config.Default().Loop, steps: []step{{in: stop(false, "")}}},
		{name: "the check passes at once", cfg: loopCfg("true"), steps: []step{{in: stop(false, ""), message: "the check passed after 0 blocked"}}},
		{name: "blocked until the checked file exists", cfg: loopCfg("test -f done.txt || { echo 'done.txt is missing'; exit 3; }"), steps: []step{
			{in: stop(false, ""), block: true, reason: []string{"round 1 of 5", "failed (exit 3)", "done.txt is missing", "Keep working until the check passes"}},
			{before: touch("half.txt"), in: stop(true, ""), block: true, reason: []string{"round 2 of 5"}},
			{before: touch("done.txt"), in: stop(true, ""), message: "the check passed after 2 blocked"},
			{in: stop(false, "")}, // the loop is over for the session
		}},
		{name: "max_rounds lets it go", cfg: withRounds(loopCfg("false"), 2, 0), steps: []step{
			{in: stop(false, ""), block: true},
			{before: touch("a"), in: stop(true, ""), block: true, reason: []string{"round 2 of 2"}},
			{before: touch("b"), in: stop(true, ""), message: "after 2 blocked stops (loop.max_rounds)"},
		}},
		{name: "a stalled loop is let go", cfg: withRounds(loopCfg("false"), 10, 2), steps: []step{
			{in: stop(false, ""), block: true},
			{in: stop(true, ""), block: true},
			{in: stop(true, ""), message: "no file in the project changed in the last 2 rounds"},
		}},
		{name: "a change resets the stall count", cfg: withRounds(loopCfg("false"), 10, 2), steps: []step{
			{in: stop(false, ""), block: true},
			{in: stop(true, ""), block: true},
			{before: touch("x"), in: stop(true, ""), block: true},
			{in: stop(true, ""), block: true, reason: []string{"round 4 of 10"}},
		}},
		{name: "the promise in last_assistant_message ends it", cfg: promise(loopCfg("false"), "ALL DONE"), steps: []step{
			{in: stop(false, "not yet"), block: true, reason: []string{"print <promise>ALL DONE</promise>"}},
			{in: stop(true, "finished.\n<promise> ALL  DONE </promise>"), message: "the completion promise was printed"},
		}},
		{name: "a different promise does not", cfg: promise(loopCfg("false"), "ALL DONE"), steps: []step{
			{in: stop(false, "<promise>NOT DONE</promise>"), block: true},
		}},
		{name: "promise only, no check", cfg: promise(loopCfg(""), "OK"), steps: []step{
			{in: stop(false, "working"), block: true, reason: []string{"not complete yet.\nKeep working", "<promise>OK</promise>"}},
			{in: stop(true, "<promise>OK</promise>"), message: "promise"},
		}},
		{name: "a hanging check is killed and fails", cfg: func() config.Loop { c := loopCfg("echo started; sleep 30"); c.Timeout = 1; return c }(), steps: []step{
			{in: stop(false, ""), block: true, reason: []string{"did not finish within 1 s", "started"}},
		}},
		{name: "a continuation the loop did not cause goes through", cfg: loopCfg("false"), steps: []step{{in: stop(true, "")}}},
		{name: "subagents are left alone unless configured", cfg: loopCfg("false"), steps: []step{{in: subStop(false)}}},
		{name: "subagents are held when configured", cfg: func() config.Loop { c := loopCfg("false"); c.Subagents = true; return c }(), steps: []step{
			{in: subStop(false), block: true}, {in: stop(false, ""), block: true, reason: []string{"round 1 of 5"}}}},
		{name: "the output quoted is bounded", cfg: loopCfg("seq 1 100; exit 1"), steps: []step{
			{in: stop(false, ""), block: true, reason: []string{"last lines:\n81\n82\n", "\n100\n"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := stopper(tt.cfg, dir)
			for i, st := range tt.steps {
				if st.before != nil {
					st.before(dir)
					time.Sleep(10 * time.Millisecond) // a distinct mtime on coarse clocks
				}
				res, err := s.Handle(context.Background(), st.in)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if got := res.Decision == hooks.Block; got != st.block {
					t.Fatalf("step %d: blocked = %v, want %v (%+v)", i, got, st.block, res)
				}
				if st.message == "" && res.SystemMessage != "" || !strings.Contains(res.SystemMessage, st.message) {
					t.Errorf("step %d: systemMessage %q, want %q", i, res.SystemMessage, st.message)
				}
				for _, r := range st.reason {
					if !strings.Contains(res.Reason, r) {
						t.Errorf("step %d: reason %q\ndoes not contain %q", i, res.Reason, r)
					}
				}
				if strings.Contains(res.Reason, "\n80\n") {
					t.Errorf("step %d: more than %d lines quoted", i, TailLines)
				}
			}
		})
	}
}

func subStop(active bool) *hooks.SubagentStop {
	e := &hooks.SubagentStop{StopHookActive: active}
	e.HookEventName, e.SessionID, e.AgentID = hooks.EventSubagentStop, "s1", "a1"
	return e
}

func TestArmAndCancel(t *testing.T) {
	dir := t.TempDir()
	off := config.Default().Loop
	s := stopper(off, dir)
	if err := state.Arm(dir, state.Settings{Check: "exit 4", MaxRounds: 1}, stateEnv(dir)); err != nil {
		t.Fatal(err)
	}
	res, _ := s.Handle(context.Background(), stop(false, ""))
	if res.Decision != hooks.Block || !strings.Contains(res.Reason, "round 1 of 1") || !strings.Contains(res.Reason, "exit 4") {
		t.Fatalf("armed loop: %+v", res)
	}
	if err := state.Stop(dir); err != nil {
		t.Fatal(err)
	}
	on := stopper(loopCfg("false"), dir)
	if res, _ := on.Handle(context.Background(), stop(true, "")); !res.Empty() {
		t.Fatalf("a cancelled loop still answers: %+v", res)
	}
	// A fresh start forgets the rounds.
	if err := state.Arm(dir, state.Settings{}, stateEnv(dir)); err != nil {
		t.Fatal(err)
	}
	if res, _ := on.Handle(context.Background(), stop(false, "")); !strings.Contains(res.Reason, "round 1 of 5") {
		t.Fatalf("restart: %+v", res)
	}
}

func TestBrokenStateNeverSpins(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, config.Dir), 0o755)
	os.WriteFile(filepath.Join(dir, state.File), []byte("{broken"), 0o644)
	s := stopper(loopCfg("false"), dir)
	res, err := s.Handle(context.Background(), stop(true, ""))
	if err != nil || res.Decision == hooks.Block || !strings.Contains(res.SystemMessage, "let the stop through") {
		t.Fatalf("continuation with a broken state: %+v, %v", res, err)
	}
	if res, err := s.Handle(context.Background(), stop(false, "")); err == nil || res.Decision == hooks.Block {
		t.Fatalf("first stop with a broken state must fail open: %+v, %v", res, err)
	}
}

func TestLastAssistantText(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		`{"type":"user","message":{"role":"user","content":"hi <promise>X</promise>"}}`,
		`{"type":"assistant","message":{"content":[{"type":"text","text":"first"}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"text","text":"second"},{"type":"text","text":"<promise>X</promise>"}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash"}]}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","content":"ok"}]}}`,
		`not json`,
	}
	path := filepath.Join(dir, "t.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if got := LastAssistantText(path); got != "second\n<promise>X</promise>" {
		t.Errorf("LastAssistantText = %q", got)
	}
	big := filepath.Join(dir, "big.jsonl")
	pad := `{"type":"assistant","message":{"content":"` + strings.Repeat("a", 1000) + `"}}` + "\n"
	os.WriteFile(big, []byte(strings.Repeat(pad, 600)+`{"type":"assistant","message":{"content":"tail"}}`+"\n"), 0o644)
	if got := LastAssistantText(big); got != "tail" {
		t.Errorf("big transcript: %q", got)
	}
	for _, p := range []string{"", dir, filepath.Join(dir, "none")} {
		if got := LastAssistantText(p); got != "" {
			t.Errorf("LastAssistantText(%q) = %q", p, got)
		}
	}
}

func TestHasPromise(t *testing.T) {
	tests := []struct {
		text, promise string
		want          bool
	}{
		{"<promise>DONE</promise>", "DONE", true},
		{"x <promise>\n DONE \n</promise> y", "DONE", true},
		{"<promise>NOPE</promise> <promise>DONE</promise>", "DONE", true},
		{"<promise>DONE", "DONE", false},
		{"DONE", "DONE", false},
		{"<promise></promise>", "", false},
		{"<promise>DONE!</promise>", "DONE", false},
	}
	for _, tt := range tests {
		if got := HasPromise(tt.text, tt.promise); got != tt.want {
			t.Errorf("HasPromise(%q, %q) = %v", tt.text, tt.promise, got)
		}
	}
}

func TestTail(t *testing.T) {
	var lines []string
	for i := 1; i <= 50; i++ {
		lines = append(lines, fmt.Sprint(i))
	}
	if got := tail(strings.Join(lines, "\n")+"\n\n", 3, 100); got != "48\n49\n50" {
		t.Errorf("tail lines = %q", got)
	}
	long := strings.Repeat("é", 3000)
	if got := tail("a\n"+long, 5, 100); len(got) > 100 || !strings.HasSuffix(got, "é") {
		t.Errorf("tail of a long line: %d bytes", len(got))
	}
	if got := tail("one\ntwo\nthree", 5, 9); got != "two\nthree" {
		t.Errorf("tail bytes = %q", got)
	}
}

// TestAwaitAssistantText covers the 2.1.33 race: the Stop hook runs before
// the final assistant message is in the transcript.
func TestAwaitAssistantText(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.jsonl")
	early := `{"type":"assistant","message":{"content":[{"type":"text","text":"Not yet."}]}}` + "\n" +
		`{"type":"user","message":{"content":"Stop hook feedback: ..."}}` + "\n"
	os.WriteFile(path, []byte(early), 0o644)
	if text, settled := lastAssistant(path, 0); settled || text != "Not yet." {
		t.Fatalf("lastAssistant = %q, %v; want the old text, unsettled", text, settled)
	}
	go func() {
		time.Sleep(200 * time.Millisecond)
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(`{"type":"assistant","message":{"content":[{"type":"text","text":"<promise>OK</promise>"}]}}` + "\n")
		f.Close()
	}()
	if got := awaitAssistantText(context.Background(), path, 0); got != "<promise>OK</promise>" {
		t.Errorf("awaitAssistantText = %q, want the late message", got)
	}
	// A transcript that never catches up is waited for only so long, and a
	// cancelled context ends the wait at once.
	os.WriteFile(path, []byte(early), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := awaitAssistantText(ctx, path, 0); got != "Not yet." {
		t.Errorf("cancelled wait = %q", got)
	}
	// Seen on 2.1.33 under load: at a Stop the transcript file may not
	// exist yet, or hold no message line yet. Neither is settled: the wait
	// goes on until it appears (or the deadline).
	late := filepath.Join(dir, "late.jsonl")
	if _, settled := lastAssistant(late, 1); settled {
		t.Error("a transcript not written yet counts as settled")
	}
	os.WriteFile(late, nil, 0o644)
	if _, settled := lastAssistant(late, 0); settled {
		t.Error("a transcript with no message line yet counts as settled")
	}
	os.Remove(late)
	go func() {
		time.Sleep(200 * time.Millisecond)
		os.WriteFile(late, []byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"<promise>OK</promise>"}]}}`+"\n"), 0o644)
	}()
	if got := awaitAssistantText(context.Background(), late, 0); got != "<promise>OK</promise>" {
		t.Errorf("awaitAssistantText on a transcript written late = %q, want its message", got)
	}
}

func TestLastAssistantAfterRound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	base := `{"type":"assistant","message":{"content":[{"type":"text","text":"Not yet."}]}}` + "\n"
	fb := `{"type":"user","message":{"content":"Stop hook feedback: hookwright loop (round 1 of 5): ..."}}` + "\n"
	after := `{"type":"assistant","message":{"content":[{"type":"text","text":"<promise>OK</promise>"}]}}` + "\n"
	tests := []struct {
		content string
		rounds  int
		text    string
		settled bool
	}{
		{base, 1, "Not yet.", false}, // the feedback is not written yet
		{base + fb, 1, "", false},    // the answer to it is not written yet
		{base + fb + after, 1, "<promise>OK</promise>", true},
		{base + fb + after, 0, "<promise>OK</promise>", true},
		{base + fb, 0, "Not yet.", false},
	}
	for i, tt := range tests {
		os.WriteFile(path, []byte(tt.content), 0o644)
		if text, settled := lastAssistant(path, tt.rounds); text != tt.text || settled != tt.settled {
			t.Errorf("%d: lastAssistant = %q, %v; want %q, %v", i, text, settled, tt.text, tt.settled)
		}
	}
}

// stopper is the Stopper of a call in the project at dir with loop config cfg.
func stopper(cfg config.Loop, dir string) Stopper {
	return New(call.New(call.Spec{Root: dir, Config: config.Config{Loop: cfg}, Env: project.Env{Now: time.Now, Getenv: stateEnv(dir)}}))
}

// stateEnv is an environment whose XDG_STATE_HOME (where hwctl loop start
// records what it armed) is a folder beside the project dir.
func stateEnv(dir string) func(string) string {
	return func(k string) string {
		if k == "XDG_STATE_HOME" {
			return dir + ".state"
		}
		return ""
	}
}
