package journal

import (
	"strconv"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/jsonline"
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
	b = jsonline.AppendField(b, "session", e.Session)
	b = append(b, `,"event":`...)
	b = jsonline.AppendString(b, e.Event)
	b = jsonline.AppendField(b, "via", e.Via)
	if e.Async {
		b = append(b, `,"async":true`...)
	}
	b = jsonline.AppendField(b, "kind", e.Kind)
	b = jsonline.AppendField(b, "target", e.Target)
	b = jsonline.AppendField(b, "tool", e.Tool)
	b = jsonline.AppendField(b, "subject", e.Subject)
	b = jsonline.AppendField(b, "agent", e.Agent)
	b = jsonline.AppendField(b, "team", e.Team)
	b = jsonline.AppendField(b, "band", e.Band)
	b = jsonline.AppendField(b, "decision", e.Decision)
	b = jsonline.AppendField(b, "reason", e.Reason)
	b = jsonline.AppendField(b, "handler", e.Handler)
	b = jsonline.AppendField(b, "rule", e.Rule)
	b = append(b, `,"exit":`...)
	b = strconv.AppendInt(b, int64(e.Exit), 10)
	b = append(b, `,"us":`...)
	b = strconv.AppendInt(b, e.Micros, 10)
	if e.ToolMillis != 0 {
		b = append(b, `,"tool_ms":`...)
		b = strconv.AppendInt(b, e.ToolMillis, 10)
	}
	b = jsonline.AppendField(b, "outcome", e.Outcome)
	b = jsonline.AppendField(b, "error", e.Error)
	if len(e.Faults) > 0 {
		b = append(b, `,"faults":[`...)
		for i, f := range e.Faults {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonline.AppendString(b, f)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}
