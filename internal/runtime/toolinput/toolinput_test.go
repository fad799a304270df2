package toolinput

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestDecodeIgnoresLookAlikeKeys(t *testing.T) {
	var std struct {
		Command string `json:"command"`
	}
	raw := json.RawMessage(`{"command":"rm -rf /","COMMAND":"echo hi"}`)
	// The standard decoder is fooled: this is the fault Decode exists for.
	if err := json.Unmarshal(raw, &std); err != nil || std.Command != "echo hi" {
		t.Fatalf("encoding/json behaved differently than assumed: %q, %v", std.Command, err)
	}
	var got struct {
		Command string `json:"command"`
		Status  string `json:"status,omitempty"`
	}
	if err := Decode(raw, &got); err != nil || got.Command != "rm -rf /" {
		t.Fatalf("Decode = %q, %v; want the exact key's value", got.Command, err)
	}
	got.Command = ""
	if err := Decode(json.RawMessage(`{"Command":"rm -rf /"}`), &got); err != nil || got.Command != "" {
		t.Fatalf("a key in another case was read: %q, %v", got.Command, err)
	}
	if err := Decode(json.RawMessage(`{"command":"a","command":"b"}`), &got); err != nil || got.Command != "b" {
		t.Fatalf("duplicate keys: %q, %v; want the last, as JSON.parse", got.Command, err)
	}
	if err := Decode(json.RawMessage(`"not an object"`), &got); err == nil {
		t.Fatal("a string decoded as an object")
	}
	got.Command = ""
	if err := Decode(json.RawMessage(`null`), &got); err != nil || got.Command != "" {
		t.Fatalf("null: %q, %v; want no members and no error, as encoding/json", got.Command, err)
	}
	m, _ := Fields(json.RawMessage(`{"file_path":"/x","FILE_PATH":"/y","n":1}`))
	if String(m, "file_path") != "/x" || String(m, "n") != "" || String(m, "missing") != "" {
		t.Fatalf("String: %v", m)
	}
}

// FuzzFields holds Fields and String to encoding/json, which their fast
// paths stand in for.
func FuzzFields(f *testing.F) {
	for _, s := range []string{`{"command":"ls -la","description":"list"}`, `{"a":1,"a":2}`, `{"k\u0041":"v"}`, ` {"x":{"y":[1,"}"]},"s":"a\nb"} `, `null`, `{"\xff":1}`, `[1]`, `{"s":"\xff"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want map[string]json.RawMessage
		wantErr := json.Unmarshal(raw, &want)
		if m, ok := fastFields(raw); ok {
			if wantErr != nil {
				t.Fatalf("fastFields took %q, which encoding/json refuses: %v", raw, wantErr)
			}
			if !reflect.DeepEqual(m, want) && !(len(m) == 0 && len(want) == 0) {
				t.Fatalf("fastFields(%q) = %q; encoding/json gives %q", raw, m, want)
			}
		}
		for k, v := range want {
			var s string
			_ = json.Unmarshal(v, &s)
			if got := String(want, k); got != s {
				t.Fatalf("String(%q) = %q; encoding/json gives %q", v, got, s)
			}
		}
		m := map[string]json.RawMessage{"k": raw}
		var s string
		_ = json.Unmarshal(raw, &s)
		if got := String(m, "k"); got != s {
			t.Fatalf("String of %q = %q; encoding/json gives %q", raw, got, s)
		}
	})
}
