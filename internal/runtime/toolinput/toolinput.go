// Package toolinput decodes a hook event's tool_input by exact key. It
// forwards to package hooks, where the decoder lives and authors reach it
// ([hooks.DecodeExact], [hooks.ExactFields], [hooks.FieldString]), for the
// runtime packages that read tool inputs.
package toolinput

import (
	"encoding/json"

	"github.com/hookwright/hookwright/hooks"
)

// Fields decodes raw, a JSON object (or null), into its members by exact
// key ([hooks.ExactFields]).
func Fields(raw json.RawMessage) (map[string]json.RawMessage, error) { return hooks.ExactFields(raw) }

// String returns the string member key of m, or "" when it is missing or
// not a string ([hooks.FieldString]).
func String(m map[string]json.RawMessage, key string) string { return hooks.FieldString(m, key) }

// Decode fills the struct dst points to from raw by exact key
// ([hooks.DecodeExact]).
func Decode(raw json.RawMessage, dst any) error { return hooks.DecodeExact(raw, dst) }
