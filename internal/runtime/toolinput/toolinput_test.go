package toolinput

import (
	"encoding/json"
	"testing"
)

// The decoder is tested in package hooks; this checks the forwarding.
func TestForwards(t *testing.T) {
	var got struct {
		Command string `json:"command"`
	}
	raw := json.RawMessage(`{"command":"rm -rf /","COMMAND":"echo hi"}`)
	if err := Decode(raw, &got); err != nil || got.Command != "rm -rf /" {
		t.Fatalf("Decode = %q, %v", got.Command, err)
	}
	m, err := Fields(raw)
	if err != nil || String(m, "command") != "rm -rf /" || len(m) != 2 {
		t.Fatalf("Fields = %v, %v", m, err)
	}
}
