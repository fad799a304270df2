package otlpexport_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	collogspb "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/hookwright/hookwright/internal/journaltail"
	"github.com/hookwright/hookwright/internal/otlpexport"
	"github.com/hookwright/hookwright/internal/otlpexport/otlptest"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/state/session"
	"github.com/hookwright/hookwright/internal/testkit"
)

// The three protocols, and the receiver protocol that takes each.
var protocols = []struct{ name, receiver string }{
	{otlpexport.GRPC, "grpc"},
	{otlpexport.HTTPProtobuf, "http"},
	{otlpexport.HTTPJSON, "http"},
}

var day = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// writeJournal appends n varied entries through the journal's own writer,
// starting at the i-th, and returns them.
func writeJournal(t *testing.T, dir string, from, n int) []journal.Entry {
	t.Helper()
	var out []journal.Entry
	for i := from; i < from+n; i++ {
		e := journal.Entry{
			Time: day.Add(time.Duration(i) * time.Second), Session: fmt.Sprintf("sess-%d", i%3),
			Event: "PreToolUse", Target: "Bash", Tool: "Bash", Exit: 0, Micros: int64(100 + i),
		}
		switch i % 5 {
		case 1:
			e.Decision, e.Reason, e.Handler, e.Rule, e.Exit = "block", "rm -rf outside the project (rule rm-outside-project; …)", "guard", "rm-outside-project", 2
		case 2:
			e.Faults = []string{"hookwright: handler scratchpad panicked (failed open)"}
		case 3:
			e.Event, e.Target, e.Tool, e.Agent, e.Team = "PostToolUse", "Edit", "Edit", "tester", "alpha"
			e.ToolMillis, e.Outcome = 41, "success"
		case 4:
			e.Event, e.Target, e.Tool, e.Session = "TaskCompleted", "", "", ""
		}
		if err := journal.Append(dir, e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// writeFingerprint records a session as the session handler does.
func writeFingerprint(t *testing.T, dir, id, claude string) {
	t.Helper()
	r := session.Record{SessionID: id, Start: &session.Start{Source: "startup", At: time.Now()}, ClaudeVersion: claude, HookwrightVersion: "0.9.0-test"}
	if err := session.Append(dir, r); err != nil {
		t.Fatal(err)
	}
}

// journalIDs lists every line's id, read independently of the exporter.
func journalIDs(t *testing.T, dir string) []string {
	t.Helper()
	var ids []string
	if _, err := journaltail.Read(dir, nil, 0, func(l journaltail.Line) error {
		ids = append(ids, l.ID())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return ids
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func config(t *testing.T, protocol, url string, extra map[string]string) otlpexport.Config {
	t.Helper()
	vars := map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": protocol}
	if url != "" {
		vars["OTEL_EXPORTER_OTLP_ENDPOINT"] = url
	}
	for k, v := range extra {
		vars[k] = v
	}
	cfg, err := otlpexport.ConfigFromEnv(env(vars))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestExportOverEachProtocol ships a journal to the collector's receiver
// over grpc, http/protobuf and http/json and checks every record it
// received; a second run sends nothing.
func TestExportOverEachProtocol(t *testing.T) {
	for _, p := range protocols {
		t.Run(strings.ReplaceAll(p.name, "/", "-"), func(t *testing.T) {
			dir := t.TempDir()
			entries := writeJournal(t, dir, 0, 23)
			writeFingerprint(t, dir, "sess-0", "2.1.330")
			writeFingerprint(t, dir, "sess-1", "2.1.33")
			// A torn line mid-file (a crash during a write) is shipped too.
			f, _ := os.OpenFile(filepath.Join(dir, journal.Dir, "2026-11-22.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(`{"ts":"2026-11-22T11:00:00Z","ev` + "\n")
			f.Close()
			entries = append(entries, writeJournal(t, dir, 23, 2)...)
			ids := journalIDs(t, dir)
			if len(ids) != 26 {
				t.Fatalf("journal has %d lines", len(ids))
			}

			sink := &otlptest.Sink{}
			rcv := otlptest.Start(t, p.receiver, otlptest.FreeAddr(t), sink)
			cfg := config(t, p.name, rcv.URL(), map[string]string{
				"OTEL_EXPORTER_OTLP_HEADERS":      "x-test-header=general,authorization=Bearer%20x",
				"OTEL_EXPORTER_OTLP_LOGS_HEADERS": "x-test-header=for%20logs",
				"OTEL_RESOURCE_ATTRIBUTES":        "deployment.environment=ci,team.name=platform",
				"OTEL_SERVICE_NAME":               "hooks-ci",
			})
			var log strings.Builder
			st, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: cfg, Batch: 7, Log: &log, Version: "hwctl-build"})
			if err != nil {
				t.Fatalf("export: %v (log: %s)", err, log.String())
			}
			if st.Shipped != 26 || st.Rejected != 0 || st.Unparsed != 1 {
				t.Fatalf("stats = %+v", st)
			}
			got := sink.Records()
			if !slices.Equal(sorted(otlptest.IDs(got)), sorted(ids)) {
				t.Fatalf("received ids\n %v\nwant\n %v", otlptest.IDs(got), ids)
			}
			byID := map[string]otlptest.Record{}
			for _, r := range got {
				byID[r.Str("hookwright.record_id")] = r
			}
			lineIdx := 0
			for i, id := range ids {
				r := byID[id]
				if r.Header != "for logs" {
					t.Errorf("%s: header x-test-header = %q, want the LOGS_HEADERS value", id, r.Header)
				}
				if r.Resource["service.name"] != "hooks-ci" || r.Resource["deployment.environment"] != "ci" ||
					r.Resource["team.name"] != "platform" || r.Resource["hookwright.project"] != dir {
					t.Errorf("%s: resource = %v", id, r.Resource)
				}
				if r.Scope != otlpexport.ScopeName {
					t.Errorf("%s: scope %q", id, r.Scope)
				}
				if i == 23 { // the torn line
					if r.EventName != otlpexport.EventUnparsed || r.SevText != "ERROR" || !strings.Contains(r.Body, `"ev`) || r.Str("hookwright.parse_error") == "" {
						t.Errorf("unparsed line record = %+v", r)
					}
					continue
				}
				e := entries[lineIdx]
				lineIdx++
				checkRecord(t, id, r, e)
			}
			if log.Len() != 0 {
				t.Errorf("a clean run logged: %s", log.String())
			}

			// Nothing new: a second run sends nothing.
			st, err = otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: cfg, Batch: 7})
			if err != nil || st.Shipped != 0 || sink.Len() != 26 {
				t.Fatalf("second run: %+v %v, receiver has %d", st, err, sink.Len())
			}
			// New lines: only they are sent.
			writeJournal(t, dir, 25, 3)
			st, err = otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: cfg})
			if err != nil || st.Shipped != 3 || sink.Len() != 29 {
				t.Fatalf("third run: %+v %v, receiver has %d", st, err, sink.Len())
			}
		})
	}
}

func checkRecord(t *testing.T, id string, r otlptest.Record, e journal.Entry) {
	t.Helper()
	want := map[string]any{
		"event.name": "hook_call", "hookwright.event": e.Event, "hookwright.exit_code": int64(e.Exit),
		"hookwright.duration_us": e.Micros, "hookwright.record_id": id,
	}
	opt := map[string]string{
		"session.id": e.Session, "tool_name": e.Tool, "hookwright.target": e.Target, "hookwright.decision": e.Decision, "hookwright.kind": journal.KindOf(e.Event, e.Via, e.Target, e.Decision),
		"hookwright.reason": e.Reason, "hookwright.handler": e.Handler, "hookwright.rule": e.Rule, "hookwright.agent": e.Agent, "hookwright.team": e.Team,
		"hookwright.tool.outcome": e.Outcome,
	}
	for k, v := range opt {
		if v != "" {
			want[k] = v
		}
	}
	if e.ToolMillis != 0 {
		want["hookwright.tool.duration_ms"] = e.ToolMillis
	}
	if len(e.Faults) > 0 {
		fs := []any{}
		for _, f := range e.Faults {
			fs = append(fs, f)
		}
		want["hookwright.faults"] = fs
	}
	if fmt.Sprint(r.Attrs) != fmt.Sprint(want) {
		t.Errorf("%s: attributes\n got %v\nwant %v", id, r.Attrs, want)
	}
	sev := "INFO"
	switch {
	case len(e.Faults) > 0:
		sev = "ERROR"
	case e.Decision == "block":
		sev = "WARN"
	}
	wantNum := map[string]int32{"INFO": 9, "WARN": 13, "ERROR": 17}[sev]
	if r.SevText != sev || r.Severity != wantNum {
		t.Errorf("%s: severity %s/%d, want %s/%d", id, r.SevText, r.Severity, sev, wantNum)
	}
	if r.EventName != otlpexport.EventHookCall || !r.Time.Equal(e.Time) || !strings.HasPrefix(r.Body, e.Event) {
		t.Errorf("%s: event %q time %v body %q", id, r.EventName, r.Time, r.Body)
	}
	wantClaude := map[string]string{"sess-0": "2.1.330", "sess-1": "2.1.33"}[e.Session]
	if got, _ := r.Resource["claude_code.version"].(string); got != wantClaude {
		t.Errorf("%s (session %q): claude_code.version = %q, want %q", id, e.Session, got, wantClaude)
	}
	wantHW := "hwctl-build"
	if wantClaude != "" {
		wantHW = "0.9.0-test"
	}
	if r.Resource["hookwright.version"] != wantHW || r.Resource["service.version"] != wantHW {
		t.Errorf("%s: hookwright.version %v service.version %v, want %s", id, r.Resource["hookwright.version"], r.Resource["service.version"], wantHW)
	}
}

// TestReceiverStopsMidStream stops the receiver while --follow ships,
// appends to the journal during the outage and starts a new receiver on
// the same address: what the first received plus what the second received
// is every journal entry.
func TestReceiverStopsMidStream(t *testing.T) {
	for _, p := range protocols {
		t.Run(strings.ReplaceAll(p.name, "/", "-"), func(t *testing.T) {
			dir := t.TempDir()
			writeJournal(t, dir, 0, 150)
			addr := otlptest.FreeAddr(t)
			before := &otlptest.Sink{Delay: 20 * time.Millisecond}
			rcv := otlptest.Start(t, p.receiver, addr, before)
			cfg := config(t, p.name, rcv.URL(), map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "2000"})
			// A writer the test can poll while Export runs.
			log := &testkit.SyncBuffer{}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			var st otlpexport.Stats
			go func() {
				var err error
				st, err = otlpexport.Export(ctx, otlpexport.Options{
					Project: dir, Config: cfg, Follow: true, Batch: 10, Poll: 20 * time.Millisecond,
					MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, Log: log,
				})
				done <- err
			}()
			waitFor(t, "the first 30 records", func() bool { return before.Len() >= 30 })
			rcv.Stop() // mid-stream: 15 batches of 10, each 20ms or more
			if n := before.Len(); n >= 150 {
				t.Fatalf("the receiver was stopped after the stream (%d records), not during it", n)
			}
			writeJournal(t, dir, 150, 45) // written during the outage
			waitFor(t, "the exporter to notice the outage", func() bool { return strings.Contains(log.String(), "unreachable") })
			after := &otlptest.Sink{}
			otlptest.Start(t, p.receiver, addr, after)
			waitFor(t, "every record", func() bool {
				return len(union(before.Records(), after.Records())) >= 195
			})
			cancel()
			if err := <-done; err != context.Canceled {
				t.Fatalf("follow ended with %v", err)
			}
			all := union(before.Records(), after.Records())
			if !slices.Equal(sorted(all), sorted(journalIDs(t, dir))) {
				t.Fatalf("before+after = %d ids, want the %d journal lines", len(all), len(journalIDs(t, dir)))
			}
			if after.Len() == 0 || !strings.Contains(log.String(), "reachable again") {
				t.Fatalf("after the restart: %d records; log:\n%s", after.Len(), log.String())
			}
			dups := before.Len() + after.Len() - len(all)
			t.Logf("%s: %d before, %d after, %d duplicates (at least once), stats %+v", p.name, before.Len(), after.Len(), dups, st)
		})
	}
}

// TestCollectorDownFailsAndNextRunShipsAll: with nothing listening, a run
// fails after its retry budget with a one-line error and saves nothing;
// the next run, with the receiver up, ships every line.
func TestCollectorDownFailsAndNextRunShipsAll(t *testing.T) {
	for _, p := range protocols {
		t.Run(strings.ReplaceAll(p.name, "/", "-"), func(t *testing.T) {
			dir := t.TempDir()
			writeJournal(t, dir, 0, 12)
			addr := otlptest.FreeAddr(t)
			cfg := config(t, p.name, "http://"+addr, nil)
			opts := otlpexport.Options{Project: dir, Config: cfg, RetryFor: 300 * time.Millisecond, MinBackoff: 50 * time.Millisecond}
			st, err := otlpexport.Export(context.Background(), opts)
			if err == nil || st.Shipped != 0 {
				t.Fatalf("down collector: %+v %v", st, err)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "unreachable") || !strings.Contains(msg, addr) {
				t.Fatalf("error is not one clear line: %q", msg)
			}
			sink := &otlptest.Sink{}
			otlptest.Start(t, p.receiver, addr, sink)
			st, err = otlpexport.Export(context.Background(), opts)
			if err != nil || st.Shipped != 12 || sink.Len() != 12 {
				t.Fatalf("next run: %+v %v, received %d", st, err, sink.Len())
			}
		})
	}
}

func union(a, b []otlptest.Record) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range append(otlptest.IDs(a), otlptest.IDs(b)...) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestMisconfiguredEndpointSkipsNothing: a wrong logs path (the receiver
// answers 404) stops the run with a one-line error and ships nothing, and
// the cursor does not move: fixed, the next run ships every line.
func TestMisconfiguredEndpointSkipsNothing(t *testing.T) {
	dir := t.TempDir()
	writeJournal(t, dir, 0, 5)
	sink := &otlptest.Sink{}
	rcv := otlptest.Start(t, "http", otlptest.FreeAddr(t), sink)
	bad := config(t, otlpexport.HTTPProtobuf, "", map[string]string{"OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": rcv.URL() + "/v1/wrong"})
	st, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: bad, RetryFor: time.Minute})
	if err == nil || !strings.Contains(err.Error(), "refused the request") || strings.Contains(err.Error(), "\n") || st.Shipped+st.Rejected != 0 {
		t.Fatalf("404: %+v %v", st, err)
	}
	st, err = otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: config(t, otlpexport.HTTPProtobuf, rcv.URL(), nil)})
	if err != nil || st.Shipped != 5 || sink.Len() != 5 {
		t.Fatalf("fixed: %+v %v, received %d", st, err, sink.Len())
	}
}

