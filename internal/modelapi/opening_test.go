package modelapi

import "testing"

// TestMarkerAfterALeadingUserMessage: 2.1.69 opens a subagent's
// conversation with a user message listing deferred tools, then the prompt
// carrying the marker. The request belongs to the marker's lane, while a
// marker that only appears after the first assistant message (the main
// conversation quoting its own Task call) does not move it out of main.
func TestMarkerAfterALeadingUserMessage(t *testing.T) {
	s := start(t, Script{
		ToolUse("Task", map[string]any{"prompt": "SUBAGENT-9 go"}),
		Text("sub done").In("SUBAGENT-9"),
	})
	main := ask(t, s, true, user("<available-deferred-tools>Bash</available-deferred-tools>"), user("Run the steps."))
	if main.toolName != "Task" {
		t.Fatalf("main turn = %+v", main)
	}
	sub := ask(t, s, true, user("<available-deferred-tools>Bash</available-deferred-tools>"), user("SUBAGENT-9 go"))
	if sub.text != "sub done" {
		t.Fatalf("the subagent got %+v, want its lane's turn", sub)
	}
	again := ask(t, s, true, user("Run the steps."), assistantToolUse(main.toolID), toolResult(main.toolID, "SUBAGENT-9 go: sub done", false))
	if again.text != DoneText {
		t.Fatalf("main after the Task result = %+v, want %q", again, DoneText)
	}
}
