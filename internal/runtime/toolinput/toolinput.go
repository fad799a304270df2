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
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/hookwright/hookwright/internal/jsonscan"
)

// Fields decodes raw, a JSON object (or null), into its members by exact
// key.
func Fields(raw json.RawMessage) (map[string]json.RawMessage, error) {
	if m, ok := fastFields(raw); ok {
		return m, nil
	}
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
	v, ok := m[key]
	if !ok {
		return ""
	}
	if plain, ok := plainString(v); ok {
		return plain
	}
	_ = json.Unmarshal(v, &s)
	return s
}

// plainString returns the content of v when v is a JSON string that needs
// no unescaping: quoted, valid UTF-8, no quote, backslash or control
// character inside.
func plainString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	inner := v[1 : len(v)-1]
	for _, c := range inner {
		if c < 0x20 || c == '"' || c == '\\' {
			return "", false
		}
	}
	if !utf8.Valid(inner) {
		return "", false
	}
	return string(inner), true
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

// fastFields splits raw, a JSON object whose keys need no unescaping and
// are valid UTF-8, into its members without encoding/json, whose first use
// in a process costs more than the scan (package jsonscan). It reports
// false for anything else, and Fields asks encoding/json (FuzzFields holds
// the two together).
func fastFields(raw []byte) (map[string]json.RawMessage, bool) {
	m := map[string]json.RawMessage{}
	plain := true
	isObject := jsonscan.Members(raw, func(key, value []byte) bool {
		if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
			plain = false
			return false
		}
		m[string(key)] = append(json.RawMessage(nil), value...)
		return true
	})
	return m, isObject && plain
}
