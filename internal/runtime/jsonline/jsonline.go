// Package jsonline writes JSON by hand, for the few lines the runtime
// writes on a hot path: the journal entry of every call and the session
// record of every start. A process that lives for about a millisecond
// cannot afford encoding/json's reflection cache, which costs tens of
// microseconds per type on first use. Each writer keeps a test that its
// output equals json.Marshal's.
package jsonline

import "unicode/utf8"

// AppendField appends ,"name":"value" unless value is empty (omitempty).
func AppendField(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return AppendString(b, value)
}

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string: quotes, backslashes and control
// characters escaped, invalid UTF-8 replaced by U+FFFD, as encoding/json
// does, U+2028 and U+2029 included (encoding/json also escapes <, > and &
// for HTML; those need no escape in JSON and are written as they are).
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\b':
				b = append(b, '\\', 'b')
			case c == '\f':
				b = append(b, '\\', 'f')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
