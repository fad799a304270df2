// Package toolinput decodes a hook event's tool_input by exact key.
//
// Go's encoding/json matches object keys to struct fields without regard
// to case, so {"command":"rm -rf /","COMMAND":"echo hi"} decodes into a
// struct's Command field as "echo hi": the look-alike key hides the one
// Claude Code acts on. [Decode] reads only the keys spelled exactly as the
// struct's json tags, and, like JavaScript's JSON.parse, lets the last of
// duplicate keys win.
package toolinput

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// Fields decodes raw, a JSON object (or null), into its members by exact
// key.
func Fields(raw json.RawMessage) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	if m == nil { // null: no members, as encoding/json reads it
		m = map[string]json.RawMessage{}
	}
	return m, nil
}

// String returns the string member key of m, or "" when it is missing or
// not a string.
func String(m map[string]json.RawMessage, key string) string {
	var s string
	if v, ok := m[key]; ok {
		_ = json.Unmarshal(v, &s)
	}
	return s
}

// Decode fills the fields of the struct dst points to from raw, each from
// the member whose key equals the field's json tag exactly. Members in
// another case are ignored.
func Decode(raw json.RawMessage, dst any) error {
	m, err := Fields(raw)
	if err != nil {
		return err
	}
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return errors.New("toolinput.Decode: dst is not a pointer to a struct")
	}
	v = v.Elem()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		if raw, ok := m[name]; ok {
			if err := json.Unmarshal(raw, v.Field(i).Addr().Interface()); err != nil {
				return err
			}
		}
	}
	return nil
}