// TestLargeLinesStayUnderTheReceiverLimit: 24 lines of 300 KB (7 MB in
// all) ship over grpc, whose receiver takes at most 4 MiB per request by
// default: batches are cut by size, not only by count.
func TestLargeLinesStayUnderTheReceiverLimit(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("x", 300<<10)
	for i := range 24 {
		if err := journal.Append(dir, journal.Entry{Time: day.Add(time.Duration(i) * time.Second), Event: "Stop", Reason: big}); err != nil {
			t.Fatal(err)
		}
	}
	sink := &otlptest.Sink{}
	rcv := otlptest.Start(t, "grpc", otlptest.FreeAddr(t), sink)
	st, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: config(t, otlpexport.GRPC, rcv.URL(), nil), RetryFor: 2 * time.Second})
	if err != nil || st.Shipped != 24 || sink.Len() != 24 {
		t.Fatalf("%+v %v, received %d", st, err, sink.Len())
	}
}

// TestOneExporterPerProject: while one exporter follows a project, a
// second fails at once instead of shipping every line twice.
func TestOneExporterPerProject(t *testing.T) {
	dir := t.TempDir()
	writeJournal(t, dir, 0, 3)
	sink := &otlptest.Sink{}
	rcv := otlptest.Start(t, "http", otlptest.FreeAddr(t), sink)
	cfg := config(t, otlpexport.HTTPJSON, rcv.URL(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := otlpexport.Export(ctx, otlpexport.Options{Project: dir, Config: cfg, Follow: true, Poll: 10 * time.Millisecond})
		done <- err
	}()
	waitFor(t, "the follower to ship", func() bool { return sink.Len() == 3 })
	_, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: cfg})
	if err == nil || !strings.Contains(err.Error(), "another hwctl export otlp is running") {
		t.Fatalf("second exporter: %v", err)
	}
	cancel()
	<-done
	if _, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: cfg}); err != nil {
		t.Fatalf("after the follower ended: %v", err)
	}
}

