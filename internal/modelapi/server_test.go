package modelapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bashTool is a minimal tool definition; its presence makes a request a
// conversation request.
var bashTool = map[string]any{"name": "Bash", "input_schema": map[string]any{"type": "object"}}

// sseEvent is one decoded server-sent event.
type sseEvent struct {
	name string
	data map[string]any
}

// got is an assistant message rebuilt from a response.
type got struct {
	text, toolID, toolName, stop string
	input                        map[string]any
	events                       []string
}

// start runs a server for script on loopback and closes it with the test.
func start(t *testing.T, script Script) *Server {
	t.Helper()
	s := New(script)
	s.LogDir = t.TempDir()
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// post sends body to path and returns the response.
func post(t *testing.T, s *Server, path string, body any) *http.Response {
	t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.URL()+path, "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// ask sends a streaming conversation request with msgs and rebuilds the
// answer from its event stream.
func ask(t *testing.T, s *Server, tools bool, msgs ...any) got {
	t.Helper()
	body := map[string]any{"model": "m", "stream": true, "max_tokens": 100, "messages": msgs}
	if tools {
		body["tools"] = []any{bashTool}
	}
	resp := post(t, s, "/v1/messages", body)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q, want text/event-stream", ct)
	}
	return rebuild(t, readSSE(t, resp.Body))
}

// readSSE decodes an event stream.
func readSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var evs []sseEvent
	var name string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("event %s: bad data: %v", name, err)
			}
			if d["type"] != name {
				t.Fatalf("event name %q carries type %v", name, d["type"])
			}
			evs = append(evs, sseEvent{name, d})
		}
	}
	return evs
}

// rebuild assembles a message from events the way a streaming client does:
// text deltas and input_json_delta fragments are concatenated per block.
func rebuild(t *testing.T, evs []sseEvent) got {
	t.Helper()
	var g got
	var partial strings.Builder
	for _, ev := range evs {
		g.events = append(g.events, ev.name)
		switch ev.name {
		case "content_block_start":
			if cb := ev.data["content_block"].(map[string]any); cb["type"] == "tool_use" {
				g.toolID, g.toolName = cb["id"].(string), cb["name"].(string)
			}
		case "content_block_delta":
			d := ev.data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				g.text += d["text"].(string)
			case "input_json_delta":
				partial.WriteString(d["partial_json"].(string))
			}
		case "message_delta":
			g.stop = ev.data["delta"].(map[string]any)["stop_reason"].(string)
		}
	}
	if g.toolName != "" {
		if err := json.Unmarshal([]byte(partial.String()), &g.input); err != nil {
			t.Fatalf("tool input fragments %q: %v", partial.String(), err)
		}
	}
	return g
}

func user(content any) map[string]any { return map[string]any{"role": "user", "content": content} }

func assistantToolUse(id string) map[string]any {
	return map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{}}}}
}

