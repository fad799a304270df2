package hooks

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func TestEmit(t *testing.T) {
	v269 := Band{Version: [3]int{2, 1, 69}}
	tests := []struct {
		name       string
		event      Event
		res        Result
		band       Band
		wantCode   int
		wantOut    string
		wantErrOut string
	}{
		{name: "nothing to say", event: EventPreToolUse, wantCode: 0},
		{name: "deny is exit 2", event: EventPreToolUse, res: Blocked("no rm"), wantCode: 2, wantErrOut: "no rm\n"},
		{name: "empty reason still explains", event: EventStop, res: Result{Decision: Block}, wantCode: 2, wantErrOut: "blocked by a hook\n"},
		{name: "ask is JSON", event: EventPreToolUse, res: Result{Decision: Ask, Reason: "sure?"},
			wantOut: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}` + "\n"},
		{name: "session context", event: EventSessionStart, res: Context("hello"),
			wantOut: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"hello"}}` + "\n"},
		{name: "stop has no hookSpecificOutput", event: EventStop, res: Context("note"),
			wantOut: `{"systemMessage":"note"}` + "\n"},
		{name: "precompact never hookSpecificOutput", event: EventPreCompact, res: Context("n"),
			wantOut: `{"systemMessage":"n"}` + "\n"},
		{name: "permission request ignores exit 2", event: EventPermissionRequest, res: Blocked("nope"),
			wantOut: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"nope"}}}` + "\n"},
		{name: "block on a non-blocking event is a message", event: EventSessionEnd, res: Blocked("late"),
			wantOut: `{"systemMessage":"late"}` + "\n"},
		{name: "team halt below 2.1.69 degrades to exit 2", event: EventTaskCompleted, res: Halted("write L2"),
			wantCode: 2, wantErrOut: "write L2\n"},
		{name: "team halt from 2.1.69 is JSON", event: EventTeammateIdle, res: Halted("done for today"), band: v269,
			wantOut: `{"continue":false,"stopReason":"done for today"}` + "\n"},
		{name: "halt elsewhere is JSON", event: EventStop, res: Halted("bye"),
			wantOut: `{"continue":false,"stopReason":"bye"}` + "\n"},
		// The three events where Emit used to disagree with the matrix.
		{name: "PreCompact cannot block before 2.1.105", event: EventPreCompact, res: Blocked("not now"),
			wantOut: `{"systemMessage":"not now"}` + "\n"},
		{name: "PreCompact blocks from 2.1.105", event: EventPreCompact, res: Blocked("not now"), band: Band{Version: [3]int{2, 1, 105}},
			wantCode: 2, wantErrOut: "not now\n"},
		{name: "PostToolBatch cannot block", event: EventPostToolBatch, res: Blocked("late"), band: Band{Version: [3]int{2, 1, 330}},
			wantOut: `{"systemMessage":"late"}` + "\n"},
		{name: "PostToolUseFailure feeds back with exit 2", event: EventPostToolUseFailure, res: Blocked("try again"),
			wantCode: 2, wantErrOut: "try again\n"},
		{name: "no HTML escaping", event: EventUserPromptSubmit, res: Context("a<b && c>d"),
			wantOut: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"a<b && c>d"}}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Emit(&out, &errOut, tt.event, tt.res, tt.band)
			if code != tt.wantCode || out.String() != tt.wantOut || errOut.String() != tt.wantErrOut {
				t.Fatalf("Emit = %d, stdout %q, stderr %q\nwant %d, stdout %q, stderr %q",
					code, out.String(), errOut.String(), tt.wantCode, tt.wantOut, tt.wantErrOut)
			}
			if out.Len() > 0 && !json.Valid(out.Bytes()) {
				t.Fatalf("stdout is not JSON: %q", out.String())
			}
		})
	}
}

func TestParseBand(t *testing.T) {
	b, err := ParseBand("v2.1.69")
	if err != nil || !b.AtLeast(2, 1, 69) || b.AtLeast(2, 1, 70) || !b.AtLeast(2, 0, 999) {
		t.Fatalf("ParseBand = %+v, %v", b, err)
	}
	for _, bad := range []string{"", "2.1", "2.1.x", "2.1.-1", "latest"} {
		if _, err := ParseBand(bad); err == nil {
			t.Errorf("ParseBand(%q) accepted", bad)
		}
	}
}

// TestWireFreeze pins the JSON shape of every output type: a renamed or
// re-tagged field changes testdata/wire.json and fails here.
func TestWireFreeze(t *testing.T) {
	f := false
	base := Output{Continue: &f, StopReason: "r", SuppressOutput: true, SystemMessage: "m"}
	ctx := &ContextSpecific{HookEventName: EventSessionStart, AdditionalContext: "c"}
	values := map[string]any{
		"Output":        base,
		"ContextOutput": ContextOutput{Output: base, HookSpecificOutput: ctx},
		"DecisionContextOutput": DecisionContextOutput{Output: base, Decision: "block", Reason: "why",
			HookSpecificOutput: &ContextSpecific{HookEventName: EventPostToolUse, AdditionalContext: "c"}},
		"PreToolUseOutput": PreToolUseOutput{Output: base, HookSpecificOutput: &PreToolUseSpecific{
			HookEventName: EventPreToolUse, PermissionDecision: "deny", PermissionDecisionReason: "why",
			UpdatedInput: json.RawMessage(`{"command":"ls"}`), AdditionalContext: "c"}},
		"PermissionRequestOutput": PermissionRequestOutput{Output: base, HookSpecificOutput: &PermissionRequestSpecific{
			HookEventName: EventPermissionRequest, Decision: &PermissionDecision{Behavior: "allow", UpdatedInput: json.RawMessage(`{}`), Message: "m"}}},
		"Input.TaskCompleted": &TaskCompleted{Common: Common{SessionID: "s", TranscriptPath: "/t", Cwd: "/p", HookEventName: EventTaskCompleted, PermissionMode: "default"},
			Task: Task{TaskID: "1", TaskSubject: "sub", TaskDescription: "d"}, Team: Team{TeammateName: "ann", TeamName: "red"}},
		"Input.PreToolUse": &PreToolUse{Common: Common{SessionID: "s", HookEventName: EventPreToolUse}, ToolCall: ToolCall{ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"ls"}`), ToolUseID: "t1"}},
	}
	got, err := json.MarshalIndent(values, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "wire.json"), append(got, '\n'))
}

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s changed; if intended, run go test ./hooks -update\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestEmitMakesHostileTextInert: a reason that quotes a path the model
// chose reaches the user's terminal (stderr on exit 2, systemMessage,
// permission reasons) with its control characters and bidi overrides as
// visible escapes; newlines stay.
func TestEmitMakesHostileTextInert(t *testing.T) {
	hostile := "blocked Read of /tmp/\x1b]0;owned\a\x1b[2J\u202eevil\u009b\nsecond line"
	want := `blocked Read of /tmp/\x1b]0;owned\x07\x1b[2J\u202eevil\u009b` + "\nsecond line"
	cases := []struct {
		event Event
		res   Result
		field func(map[string]any) any
	}{
		{EventPreToolUse, Blocked(hostile), nil},
		{EventSessionEnd, Blocked(hostile), func(m map[string]any) any { return m["systemMessage"] }},
		{EventStop, Context(hostile), func(m map[string]any) any { return m["systemMessage"] }},
		{EventPreToolUse, Result{Decision: Ask, Reason: hostile}, func(m map[string]any) any {
			return m["hookSpecificOutput"].(map[string]any)["permissionDecisionReason"]
		}},
		{EventPermissionRequest, Blocked(hostile), func(m map[string]any) any {
			return m["hookSpecificOutput"].(map[string]any)["decision"].(map[string]any)["message"]
		}},
		{EventStop, Halted(hostile), func(m map[string]any) any { return m["stopReason"] }},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := Emit(&out, &errb, c.event, c.res, Band{Version: [3]int{2, 1, 200}})
		if c.field == nil {
			if code != ExitBlock || errb.String() != want+"\n" {
				t.Errorf("%s: exit %d, stderr %q; want %q", c.event, code, errb.String(), want)
			}
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v in %q", c.event, err, out.String())
		}
		if got := c.field(m); got != want {
			t.Errorf("%s %+v: shown %q; want %q", c.event, c.res.Decision, got, want)
		}
	}
}

// A Result travels as JSON (hookgen reply reads it from JavaScript): the
// decision by its name, empty fields left out, and back the same.
func TestResultJSON(t *testing.T) {
	for _, r := range []Result{{}, Blocked("why"), Asked("sure?"), Allowed("fine"), Context("c"), Halted("stop"),
		{Decision: Block, Reason: "r", SystemMessage: "m", UpdatedInput: json.RawMessage(`{"command":"ls"}`)}} {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back Result
		if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(back, r) {
			t.Errorf("%s: back %+v, %v", data, back, err)
		}
	}
	if data, _ := json.Marshal(Blocked("why")); string(data) != `{"decision":"block","reason":"why"}` {
		t.Errorf("Blocked as JSON: %s", data)
	}
	var r Result
	if err := json.Unmarshal([]byte(`{"decision":"deny"}`), &r); err == nil {
		t.Error(`"deny" read as a decision: one spelling, "block"`)
	}
}
