package live

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/otlpexport"
	"github.com/hookwright/hookwright/internal/otlpexport/otlptest"
)

// TestOTLPJoinsClaudeCodeTelemetry runs a real release with its own
// telemetry on (CLAUDE_CODE_ENABLE_TELEMETRY=1, logs over OTLP/grpc) and
// the guard as a plugin hook, against the collector's OTLP receiver in this
// process; then `hwctl export otlp`'s exporter ships the project's journal
// to the same receiver. The hook records and Claude Code's own events must
// carry the same session.id, so a backend joins them.
//
// Seen on 2.1.330: with CLAUDE_CODE_ENABLE_TELEMETRY=1 and
// OTEL_LOGS_EXPORTER=otlp its log records have resource service.name
// "claude-code", body "claude_code.<event>", attributes event.name
// ("<event>"), event.sequence, event.timestamp, session.id (the hooks'
// session_id) and, per hook run, claude_code.hook_execution_start and
// hook_execution_complete events naming hook_event and hook_name.
func TestOTLPJoinsClaudeCodeTelemetry(t *testing.T) {
	if testing.Short() {
		t.Skip("live tier: needs real Claude Code")
	}
	Available(t)
	const version = "2.1.330"
	claude := installT(t, version)
	plugin := writePlugin(t, spineHooks)
	sink := &otlptest.Sink{}
	rcv := otlptest.Start(t, "grpc", otlptest.FreeAddr(t), sink)
	otel := map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_ENDPOINT": rcv.URL()}
	env := []string{"CLAUDE_CODE_ENABLE_TELEMETRY=1", "OTEL_LOGS_EXPORTER=otlp", "OTEL_METRICS_EXPORTER=none", "OTEL_LOGS_EXPORT_INTERVAL=200"}
	for k, v := range otel {
		env = append(env, k+"="+v)
	}
	_, res := session(t, claude, modelapi.Script{bash("echo one"), bash("git push --force origin main")},
		sessionOpts{pluginDirs: []string{plugin}, env: env})
	requireRegistered(t, res)

	var claudeSessions []string
	waitUntil := time.Now().Add(20 * time.Second) // the last export may trail the exit
	for {
		claudeSessions = sessionIDs(sink.Records(), "claude-code")
		if len(claudeSessions) > 0 || time.Now().After(waitUntil) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(claudeSessions) == 0 {
		t.Fatalf("%s sent no log record with service.name claude-code and a session.id; received %d records: %s",
			version, sink.Len(), describe(sink.Records()))
	}

	cfg, err := otlpexport.ConfigFromEnv(func(k string) string { return otel[k] })
	if err != nil {
		t.Fatal(err)
	}
	st, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: res.Dir, Config: cfg})
	if err != nil || st.Shipped < 2 {
		t.Fatalf("export of the session's journal: %+v %v", st, err)
	}
	hookSessions := sessionIDs(sink.Records(), "hookwright")
	if len(hookSessions) != 1 || len(claudeSessions) != 1 || hookSessions[0] != claudeSessions[0] {
		t.Fatalf("session.id: hook records %v, Claude Code's events %v: they do not join", hookSessions, claudeSessions)
	}
	var blocked bool
	for _, r := range sink.Records() {
		if r.Resource["service.name"] == "hookwright" && r.Str("hookwright.decision") == "block" && r.SevText == "WARN" {
			blocked = true
		}
	}
	if !blocked {
		t.Errorf("no WARN record for the blocked force push: %s", describe(sink.Records()))
	}
	if testing.Verbose() {
		t.Log(describe(sink.Records()))
	}
	t.Logf("%s: session.id %s joins %d Claude Code records and %d hook records", version, hookSessions[0], sink.Len()-st.Shipped, st.Shipped)
}

// sessionIDs lists the distinct session.id values of the records whose
// resource names service.
func sessionIDs(records []otlptest.Record, service string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range records {
		if r.Resource["service.name"] != service {
			continue
		}
		if id := r.Str("session.id"); id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func describe(records []otlptest.Record) string {
	var b strings.Builder
	for i, r := range records {
		if i == 10 {
			fmt.Fprintf(&b, "... (%d more)", len(records)-10)
			break
		}
		fmt.Fprintf(&b, "\n  %v %q %v", r.Resource["service.name"], r.Body, r.Attrs)
	}
	return b.String()
}
