package hookstest_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/hooks/hookstest"
	"github.com/hookwright/hookwright/hooks/hookstest/testdata/plugin"
)

var update = flag.Bool("update", false, "rewrite testdata/canonical.txt")

func TestMain(m *testing.M) { os.Exit(hookstest.Main(m)) }

// Every recorded payload decodes as its event, and names the release it
// was recorded on where it carries a transcript.
func TestPayloadsDecode(t *testing.T) {
	ps := hookstest.Payloads()
	releases := map[string]bool{}
	for _, p := range ps {
		releases[p.Release] = true
		if _, err := hooks.Decode([]byte(p.JSON), p.Event); err != nil {
			t.Errorf("%s/%s: %v", p.Release, p.Name, err)
		}
		if p.Transcript != "" && !strings.Contains(p.Transcript, `"version":"`+strings.Split(p.Release, "-")[0]+`"`) {
			t.Errorf("%s/%s: the transcript names another release: %s", p.Release, p.Name, p.Transcript)
		}
	}
	for _, want := range []string{"2.0.30", "2.1.25", "2.1.33", "2.1.330", "2.1.33-team"} {
		if !releases[want] {
			t.Errorf("no payloads of %s", want)
		}
	}
	if len(ps) < 50 {
		t.Errorf("%d payloads", len(ps))
	}
}

// invocation is one command line a payload meets, and whether the
// release that fired it can be told (the recorded transcript).
type invocation struct {
	args       string
	transcript bool
}

// invocations are the command lines a payload meets: its own event, and
// the canonical event it stands in for, as a hooks.json for one release
// writes it and as hookgen plugin's install does (--with-native: the event
// is also registered natively), each on its release (the recorded
// transcript) and where the release cannot be told.
func invocations(p hookstest.Payload) []invocation {
	out := []invocation{{string(p.Event), true}}
	if canonical, ok := hooks.FallbackFor(p.Event); ok {
		for _, args := range []string{string(canonical) + " --via " + string(p.Event), string(canonical) + " --via " + string(p.Event) + " --with-native"} {
			out = append(out, invocation{args, true}, invocation{args, false})
		}
	}
	return out
}

// TestCanonical records what every payload stands for under each command
// line it meets, in testdata/canonical.txt (-update rewrites it): the
// translation of the fallbacks on real payloads, reviewed as data.
func TestCanonical(t *testing.T) {
	var b bytes.Buffer
	for _, p := range hookstest.Payloads() {
		for _, inv := range invocations(p) {
			c := p.Call(inv.args)
			c.Project, c.Home = t.TempDir(), t.TempDir()
			release := "release known"
			if !inv.transcript {
				c.Transcript, release = "", "release unknown"
			}
			got := "null"
			if in := hookstest.Canonical(t, c); in != nil {
				data, err := hooks.MarshalInput(in)
				if err != nil {
					t.Fatal(err)
				}
				got = strings.NewReplacer(c.Project, "$PROJECT", c.Home, "$HOME").Replace(string(data))
				got = strings.ReplaceAll(got, filepath.Join("$HOME", ".claude", "projects", "hookstest", "transcript.jsonl"), "$TRANSCRIPT")
			}
			fmt.Fprintf(&b, "%s/%s | %s | %s\n  %s\n", p.Release, p.Name, inv.args, release, got)
		}
	}
	golden := filepath.Join("testdata", "canonical.txt")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -run TestCanonical -update writes it)", err)
	}
	if !bytes.Equal(want, b.Bytes()) {
		t.Errorf("the canonical events changed; review, then go test ./hooks/hookstest -run TestCanonical -update\n%s", lineDiff(string(want), b.String()))
	}
}

func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			fmt.Fprintf(&b, "line %d\n- %s\n+ %s\n", i+1, a, c)
		}
	}
	return b.String()
}