func toolResult(id string, content any, isErr bool) map[string]any {
	return user([]any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": isErr}})
}

func TestStreamEventOrderAndToolInput(t *testing.T) {
	input := map[string]any{"command": "echo héllo — wörld", "description": "say it"}
	s := start(t, Script{{Text: "Let me run it.", Tool: "Bash", Input: input}})
	g := ask(t, s, true, user("hi"))

	want := []string{"message_start",
		"content_block_start", "content_block_delta", "content_block_stop",
		"content_block_start", "content_block_delta", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop"}
	if strings.Join(g.events, ",") != strings.Join(want, ",") {
		t.Errorf("events = %v, want %v", g.events, want)
	}
	if g.text != "Let me run it." || g.toolName != "Bash" || g.stop != "tool_use" {
		t.Errorf("got text %q tool %q stop %q", g.text, g.toolName, g.stop)
	}
	if g.input["command"] != input["command"] || g.input["description"] != input["description"] {
		t.Errorf("input = %v, want %v", g.input, input)
	}
}

func TestTurnsAdvanceOnlyOnToolResult(t *testing.T) {
	s := start(t, Script{
		ToolUse("Bash", map[string]any{"command": "one"}),
		ToolUse("Bash", map[string]any{"command": "two"}),
	})
	first := ask(t, s, true, user("hi"))
	if first.input["command"] != "one" {
		t.Fatalf("first turn = %v", first.input)
	}
	retry := ask(t, s, true, user("hi"))
	if retry.toolID != first.toolID || retry.input["command"] != "one" {
		t.Fatalf("a retry without the tool_result got %q %v, want turn 0 again", retry.toolID, retry.input)
	}
	second := ask(t, s, true, user("hi"), assistantToolUse(first.toolID), toolResult(first.toolID, "ok", false))
	if second.input["command"] != "two" || second.toolID == first.toolID {
		t.Fatalf("after the tool_result got %q %v, want turn 1", second.toolID, second.input)
	}
	done := ask(t, s, true, user("hi"), assistantToolUse(first.toolID), toolResult(first.toolID, "ok", false),
		assistantToolUse(second.toolID), toolResult(second.toolID, "ok", false))
	if done.text != DoneText || done.stop != "end_turn" || done.toolName != "" {
		t.Fatalf("after the script got %+v, want %q end_turn", done, DoneText)
	}
}

func TestTextTurnAdvancesOnLongerConversation(t *testing.T) {
	s := start(t, Script{Text("first"), Text("second")})
	if g := ask(t, s, true, user("hi")); g.text != "first" || g.stop != "end_turn" {
		t.Fatalf("turn 0 = %+v", g)
	}
	if g := ask(t, s, true, user("hi")); g.text != "first" {
		t.Fatalf("same-length retry = %q, want first again", g.text)
	}
	asst := map[string]any{"role": "assistant", "content": "first"}
	if g := ask(t, s, true, user("hi"), asst, user("Stop hook feedback: go on")); g.text != "second" {
		t.Fatalf("continuation = %q, want second", g.text)
	}
}

func TestSideRequestsDoNotConsumeTurns(t *testing.T) {
	s := start(t, Script{ToolUse("Bash", map[string]any{"command": "one"})})
	side := ask(t, s, false, user("Warmup"))
	if side.text != SideText || side.toolName != "" {
		t.Fatalf("side request got %+v", side)
	}
	if g := ask(t, s, true, user("hi")); g.input["command"] != "one" {
		t.Fatalf("main request after a side request got %+v, want turn 0", g)
	}
	kinds := []string{}
	for _, r := range s.Requests() {
		kinds = append(kinds, r.Kind)
	}
	if strings.Join(kinds, ",") != "side,main" {
		t.Errorf("kinds = %v", kinds)
	}
}

func TestMarkerLanes(t *testing.T) {
	s := start(t, Script{
		ToolUse("Task", map[string]any{"prompt": "SUBAGENT-7 do it"}),
		ToolUse("Bash", map[string]any{"command": "in-sub"}).In("SUBAGENT-7"),
		Text("sub finished").In("SUBAGENT-7"),
	})
	main := ask(t, s, true, user("hi"))
	if main.toolName != "Task" {
		t.Fatalf("main turn = %+v", main)
	}
	sub := ask(t, s, true, user("SUBAGENT-7 do it"))
	if sub.input["command"] != "in-sub" {
		t.Fatalf("sub lane turn = %+v", sub)
	}
	subEnd := ask(t, s, true, user("SUBAGENT-7 do it"), assistantToolUse(sub.toolID), toolResult(sub.toolID, "fine", false))
	if subEnd.text != "sub finished" {
		t.Fatalf("sub lane second turn = %+v", subEnd)
	}
	mainEnd := ask(t, s, true, user("hi"), assistantToolUse(main.toolID), toolResult(main.toolID, "sub finished", false))
	if mainEnd.text != DoneText {
		t.Fatalf("main after Task = %+v", mainEnd)
	}
	reqs := s.Requests()
	if reqs[1].Kind != "lane" || reqs[1].Marker != "SUBAGENT-7" || reqs[1].Turn != 1 {
		t.Errorf("lane record = %+v", reqs[1])
	}
}

func TestToolResultsRecorded(t *testing.T) {
	s := start(t, Script{ToolUse("Bash", map[string]any{"command": "x"})})
	g := ask(t, s, true, user("hi"))
	blocksContent := []any{map[string]any{"type": "text", "text": "hookwright guard: no"}}
	msgs := []any{user("hi"), assistantToolUse(g.toolID), toolResult(g.toolID, blocksContent, true)}
	ask(t, s, true, msgs...)
	ask(t, s, true, msgs...) // the same result again is recorded once

	rs := s.ToolResults()
	if len(rs) != 1 {
		t.Fatalf("ToolResults = %+v, want one", rs)
	}
	r, ok := s.ToolResultFor(0)
	if !ok || r.ToolUseID != g.toolID || !r.IsError || r.Content != "hookwright guard: no" {
		t.Errorf("ToolResultFor(0) = %+v, %v", r, ok)
	}
}

func TestNonStreaming(t *testing.T) {
	s := start(t, Script{ToolUse("Bash", map[string]any{"command": "x"})})
	resp := post(t, s, "/v1/messages", map[string]any{"model": "m", "max_tokens": 10, "messages": []any{user("hi")}, "tools": []any{bashTool}})
	var m struct {
		Type       string `json:"type"`
		StopReason string `json:"stop_reason"`
		Content    []struct {
			Type  string         `json:"type"`
			Name  string         `json:"name"`
			Input map[string]any `json:"input"`
		} `json:"content"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	if m.Type != "message" || m.StopReason != "tool_use" || len(m.Content) != 1 || m.Content[0].Name != "Bash" || m.Content[0].Input["command"] != "x" {
		t.Errorf("message = %+v", m)
	}
}

func TestOtherEndpointsAndLogs(t *testing.T) {
	s := start(t, nil)
	resp := post(t, s, "/v1/messages/count_tokens", map[string]any{"model": "m", "messages": []any{user("hi")}})
	var ct struct {
		InputTokens int `json:"input_tokens"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&ct); err != nil || resp.StatusCode != 200 || ct.InputTokens <= 0 {
		t.Errorf("count_tokens: %d %+v %v", resp.StatusCode, ct, err)
	}
	if resp := post(t, s, "/api/unknown", map[string]any{}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown path status = %d", resp.StatusCode)
	}
	files, err := filepath.Glob(filepath.Join(s.LogDir, "*.json"))
	if err != nil || len(files) != 2 {
		t.Fatalf("logged files = %v, %v", files, err)
	}
	body, err := os.ReadFile(files[0])
	if err != nil || !strings.Contains(string(body), `"hi"`) {
		t.Errorf("%s = %q, %v", files[0], body, err)
	}
}
