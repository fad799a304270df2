package hooks

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeExactIgnoresLookAlikeKeys(t *testing.T) {
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
	if err := DecodeExact(raw, &got); err != nil || got.Command != "rm -rf /" {
		t.Fatalf("Decode = %q, %v; want the exact key's value", got.Command, err)
	}
	got.Command = ""
	if err := DecodeExact(json.RawMessage(`{"Command":"rm -rf /"}`), &got); err != nil || got.Command != "" {
		t.Fatalf("a key in another case was read: %q, %v", got.Command, err)
	}
	if err := DecodeExact(json.RawMessage(`{"command":"a","command":"b"}`), &got); err != nil || got.Command != "b" {
		t.Fatalf("duplicate keys: %q, %v; want the last, as JSON.parse", got.Command, err)
	}
	if err := DecodeExact(json.RawMessage(`"not an object"`), &got); err == nil {
		t.Fatal("a string decoded as an object")
	}
	got.Command = ""
	if err := DecodeExact(json.RawMessage(`null`), &got); err != nil || got.Command != "" {
		t.Fatalf("null: %q, %v; want no members and no error, as encoding/json", got.Command, err)
	}
	m, _ := ExactFields(json.RawMessage(`{"file_path":"/x","FILE_PATH":"/y","n":1}`))
	if FieldString(m, "file_path") != "/x" || FieldString(m, "n") != "" || FieldString(m, "missing") != "" {
		t.Fatalf("String: %v", m)
	}
}

// FuzzExactFields holds ExactFields and FieldString to encoding/json, which their fast
// paths stand in for.
func FuzzExactFields(f *testing.F) {
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
			if got := FieldString(want, k); got != s {
				t.Fatalf("String(%q) = %q; encoding/json gives %q", v, got, s)
			}
		}
		m := map[string]json.RawMessage{"k": raw}
		var s string
		_ = json.Unmarshal(raw, &s)
		if got := FieldString(m, "k"); got != s {
			t.Fatalf("String of %q = %q; encoding/json gives %q", raw, got, s)
		}
	})
}

