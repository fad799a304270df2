package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/otlpexport/otlptest"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

func hwctlEnv(t *testing.T, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"hwctl"}, args...), &out, &errb, func(k string) string { return vars[k] })
	return code, out.String(), errb.String()
}

// TestExportOTLPDoneMeans is the "done means", through hwctl as a
// user runs it: http/json to a collector on 127.0.0.1; down: exit 3 (a
// failure) with a
// one-line reason; up: one record per journal line, each with session.id;
// again: nothing new.
func TestExportOTLPDoneMeans(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	for i := range 30 {
		e := journal.Entry{Time: t0.Add(time.Duration(i) * time.Minute), Session: fmt.Sprintf("s%d", i%4), Event: "PreToolUse", Target: "Bash", Tool: "Bash", Micros: 90}
		if i%7 == 0 {
			e.Decision, e.Reason, e.Exit = "block", "dangerous", 2
		}
		if err := journal.Append(dir, e); err != nil {
			t.Fatal(err)
		}
	}
	addr := otlptest.FreeAddr(t)
	vars := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://" + addr, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}

	code, out, errs := hwctlEnv(t, vars, "export", "otlp", "--dir", dir, "--retry-for", "200ms")
	if code != hwcli.ExitFailure || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "hwctl: collector at http://"+addr+"/v1/logs (http/json) unreachable") {
		// the retry budget is shorter than the first backoff: one try, one line
		t.Fatalf("collector down: exit %d, stdout %q, stderr %q", code, out, errs)
	}

	sink := &otlptest.Sink{}
	otlptest.Start(t, "http", addr, sink)
	code, out, errs = hwctlEnv(t, vars, "export", "otlp", "--dir", dir)
	if code != 0 || errs != "" || out != "shipped 30 records to http://"+addr+"/v1/logs (http/json)\n" {
		t.Fatalf("collector up: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	got := sink.Records()
	if len(got) != 30 {
		t.Fatalf("received %d records", len(got))
	}
	for _, r := range got {
		if !strings.HasPrefix(r.Str("session.id"), "s") {
			t.Fatalf("record without session.id: %+v", r)
		}
	}
	code, out, errs = hwctlEnv(t, vars, "export", "otlp", "--dir", dir)
	if code != 0 || sink.Len() != 30 || !strings.HasPrefix(out, "nothing new to ship") {
		t.Fatalf("second run: exit %d, stdout %q, stderr %q, received %d", code, out, errs, sink.Len())
	}
}

func TestExportOTLPUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		vars map[string]string
		args []string
		want string
	}{
		{map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "udp"}, nil, `OTEL_EXPORTER_OTLP_PROTOCOL="udp"`},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "localhost:4318"}, nil, "OTEL_EXPORTER_OTLP_ENDPOINT"},
		{map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "novalue"}, nil, "OTEL_EXPORTER_OTLP_HEADERS"},
		{nil, []string{"--batch", "0"}, "--batch"},
		{nil, []string{"extra"}, `unexpected argument "extra"`},
	} {
		code, out, errs := hwctlEnv(t, tc.vars, append([]string{"export", "otlp", "--dir", dir}, tc.args...)...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v %v: exit %d, stdout %q, stderr %q", tc.vars, tc.args, code, out, errs)
		}
	}
}

// TestExportOTLPResumesAfterKill kills hwctl export otlp --follow (SIGKILL,
// no chance to clean up) while it ships a stream of batches; the next run
// ships the rest: what the collector received is every journal line, with
// at most the one batch in flight at the kill received twice.
func TestExportOTLPResumesAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hwctl and kills it mid-stream")
	}
	bin := buildHwctl(t)
	dir := t.TempDir()
	t0 := time.Date(2026, 11, 22, 23, 59, 0, 0, time.UTC)
	for i := range 300 { // across two journal files
		if err := journal.Append(dir, journal.Entry{Time: t0.Add(time.Duration(i) * time.Second), Session: "s", Event: "Stop"}); err != nil {
			t.Fatal(err)
		}
	}
	sink := &otlptest.Sink{Delay: 15 * time.Millisecond}
	rcv := otlptest.Start(t, "grpc", otlptest.FreeAddr(t), sink)
	vars := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": rcv.URL(), "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}
	cmd := exec.Command(bin, "export", "otlp", "--follow", "--batch", "10", "--dir", dir)
	cmd.Env = append(os.Environ(), "OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL(), "OTEL_EXPORTER_OTLP_PROTOCOL=grpc")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for sink.Len() < 60 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	killedAt := sink.Len()
	if killedAt < 60 || killedAt >= 300 {
		t.Fatalf("killed after %d records: not mid-stream", killedAt)
	}
	code, _, errs := hwctlEnv(t, vars, "export", "otlp", "--dir", dir)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	seen := map[string]int{}
	for _, id := range otlptest.IDs(sink.Records()) {
		seen[id]++
	}
	dups := sink.Len() - len(seen)
	if len(seen) != 300 || dups > 10 {
		t.Fatalf("after the kill at %d: %d distinct of 300, %d duplicates", killedAt, len(seen), dups)
	}
	t.Logf("killed at %d records; resumed; %d duplicates", killedAt, dups)
}

