package hooks

import (
	"context"
	"testing"
)

// TestNewEventsRoute decodes one payload of each event that the releases'
// validators accept but the table lacked until the probe (Setup,
// PermissionDenied, MessageDisplay, DirectoryAdded), in the shape 2.1.330's
// input schemas declare, and routes it through a Mux to its handler.
func TestNewEventsRoute(t *testing.T) {
	tests := []struct {
		event   Event
		matcher string
		payload string
		check   func(Input) bool
	}{
		{EventSetup, "init", `{"session_id":"s","hook_event_name":"Setup","trigger":"init"}`,
			func(in Input) bool { e, ok := in.(*Setup); return ok && e.Trigger == "init" }},
		{EventPermissionDenied, "Bash", `{"session_id":"s","hook_event_name":"PermissionDenied","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1","reason":"auto mode denied it"}`,
			func(in Input) bool {
				e, ok := in.(*PermissionDenied)
				return ok && e.ToolName == "Bash" && e.Reason == "auto mode denied it" && e.ToolUseID == "t1"
			}},
		{EventMessageDisplay, "", `{"session_id":"s","hook_event_name":"MessageDisplay","turn_id":"u","message_id":"m","index":2,"final":true,"delta":"line\n"}`,
			func(in Input) bool {
				e, ok := in.(*MessageDisplay)
				return ok && e.MessageID == "m" && e.Index == 2 && e.Final && e.Delta == "line\n"
			}},
		{EventDirectoryAdded, "", `{"session_id":"s","hook_event_name":"DirectoryAdded","directory":"/src/other","source":"slash_command"}`,
			func(in Input) bool {
				e, ok := in.(*DirectoryAdded)
				return ok && e.Directory == "/src/other" && e.Source == "slash_command"
			}},
	}
	for _, tt := range tests {
		t.Run(string(tt.event), func(t *testing.T) {
			ev, err := ParseEvent(string(tt.event))
			if err != nil || ev != tt.event {
				t.Fatalf("ParseEvent(%s) = %s, %v", tt.event, ev, err)
			}
			in, err := Decode([]byte(tt.payload), tt.event)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if !tt.check(in) {
				t.Fatalf("decoded %#v", in)
			}
			var got Input
			m := new(Mux)
			m.Handle(tt.event, tt.matcher, Named("h", HandlerFunc(func(_ context.Context, in Input) (Result, error) {
				got = in
				return Context("seen"), nil
			})))
			res, faults := m.Dispatch(context.Background(), in)
			if got != in || len(faults) > 0 || res.Context != "seen" {
				t.Fatalf("Dispatch: handler got %v, result %+v, faults %v", got, res, faults)
			}
		})
	}
}
