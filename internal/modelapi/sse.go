package modelapi

import (
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// reply is one assistant message the server answers with.
type reply struct {
	ID         string
	Model      string
	Text       string
	ToolID     string
	ToolName   string
	ToolInput  json.RawMessage
	StopReason string
}

// content returns the message content blocks in their final form.
func (m reply) content() []map[string]any {
	var out []map[string]any
	if m.Text != "" || m.ToolName == "" {
		out = append(out, map[string]any{"type": "text", "text": m.Text})
	}
	if m.ToolName != "" {
		out = append(out, map[string]any{"type": "tool_use", "id": m.ToolID, "name": m.ToolName, "input": m.ToolInput})
	}
	return out
}

// usage is the token accounting attached to every reply.
func usage(output int) map[string]any {
	return map[string]any{"input_tokens": 10, "output_tokens": output, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}

// JSON returns the non-streaming form of the message.
func (m reply) JSON() ([]byte, error) {
	return json.Marshal(map[string]any{
		"id": m.ID, "type": "message", "role": "assistant", "model": m.Model,
		"content": m.content(), "stop_reason": m.StopReason, "stop_sequence": nil,
		"usage": usage(5),
	})
}

// event is one server-sent event.
type event struct {
	Name string
	Data map[string]any
}

// events returns the streaming form of the message as an event sequence.
func (m reply) events() []event {
	evs := []event{{"message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": m.ID, "type": "message", "role": "assistant", "model": m.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage(1),
	}}}}
	for i, b := range m.content() {
		evs = append(evs, blockEvents(i, b)...)
	}
	return append(evs,
		event{"message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": m.StopReason, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}}},
		event{"message_stop", map[string]any{"type": "message_stop"}},
	)
}

// blockEvents returns the start, delta and stop events of one content block.
// Tool input is sent as two input_json_delta fragments, as the real API
// splits it, so a client that does not concatenate fragments fails loudly.
func blockEvents(i int, b map[string]any) []event {
	var start map[string]any
	var deltas []map[string]any
	switch b["type"] {
	case "tool_use":
		start = map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}
		in := string(b["input"].(json.RawMessage))
		half := len(in) / 2
		for half > 0 && !utf8.RuneStart(in[half]) {
			half-- // never split a UTF-8 sequence across fragments
		}
		for _, part := range []string{in[:half], in[half:]} {
			deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": part})
		}
	default:
		start = map[string]any{"type": "text", "text": ""}
		deltas = append(deltas, map[string]any{"type": "text_delta", "text": b["text"]})
	}
	evs := []event{{"content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": start}}}
	for _, d := range deltas {
		evs = append(evs, event{"content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d}})
	}
	return append(evs, event{"content_block_stop", map[string]any{"type": "content_block_stop", "index": i}})
}

// writeSSE writes the message as a server-sent event stream to w, flushing
// after each event when w supports it.
func (m reply) writeSSE(w io.Writer) error {
	for _, ev := range m.events() {
		data, err := json.Marshal(ev.Data)
		if err != nil {
			return fmt.Errorf("modelapi: encode %s: %w", ev.Name, err)
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Name, data); err != nil {
			return fmt.Errorf("modelapi: write %s: %w", ev.Name, err)
		}
		if f, ok := w.(interface{ Flush() }); ok {
			f.Flush()
		}
	}
	return nil
}