// The typed inputs read by exact key at every depth: a look-alike key the
// model adds beside the real one never wins, inside a list either.
func TestTypedToolInputs(t *testing.T) {
	call := func(tool, input string) ToolCall { return ToolCall{ToolName: tool, ToolInput: json.RawMessage(input)} }

	bash, err := call("Bash", `{"command":"rm -rf build","COMMAND":"echo hi","Command":"ls","timeout":120000,"run_in_background":true}`).AsBash()
	if err != nil || bash != (BashInput{Command: "rm -rf build", Timeout: 120000, RunInBackground: true}) {
		t.Errorf("AsBash = %+v, %v", bash, err)
	}
	me, err := call("MultiEdit", `{"file_path":"/p/a.go","FILE_PATH":"/etc/passwd","edits":[{"old_string":"a","OLD_STRING":"z","new_string":"b"},{"old_string":"c","new_string":"d","replace_all":true}]}`).AsMultiEdit()
	if err != nil || me.FilePath != "/p/a.go" || len(me.Edits) != 2 || me.Edits[0] != (Replacement{OldString: "a", NewString: "b"}) || !me.Edits[1].ReplaceAll {
		t.Errorf("AsMultiEdit = %+v, %v", me, err)
	}
	todos, err := call("TodoWrite", `{"todos":[{"content":"x","status":"completed","STATUS":"pending","activeForm":"Xing"}]}`).AsTodoWrite()
	if err != nil || len(todos.Todos) != 1 || todos.Todos[0].Status != "completed" {
		t.Errorf("AsTodoWrite = %+v, %v", todos, err)
	}
	for _, tool := range []string{"Task", "Agent"} {
		task, err := call(tool, `{"subagent_type":"Explore","prompt":"look","description":"d"}`).AsTask()
		if err != nil || task.SubagentType != "Explore" || task.Prompt != "look" {
			t.Errorf("AsTask on %s = %+v, %v", tool, task, err)
		}
	}
	if _, err := call("Write", `{"file_path":"/x","content":"y"}`).AsBash(); !errors.Is(err, ErrOtherTool) || !strings.Contains(err.Error(), "Write, not Bash") {
		t.Errorf("AsBash on a Write call: %v", err)
	}
	if _, err := call("Bash", `{"command":["ls"]}`).AsBash(); err == nil || !strings.Contains(err.Error(), `Bash input: field "command": want string, got JSON array`) {
		t.Errorf("a command that is not a string: %v", err)
	}
	mcp, err := call("mcp__github__create_issue", `{"title":"t","TITLE":"u"}`).AsMCP()
	if err != nil || mcp.Server != "github" || mcp.Tool != "create_issue" || FieldString(mcp.Fields, "title") != "t" {
		t.Errorf("AsMCP = %+v, %v", mcp, err)
	}
	var issue struct {
		Title string `json:"title"`
	}
	if err := mcp.Decode(&issue); err != nil || issue.Title != "t" {
		t.Errorf("MCPInput.Decode = %+v, %v", issue, err)
	}
	for _, name := range []string{"Bash", "mcp__", "mcp__x", "mcp____y", "mcp__x__"} {
		if _, err := call(name, `{}`).AsMCP(); !errors.Is(err, ErrOtherTool) {
			t.Errorf("AsMCP on %q: %v", name, err)
		}
	}
	w, err := call("Write", ``).AsWrite()
	if err != nil || w != (WriteInput{}) {
		t.Errorf("AsWrite with no input = %+v, %v", w, err)
	}
	for tool, as := range map[string]func(ToolCall) (any, error){
		"Edit":         func(c ToolCall) (any, error) { return c.AsEdit() },
		"Read":         func(c ToolCall) (any, error) { return c.AsRead() },
		"WebFetch":     func(c ToolCall) (any, error) { return c.AsWebFetch() },
		"TaskUpdate":   func(c ToolCall) (any, error) { return c.AsTaskUpdate() },
		"NotebookEdit": func(c ToolCall) (any, error) { return c.AsNotebookEdit() },
	} {
		if _, err := as(call(tool, `{}`)); err != nil {
			t.Errorf("%s: %v", tool, err)
		}
		if _, err := as(call("Bash", `{}`)); !errors.Is(err, ErrOtherTool) {
			t.Errorf("%s accessor on Bash: %v", tool, err)
		}
	}
	edit, _ := call("Edit", `{"file_path":"/a","old_string":"x","new_string":"y","NEW_STRING":"z"}`).AsEdit()
	read, _ := call("Read", `{"file_path":"/a","offset":10,"limit":5}`).AsRead()
	fetch, _ := call("WebFetch", `{"url":"https://example.com/","URL":"https://evil.example/","prompt":"p"}`).AsWebFetch()
	upd, _ := call("TaskUpdate", `{"taskId":"3","status":"completed","Status":"pending"}`).AsTaskUpdate()
	nb, _ := call("NotebookEdit", `{"notebook_path":"/n.ipynb","new_source":"x","cell_id":"c1"}`).AsNotebookEdit()
	if edit.NewString != "y" || read.Offset != 10 || read.Limit != 5 || fetch.URL != "https://example.com/" || upd.Status != "completed" || nb.CellID != "c1" {
		t.Errorf("typed inputs: %+v %+v %+v %+v %+v", edit, read, fetch, upd, nb)
	}
}

// DecodeExact reads nested structs, pointers and maps by exact key, and
// embedded structs as the struct's own fields.
func TestDecodeExactNested(t *testing.T) {
	type inner struct {
		Name string `json:"name"`
	}
	type Base struct {
		ID string `json:"id"`
	}
	var got struct {
		Base
		Ptr   *inner           `json:"ptr"`
		Map   map[string]inner `json:"map"`
		Raw   json.RawMessage  `json:"raw"`
		Plain string
		Skip  string `json:"-"`
	}
	raw := `{"id":"1","ID":"2","ptr":{"name":"a","NAME":"b"},"map":{"k":{"name":"c","Name":"d"}},"raw":{"X":1},"Plain":"p","plain":"q","Skip":"s","-":"s"}`
	if err := DecodeExact(json.RawMessage(raw), &got); err != nil {
		t.Fatal(err)
	}
	if got.ID != "1" || got.Ptr == nil || got.Ptr.Name != "a" || got.Map["k"].Name != "c" || string(got.Raw) != `{"X":1}` || got.Plain != "p" || got.Skip != "" {
		t.Fatalf("DecodeExact = %+v", got)
	}
	if err := DecodeExact(json.RawMessage(`{}`), got); err == nil {
		t.Fatal("a non-pointer destination was accepted")
	}
}
