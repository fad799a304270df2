package modelapi

import (
	"fmt"
	"testing"
)

// TestWaitForHoldsTheTurn: a turn with WaitFor is served only once a user
// message of its lane carries the text; before that the lane answers
// WaitText and consumes nothing, and the wait text in an assistant message
// does not count.
func TestWaitForHoldsTheTurn(t *testing.T) {
	s := start(t, Script{
		Text("lead: waiting"),
		ToolUse("Bash", map[string]any{"command": "cleanup"}).Awaiting("shutdown_approved"),
	})
	asst := func(text string) map[string]any { return map[string]any{"role": "assistant", "content": text} }
	if g := ask(t, s, true, user("go")); g.text != "lead: waiting" {
		t.Fatalf("turn 0 = %+v", g)
	}
	early := ask(t, s, true, user("go"), asst("lead: waiting"), user("idle_notification"))
	if early.text != WaitText || early.stop != "end_turn" || early.toolName != "" {
		t.Fatalf("before the text arrived got %+v, want %q", early, WaitText)
	}
	mine := ask(t, s, true, user("go"), asst("lead: waiting"), user("idle_notification"), asst("shutdown_approved?"), user("still idle"))
	if mine.text != WaitText {
		t.Fatalf("the text in an assistant message released the turn: %+v", mine)
	}
	msgs := []any{user("go"), asst("lead: waiting"), user("idle_notification"), asst(WaitText),
		user(`<teammate-message>{"type":"shutdown_approved"}</teammate-message>`)}
	g := ask(t, s, true, msgs...)
	if g.toolName != "Bash" || g.input["command"] != "cleanup" {
		t.Fatalf("after the text arrived got %+v, want the held turn", g)
	}
	if again := ask(t, s, true, msgs...); again.toolID != g.toolID {
		t.Fatalf("a retry got %+v, want the same turn again", again)
	}
	var turns []int
	for _, r := range s.Requests() {
		turns = append(turns, r.Turn)
	}
	if want := []int{0, -1, -1, 1, 1}; fmt.Sprint(turns) != fmt.Sprint(want) {
		t.Errorf("served turns = %v, want %v", turns, want)
	}
}

// TestWaitForInToolResult: the awaited text may arrive in a tool_result.
func TestWaitForInToolResult(t *testing.T) {
	s := start(t, Script{
		ToolUse("Bash", map[string]any{"command": "ask"}),
		Text("got it").Awaiting("READY-7"),
	})
	first := ask(t, s, true, user("go"))
	g := ask(t, s, true, user("go"), assistantToolUse(first.toolID), toolResult(first.toolID, "READY-7 here", false))
	if g.text != "got it" {
		t.Fatalf("got %+v, want the held text turn", g)
	}
}

// TestFinished: the script is finished once every lane served its last
// turn; a lane nobody asked yet keeps it unfinished.
func TestFinished(t *testing.T) {
	s := start(t, Script{Text("lead"), Text("sub").In("SUB-1")})
	if s.Finished() {
		t.Fatal("finished before any request")
	}
	ask(t, s, true, user("go"))
	if s.Finished() {
		t.Fatal("finished with the SUB-1 lane never asked")
	}
	ask(t, s, true, user("SUB-1 go"))
	if !s.Finished() {
		t.Fatal("not finished after both lanes served their turns")
	}
}
