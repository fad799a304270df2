package jsonerr

import (
	"encoding/json"
	"strings"
	"testing"
)

type level string

type doc struct {
	Guard struct {
		Level level `json:"level"`
		On    bool  `json:"enabled"`
	} `json:"guard"`
	Handlers []struct {
		Timeout uint `json:"timeout"`
	} `json:"handlers"`
}

func TestDescribeNamesNoGoType(t *testing.T) {
	for in, want := range map[string]string{
		`{"guard":{"level":3}}`:         "guard.level: want a string, got a number",
		`{"guard":{"enabled":"yes"}}`:   "guard.enabled: want true or false, got a string",
		`{"guard":[]}`:                  "guard: want an object, got a list",
		`{"handlers":[{"timeout":-1}]}`: "handlers.timeout: want a whole number, got the number -1",
		`"x"`:                           "the document: want an object, got a string",
		`{"guard":`:                     "not valid JSON at byte 9: unexpected end of JSON input",
		`{"guard":{"level":"a"}, x}`:    "not valid JSON at byte 25: invalid character 'x' looking for beginning of object key string",
	} {
		var d doc
		got := Describe(json.Unmarshal([]byte(in), &d))
		if got == nil || got.Error() != want {
			t.Errorf("%s: %v, want %q", in, got, want)
		}
		if got != nil && (strings.Contains(got.Error(), "Go ") || strings.Contains(got.Error(), "jsonerr.") || strings.Contains(got.Error(), "json: ")) {
			t.Errorf("%s: %q names Go", in, got)
		}
	}
	if Describe(nil) != nil {
		t.Error("nil")
	}
}
