// Package termsafe makes text that came from the model or the project
// inert on a terminal. Claude Code's model chooses file paths, commands and
// tool names; a project holds file names and rule text; any of them can
// carry escape sequences that clear the screen, retitle the terminal or
// reorder what is shown (Unicode bidirectional overrides). Every such
// string that hookwright prints (hwctl, hookgen, a hook's reason on stderr
// or in a systemMessage) goes through [Line] or [Text] first.
//
// Made visible as escapes: the C0 controls (U+0000–U+001F, \n, \r and \t
// as such), DEL (\x7f), the C1 controls (U+0080–U+009F), the bidirectional
// marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
// U+202A–U+202E, U+2066–U+2069), the line and paragraph separators (U+2028,
// U+2029), and bytes that are not UTF-8. Everything else is kept as is.
// The package uses the standard library only: the hook runtime imports it.
package termsafe

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Line returns s with every control character, newlines and tabs
// included, made visible: for a table cell or one line of output.
func Line(s string) string { return escape(s, false) }

// Text returns s as Line does, but keeps newlines and tabs (a CRLF
// becomes a newline): for a multi-line message such as a hook's reason.
func Text(s string) string { return escape(s, true) }

// Unsafe reports whether r is made visible by Line.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

func escape(s string, keepLines bool) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f || keepLines && (c == '\n' || c == '\t') {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if !(r == utf8.RuneError && n == 1) && !Unsafe(r) {
				i += n
				continue
			}
		}
		break
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case keepLines && r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF: the line break stays, as one \n.
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && Unsafe(r):
			b.WriteString(`\x`)
			b.WriteString(hex2(byte(r)))
		case Unsafe(r):
			b.WriteString(`\u`)
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(strings.Repeat("0", 4-len(h)))
			b.WriteString(h)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

// Writer escapes everything written through it as [Text] does: newlines
// and tabs pass, every other control character becomes visible. Each
// Write is escaped on its own, so a character split across two writes
// shows as byte escapes; write whole strings.
type Writer struct{ W io.Writer }

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{W: w} }

// Write escapes p and writes it to the underlying writer. It returns
// len(p) when the escaped text was written whole.
func (w *Writer) Write(p []byte) (int, error) {
	s := Text(string(p))
	if _, err := io.WriteString(w.W, s); err != nil {
		return 0, err
	}
	return len(p), nil
}
