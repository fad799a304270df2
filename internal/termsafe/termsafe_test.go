package termsafe

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	cases := []struct{ in, line, text string }{
		{"plain /tmp/a b.go", "plain /tmp/a b.go", "plain /tmp/a b.go"},
		{"\x1b]0;owned\a\x1b[2J", `\x1b]0;owned\x07\x1b[2J`, `\x1b]0;owned\x07\x1b[2J`},
		{"a\nb\tc\rd", `a\nb\tc\rd`, "a\nb\tc\\rd"},
		{"del\x7f", `del\x7f`, `del\x7f`},
		{"crlf\r\nnext", `crlf\r\nnext`, "crlf\nnext"},
		{"c1\u009b31m", `c1\u009b31m`, `c1\u009b31m`},
		{"evil\u202egnp.exe", `evil\u202egnp.exe`, `evil\u202egnp.exe`},
		{"\u2066x\u2069\u061c\u200e\u200f\u2028\u2029", `\u2066x\u2069\u061c\u200e\u200f\u2028\u2029`, `\u2066x\u2069\u061c\u200e\u200f\u2028\u2029`},
		{"bad\xffutf8", `bad\xffutf8`, `bad\xffutf8`},
		{"héllo 日本 ✓", "héllo 日本 ✓", "héllo 日本 ✓"},
	}
	for _, c := range cases {
		if got := Line(c.in); got != c.line {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := Text(c.in); got != c.text {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.text)
		}
	}
}

// checkInert fails when out holds a byte or rune a terminal would act on.
func checkInert(t *testing.T, in, out string, keepLines bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("%q -> %q: not UTF-8", in, out)
	}
	for _, r := range out {
		if keepLines && (r == '\n' || r == '\t') {
			continue
		}
		if Unsafe(r) {
			t.Fatalf("%q -> %q: raw %U out", in, out, r)
		}
	}
}

// FuzzTermsafe holds the printer to its promise: no raw control byte,
// C1 control or bidi mark ever comes out, the output is UTF-8, and safe
// text comes out unchanged.
func FuzzTermsafe(f *testing.F) {
	for _, s := range []string{"", "ok", "\x1b]0;owned\a\x1b[2J", "a\nb", "\u202e", "\xff\xfe", "\u009b", "日本\u2069", "C:\\path\\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line, text := Line(s), Text(s)
		checkInert(t, s, line, false)
		checkInert(t, s, text, true)
		if strings.ContainsAny(line, "\n\t") {
			t.Fatalf("Line(%q) = %q keeps a line break", s, line)
		}
		safe := utf8.ValidString(s)
		for _, r := range s {
			safe = safe && !Unsafe(r)
		}
		if safe && line != s {
			t.Fatalf("Line(%q) = %q changed safe text", s, line)
		}
	})
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	n, err := w.Write([]byte("row\t\x1b[2J\u202e\n"))
	if err != nil || n != 12 || b.String() != "row\t\\x1b[2J\\u202e\n" {
		t.Fatalf("wrote %d %v: %q", n, err, b.String())
	}
}
