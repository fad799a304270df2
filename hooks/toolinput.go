package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/hookwright/hookwright/internal/jsonscan"
)

// Reading a tool input by exact key.
//
// Claude Code acts on the tool input member spelled as its tool declares
// it ("command"), but Go's encoding/json matches object keys to struct
// fields without regard to case, so json.Unmarshal reads
// {"command":"rm -rf /","COMMAND":"echo hi"} into a Command field as
// "echo hi": a look-alike key the model can add hides the one Claude Code
// runs. [DecodeExact] reads only the keys spelled exactly as the struct's
// json tags, at every depth, and, like JavaScript's JSON.parse, lets the
// last of duplicate keys win. The typed accessors ([ToolCall.AsBash], ...)
// and hookwright's own guard read every tool input with it.

// ErrOtherTool is wrapped by a typed accessor ([ToolCall.AsBash], ...)
// asked for a call of another tool.
var ErrOtherTool = errors.New("the call is of another tool")

// DecodeExact fills what dst points to (a struct, or a slice, map or
// pointer of them) from raw, taking each struct field from the member
// whose key equals the field's json tag (or, without a tag, its name)
// exactly; members in another case are ignored, at every depth. A
// duplicate key takes the last value. An embedded struct's fields are read
// as the struct's own. null leaves a field as it is.
func DecodeExact(raw json.RawMessage, dst any) error {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return errors.New("hooks.DecodeExact: dst is not a non-nil pointer")
	}
	return decodeExact(raw, v.Elem(), "")
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// decodeExact decodes raw into v; path names the value for errors.
func decodeExact(raw []byte, v reflect.Value, path string) error {
	if isNull(raw) {
		return nil
	}
	if reflect.PointerTo(v.Type()).Implements(unmarshalerType) {
		return unmarshalAt(raw, v, path)
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return decodeExact(raw, v.Elem(), path)
	case reflect.Struct:
		m, err := ExactFields(raw)
		if err != nil {
			return fieldError(path, err)
		}
		return decodeStruct(m, v, path)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 { // []byte: base64, as encoding/json
			return unmarshalAt(raw, v, path)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return fieldError(path, err)
		}
		s := reflect.MakeSlice(v.Type(), len(items), len(items))
		for i, item := range items {
			if err := decodeExact(item, s.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return unmarshalAt(raw, v, path)
		}
		m, err := ExactFields(raw)
		if err != nil {
			return fieldError(path, err)
		}
		out := reflect.MakeMapWithSize(v.Type(), len(m))
		for k, member := range m {
			elem := reflect.New(v.Type().Elem()).Elem()
			if err := decodeExact(member, elem, join(path, k, ".")); err != nil {
				return err
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), elem)
		}
		v.Set(out)
		return nil
	}
	return unmarshalAt(raw, v, path)
}

// decodeStruct fills v's fields from the members m.
func decodeStruct(m map[string]json.RawMessage, v reflect.Value, path string) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" && !strings.Contains(tag, ",") {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				fv := v.Field(i)
				if fv.Kind() == reflect.Pointer {
					if !f.IsExported() && fv.IsNil() {
						continue
					}
					if fv.IsNil() {
						fv.Set(reflect.New(ft))
					}
					fv = fv.Elem()
				}
				if err := decodeStruct(m, fv, path); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if member, ok := m[name]; ok {
			if err := decodeExact(member, v.Field(i), join(path, name, ".")); err != nil {
				return err
			}
		}
	}
	return nil
}

func unmarshalAt(raw []byte, v reflect.Value, path string) error {
	if err := json.Unmarshal(raw, v.Addr().Interface()); err != nil {
		return fieldError(path, err)
	}
	return nil
}

// fieldError names the member an error is about.
func fieldError(path string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		err = fmt.Errorf("want %s, got JSON %s", te.Type, te.Value)
	}
	if path == "" {
		return err
	}
	return fmt.Errorf("field %q: %w", path, err)
}

