package manifests

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// needNode skips when the node oracle is missing.
func needNode(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on PATH: the JSON.stringify oracle is unavailable")
	}
	return path
}

// trickyValues are values whose JSON.stringify form is easy to get wrong.
func trickyValues() []any {
	lone := func(units ...uint16) string { // WTF-8 form of surrogate units
		var b []byte
		for _, u := range units {
			b = append(b, 0xED, byte(0xA0|(u>>6)&0x1F), byte(0x80|u&0x3F))
		}
		return string(b)
	}
	vals := []any{
		"", "plain", "<script>alert('&')</script>", "a\u2028b\u2029c", "\x00\x01\x07\x1f\x7f",
		"\b\f\n\r\t\v", `quote " backslash \ slash /`, "é 日本 🎉 \ufeff \u0085 \u00a0",
		lone(0xD800), lone(0xDFFF), "x" + lone(0xDC00) + "y", lone(0xD83D, 0xDE00), lone(0xDE00, 0xD83D),
		"${CLAUDE_PLUGIN_ROOT}", `"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" TaskCompleted --via PostToolUse`,
		0, 1, -5, 100, 3600, int64(1) << 53, 0.1 + 0.2, 123.456, 1e21, 1e20, 123456789012345680000.0, 1e-6, 1e-7,
		5e-324, math.MaxFloat64, math.Copysign(0, -1), -1.5e-10, math.NaN(), math.Inf(1),
		true, false, nil, []any{}, Object{}, []any{[]any{}, Object{}, []string{"a"}},
		Object{{"b", 1}, {"a", 2}, {"1", 3}, {"0", 4}, {"01", 5}, {"4294967294", 6}, {"4294967295", 7}, {"-1", 8}, {"1.5", 9}},
		Object{{"<&>", "\u2028"}, {lone(0xD800), []Object{{{"k", nil}}}}},
	}
	return vals
}

// jsExpr renders v as a JavaScript expression that builds the same value
// without going through any JSON escaping.
func jsExpr(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case string:
		var units []string
		for _, u := range utf16Units(x) {
			units = append(units, strconv.Itoa(int(u)))
		}
		return "String.fromCharCode(" + strings.Join(units, ",") + ")"
	case int:
		return fmt.Sprintf("Number(%q)", strconv.Itoa(x))
	case int64:
		return fmt.Sprintf("Number(%q)", strconv.FormatInt(x, 10))
	case float64:
		return fmt.Sprintf("Number(%q)", strconv.FormatFloat(x, 'g', -1, 64))
	case Object:
		var parts []string
		for _, m := range x {
			parts = append(parts, "["+jsExpr(m.Key)+","+jsExpr(m.Value)+"]")
		}
		return "Object.fromEntries([" + strings.Join(parts, ",") + "])"
	case []Object:
		var parts []string
		for _, o := range x {
			parts = append(parts, jsExpr(o))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case []string:
		var parts []string
		for _, s := range x {
			parts = append(parts, jsExpr(s))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case []any:
		var parts []string
		for _, e := range x {
			parts = append(parts, jsExpr(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	panic(fmt.Sprintf("jsExpr: %T", v))
}

// utf16Units converts a UTF-8 (or WTF-8) string to UTF-16 code units.
func utf16Units(s string) []uint16 {
	var out []uint16
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			u, ok := wtf8Surrogate(s[i:])
			if !ok {
				panic("invalid test string")
			}
			out = append(out, u)
			i += 3
			continue
		}
		out = append(out, utf16.Encode([]rune{r})...)
		i += size
	}
	return out
}

// TestMarshalJSMatchesNode compares every tricky value with node's own
// JSON.stringify(value, null, 2) + "\n".
func TestMarshalJSMatchesNode(t *testing.T) {
	node := needNode(t)
	vals := trickyValues()
	var prog strings.Builder
	prog.WriteString("const out = [];\n")
	for _, v := range vals {
		fmt.Fprintf(&prog, "out.push(JSON.stringify(%s, null, 2) + '\\n');\n", jsExpr(v))
	}
	prog.WriteString("process.stdout.write(out.join('\\0'));\n")
	cmd := exec.Command(node, "-e", prog.String())
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	want := bytes.Split(got, []byte{0})
	if len(want) != len(vals) {
		t.Fatalf("node returned %d results for %d values", len(want), len(vals))
	}
	for i, v := range vals {
		ours, err := MarshalJS(v)
		if err != nil {
			t.Errorf("value %d (%#v): %v", i, v, err)
			continue
		}
		if !bytes.Equal(ours, want[i]) {
			t.Errorf("value %d (%#v):\n ours %q\n node %q", i, v, ours, want[i])
		}
	}
}

func TestMarshalJSRefusesWhatJSCannotHold(t *testing.T) {
	for _, v := range []any{"\xff", "a\xc3", Object{{"k", 1}, {"k", 2}}, struct{}{}, []int{1}} {
		if _, err := MarshalJS(v); !errors.Is(err, ErrNotJS) {
			t.Errorf("MarshalJS(%#v) error = %v, want ErrNotJS", v, err)
		}
	}
}