// A --dir that is not a folder (a typo) is a usage error, and nothing is
// created there: the exporter writes its cursor and lock only inside an
// existing project.
func TestExportOTLPMissingProject(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(base, "missing", "proj"), file} {
		code, out, errs := hwctlEnv(t, nil, "export", "otlp", "--dir", dir)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, dir) {
			t.Errorf("--dir %s: exit %d, stdout %q, stderr %q; want a one-line usage error naming it", dir, code, out, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(base, "missing")); err == nil {
		t.Errorf("hwctl export otlp created %s", filepath.Join(base, "missing"))
	}
}

// log and events, like export otlp, take a --dir that is not a folder as a
// one-line usage error and create nothing, rather than printing an empty
// table for a typo.
func TestReadersRefuseAMissingProject(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "missing", "proj")
	for _, args := range [][]string{{"log", "--dir", dir}, {"events", "--dir", dir}, {"--dir", dir, "events"}, {"sessions", "--dir", dir}} {
		code, out, errs := hwctlEnv(t, nil, args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, dir) {
			t.Errorf("hwctl %v: exit %d, stdout %q, stderr %q; want a one-line usage error naming it", args, code, out, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(base, "missing")); err == nil {
		t.Errorf("created %s", filepath.Join(base, "missing"))
	}
}

// With the collector down, export otlp retries for the whole of
// --retry-for (not a fraction of it, as when it gave up once the next
// backoff would overrun the budget) and then says why in exactly one line;
// --verbose adds the line that says the outage started.
func TestExportOTLPHonoursRetryFor(t *testing.T) {
	dir := t.TempDir()
	if err := journal.Append(dir, journal.Entry{Time: time.Now(), Session: "s1", Event: "PreToolUse", Tool: "Bash"}); err != nil {
		t.Fatal(err)
	}
	addr := otlptest.FreeAddr(t)
	vars := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://" + addr, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}
	budget := time.Second
	for _, verbose := range []bool{false, true} {
		args := []string{"export", "otlp", "--dir", dir, "--retry-for", budget.String()}
		want := 1
		if verbose {
			args, want = append(args, "--verbose"), 2
		}
		start := time.Now()
		code, out, errs := hwctlEnv(t, vars, args...)
		took := time.Since(start)
		// A lower bound only: retrying for less than the budget asked for is the bug.
		if took < budget {
			t.Errorf("%v: gave up after %s of a %s budget", args, took, budget)
		}
		lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
		if code != hwcli.ExitFailure || out != "" || len(lines) != want || !strings.Contains(lines[want-1], "unreachable") || !strings.Contains(lines[want-1], "retried for 1s") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d line(s), the last the reason", args, code, out, errs, want)
		}
	}
}

// A collector that refuses one record gets every other one; the run exits
// 3 saying how many were shipped and rejected and where the rejected one
// is; one that refuses everything exits 3 and leaves the cursor, so that
// a working collector then gets every record.
func TestExportOTLPRejectedExitsNonZero(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	for i := range 12 {
		if err := journal.Append(dir, journal.Entry{Time: t0.Add(time.Duration(i) * time.Minute), Session: "s1", Event: "PreToolUse", Tool: "Bash", Reason: fmt.Sprintf("r%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	addr := otlptest.FreeAddr(t)
	vars := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://" + addr, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"}
	all := &otlptest.Sink{Reject: func(otlptest.Record) bool { return true }}
	rcv := otlptest.Start(t, "http", addr, all)
	code, out, errs := hwctlEnv(t, vars, "export", "otlp", "--dir", dir, "--batch", "4")
	if code != hwcli.ExitFailure || out != "" || !strings.Contains(errs, "refused every record") || !strings.Contains(errs, "HTTP 400") {
		t.Fatalf("refusing collector: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	rcv.Stop()

	one := &otlptest.Sink{Reject: func(r otlptest.Record) bool { return r.Str("hookwright.reason") == "r5" }}
	otlptest.Start(t, "http", addr, one)
	code, out, errs = hwctlEnv(t, vars, "export", "otlp", "--dir", dir, "--batch", "4")
	rejected := filepath.Join(dir, ".hookwright", "otlp-rejected.jsonl")
	if code != hwcli.ExitFailure || one.Len() != 11 || !strings.Contains(errs, "shipped 11 records, the collector rejected 1: 1 are kept") || !strings.Contains(errs, rejected) {
		t.Fatalf("one refused: exit %d, received %d, stdout %q, stderr %q", code, one.Len(), out, errs)
	}
	data, err := os.ReadFile(rejected)
	if err != nil || strings.Count(string(data), "\n") != 1 || !strings.Contains(string(data), `\"r5\"`) {
		t.Fatalf("rejected file: %q %v", data, err)
	}
}
