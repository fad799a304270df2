package hooks

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/hookwright/hookwright/internal/jsonscan"
)

// fielder is an event type that [Decode] can fill without reflection: the
// events on the hot path (the tool events, Stop, SubagentStop, the task
// events, SessionStart). field returns a pointer to the field whose JSON
// name is key (a *string, *Event, *bool, *int64 or *json.RawMessage), or
// nil when the type has none. TestFieldersCoverEveryField holds each
// fielder to its struct tags.
//
// Decoding a typed struct with encoding/json costs its reflection walk of
// the type the first time, and a hook call decodes once: about 2% of a
// call's CPU (make bench). The fast path checks the input with package
// jsonscan and fills the fields in one pass, and hands anything unusual
// back to encoding/json, which stays the reference (FuzzDecodeFast).
type fielder interface {
	field(key string) any
}

// commonField is the field of Common that k names. It is not called
// field: an event type that embeds Common without a field method of its
// own must not become a fielder with half its fields.
func (c *Common) commonField(k string) any {
	switch k {
	case "session_id":
		return &c.SessionID
	case "transcript_path":
		return &c.TranscriptPath
	case "cwd":
		return &c.Cwd
	case "hook_event_name":
		return &c.HookEventName
	case "permission_mode":
		return &c.PermissionMode
	case "agent_id":
		return &c.AgentID
	case "agent_type":
		return &c.AgentType
	}
	return nil
}

func (t *ToolCall) toolField(k string) any {
	switch k {
	case "tool_name":
		return &t.ToolName
	case "tool_input":
		return &t.ToolInput
	case "tool_use_id":
		return &t.ToolUseID
	}
	return nil
}

func (t *Team) teamField(k string) any {
	switch k {
	case "teammate_name":
		return &t.TeammateName
	case "team_name":
		return &t.TeamName
	}
	return nil
}

func (t *Task) taskField(k string) any {
	switch k {
	case "task_id":
		return &t.TaskID
	case "task_subject":
		return &t.TaskSubject
	case "task_description":
		return &t.TaskDescription
	}
	return nil
}

// firstField returns the first non-nil pointer of ps.
func firstField(ps ...any) any {
	for _, p := range ps {
		if p != nil {
			return p
		}
	}
	return nil
}

func (e *PreToolUse) field(k string) any { return firstField(e.commonField(k), e.toolField(k)) }

func (e *PostToolUse) field(k string) any {
	switch k {
	case "tool_response":
		return &e.ToolResponse
	case "duration_ms":
		return &e.DurationMS
	}
	return firstField(e.commonField(k), e.toolField(k))
}

func (e *PostToolUseFailure) field(k string) any {
	switch k {
	case "error":
		return &e.Error
	case "is_interrupt":
		return &e.IsInterrupt
	case "duration_ms":
		return &e.DurationMS
	}
	return firstField(e.commonField(k), e.toolField(k))
}

func (e *Stop) field(k string) any {
	switch k {
	case "stop_hook_active":
		return &e.StopHookActive
	case "last_assistant_message":
		return &e.LastAssistantMessage
	}
	return e.commonField(k)
}

func (e *SubagentStop) field(k string) any {
	switch k {
	case "stop_hook_active":
		return &e.StopHookActive
	case "agent_transcript_path":
		return &e.AgentTranscriptPath
	case "last_assistant_message":
		return &e.LastAssistantMessage
	}
	return e.commonField(k)
}

func (e *SessionStart) field(k string) any {
	switch k {
	case "source":
		return &e.Source
	case "model":
		return &e.Model
	}
	return e.commonField(k)
}

func (e *TaskCompleted) field(k string) any {
	return firstField(e.commonField(k), e.taskField(k), e.teamField(k))
}

func (e *TaskCreated) field(k string) any {
	return firstField(e.commonField(k), e.taskField(k), e.teamField(k))
}

func (e *TeammateIdle) field(k string) any { return firstField(e.commonField(k), e.teamField(k)) }

// decodeFast fills in from data, a JSON object, when in is a [fielder] and
// data takes no detour through encoding/json's rules: every key is plain
// (lower-case ASCII, no escape, so no case-insensitive match can apply)
// and every known field holds a value of its own JSON type, not null.
// It reports false otherwise, and in may then be partly filled: the caller
// decodes a fresh value with encoding/json.
func decodeFast(data []byte, in Input) bool {
	f, ok := in.(fielder)
	if !ok {
		return false
	}
	plain := true
	isObject := jsonscan.Members(data, func(key, value []byte) bool {
		if !plainKey(key) {
			plain = false
		} else if p := f.field(string(key)); p != nil && !setField(p, value) {
			plain = false
		}
		return plain
	})
	return isObject && plain
}

// plainKey reports whether key can only match a field name exactly: no
// escapes, no upper case, nothing outside ASCII (encoding/json matches
// names case-insensitively, with Unicode folding).
func plainKey(key []byte) bool {
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

// setField stores the JSON value v in the field p points to, as
// encoding/json would, or reports false when v needs encoding/json's
// rules (null, a type mismatch, an escape, invalid UTF-8, a number that
// is not a plain integer).
func setField(p any, v []byte) bool {
	if len(v) == 0 || v[0] == 'n' {
		return false
	}
	switch p := p.(type) {
	case *string:
		s, ok := plainString(v)
		*p = s
		return ok
	case *Event:
		s, ok := plainString(v)
		*p = Event(s)
		return ok
	case *bool:
		switch string(v) {
		case "true":
			*p = true
		case "false":
			*p = false
		default:
			return false
		}
		return true
	case *int64:
		if v[0] != '-' && (v[0] < '0' || v[0] > '9') || bytes.ContainsAny(v, ".eE") {
			return false
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		*p = n
		return err == nil
	case *json.RawMessage:
		*p = append((*p)[:0], v...)
		return true
	}
	return false
}
