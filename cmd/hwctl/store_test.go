package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/store"
	"github.com/hookwright/hookwright/internal/testkit"
)

// writeLines writes n journal lines to the project's journal file name,
// with us = 0..n-1, and returns their sum.
func writeLines(t testing.TB, project, name string, n int) int64 {
	t.Helper()
	dir := filepath.Join(project, journal.Dir)
	os.MkdirAll(dir, 0o755)
	var b bytes.Buffer
	var sum int64
	for i := range n {
		fmt.Fprintf(&b, `{"ts":"2026-11-22T10:%02d:%02dZ","session":"s%d","event":"PreToolUse","tool":"Bash","decision":"%s","exit":0,"us":%d}`+"\n",
			i/60%60, i%60, i%7, map[bool]string{true: "block", false: "allow"}[i%10 == 0], i)
		sum += int64(i)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return sum
}

func dbCount(t *testing.T, project string) (rows, distinct int, sum int64) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(project, store.File)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT count(*), count(DISTINCT file || ':' || off), coalesce(sum(us), 0) FROM events`).Scan(&rows, &distinct, &sum); err != nil {
		return 0, 0, 0 // not created yet
	}
	return
}

func buildHwctl(t testing.TB) string {
	t.Helper()
	return testkit.Build(t, ".", testkit.Options{Name: "hwctl"})
}

// TestIngestKilledMidway kills a real `hwctl ingest` with SIGKILL while it
// writes, runs it again, and checks that the store holds exactly one row
// per journal line.
func TestIngestKilledMidway(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hwctl and ingests 200k lines; skipped with -short")
	}
	bin := buildHwctl(t)
	p := t.TempDir()
	const n = 200000
	sum := writeLines(t, p, "2026-11-22.jsonl", n)
	killed := false
	for attempt := 0; attempt < 5 && !killed; attempt++ {
		store.Remove(p)
		cmd := exec.Command(bin, "ingest", "--dir", p, "--batch", "2000")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if rows, _, _ := dbCount(t, p); rows > 0 {
				break
			}
		}
		cmd.Process.Kill() // SIGKILL: no defer, no cleanup runs
		cmd.Wait()
		rows, _, _ := dbCount(t, p)
		killed = rows > 0 && rows < n
		t.Logf("attempt %d: killed with %d of %d rows stored", attempt, rows, n)
	}
	if !killed {
		t.Fatal("could not kill ingest half-way; the test did not exercise a crash")
	}
	out, err := exec.Command(bin, "ingest", "--dir", p).CombinedOutput()
	if err != nil {
		t.Fatalf("re-run: %v %s", err, out)
	}
	rows, distinct, got := dbCount(t, p)
	if rows != n || distinct != n || got != sum {
		t.Fatalf("after the re-run: %d rows, %d distinct lines, sum %d; want %d, %d, %d", rows, distinct, got, n, n, sum)
	}
	if out, _ := exec.Command(bin, "ingest", "--dir", p).CombinedOutput(); !strings.HasPrefix(string(out), "0 new journal lines") {
		t.Fatalf("a third run: %s", out)
	}
	// The one command that rebuilds: same rows again.
	if out, err := exec.Command(bin, "ingest", "--rebuild", "--dir", p).CombinedOutput(); err != nil || !strings.HasPrefix(string(out), fmt.Sprint(n, " new")) {
		t.Fatalf("rebuild: %v %s", err, out)
	}
	if rows, _, got := dbCount(t, p); rows != n || got != sum {
		t.Fatalf("after rebuild: %d rows, sum %d", rows, got)
	}
}

func TestEventsQueryAndGlobalDir(t *testing.T) {
	p := t.TempDir()
	writeLines(t, p, "2026-11-22.jsonl", 50)
	// --dir before or after the command.
	for _, args := range [][]string{{"--dir", p, "events", "--decision", "block"}, {"events", "--decision", "block", "--dir", p}} {
		out, errs, code := hwctl(t, args...)
		if code != 0 || strings.Count(out, "\n") != 6 || !strings.Contains(out, "block") || strings.Contains(out, "allow") {
			t.Fatalf("%v: %d %q %q", args, code, out, errs)
		}
	}
	out, _, code := hwctl(t, "events", "--dir", p, "--session", "s3", "--json", "-n", "3")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("json: %d %q", code, out)
	}
	var e store.Event
	if err := json.Unmarshal([]byte(lines[2]), &e); err != nil || e.Session != "s3" || e.Micros != 45 {
		t.Fatalf("last json line %q: %v", lines[2], err)
	}
	if _, errs, code := hwctl(t, "events", "--dir", p, "--since", "yesterday"); code != 2 || !strings.Contains(errs, "want a duration") {
		t.Fatalf("bad --since: %d %q", code, errs)
	}
	if out, _, code := hwctl(t, "sessions", "--dir", p, "--json"); code != 0 || !strings.Contains(out, `"calls": 8`) {
		t.Fatalf("sessions: %d %s", code, out)
	}
	if out, _, code := hwctl(t, "--version"); code != 0 || !strings.HasPrefix(out, "hwctl version ") {
		t.Fatalf("--version: %d %q", code, out)
	}
}

func TestEventsFollow(t *testing.T) {
	p := t.TempDir()
	journal.Append(p, journal.Entry{Time: time.Now(), Event: "SessionStart", Session: "f1"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb testkit.SyncBuffer
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"hwctl", "events", "--dir", p, "--follow", "--interval", "20ms", "--event", "PreToolUse"}, &out, &errb, func(string) string { return "" })
	}()
	time.Sleep(100 * time.Millisecond)
	journal.Append(p, journal.Entry{Time: time.Now(), Event: "Stop", Session: "f1"})
	journal.Append(p, journal.Entry{Time: time.Now(), Event: "PreToolUse", Tool: "Bash", Decision: "block", Reason: "no force-push", Session: "f1"})
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), "no force-push") && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	code := <-done
	if !strings.Contains(out.String(), "no force-push") || strings.Contains(out.String(), "Stop") || strings.Contains(out.String(), "SessionStart") {
		t.Fatalf("follow printed %q (%s)", out.String(), errb.String())
	}
	if code != 130 {
		t.Fatalf("follow ended by cancel: exit %d", code)
	}
}

func TestServeTokenRules(t *testing.T) {
	for _, args := range [][]string{{"--token", "a"}, {"--token", "fifteen-chars!!", "--addr", "0.0.0.0:0"}} {
		_, errs, code := hwctl(t, append([]string{"serve", "--dir", t.TempDir()}, args...)...)
		if code != 2 || !strings.Contains(errs, "at least 16") || strings.Count(errs, "\n") != 1 {
			t.Fatalf("%v: exit %d %q", args, code, errs)
		}
	}
	if _, errs, code := hwctl(t, "serve", "--addr", "nocolon"); code != 2 || !strings.Contains(errs, "HOST:PORT") {
		t.Fatalf("bad --addr: exit %d %q", code, errs)
	}
}

// Off loopback without a token, serve generates one, prints it once with
// the URL, and requires it.
func TestServeGeneratesAToken(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb testkit.SyncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"hwctl", "serve", "--dir", hookedProject(t), "--addr", "0.0.0.0:0"}, &out, &errb, func(string) string { return "" })
	}()
	re := regexp.MustCompile(`at http://\S+:(\d+)/\?token=(\S+)\n.*shown only now: (\S+)\n`)
	var m []string
	deadline := time.Now().Add(30 * time.Second)
	for m = re.FindStringSubmatch(out.String()); m == nil; m = re.FindStringSubmatch(out.String()) {
		select {
		case code := <-done:
			t.Fatalf("serve ended: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no URL with a token: %q %q", out.String(), errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	port, token := m[1], m[2]
	if len(token) < 16 || m[3] != token || strings.Count(out.String(), token) != 2 {
		t.Fatalf("token %q in %q", token, out.String())
	}
	for _, c := range []struct {
		auth string
		want int
	}{{"", 401}, {"Bearer " + token, 200}} {
		req, _ := http.NewRequest("GET", "http://127.0.0.1:"+port+"/api/counts", nil)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("auth %q: %d, want %d", c.auth, resp.StatusCode, c.want)
		}
	}
	cancel()
	<-done
}

// TestDashboardPlainWhenPiped runs the live dashboard into a buffer (not a
// terminal): frames follow each other as plain text, no escape codes.
func TestDashboardPlainWhenPiped(t *testing.T) {
	p := t.TempDir()
	journal.Append(p, journal.Entry{Time: time.Now(), Event: "Stop"})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var out, errb bytes.Buffer
	run(ctx, []string{"hwctl", "dashboard", "--dir", p, "--interval", "50ms"}, &out, &errb, func(string) string { return "" })
	if strings.Contains(out.String(), "\x1b") || strings.Count(out.String(), "hookwright dashboard") < 2 {
		t.Fatalf("piped dashboard:\n%q", out.String())
	}
}

// TestStoreOpensInTheSQLiteShell checks that another SQLite client (the
// sqlite3 shell, when installed) reads the store: integrity, and one row
// per journal line.
func TestStoreOpensInTheSQLiteShell(t *testing.T) {
	shell, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("no sqlite3 shell on PATH")
	}
	p := t.TempDir()
	writeLines(t, p, "2026-11-22.jsonl", 1234)
	if _, errs, code := hwctl(t, "ingest", "--dir", p); code != 0 {
		t.Fatalf("ingest: %d %s", code, errs)
	}
	out, err := exec.Command(shell, filepath.Join(p, store.File), "PRAGMA integrity_check; SELECT count(*) FROM events; PRAGMA journal_mode;").CombinedOutput()
	if err != nil || strings.Join(strings.Fields(string(out)), " ") != "ok 1234 wal" {
		t.Fatalf("sqlite3: %v %q", err, out)
	}
}
