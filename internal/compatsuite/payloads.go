package suite

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// sessionID is the session every suite payload claims.
const sessionID = "compat-suite-session"

// common returns the fields every hook input carries, as 2.1.33 sends them.
func common(event, project string) map[string]any {
	return map[string]any{
		"session_id":      sessionID,
		"transcript_path": filepath.Join(project, ".transcript.jsonl"),
		"cwd":             project,
		"hook_event_name": event,
		"permission_mode": "default",
	}
}

// toolFor picks the tool a matcher group would see: the first name of a
// name list, else Bash.
func toolFor(matcher string) string {
	if matcher == "" || matcher == "*" {
		return "Bash"
	}
	first := strings.Split(matcher, "|")[0]
	if regexp.MustCompile(`^[A-Za-z0-9_]+$`).MatchString(first) {
		return first
	}
	return "Bash"
}

// toolCall is a harmless call of tool with what it answered.
func toolCall(tool, project string) (input, response map[string]any) {
	switch tool {
	case "Bash":
		return map[string]any{"command": "ls", "description": "List files"},
			map[string]any{"stdout": "", "stderr": "", "interrupted": false}
	case "Write":
		p := filepath.Join(project, "notes.md")
		return map[string]any{"file_path": p, "content": "notes\n"}, map[string]any{"type": "create", "filePath": p}
	case "Edit", "MultiEdit":
		p := filepath.Join(project, "notes.md")
		return map[string]any{"file_path": p, "old_string": "a", "new_string": "b"}, map[string]any{"filePath": p}
	case "Read":
		p := filepath.Join(project, "notes.md")
		return map[string]any{"file_path": p}, map[string]any{"type": "text"}
	case "TaskUpdate":
		return map[string]any{"taskId": "1", "status": "in_progress"},
			map[string]any{"success": true, "taskId": "1", "updatedFields": []any{"status"},
				"statusChange": map[string]any{"from": "pending", "to": "in_progress"}}
	case "TodoWrite":
		todos := []any{map[string]any{"content": "Write the parser", "status": "in_progress", "activeForm": "Writing the parser"}}
		return map[string]any{"todos": todos}, map[string]any{"oldTodos": []any{}, "newTodos": todos}
	}
	return map[string]any{}, map[string]any{}
}

// canonical returns the harmless input of event for a handler in a group
// with matcher: what a release sends when nothing is wrong.
func canonical(event, matcher string) func(project, home string) map[string]any {
	return func(project, _ string) map[string]any {
		in := common(event, project)
		switch event {
		case "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest":
			tool := toolFor(matcher)
			input, response := toolCall(tool, project)
			in["tool_name"], in["tool_input"], in["tool_use_id"] = tool, input, "toolu_compat_1"
			switch event {
			case "PostToolUse":
				in["tool_response"] = response
			case "PostToolUseFailure":
				in["error"] = "exit code 1"
			}
		case "SessionStart":
			in["source"] = "startup"
			delete(in, "permission_mode")
		case "SessionEnd":
			in["reason"] = "other"
		case "Stop":
			in["stop_hook_active"] = false
		case "SubagentStop":
			in["stop_hook_active"] = false
			in["agent_id"], in["agent_type"] = "a1b2c3", "general-purpose"
			in["agent_transcript_path"] = filepath.Join(project, ".agent-a1b2c3.jsonl")
		case "SubagentStart":
			in["agent_id"], in["agent_type"] = "a1b2c3", "general-purpose"
		case "UserPromptSubmit":
			in["prompt"] = "hello"
		case "Notification":
			in["message"], in["notification_type"] = "Claude is waiting for your input", "idle_prompt"
		case "PreCompact", "PostCompact":
			in["trigger"], in["custom_instructions"] = "manual", ""
		case "TaskCompleted":
			in["task_id"], in["task_subject"], in["task_description"] = "1", "Write the parser", "parse the config"
		}
		return in
	}
}

// withExtra adds fields no release sends yet to a payload: a handler must
// ignore what it does not know.
func withExtra(p func(project, home string) map[string]any) func(project, home string) map[string]any {
	return func(project, home string) map[string]any {
		in := p(project, home)
		in["future_field"] = map[string]any{"nested": []any{1, "two"}}
		in["compat_suite_marker"] = "unknown fields must be ignored"
		return in
	}
}

