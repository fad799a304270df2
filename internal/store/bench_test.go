//go:build unix

package store

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// benchLines is the journal size of the store benchmarks:
// $HOOKWRIGHT_BENCH_LINES, else 100k (make bench-store uses 1M).
func benchLines() int {
	if n, err := strconv.Atoi(os.Getenv("HOOKWRIGHT_BENCH_LINES")); err == nil && n > 0 {
		return n
	}
	return 100000
}

// writeBenchJournal writes n realistic lines over 10 daily files: 200
// sessions, 12 events, 1 in 50 calls blocked, teammates on a few; each
// tool call has a subject (a command or a path) for the search to index.
func writeBenchJournal(tb testing.TB, project string, n int) {
	tb.Helper()
	dir := filepath.Join(project, journal.Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	events := []string{"PreToolUse", "PostToolUse", "PreToolUse", "PostToolUse", "PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "TaskCompleted", "TeammateIdle", "SessionStart"}
	tools := []string{"Bash", "Edit", "Read", "Write", "Grep", "TaskUpdate"}
	start := time.Now().Add(-10 * 24 * time.Hour).UTC()
	step := 10 * 24 * time.Hour / time.Duration(n)
	var f *os.File
	var w *bufio.Writer
	day := ""
	for i := range n {
		ts := start.Add(time.Duration(i) * step)
		if d := ts.Format("2006-01-02"); d != day {
			if w != nil {
				w.Flush()
				f.Close()
			}
			var err error
			if f, err = os.Create(filepath.Join(dir, d+".jsonl")); err != nil {
				tb.Fatal(err)
			}
			w, day = bufio.NewWriterSize(f, 1<<20), d
		}
		e := journal.Entry{Time: ts, Session: fmt.Sprintf("sess-%04d-5f0c2e", i/(n/200+1)), Event: events[i%len(events)], Band: "2.1.33", Exit: 0, Micros: int64(300 + i%900)}
		if e.Event == "PreToolUse" || e.Event == "PostToolUse" {
			e.Tool, e.Target = tools[i%len(tools)], tools[i%len(tools)]
			e.Decision = "allow"
			if e.Tool == "Bash" {
				e.Subject = fmt.Sprintf("go test -run Test%d ./internal/pkg%d/...", i%997, i%89)
			} else {
				e.Subject = fmt.Sprintf("/home/dev/project/internal/pkg%d/file%d.go", i%89, i%1009)
			}
		}
		if i%50 == 0 {
			e.Event, e.Tool, e.Target, e.Decision, e.Exit, e.Handler = "PreToolUse", "Bash", "Bash", "block", 2, "guard"
			e.Reason = "hookwright guard: git push --force rewrites shared history; push a new branch instead"
			e.Subject = "git push --force origin main"
		}
		if i%9 == 0 {
			e.Agent, e.Team = fmt.Sprintf("mate-%d", i%6), "red"
		}
		b, _ := jsonLine(e)
		w.Write(b)
	}
	w.Flush()
	f.Close()
}

func jsonLine(e journal.Entry) ([]byte, error) {
	// The runtime's own encoder is unexported; encoding/json writes the
	// same object (journal's TestAppendLineMatchesEncodingJSON).
	b, err := jsonMarshal(e)
	return append(b, '\n'), err
}

// BenchmarkIngest ingests a fresh journal of benchLines lines into an
// empty store; it reports lines/s.
func BenchmarkIngest(b *testing.B) {
	n := benchLines()
	p := b.TempDir()
	writeBenchJournal(b, p, n)
	ctx := context.Background()
	b.ResetTimer()
	var total, cpu time.Duration
	for range b.N {
		b.StopTimer()
		Remove(p)
		s, err := Open(ctx, p)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start, cpu0 := time.Now(), cpuTime()
		st, err := s.Ingest(ctx, 0)
		total += time.Since(start)
		cpu += cpuTime() - cpu0
		if err != nil || st.Lines != n {
			b.Fatalf("ingest: %+v %v", st, err)
		}
		b.StopTimer()
		s.Close()
	}
	b.ReportMetric(float64(n)*float64(b.N)/total.Seconds(), "lines/s")
	// On a shared machine wall time depends on the neighbours; CPU time
	// (user + system, all threads) does not.
	b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds(), "lines/cpu-s")
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkQueryFirstPage times the first page (100 rows) of each query
// the CLI and the page make, on a store of benchLines events.
func BenchmarkQueryFirstPage(b *testing.B) {
	n := benchLines()
	p := b.TempDir()
	writeBenchJournal(b, p, n)
	ctx := context.Background()
	s, err := Open(ctx, p)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Ingest(ctx, 0); err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	queries := map[string]func() (int, error){
		"events": func() (int, error) { l, err := s.Events(ctx, Filter{}); return len(l), err },
		"events-block-24h": func() (int, error) {
			l, err := s.Events(ctx, Filter{Decision: "block", Since: now.Add(-24 * time.Hour)})
			return len(l), err
		},
		"events-block-7d": func() (int, error) {
			l, err := s.Events(ctx, Filter{Decision: "block", Since: now.Add(-7 * 24 * time.Hour)})
			return len(l), err
		},
		"events-session": func() (int, error) { l, err := s.Events(ctx, Filter{Session: "sess-0100-5f0c2e"}); return len(l), err },
		"events-session-old": func() (int, error) {
			l, err := s.Events(ctx, Filter{Session: "sess-0001-5f0c2e", Event: "Stop"})
			return len(l), err
		},
		"events-event-since": func() (int, error) {
			l, err := s.Events(ctx, Filter{Event: "TeammateIdle", Since: now.Add(-48 * time.Hour)})
			return len(l), err
		},
		"events-tool":     func() (int, error) { l, err := s.Events(ctx, Filter{Tool: "Write"}); return len(l), err },
		"events-agent":    func() (int, error) { l, err := s.Events(ctx, Filter{Agent: "mate-3"}); return len(l), err },
		"events-since-1h": func() (int, error) { l, err := s.Events(ctx, Filter{Since: now.Add(-time.Hour)}); return len(l), err },
		"events-nothing":  func() (int, error) { l, err := s.Events(ctx, Filter{Decision: "ask"}); return len(l), err },
		"events-since-few": func() (int, error) {
			l, err := s.Events(ctx, Filter{Since: now.Add(-10 * 24 * time.Hour / time.Duration(n) * 10)})
			return len(l), err
		},
		"events-since-future": func() (int, error) { l, err := s.Events(ctx, Filter{Since: now.Add(time.Hour)}); return len(l), err },
		"events-rare-tool": func() (int, error) {
			l, err := s.Events(ctx, Filter{Tool: "NotebookEdit", Since: now.Add(-time.Hour)})
			return len(l), err
		},
		"events-page-2": func() (int, error) {
			l, err := s.Events(ctx, Filter{Decision: "block", Before: int64(n / 2)})
			return len(l), err
		},
		"sessions":            func() (int, error) { l, err := s.Sessions(ctx, time.Time{}, 0); return len(l), err },
		"sessions-since-24h":  func() (int, error) { l, err := s.Sessions(ctx, now.Add(-24*time.Hour), 0); return len(l), err },
		"team":                func() (int, error) { l, err := s.Teammates(ctx); return len(l), err },
		"counts":              func() (int, error) { l, err := s.Counts(ctx); return len(l), err },
		"events-after-newest": func() (int, error) { l, err := s.Events(ctx, Filter{After: int64(n - 5)}); return len(l), err },
		"events-handler":      func() (int, error) { l, err := s.Events(ctx, Filter{Handler: "guard"}); return len(l), err },
		"events-until-8d": func() (int, error) {
			l, err := s.Events(ctx, Filter{Until: now.Add(-8 * 24 * time.Hour)})
			return len(l), err
		},
		"events-since-until": func() (int, error) {
			l, err := s.Events(ctx, Filter{Since: now.Add(-5 * 24 * time.Hour), Until: now.Add(-4 * 24 * time.Hour), Decision: "block"})
			return len(l), err
		},
		"timeline-500": func() (int, error) {
			l, err := s.Events(ctx, Filter{Session: "sess-0100-5f0c2e", Limit: 500})
			return len(l), err
		},
		// The search: a common word, a rare one, words with a filter, no
		// match at all, and the second page.
		"search-common": func() (int, error) { l, err := s.Events(ctx, Filter{Search: "go test"}); return len(l), err },
		"search-rare": func() (int, error) {
			l, err := s.Events(ctx, Filter{Search: "Test996 pkg7"})
			return len(l), err
		},
		"search-block": func() (int, error) {
			l, err := s.Events(ctx, Filter{Search: "force push", Decision: "block"})
			return len(l), err
		},
		"search-session": func() (int, error) {
			l, err := s.Events(ctx, Filter{Search: "file1", Session: "sess-0100-5f0c2e"})
			return len(l), err
		},
		"search-nothing": func() (int, error) { l, err := s.Events(ctx, Filter{Search: "kubectl"}); return len(l), err },
		"search-page-2": func() (int, error) {
			l, err := s.Events(ctx, Filter{Search: "internal", Before: int64(n / 2)})
			return len(l), err
		},
		"activity-24h": func() (int, error) {
			a, err := s.Activity(ctx, now.Add(-24*time.Hour), now, "")
			return len(a.Buckets), err
		},
		"activity-7d": func() (int, error) {
			a, err := s.Activity(ctx, now.Add(-7*24*time.Hour), now, "")
			return len(a.Buckets), err
		},
	}
	for name, q := range queries {
		b.Run(name, func(b *testing.B) {
			for range b.N {
				if _, err := q(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/query")
			rows, _ := q()
			b.ReportMetric(float64(rows), "rows")
		})
	}
}

var jsonMarshal = func(e journal.Entry) ([]byte, error) { return json.Marshal(e) }
