package journal

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// appendLine appends e as one JSON object, the same object json.Marshal
// would write for it. It exists for speed: the journal is written on every
// hook call, in a process that lives for about a millisecond, and
// encoding/json spends tens of microseconds building its reflection cache
// for Entry on first use. TestAppendLineMatchesEncodingJSON keeps the two
// equal.
func appendLine(b []byte, e Entry) []byte {
	b = append(b, `{"ts":"`...)
	b = e.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	b = appendField(b, "session", e.Session)
	b = append(b, `,"event":`...)
	b = appendString(b, e.Event)
	b = appendField(b, "via", e.Via)
	b = appendField(b, "kind", e.Kind)
	b = appendField(b, "target", e.Target)
	b = appendField(b, "tool", e.Tool)
	b = appendField(b, "subject", e.Subject)
	b = appendField(b, "agent", e.Agent)
	b = appendField(b, "team", e.Team)
	b = appendField(b, "band", e.Band)
	b = appendField(b, "decision", e.Decision)
	b = appendField(b, "reason", e.Reason)
	b = appendField(b, "handler", e.Handler)
	b = append(b, `,"exit":`...)
	b = strconv.AppendInt(b, int64(e.Exit), 10)
	b = append(b, `,"us":`...)
	b = strconv.AppendInt(b, e.Micros, 10)
	if e.ToolMillis != 0 {
		b = append(b, `,"tool_ms":`...)
		b = strconv.AppendInt(b, e.ToolMillis, 10)
	}
	b = appendField(b, "outcome", e.Outcome)
	b = appendField(b, "error", e.Error)
	if len(e.Faults) > 0 {
		b = append(b, `,"faults":[`...)
		for i, f := range e.Faults {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, f)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendField appends ,"name":"value" unless value is empty (omitempty).
func appendField(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, value)
}

const hex = "0123456789abcdef"

// appendString appends s as a JSON string: quotes, backslashes and control
// characters escaped, invalid UTF-8 replaced by U+FFFD, as encoding/json
// does (which also escapes <, >, & and U+2028/U+2029; those need no escape
// in JSON and are written as they are).
func appendString(b []byte, s string) []byte {
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
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