// outputKeys lists, per event, the top-level stdout keys beyond the ones
// every event takes, and the hookSpecificOutput keys ("" when the event
// takes no hookSpecificOutput).
var outputKeys = map[string]struct {
	top      []string
	specific []string
}{
	"PreToolUse":         {[]string{"decision", "reason"}, []string{"permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"}},
	"PostToolUse":        {[]string{"decision", "reason"}, []string{"additionalContext", "updatedMCPToolOutput"}},
	"PostToolUseFailure": {nil, []string{"additionalContext"}},
	"UserPromptSubmit":   {[]string{"decision", "reason"}, []string{"additionalContext"}},
	"SessionStart":       {nil, []string{"additionalContext"}},
	"SubagentStart":      {nil, []string{"additionalContext"}},
	"PermissionRequest":  {nil, []string{"decision"}},
	"Stop":               {[]string{"decision", "reason"}, nil},
	"SubagentStop":       {[]string{"decision", "reason"}, nil},
	"SessionEnd":         {nil, nil},
	"Notification":       {nil, nil},
	"PreCompact":         {nil, nil},
	"PostCompact":        {nil, nil},
	"TeammateIdle":       {nil, nil},
	"TaskCompleted":      {nil, nil},
}

// everyEvent are the stdout keys of every event.
var everyEvent = []string{"continue", "stopReason", "suppressOutput", "systemMessage"}

// checkOutput reports why stdout is not a reply event accepts: it must be
// empty, or one JSON object with only the keys the event takes. A wrong
// hookSpecificOutput invalidates the whole reply on newer releases.
func checkOutput(event, stdout string) error {
	s := strings.TrimSpace(stdout)
	if s == "" {
		return nil
	}
	if !strings.HasPrefix(s, "{") {
		return nil // plain text: shown in the transcript, not parsed
	}
	obj, err := decodeStrict([]byte(s))
	if err != nil {
		return fmt.Errorf("stdout is not one JSON object: %v", err)
	}
	allowed := map[string]bool{}
	for _, k := range everyEvent {
		allowed[k] = true
	}
	shape, known := outputKeys[event]
	for _, k := range shape.top {
		allowed[k] = true
	}
	if shape.specific != nil || !known {
		allowed["hookSpecificOutput"] = true
	}
	var bad []string
	for k := range obj {
		if !allowed[k] {
			bad = append(bad, k)
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		return fmt.Errorf("%s does not take %s in its reply", event, strings.Join(quoteAll(bad), ", "))
	}
	if err := checkTypes(obj); err != nil {
		return err
	}
	spec, has := obj["hookSpecificOutput"]
	if !has {
		return nil
	}
	so, ok := spec.(map[string]any)
	if !ok {
		return fmt.Errorf("hookSpecificOutput is %s, want an object", jsonKind(spec))
	}
	if name, _ := so["hookEventName"].(string); name != event {
		return fmt.Errorf("hookSpecificOutput.hookEventName is %q under %s; the release discards the whole reply", name, event)
	}
	if known {
		ok := map[string]bool{"hookEventName": true}
		for _, k := range shape.specific {
			ok[k] = true
		}
		for k := range so {
			if !ok[k] {
				return fmt.Errorf("hookSpecificOutput of %s does not take %q", event, k)
			}
		}
	}
	if d, ok := so["permissionDecision"]; ok && d != "allow" && d != "deny" && d != "ask" {
		return fmt.Errorf("permissionDecision %v: want allow, deny or ask", d)
	}
	return nil
}

// checkTypes checks the types of the keys every event takes.
func checkTypes(obj map[string]any) error {
	for k, want := range map[string]string{"continue": "bool", "suppressOutput": "bool", "stopReason": "string", "systemMessage": "string", "reason": "string"} {
		v, ok := obj[k]
		if !ok {
			continue
		}
		switch want {
		case "bool":
			if _, ok := v.(bool); !ok {
				return fmt.Errorf("%q is %s, want a boolean", k, jsonKind(v))
			}
		case "string":
			if _, ok := v.(string); !ok {
				return fmt.Errorf("%q is %s, want a string", k, jsonKind(v))
			}
		}
	}
	if d, ok := obj["decision"]; ok && d != "block" && d != "approve" {
		return fmt.Errorf("decision %v: want \"block\"", d)
	}
	return nil
}

// halts reports whether stdout asks Claude Code to stop (continue:false).
func halts(stdout string) bool {
	var o struct {
		Continue *bool `json:"continue"`
	}
	return json.Unmarshal([]byte(strings.TrimSpace(stdout)), &o) == nil && o.Continue != nil && !*o.Continue
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
