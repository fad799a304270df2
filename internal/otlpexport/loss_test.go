package otlpexport_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/journaltail"
	"github.com/hookwright/hookwright/internal/otlpexport"
	"github.com/hookwright/hookwright/internal/otlpexport/otlptest"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// rejectedFile reads the project's rejected-records file (nil when absent).
func rejectedFile(t *testing.T, dir string) []otlpexport.RejectedRecord {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, otlpexport.RejectedFile))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []otlpexport.RejectedRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var r otlpexport.RejectedRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("rejected file line %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

// rawLines maps each journal line id to its text.
func rawLines(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	if _, err := journaltail.Read(dir, nil, 0, func(l journaltail.Line) error {
		m[l.ID()] = string(l.Raw)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRefusingCollectorKeepsTheCursor: a collector that answers 400 to
// every request gets nothing skipped: the run fails naming the answer, the
// cursor stays, no record is set aside, and a working collector later gets
// every record.
func TestRefusingCollectorKeepsTheCursor(t *testing.T) {
	for _, p := range protocols {
		t.Run(strings.ReplaceAll(p.name, "/", "-"), func(t *testing.T) {
			dir := t.TempDir()
			writeJournal(t, dir, 0, 33)
			addr := otlptest.FreeAddr(t)
			sink := &otlptest.Sink{Reject: func(otlptest.Record) bool { return true }}
			rcv := otlptest.Start(t, p.receiver, addr, sink)
			cfg := config(t, p.name, rcv.URL(), nil)
			st, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: cfg, Batch: 16})
			if err == nil || st.Shipped != 0 || sink.Len() != 0 {
				t.Fatalf("refusing collector: %+v %v", st, err)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "test sink rejects record") {
				t.Fatalf("error does not carry the collector's answer: %q", msg)
			}
			if c, err := otlpexport.LoadCursor(dir); err != nil || len(c) != 0 {
				t.Fatalf("cursor moved: %v %v", c, err)
			}
			if r := rejectedFile(t, dir); len(r) != 0 {
				t.Fatalf("records set aside: %v", r)
			}
			rcv.Stop()
			ok := &otlptest.Sink{}
			otlptest.Start(t, p.receiver, addr, ok)
			st, err = otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: cfg})
			if err != nil || st.Shipped != 33 || ok.Len() != 33 {
				t.Fatalf("next run: %+v %v, received %d", st, err, ok.Len())
			}
		})
	}
}

// TestRejectedRecordsAreKept: a collector that refuses three records (HTTP
// 400, grpc InvalidArgument) gets every other one; the three are written
// whole to the rejected file with the collector's answer, and counted; a
// second run sends nothing again.
func TestRejectedRecordsAreKept(t *testing.T) {
	for _, p := range protocols {
		t.Run(strings.ReplaceAll(p.name, "/", "-"), func(t *testing.T) {
			dir := t.TempDir()
			writeJournal(t, dir, 0, 40)
			ids := journalIDs(t, dir)
			raw := rawLines(t, dir)
			poison := map[string]bool{ids[3]: true, ids[17]: true, ids[18]: true}
			sink := &otlptest.Sink{Reject: func(r otlptest.Record) bool { return poison[r.Str("hookwright.record_id")] }}
			rcv := otlptest.Start(t, p.receiver, otlptest.FreeAddr(t), sink)
			cfg := config(t, p.name, rcv.URL(), nil)
			st, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: cfg, Batch: 16})
			if err != nil || st.Rejected != 3 || st.Shipped != 37 || sink.Len() != 37 {
				t.Fatalf("stats %+v, %v, received %d", st, err, sink.Len())
			}
			var want []string
			for _, id := range ids {
				if !poison[id] {
					want = append(want, id)
				}
			}
			if !slices.Equal(sorted(otlptest.IDs(sink.Records())), sorted(want)) {
				t.Fatalf("received %v", otlptest.IDs(sink.Records()))
			}
			rej := rejectedFile(t, dir)
			if len(rej) != 3 {
				t.Fatalf("rejected file holds %d records: %+v", len(rej), rej)
			}
			for _, r := range rej {
				if !poison[r.ID] || r.Line != raw[r.ID] || !strings.Contains(r.Answer, "test sink rejects record "+r.ID) {
					t.Errorf("rejected record %+v; want the whole line %q and the collector's answer", r, raw[r.ID])
				}
			}
			st, err = otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: cfg})
			if err != nil || st.Shipped+st.Rejected != 0 || len(rejectedFile(t, dir)) != 3 {
				t.Fatalf("second run retried: %+v %v", st, err)
			}
		})
	}
}

// TestTooLargeSplitsTheBatch: behind a front that answers 413 to a body
// over 16 KiB, a batch is split until it fits; only the one record too
// large alone is set aside, with the 413 answer.
func TestTooLargeSplitsTheBatch(t *testing.T) {
	for _, p := range protocols[1:] {
		t.Run(strings.ReplaceAll(p.name, "/", "-"), func(t *testing.T) {
			dir := t.TempDir()
			writeJournal(t, dir, 0, 30)
			if err := journal.Append(dir, journal.Entry{Time: day, Event: "Stop", Reason: strings.Repeat("y", 40<<10)}); err != nil {
				t.Fatal(err)
			}
			writeJournal(t, dir, 30, 10)
			ids := journalIDs(t, dir)
			big := ids[30]
			sink := &otlptest.Sink{}
			rcv := otlptest.Start(t, "http", otlptest.FreeAddr(t), sink)
			front := otlptest.Limit(t, rcv, 16<<10)
			st, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: config(t, p.name, front, nil)})
			if err != nil || st.Shipped != 40 || st.Rejected != 1 || sink.Len() != 40 {
				t.Fatalf("%+v %v, received %d", st, err, sink.Len())
			}
			rej := rejectedFile(t, dir)
			if len(rej) != 1 || rej[0].ID != big || !strings.Contains(rej[0].Status, "413") || !strings.Contains(rej[0].Answer, "at most 16384 bytes") {
				t.Fatalf("rejected file: %+v", rej)
			}
		})
	}
}

