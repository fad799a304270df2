package modelapi

import "encoding/json"

// Turn is one scripted assistant message.
type Turn struct {
	// Text is the text block of the message. A turn with no Tool ends the
	// assistant's turn (stop_reason end_turn); with a Tool the text comes
	// first and may be empty.
	Text string
	// Tool is the name of the tool to call, e.g. "Bash". Empty for a plain
	// text turn.
	Tool string
	// Input is the tool input; it is marshalled to a JSON object.
	Input any
	// Marker routes the turn to the lane of requests whose system prompt or
	// first user message contains it. Empty means the main conversation.
	Marker string
	// WaitFor, when set, holds the turn back until a request of its lane
	// carries this text in a user message (a prompt, a tool_result, or a
	// message another agent sent, such as a teammate's notice). Until then
	// the lane answers [WaitText] and ends the assistant's turn without
	// consuming anything. Agent teams need it: the lead must not clean up
	// before its teammate has approved the shutdown, and when that happens
	// depends on the teammate, not on the lead's own progress.
	WaitFor string
}

// Script is the ordered list of assistant turns. Turns with the same Marker
// form one lane and are served in their order in the script.
type Script []Turn

// Text returns a plain text turn for the main conversation.
func Text(s string) Turn { return Turn{Text: s} }

// ToolUse returns a turn that calls the tool name with input in the main
// conversation.
func ToolUse(name string, input any) Turn { return Turn{Tool: name, Input: input} }

// In returns a copy of t routed to the lane identified by marker (see
// [Turn.Marker]).
func (t Turn) In(marker string) Turn {
	t.Marker = marker
	return t
}

// Awaiting returns a copy of t that is served only once a request of its
// lane carries text (see [Turn.WaitFor]).
func (t Turn) Awaiting(text string) Turn {
	t.WaitFor = text
	return t
}

// markers returns the distinct non-empty markers of s, in script order.
func (s Script) markers() []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range s {
		if t.Marker != "" && !seen[t.Marker] {
			seen[t.Marker] = true
			out = append(out, t.Marker)
		}
	}
	return out
}

// lane returns the turns of s that belong to marker, with their script
// indexes.
func (s Script) lane(marker string) (turns []Turn, index []int) {
	for i, t := range s {
		if t.Marker == marker {
			turns = append(turns, t)
			index = append(index, i)
		}
	}
	return turns, index
}

// inputJSON returns the tool input as a JSON object, "{}" when nil.
func (t Turn) inputJSON() (json.RawMessage, error) {
	if t.Input == nil {
		return json.RawMessage("{}"), nil
	}
	if raw, ok := t.Input.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(t.Input)
}
