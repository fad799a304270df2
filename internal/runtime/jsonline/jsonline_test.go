package jsonline

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzAppendString: AppendString writes the bytes encoding/json writes for
// a string, with HTML escaping off.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\\n\r\t\x00\x1f\x7f", "<>&", "\u2028\u2029", "\xff\xfe", "é日本\U0001F600", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := string(AppendString(nil, s)) + "\n"; got != want.String() {
			t.Fatalf("AppendString(%q) = %s, encoding/json %s", s, got, want.String())
		}
	})
}

func TestAppendField(t *testing.T) {
	if got := string(AppendField([]byte("{"), "k", "")); got != "{" {
		t.Errorf("empty value: %s", got)
	}
	if got := string(AppendField([]byte(`{"a":1`), "k", "v")); got != `{"a":1,"k":"v"` {
		t.Errorf("field: %s", got)
	}
}