// TestRetryForBoundsASlowCollector: against a collector that takes 3 s to
// answer, with a 60 s request timeout, --retry-for 1s gives up on its
// budget (each request's timeout is capped by the time left) and says the
// request timed out; before, the first request alone waited for the
// answer, and got it.
func TestRetryForBoundsASlowCollector(t *testing.T) {
	for _, p := range protocols {
		t.Run(strings.ReplaceAll(p.name, "/", "-"), func(t *testing.T) {
			dir := t.TempDir()
			writeJournal(t, dir, 0, 3)
			sink := &otlptest.Sink{Delay: 3 * time.Second}
			rcv := otlptest.Start(t, p.receiver, otlptest.FreeAddr(t), sink)
			cfg := config(t, p.name, rcv.URL(), map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "60000"})
			st, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: cfg, RetryFor: time.Second, MinBackoff: 50 * time.Millisecond})
			if err == nil || st.Shipped != 0 || !strings.Contains(err.Error(), "timed out") {
				t.Fatalf("slow collector: %+v %v", st, err)
			}
		})
	}
}

// TestFailuresAreNamed: a refused connection and a collector answering
// 503 are told apart, with the collector's message.
func TestFailuresAreNamed(t *testing.T) {
	for _, p := range protocols {
		t.Run(strings.ReplaceAll(p.name, "/", "-"), func(t *testing.T) {
			dir := t.TempDir()
			writeJournal(t, dir, 0, 2)
			_, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: config(t, p.name, "http://"+otlptest.FreeAddr(t), nil)})
			if err == nil || !strings.Contains(err.Error(), "connection refused") {
				t.Errorf("nothing listening: %v", err)
			}
			rcv := otlptest.Start(t, p.receiver, otlptest.FreeAddr(t), &otlptest.Sink{Unavailable: true})
			_, err = otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: config(t, p.name, rcv.URL(), nil)})
			want := "HTTP 503"
			if p.name == otlpexport.GRPC {
				want = "grpc Unavailable"
			}
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "test sink is unavailable") {
				t.Errorf("503: %v; want %q and the collector's message", err, want)
			}
		})
	}
}

// TestEmptyLinesAreSkipped: blank journal lines are not records; they are
// counted apart.
func TestEmptyLinesAreSkipped(t *testing.T) {
	dir := t.TempDir()
	writeJournal(t, dir, 0, 4)
	f, err := os.OpenFile(filepath.Join(dir, journal.Dir, "2026-11-22.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n   \n")
	f.Close()
	writeJournal(t, dir, 4, 2)
	sink := &otlptest.Sink{}
	rcv := otlptest.Start(t, "http", otlptest.FreeAddr(t), sink)
	st, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: config(t, otlpexport.HTTPJSON, rcv.URL(), nil)})
	if err != nil || st.Shipped != 6 || st.Empty != 2 || st.Unparsed != 0 || sink.Len() != 6 {
		t.Fatalf("%+v %v, received %d", st, err, sink.Len())
	}
}

// TestExportFilesRefusePlantedLinks: a symlink planted at the cursor, the
// lock or the rejected-records file, leading outside the project, stops
// the run with an error; nothing is written outside.
func TestExportFilesRefusePlantedLinks(t *testing.T) {
	for _, rel := range []string{otlpexport.CursorFile, filepath.Join(filepath.Dir(otlpexport.CursorFile), "otlp.lock"), otlpexport.RejectedFile} {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			writeJournal(t, dir, 0, 6)
			ids := journalIDs(t, dir)
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, "planted"), filepath.Join(dir, rel)); err != nil {
				t.Skip("no symlinks:", err)
			}
			sink := &otlptest.Sink{Reject: func(r otlptest.Record) bool { return r.Str("hookwright.record_id") == ids[2] }}
			rcv := otlptest.Start(t, "http", otlptest.FreeAddr(t), sink)
			_, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: config(t, otlpexport.HTTPJSON, rcv.URL(), nil)})
			if err == nil {
				t.Fatal("exported through a planted symlink")
			}
			if ents, _ := os.ReadDir(outside); len(ents) != 0 {
				t.Fatalf("wrote outside the project: %v", ents)
			}
		})
	}
}

// TestSubjectIsExportedRedacted: a call's subject is a record attribute,
// redacted as the journal and the API redact it, even when the journal
// line holds the secret in clear.
func TestSubjectIsExportedRedacted(t *testing.T) {
	dir := t.TempDir()
	if err := journal.Append(dir, journal.Entry{Time: day, Session: "s", Event: "PreToolUse", Tool: "Bash", Subject: "curl -H 'Authorization: Bearer abcdef123456' https://x.example"}); err != nil {
		t.Fatal(err)
	}
	sink := &otlptest.Sink{}
	rcv := otlptest.Start(t, "http", otlptest.FreeAddr(t), sink)
	if _, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: config(t, otlpexport.HTTPJSON, rcv.URL(), nil)}); err != nil {
		t.Fatal(err)
	}
	got := sink.Records()
	if len(got) != 1 || got[0].Str("hookwright.subject") != "curl -H 'Authorization: Bearer …' https://x.example" {
		t.Fatalf("%+v", got)
	}
}