// The same plugin answers the same in process (Run) and as its built
// binary through sh -c (Exec), on recorded payloads of every band.
func TestRunAndExecAgree(t *testing.T) {
	bin := hookstest.Build(t, "./testdata/plugin/cmd/plugin")
	cases := []struct {
		name string
		call hookstest.Call
		want hookstest.Want
	}{
		{"2.1.33 native TaskCompleted, deliverable missing", hookstest.Recorded("2.1.33", "TaskCompleted").Call("TaskCompleted --proto 2.1.33"),
			hookstest.Want{Decision: hooks.Block, Reason: "task 1 (Write the parser) names deliverable parser.go, which is missing"}},
		{"2.1.25 TaskUpdate completed, fallback", hookstest.Recorded("2.1.25", "PostToolUse-TaskUpdate-completed").Call("TaskCompleted --via PostToolUse --proto 2.1.16"),
			hookstest.Want{Decision: hooks.Block, Reason: "names deliverable parser.go, which is missing"}},
		{"2.1.25 TaskUpdate in_progress", hookstest.Recorded("2.1.25", "PostToolUse-TaskUpdate-in_progress").Call("TaskCompleted --via PostToolUse --proto 2.1.16"),
			hookstest.Want{NoReason: true, NoMessages: true}},
		{"2.1.33 fallback beside the native registration", hookstest.Recorded("2.1.33", "PostToolUse-TaskUpdate-completed").Call("TaskCompleted --via PostToolUse --proto 2.1.16 --with-native"),
			hookstest.Want{NoReason: true, NoMessages: true}},
		{"2.1.33 fallback that is the plugin's only registration", hookstest.Recorded("2.1.33", "PostToolUse-TaskUpdate-completed").Call("TaskCompleted --via PostToolUse --proto 2.1.16"),
			hookstest.Want{Decision: hooks.Block, Reason: "names deliverable parser.go, which is missing"}},
		{"2.1.330 native TaskCompleted, halt band", hookstest.Recorded("2.1.330", "TaskCompleted").Call("TaskCompleted --proto 2.1.69"),
			hookstest.Want{Decision: hooks.Block, Reason: "parser.go"}},
		{"2.0.30 TodoWrite stands for nothing", hookstest.Recorded("2.0.30", "PostToolUse-TodoWrite").Call("TaskCompleted --via PostToolUse"),
			hookstest.Want{NoReason: true, NoMessages: true}},
		{"2.0.30 force push", withCommand(hookstest.Recorded("2.0.30", "PreToolUse-Bash").Call("PreToolUse"), "git push --force origin main"),
			hookstest.Want{Decision: hooks.Block, Reason: "no force pushes"}},
		{"2.1.330 plain Bash", hookstest.Recorded("2.1.330", "PreToolUse-Bash").Call("PreToolUse --proto 2.1.257"),
			hookstest.Want{NoReason: true, NoMessages: true}},
		{"team: in-process teammate's SubagentStop, release unknown", noTranscript(hookstest.Recorded("2.1.33-team", "SubagentStop-teammate").Call("TeammateIdle --via SubagentStop")),
			hookstest.Want{Decision: hooks.Block, Reason: "alice of core went idle"}},
		{"team: tmux teammate's Stop found by its pane", noTranscript(hookstest.Recorded("2.1.33-team", "Stop-tmux-teammate").Call("TeammateIdle --via Stop")),
			hookstest.Want{Decision: hooks.Block, Reason: "bob of core went idle"}},
		{"team: a stop already continuing", noTranscript(hookstest.Recorded("2.1.33-team", "SubagentStop-teammate-active").Call("TeammateIdle --via SubagentStop")),
			hookstest.Want{NoReason: true, NoMessages: true}},
		{"team: native TeammateIdle, halt band", hookstest.Recorded("2.1.33-team", "TeammateIdle").Call("TeammateIdle --proto 2.1.69"),
			hookstest.Want{Decision: hooks.Block, Reason: "alice of core went idle"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := hookstest.Run(t, plugin.Mux(), tc.call)
			in.Check(t, tc.want)
			out := hookstest.Exec(t, bin, tc.call)
			out.Check(t, tc.want)
			if in.Code != out.Code || in.Stdout != out.Stdout || strings.ReplaceAll(in.Stderr, "plugin:", "") != strings.ReplaceAll(out.Stderr, "plugin:", "") {
				t.Errorf("in process and as a binary differ:\nRun:\n%s\nExec:\n%s", in, out)
			}
		})
	}
	// With the deliverable written, the completion passes.
	c := hookstest.Recorded("2.1.25", "PostToolUse-TaskUpdate-completed").Call("TaskCompleted --via PostToolUse --proto 2.1.16")
	c.Files = map[string]string{"parser.go": "package parser\n"}
	hookstest.Exec(t, bin, c).Passes(t)
	hookstest.Run(t, plugin.Mux(), c).Passes(t)
}

func withCommand(c hookstest.Call, command string) hookstest.Call {
	c.Stdin = strings.Replace(c.Stdin, `"command":"ls"`, `"command":"`+command+`"`, 1)
	return c
}

func noTranscript(c hookstest.Call) hookstest.Call {
	c.Transcript = ""
	return c
}

// Reply reads every channel back: exit 2, a PreToolUse permission
// decision, a PermissionRequest's behavior, continue:false, context.
func TestReplyDecodesEveryChannel(t *testing.T) {
	for _, tc := range []struct {
		event hooks.Event
		res   hooks.Result
		band  string
		want  hookstest.Want
	}{
		{hooks.EventPreToolUse, hooks.Blocked("no"), "", hookstest.Want{Decision: hooks.Block, Reason: "no"}},
		{hooks.EventPreToolUse, hooks.Asked("sure?"), "", hookstest.Want{Decision: hooks.Ask, Reason: "sure?"}},
		{hooks.EventPreToolUse, hooks.Allowed("fine"), "", hookstest.Want{Decision: hooks.Allow, Reason: "fine"}},
		{hooks.EventPermissionRequest, hooks.Blocked("denied"), "", hookstest.Want{Decision: hooks.Block, Reason: "denied"}},
		{hooks.EventTaskCompleted, hooks.Halted("stop"), "2.1.69", hookstest.Want{Halt: true}},
		{hooks.EventSessionStart, hooks.Context("hello"), "", hookstest.Want{Context: "hello"}},
		{hooks.EventSessionEnd, hooks.Blocked("late"), "", hookstest.Want{SystemMessage: "late"}},
	} {
		m := new(hooks.Mux)
		res := tc.res
		m.HandleFunc(tc.event, "", func(context.Context, hooks.Input) (hooks.Result, error) { return res, nil })
		args := string(tc.event)
		if tc.band != "" {
			args += " --proto " + tc.band
		}
		in := `{"session_id":"s","hook_event_name":"` + string(tc.event) + `","tool_name":"Bash","task_id":"1"}`
		hookstest.Run(t, m, hookstest.Call{Args: args, Stdin: in}).Check(t, tc.want)
	}
}

// A hook must answer while stdin stays open, in process and as a binary.
func TestStdinOpen(t *testing.T) {
	bin := hookstest.Build(t, "./testdata/plugin/cmd/plugin")
	c := withCommand(hookstest.Recorded("2.1.33", "PreToolUse-Bash").Call("PreToolUse"), "git push --force")
	c.StdinOpen = true
	hookstest.Run(t, plugin.Mux(), c).Blocks(t, "no force pushes")
	hookstest.Exec(t, bin, c).Blocks(t, "no force pushes")
}