func isNull(raw []byte) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// ExactFields splits raw, a JSON object (or null), into its members by
// exact key; a duplicate key takes the last value.
func ExactFields(raw json.RawMessage) (map[string]json.RawMessage, error) {
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

// FieldString returns the string member key of m, or "" when it is
// missing or not a string.
func FieldString(m map[string]json.RawMessage, key string) string {
	v, ok := m[key]
	if !ok {
		return ""
	}
	if plain, ok := plainString(v); ok {
		return plain
	}
	var s string
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

// fastFields splits raw, a JSON object whose keys need no unescaping and
// are valid UTF-8, into its members without encoding/json, whose first use
// in a process costs more than the scan (package jsonscan). It reports
// false for anything else, and ExactFields asks encoding/json (FuzzFields
// holds the two together).
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

// The typed inputs of Claude Code's tools. Each holds the members a hook
// usually reads, as the tool declares them; [ToolCall.InputFields] returns
// every member, and [ToolCall.DecodeInput] fills a type of the author's
// own, both by exact key.

// BashInput is the input of a Bash call.
type BashInput struct {
	Command     string `json:"command"`
	Description string `json:"description,omitempty"`
	// Timeout is in milliseconds; 0 when the call sets none.
	Timeout         int64 `json:"timeout,omitempty"`
	RunInBackground bool  `json:"run_in_background,omitempty"`
}

// WriteInput is the input of a Write call.
type WriteInput struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

// EditInput is the input of an Edit call.
type EditInput struct {
	FilePath   string `json:"file_path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

// Replacement is one edit of a MultiEdit call.
type Replacement struct {
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

// MultiEditInput is the input of a MultiEdit call.
type MultiEditInput struct {
	FilePath string        `json:"file_path"`
	Edits    []Replacement `json:"edits"`
}

// ReadInput is the input of a Read call.
type ReadInput struct {
	FilePath string `json:"file_path"`
	Offset   int64  `json:"offset,omitempty"`
	Limit    int64  `json:"limit,omitempty"`
}

// WebFetchInput is the input of a WebFetch call.
type WebFetchInput struct {
	URL    string `json:"url"`
	Prompt string `json:"prompt,omitempty"`
}

// TaskInput is the input of a call that starts a subagent: the Task tool,
// named Agent by later releases.
type TaskInput struct {
	Description  string `json:"description,omitempty"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type,omitempty"`
}

// TaskUpdateInput is the input of a TaskUpdate call (2.1.16+): the task
// and what the call changes. A call that completes a task sets Status
// "completed" ([Translate] makes TaskCompleted of it).
type TaskUpdateInput struct {
	TaskID      string `json:"taskId"`
	Status      string `json:"status,omitempty"`
	Subject     string `json:"subject,omitempty"`
	Description string `json:"description,omitempty"`
	ActiveForm  string `json:"activeForm,omitempty"`
	Owner       string `json:"owner,omitempty"`
}

// Todo is one item of a TodoWrite list.
type Todo struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm,omitempty"`
}

// TodoWriteInput is the input of a TodoWrite call: the whole list, as it
// is after the call.
type TodoWriteInput struct {
	Todos []Todo `json:"todos"`
}

// NotebookEditInput is the input of a NotebookEdit call.
type NotebookEditInput struct {
	NotebookPath string `json:"notebook_path"`
	CellID       string `json:"cell_id,omitempty"`
	NewSource    string `json:"new_source"`
	CellType     string `json:"cell_type,omitempty"`
	EditMode     string `json:"edit_mode,omitempty"`
}

// MCPInput is the input of an MCP tool's call: the tool name
// mcp__<server>__<tool> split, and the input's members by exact key.
type MCPInput struct {
	Server, Tool string
	Fields       map[string]json.RawMessage
}

// Decode fills dst from the MCP call's input by exact key ([DecodeExact]).
func (m MCPInput) Decode(dst any) error {
	raw, err := json.Marshal(m.Fields)
	if err != nil {
		return err
	}
	return DecodeExact(raw, dst)
}

// DecodeInput fills dst from the tool input by exact key ([DecodeExact]).
func (c ToolCall) DecodeInput(dst any) error {
	if len(c.ToolInput) == 0 {
		return nil
	}
	if err := DecodeExact(c.ToolInput, dst); err != nil {
		return fmt.Errorf("%s input: %w", c.ToolName, err)
	}
	return nil
}

// InputFields returns the tool input's members by exact key.
func (c ToolCall) InputFields() (map[string]json.RawMessage, error) {
	if len(c.ToolInput) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	m, err := ExactFields(c.ToolInput)
	if err != nil {
		return nil, fmt.Errorf("%s input: %w", c.ToolName, err)
	}
	return m, nil
}

// as decodes the input of a call of one of tools into v.
func as[T any](c ToolCall, tools ...string) (T, error) {
	var v T
	if !contains(tools, c.ToolName) {
		return v, fmt.Errorf("%w: %s, not %s", ErrOtherTool, c.ToolName, strings.Join(tools, " or "))
	}
	err := c.DecodeInput(&v)
	return v, err
}

// AsBash decodes a Bash call's input; another tool's call is an error
// wrapping [ErrOtherTool].
func (c ToolCall) AsBash() (BashInput, error) { return as[BashInput](c, "Bash") }

// AsWrite decodes a Write call's input.
func (c ToolCall) AsWrite() (WriteInput, error) { return as[WriteInput](c, "Write") }

// AsEdit decodes an Edit call's input.
func (c ToolCall) AsEdit() (EditInput, error) { return as[EditInput](c, "Edit") }

// AsMultiEdit decodes a MultiEdit call's input.
func (c ToolCall) AsMultiEdit() (MultiEditInput, error) { return as[MultiEditInput](c, "MultiEdit") }

// AsRead decodes a Read call's input.
func (c ToolCall) AsRead() (ReadInput, error) { return as[ReadInput](c, "Read") }

// AsWebFetch decodes a WebFetch call's input.
func (c ToolCall) AsWebFetch() (WebFetchInput, error) { return as[WebFetchInput](c, "WebFetch") }

// AsTask decodes the input of a call that starts a subagent (Task, or
// Agent).
func (c ToolCall) AsTask() (TaskInput, error) { return as[TaskInput](c, "Task", "Agent") }

// AsTaskUpdate decodes a TaskUpdate call's input.
func (c ToolCall) AsTaskUpdate() (TaskUpdateInput, error) {
	return as[TaskUpdateInput](c, "TaskUpdate")
}

// AsTodoWrite decodes a TodoWrite call's input.
func (c ToolCall) AsTodoWrite() (TodoWriteInput, error) { return as[TodoWriteInput](c, "TodoWrite") }

// AsNotebookEdit decodes a NotebookEdit call's input.
func (c ToolCall) AsNotebookEdit() (NotebookEditInput, error) {
	return as[NotebookEditInput](c, "NotebookEdit")
}

// AsMCP splits an MCP tool's call (mcp__<server>__<tool>) and reads its
// input's members; another tool's call is an error wrapping
// [ErrOtherTool].
func (c ToolCall) AsMCP() (MCPInput, error) {
	rest, ok := strings.CutPrefix(c.ToolName, "mcp__")
	server, tool, ok2 := strings.Cut(rest, "__")
	if !ok || !ok2 || server == "" || tool == "" {
		return MCPInput{}, fmt.Errorf("%w: %s is not an MCP tool (mcp__<server>__<tool>)", ErrOtherTool, c.ToolName)
	}
	fields, err := c.InputFields()
	if err != nil {
		return MCPInput{}, err
	}
	return MCPInput{Server: server, Tool: tool, Fields: fields}, nil
}
