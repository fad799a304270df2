package otlpexport

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/hookwright/hookwright/internal/journaltail"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/redact"
	"github.com/hookwright/hookwright/internal/state/session"
)

// The names a record carries. README.md documents them; a test keeps the
// two equal.
const (
	// ScopeName is the instrumentation scope of every record.
	ScopeName = "github.com/hookwright/hookwright/hwctl/export"
	// EventHookCall is the event name of a record made from a journal
	// line; EventUnparsed of one made from a line that did not parse.
	EventHookCall = "hookwright.hook_call"
	EventUnparsed = "hookwright.unparsed_line"

	AttrEventName    = "event.name" // "hook_call", as Claude Code names its events
	AttrSessionID    = "session.id" // Claude Code's session id, spelled as its telemetry spells it
	AttrToolName     = "tool_name"  // as on Claude Code's tool_result / tool_decision events
	AttrRecordID     = "hookwright.record_id"
	AttrEvent        = "hookwright.event"
	AttrVia          = "hookwright.event.via"
	AttrTarget       = "hookwright.target"
	AttrSubject      = "hookwright.subject"
	AttrDecision     = "hookwright.decision"
	AttrKind         = "hookwright.kind" // what happened: journal.Kinds
	AttrReason       = "hookwright.reason"
	AttrHandler      = "hookwright.handler"
	AttrRule         = "hookwright.rule" // the guard rule that decided (journal.RuleOf)
	AttrExitCode     = "hookwright.exit_code"
	AttrDurationUS   = "hookwright.duration_us"
	AttrAgent        = "hookwright.agent"
	AttrTeam         = "hookwright.team"
	AttrBand         = "hookwright.band"
	AttrToolMS       = "hookwright.tool.duration_ms"
	AttrToolOutcome  = "hookwright.tool.outcome"
	AttrToolError    = "hookwright.tool.error"
	AttrFaults       = "hookwright.faults"
	AttrParseError   = "hookwright.parse_error"
	ResClaudeVersion = "claude_code.version"
	ResHWVersion     = "hookwright.version"
	ResProject       = "hookwright.project"
)

// maxRawBody bounds the raw text of an unparsed line put in a record.
const maxRawBody = 4 << 10

// maxVersions bounds the per-session version cache.
const maxVersions = 4096

// Mapper turns journal lines into OTLP log records through the SDK: one
// LoggerProvider per resource (Claude Code and hookwright versions differ
// per session), each emitting into a collector the exporter drains.
type Mapper struct {
	project string
	base    []attribute.KeyValue // defaults, then the environment's
	hwBuild string               // hwctl's own version: the fallback
	now     func() time.Time

	sink      *collect
	providers map[string]*sdklog.LoggerProvider
	versions  map[string]versions // session id -> versions (only found ones)
	misses    map[string]versions // this batch's sessions without a Claude Code version
	// sessions are the fingerprints, read once per batch when a session
	// is not cached (they are in shared day files: one read serves all).
	sessions map[string]session.Fingerprint
}

type versions struct{ claude, hookwright string }

// NewMapper makes a Mapper for the project at dir. cfg.Resource (the
// environment's OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME) wins over
// the defaults: service.name "hookwright", host.name and the project's
// absolute path.
func NewMapper(dir string, cfg Config, hwBuild string) *Mapper {
	host, _ := os.Hostname()
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	base := []attribute.KeyValue{
		semconv.ServiceName("hookwright"),
		attribute.String(ResProject, abs),
	}
	if host != "" {
		base = append(base, semconv.HostName(host))
	}
	for _, kv := range cfg.Resource {
		base = append(base, attribute.String(kv.Key, kv.Value))
	}
	return &Mapper{
		project: dir, base: base, hwBuild: hwBuild, now: time.Now,
		sink: &collect{}, providers: map[string]*sdklog.LoggerProvider{}, versions: map[string]versions{},
	}
}

// Records maps lines to records, in order.
func (m *Mapper) Records(lines []journaltail.Line) []sdklog.Record {
	m.sink.out = m.sink.out[:0]
	m.misses = map[string]versions{}
	m.sessions = nil
	observed := m.now()
	for _, l := range lines {
		v := m.versionsOf(l.Entry.Session)
		lg := m.provider(v).Logger(ScopeName)
		r := Record(l)
		r.SetObservedTimestamp(observed)
		lg.Emit(context.Background(), r)
	}
	out := make([]sdklog.Record, len(m.sink.out))
	copy(out, m.sink.out)
	return out
}

