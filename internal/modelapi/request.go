package modelapi

import (
	"encoding/json"
	"fmt"
	"strings"
)

// request is the part of a Messages API request body the server reads.
type request struct {
	Model     string            `json:"model"`
	Stream    bool              `json:"stream"`
	MaxTokens int               `json:"max_tokens"`
	System    json.RawMessage   `json:"system"`
	Messages  []message         `json:"messages"`
	Tools     []json.RawMessage `json:"tools"`
}

// message is one conversation message; content is a string or a block list.
type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// block is a content block. Only the fields the server reads are decoded.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// parseRequest decodes a Messages API request body.
func parseRequest(body []byte) (request, error) {
	var r request
	if err := json.Unmarshal(body, &r); err != nil {
		return request{}, fmt.Errorf("modelapi: decode request: %w", err)
	}
	return r, nil
}

// blocks returns content as a block list; a plain string becomes one text
// block.
func blocks(content json.RawMessage) []block {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return []block{{Type: "text", Text: s}}
	}
	var bs []block
	_ = json.Unmarshal(content, &bs) // malformed content reads as no blocks
	return bs
}

// text joins the text of content, a string or a block list.
func text(content json.RawMessage) string {
	var parts []string
	for _, b := range blocks(content) {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "tool_result":
			parts = append(parts, text(b.Content))
		}
	}
	return strings.Join(parts, "\n")
}

// systemText returns the system prompt as one string.
func (r request) systemText() string { return text(r.System) }

// openingUserText returns the text of the user messages before the first
// assistant message. Usually that is one message; 2.1.69 sends a subagent
// its deferred-tools list as a message of its own, before the prompt.
func (r request) openingUserText() string {
	var parts []string
	for _, m := range r.Messages {
		if m.Role != "user" {
			break
		}
		parts = append(parts, text(m.Content))
	}
	return strings.Join(parts, "\n")
}

// userText returns the text of every user message, tool results included.
func (r request) userText() string {
	var parts []string
	for _, m := range r.Messages {
		if m.Role == "user" {
			parts = append(parts, text(m.Content))
		}
	}
	return strings.Join(parts, "\n")
}

// toolResults returns every tool_result block the request carries, in order.
func (r request) toolResults() []ToolResult {
	var out []ToolResult
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		for _, b := range blocks(m.Content) {
			if b.Type == "tool_result" {
				out = append(out, ToolResult{ToolUseID: b.ToolUseID, Content: text(b.Content), IsError: b.IsError})
			}
		}
	}
	return out
}

// hasToolResult reports whether the request carries a tool_result for id.
func (r request) hasToolResult(id string) bool {
	for _, tr := range r.toolResults() {
		if tr.ToolUseID == id {
			return true
		}
	}
	return false
}

// isSide reports whether the request is a side request (see the package
// comment): one that offers the model no tools.
func (r request) isSide() bool { return len(r.Tools) == 0 }

// lane returns the first of markers found in the system prompt or the
// opening user messages, or "" for the main conversation.
func (r request) lane(markers []string) string {
	if len(markers) == 0 {
		return ""
	}
	hay := r.systemText() + "\n" + r.openingUserText()
	for _, m := range markers {
		if strings.Contains(hay, m) {
			return m
		}
	}
	return ""
}
