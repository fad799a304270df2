// Package jsonerr says what is wrong with a JSON document in the words of
// the document, not in those of the Go types it was decoded into:
// encoding/json's "cannot unmarshal number into Go struct field
// Guard.guard.level of type config.GuardLevel" becomes "guard.level: want
// a string, got a number". A user editing a config or a spec never meets
// a Go type name.
package jsonerr

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Describe rewrites an error from encoding/json: a type mismatch names the
// key path and the JSON kinds, a syntax error the byte offset, and the
// "json: " prefix goes. Other errors are returned as they are.
func Describe(err error) error {
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		at := te.Field
		if at == "" {
			at = "the document"
		}
		return fmt.Errorf("%s: want %s, got %s", at, Kind(te.Type), article(te.Value))
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("not valid JSON at byte %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	}
	if msg, ok := strings.CutPrefix(err.Error(), "json: "); ok {
		return errors.New(msg)
	}
	return err
}

// Kind names the JSON that decodes into t: "a string", "a number",
// "true or false", "a list", "an object".
func Kind(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a value"
}

// article turns encoding/json's Value ("number", "string", "array",
// "object", "bool", "number -1") into words.
func article(v string) string {
	switch {
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	case v == "bool":
		return "true or false"
	case v == "string":
		return "a string"
	case strings.HasPrefix(v, "number"):
		if n := strings.TrimSpace(strings.TrimPrefix(v, "number")); n != "" {
			return "the number " + n
		}
		return "a number"
	}
	return v
}