// Record is the log record of one journal line (without resource).
func Record(l journaltail.Line) otellog.Record {
	var r otellog.Record
	id := l.ID()
	if l.Err != nil {
		raw := string(l.Raw)
		if len(raw) > maxRawBody {
			raw = raw[:maxRawBody]
		}
		r.SetEventName(EventUnparsed)
		r.SetSeverity(otellog.SeverityError)
		r.SetSeverityText("ERROR")
		r.SetBody(attribute.StringValue(raw))
		r.AddAttributes(
			attribute.String(AttrEventName, strings.TrimPrefix(EventUnparsed, "hookwright.")),
			attribute.String(AttrRecordID, id),
			attribute.String(AttrParseError, l.Err.Error()),
		)
		return r
	}
	e := l.Entry
	r.SetEventName(EventHookCall)
	r.SetTimestamp(e.Time)
	sev, text := Severity(e.Decision, len(e.Faults) > 0)
	r.SetSeverity(sev)
	r.SetSeverityText(text)
	r.SetBody(attribute.StringValue(Summary(l)))
	attrs := []attribute.KeyValue{
		attribute.String(AttrEventName, strings.TrimPrefix(EventHookCall, "hookwright.")),
		attribute.String(AttrRecordID, id),
		attribute.String(AttrEvent, e.Event),
		attribute.Int(AttrExitCode, e.Exit),
		attribute.Int64(AttrDurationUS, e.Micros),
	}
	str := func(key, v string) {
		if v != "" {
			attrs = append(attrs, attribute.String(key, v))
		}
	}
	str(AttrSessionID, e.Session)
	str(AttrToolName, e.Tool)
	str(AttrVia, e.Via)
	str(AttrTarget, e.Target)
	str(AttrSubject, redact.Subject(e.Subject, journal.MaxSubject))
	str(AttrDecision, e.Decision)
	kind := e.Kind
	if kind == "" { // a line written before lines carried their kind
		kind = journal.KindOf(e.Event, e.Via, e.Target, e.Decision)
	}
	str(AttrKind, kind)
	str(AttrReason, e.Reason)
	str(AttrHandler, e.Handler)
	str(AttrRule, journal.RuleOf(e))
	str(AttrAgent, e.Agent)
	str(AttrTeam, e.Team)
	str(AttrBand, e.Band)
	if e.ToolMillis != 0 {
		attrs = append(attrs, attribute.Int64(AttrToolMS, e.ToolMillis))
	}
	str(AttrToolOutcome, e.Outcome)
	str(AttrToolError, e.Error)
	if len(e.Faults) > 0 {
		attrs = append(attrs, attribute.StringSlice(AttrFaults, e.Faults))
	}
	r.AddAttributes(attrs...)
	return r
}

// Severity is WARN for a block, ERROR for a call with faults (which wins),
// INFO otherwise.
func Severity(decision string, fault bool) (otellog.Severity, string) {
	switch {
	case fault:
		return otellog.SeverityError, "ERROR"
	case decision == "block":
		return otellog.SeverityWarn, "WARN"
	default:
		return otellog.SeverityInfo, "INFO"
	}
}

// Summary is a record's body: one readable line, e.g.
// "PreToolUse Bash: block by guard: rm -rf outside the project".
func Summary(l journaltail.Line) string {
	e := l.Entry
	var b strings.Builder
	b.WriteString(e.Event)
	if e.Target != "" {
		b.WriteString(" " + e.Target)
	}
	switch {
	case e.Decision != "":
		b.WriteString(": " + e.Decision)
		if e.Handler != "" {
			b.WriteString(" by " + e.Handler)
		}
		if e.Reason != "" {
			b.WriteString(": " + e.Reason)
		}
	default:
		fmt.Fprintf(&b, ": exit %d", e.Exit)
	}
	if len(e.Faults) > 0 {
		b.WriteString(" (" + strings.Join(e.Faults, "; ") + ")")
	}
	return b.String()
}

// versionsOf returns the Claude Code and hookwright versions of a session,
// from its fingerprint; hwctl's own version when the fingerprint has none.
// Found versions are cached; a missing one is looked up again next batch
// (SessionEnd may fill it in), not for every line.
func (m *Mapper) versionsOf(sessionID string) versions {
	if v, ok := m.versions[sessionID]; ok {
		return v
	}
	if v, ok := m.misses[sessionID]; ok {
		return v
	}
	v := versions{hookwright: m.hwBuild}
	defer func() {
		if v.claude == "" {
			m.misses[sessionID] = v
		}
	}()
	if sessionID == "" {
		return v
	}
	if m.sessions == nil {
		all, err := session.All(m.project)
		if err != nil {
			all = map[string]session.Fingerprint{}
		}
		m.sessions = all
	}
	fp, ok := m.sessions[sessionID]
	if !ok {
		return v
	}
	if fp.HookwrightVersion != "" {
		v.hookwright = fp.HookwrightVersion
	}
	v.claude = fp.ClaudeVersion
	if v.claude != "" {
		if len(m.versions) >= maxVersions {
			clear(m.versions)
		}
		m.versions[sessionID] = v
	}
	return v
}

// provider returns the LoggerProvider of the resource for v.
func (m *Mapper) provider(v versions) *sdklog.LoggerProvider {
	key := v.claude + "\x00" + v.hookwright
	if p, ok := m.providers[key]; ok {
		return p
	}
	if len(m.providers) >= maxVersions {
		clear(m.providers)
	}
	attrs := []attribute.KeyValue{}
	if v.hookwright != "" {
		attrs = append(attrs, semconv.ServiceVersion(v.hookwright), attribute.String(ResHWVersion, v.hookwright))
	}
	if v.claude != "" {
		attrs = append(attrs, attribute.String(ResClaudeVersion, v.claude))
	}
	// The versions are facts about the session: they win over the
	// environment's attributes (the last value of a key wins).
	res := resource.NewWithAttributes(semconv.SchemaURL, append(slices.Clip(m.base), attrs...)...)
	p := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(m.sink))
	m.providers[key] = p
	return p
}

// collect is the processor that hands emitted records back to the Mapper.
type collect struct{ out []sdklog.Record }

// OnEmit keeps a copy of r.
func (c *collect) OnEmit(_ context.Context, r *sdklog.Record) error {
	c.out = append(c.out, r.Clone())
	return nil
}

// Enabled, Shutdown and ForceFlush complete the sdklog.Processor.
func (*collect) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }
func (*collect) Shutdown(context.Context) error                         { return nil }
func (*collect) ForceFlush(context.Context) error                       { return nil }
