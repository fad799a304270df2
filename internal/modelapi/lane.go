package modelapi

import (
	"fmt"
	"strings"
)

// lane is the cursor over the turns of one conversation (see the package
// comment, "Advancing"). Its methods run under Server.mu.
type lane struct {
	turns []Turn
	index []int // script index of each turn

	pos      int   // next turn to serve
	served   int   // script index of the last turn served, -1 before the first
	last     reply // the last turn's reply, replayed on retries
	lastMsgs int   // message count of the request that got the last turn
}

// next returns the reply to req and the script index of the turn it serves
// (-1 for the "done." answer).
func (l *lane) next(req request) (reply, int) {
	if l.served >= 0 && !l.progressed(req) {
		return l.last, l.served
	}
	if l.pos >= len(l.turns) {
		return reply{Text: DoneText, StopReason: "end_turn"}, -1
	}
	t, i := l.turns[l.pos], l.index[l.pos]
	if t.WaitFor != "" && !strings.Contains(req.userText(), t.WaitFor) {
		return reply{Text: WaitText, StopReason: "end_turn"}, -1
	}
	msg, err := replyFor(t, i)
	if err != nil {
		msg = reply{Text: err.Error(), StopReason: "end_turn"}
	}
	l.pos++
	l.served, l.last, l.lastMsgs = i, msg, len(req.Messages)
	return msg, i
}

// progressed reports whether req moved past the last served turn: it carries
// that turn's tool_result, or, for a text turn, has more messages.
func (l *lane) progressed(req request) bool {
	if l.last.ToolID != "" {
		return req.hasToolResult(l.last.ToolID)
	}
	return len(req.Messages) > l.lastMsgs
}

// replyFor builds the reply for turn t at script index i.
func replyFor(t Turn, i int) (reply, error) {
	msg := reply{Text: t.Text, StopReason: "end_turn"}
	if t.Tool == "" {
		return msg, nil
	}
	in, err := t.inputJSON()
	if err != nil {
		return reply{}, fmt.Errorf("modelapi: turn %d input: %w", i, err)
	}
	msg.ToolID, msg.ToolName, msg.ToolInput, msg.StopReason = toolID(i), t.Tool, in, "tool_use"
	return msg, nil
}

// toolID is the tool_use id the server issues for script turn i.
func toolID(i int) string { return fmt.Sprintf("toolu_hw_%04d", i) }

// turnOfID returns the script index encoded in a toolID, -1 for foreign ids.
func turnOfID(id string) int {
	var i int
	if n, err := fmt.Sscanf(id, "toolu_hw_%04d", &i); err != nil || n != 1 || toolID(i) != id {
		return -1
	}
	return i
}