// TestPartialSuccessIsCounted: a collector that accepts a request but
// reports some records rejected (OTLP partial success; the collector's own
// receiver never answers so, hence a plain HTTP server here) has those
// counted as rejected and reported; the batch is not sent again.
func TestPartialSuccessIsCounted(t *testing.T) {
	for _, protocol := range []string{otlpexport.HTTPJSON, otlpexport.HTTPProtobuf} {
		t.Run(strings.ReplaceAll(protocol, "/", "-"), func(t *testing.T) {
			var requests atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				resp := &collogspb.ExportLogsServiceResponse{PartialSuccess: &collogspb.ExportLogsPartialSuccess{RejectedLogRecords: 2, ErrorMessage: "too old"}}
				if r.Header.Get("Content-Type") == "application/x-protobuf" {
					data, _ := proto.Marshal(resp)
					w.Header().Set("Content-Type", "application/x-protobuf")
					w.Write(data)
					return
				}
				data, _ := protojson.Marshal(resp)
				w.Header().Set("Content-Type", "application/json")
				w.Write(data)
			}))
			defer srv.Close()
			dir := t.TempDir()
			writeJournal(t, dir, 0, 5)
			var log strings.Builder
			st, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: config(t, protocol, srv.URL, nil), Log: &log})
			if err != nil || st.Shipped != 3 || st.Rejected != 2 || requests.Load() != 1 {
				t.Fatalf("%+v %v after %d requests", st, err, requests.Load())
			}
			if !strings.Contains(log.String(), "rejected 2 of them: too old") {
				t.Fatalf("log: %s", log.String())
			}
		})
	}
}

// BenchmarkExport ships a 20,000-line journal to the collector's receiver
// per protocol; it reports journal lines per second.
func BenchmarkExport(b *testing.B) {
	for _, p := range protocols {
		b.Run(strings.ReplaceAll(p.name, "/", "-"), func(b *testing.B) {
			dir := b.TempDir()
			const n = 20000
			for i := range n {
				e := journal.Entry{Time: day.Add(time.Duration(i) * time.Millisecond), Session: fmt.Sprintf("s%d", i%50), Event: "PreToolUse", Target: "Bash", Tool: "Bash", Micros: 250}
				if err := journal.Append(dir, e); err != nil {
					b.Fatal(err)
				}
			}
			sink := &otlptest.Sink{}
			rcv := otlptest.Start(b, p.receiver, otlptest.FreeAddr(b), sink)
			cfg, err := otlpexport.ConfigFromEnv(env(map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": p.name, "OTEL_EXPORTER_OTLP_ENDPOINT": rcv.URL()}))
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if err := os.RemoveAll(filepath.Join(dir, ".hookwright", "export")); err != nil {
					b.Fatal(err)
				}
				if st, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: cfg}); err != nil || st.Shipped != n {
					b.Fatalf("%+v %v", st, err)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}
