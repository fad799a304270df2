package hooks

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// jsonFields calls f with the JSON name and address of every field of the
// struct v points to, embedded structs included, as encoding/json sees
// them.
func jsonFields(v reflect.Value, f func(name string, addr any)) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			jsonFields(v.Field(i), f)
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "" || name == "-" {
			continue
		}
		f(name, v.Field(i).Addr().Interface())
	}
}

// TestFieldersCoverEveryField: an event type on the fast path names every
// field it has, by its JSON name, and no other: a field added to the
// struct but not to its field method fails here, not in production.
func TestFieldersCoverEveryField(t *testing.T) {
	n := 0
	for _, e := range Events() {
		in := NewInput(e)
		f, ok := in.(fielder)
		if !ok {
			continue
		}
		n++
		jsonFields(reflect.ValueOf(in).Elem(), func(name string, addr any) {
			if got := f.field(name); got != addr {
				t.Errorf("%s: field(%q) = %v, want the address of the field tagged %q", e, name, got, name)
			}
		})
		for _, k := range []string{"", "Session_ID", "nope", "tool_input ", "raw", "typ"} {
			if got := f.field(k); got != nil {
				t.Errorf("%s: field(%q) = %v, want nil", e, k, got)
			}
		}
	}
	if n < 8 {
		t.Errorf("only %d event types on the fast path", n)
	}
}

// TestDecodeFastTakesTheUsualInput checks that the inputs Claude Code
// sends take the fast path (else it would be dead code that the
// differential fuzz test proves nothing about), and that the unusual ones
// do not.
func TestDecodeFastTakesTheUsualInput(t *testing.T) {
	fast := map[Event]string{
		EventPreToolUse:         `{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"ls \"a b\"","description":"list"},"tool_use_id":"toolu_1","new_field":[1,{"x":null}]}`,
		EventPostToolUse:        `{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{},"tool_response":{"success":true},"duration_ms":12}`,
		EventPostToolUseFailure: `{"session_id":"s1","hook_event_name":"PostToolUseFailure","tool_name":"Bash","error":"exit 1","is_interrupt":false}`,
		EventStop:               ` {"session_id":"s1","hook_event_name":"Stop","stop_hook_active":true} `,
		EventTaskCompleted:      `{"session_id":"s1","hook_event_name":"TaskCompleted","task_id":"3","task_subject":"x","team_name":"red","teammate_name":"ann"}`,
	}
	for ev, data := range fast {
		in := NewInput(ev)
		if !decodeFast([]byte(data), in) {
			t.Errorf("%s: the usual input left the fast path: %s", ev, data)
		}
	}
	slow := []string{
		`{"Session_ID":"s1"}`,                  // encoding/json matches names case-insensitively
		`{"session_id":"a\"b"}`,                // an escape
		`{"session_id":null}`,                  // null leaves a field as it was
		`{"session_id":1}`,                     // a type error, which encoding/json reports
		`{"session\u005fid":"s1"}`,             // an escaped key
		`{"session_id":"\xff"}`,                // invalid UTF-8, which encoding/json replaces
		`{"session_id":"s1"} x`,                // trailing data
		`{"duration_ms":1.5}`,                  // not an integer
		`{"duration_ms":99999999999999999999}`, // out of range
	}
	for _, data := range slow {
		if decodeFast([]byte(data), NewInput(EventPostToolUse)) {
			t.Errorf("%s took the fast path", data)
		}
	}
}

// FuzzDecodeFast: whatever the fast path accepts, encoding/json decodes
// to the same value.
func FuzzDecodeFast(f *testing.F) {
	f.Add([]byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`), uint8(0))
	f.Add([]byte(`{"session_id":"s1","tool_response":[1,"]",{"a":"}"}],"duration_ms":-3,"is_interrupt":true,"stop_hook_active":false}`), uint8(1))
	f.Add([]byte(`{"task_id":"1","team_name":"r","x":{"y":[true,false,null]},"cwd":"/\u00e9"}`), uint8(2))
	events := Events()
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		ev := events[int(which)%len(events)]
		fast := NewInput(ev)
		if !decodeFast(data, fast) {
			return
		}
		ref := NewInput(ev)
		if err := json.Unmarshal(data, ref); err != nil {
			t.Fatalf("%s: the fast path took %q, which encoding/json refuses: %v", ev, data, err)
		}
		if !reflect.DeepEqual(fast, ref) {
			t.Fatalf("%s: %q decodes differently:\nfast %+v\njson %+v", ev, data, fast, ref)
		}
	})
}
