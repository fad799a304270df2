package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// Activity buckets calls and blocks by time and gives each event's p50
// and p95 hook time (nearest rank), over the range and session asked.
func TestActivity(t *testing.T) {
	p := t.TempDir()
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	// PreToolUse: 1..20 ms in the first hour, one block in each of
	// minutes 0 and 30; Stop: 100 ms and 300 ms in the second hour,
	// session s2; one line out of range and one unreadable.
	for i := range 20 {
		e := journal.Entry{Time: t0.Add(time.Duration(i) * 3 * time.Minute), Session: "s1", Event: "PreToolUse", Tool: "Bash", Micros: int64(i+1) * 1000}
		if i == 0 || i == 10 {
			e.Decision = "block"
		}
		journal.Append(p, e)
	}
	journal.Append(p, journal.Entry{Time: t0.Add(70 * time.Minute), Session: "s2", Event: "Stop", Micros: 100000})
	journal.Append(p, journal.Entry{Time: t0.Add(80 * time.Minute), Session: "s2", Event: "Stop", Micros: 300000})
	journal.Append(p, journal.Entry{Time: t0.Add(-time.Hour), Session: "s1", Event: "Stop", Micros: 9e6})
	appendRaw(t, p, "2026-11-22.jsonl", "not json\n")
	s := open(t, p)
	ctx := context.Background()
	if _, err := s.Ingest(ctx, 0); err != nil {
		t.Fatal(err)
	}
	a, err := s.Activity(ctx, t0, t0.Add(2*time.Hour), "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Step != 60 || len(a.Buckets) != 120 || !a.Buckets[0].Start.Equal(t0) {
		t.Fatalf("step %d, %d buckets from %v", a.Step, len(a.Buckets), a.Buckets[0].Start)
	}
	var calls, blocks int64
	for _, b := range a.Buckets {
		calls += b.Calls
		blocks += b.Blocks
	}
	if calls != 22 || blocks != 2 || a.Buckets[0].Blocks != 1 || a.Buckets[30].Blocks != 1 || a.Buckets[3].Calls != 1 || a.Buckets[70].Calls != 1 {
		t.Fatalf("calls %d, blocks %d; %+v", calls, blocks, a.Buckets[:4])
	}
	want := []Duration{{"PreToolUse", 20, 10, 19, 20}, {"Stop", 2, 100, 300, 300}}
	if len(a.Durations) != 2 || a.Durations[0] != want[0] || a.Durations[1] != want[1] {
		t.Fatalf("durations %+v, want %+v", a.Durations, want)
	}
	// One session; a week and two hours in 3-hour buckets.
	a, err = s.Activity(ctx, t0.Add(-7*24*time.Hour), t0.Add(2*time.Hour), "s2")
	if err != nil {
		t.Fatal(err)
	}
	calls = 0
	for _, b := range a.Buckets {
		calls += b.Calls
	}
	if a.Step != 3*3600 || calls != 2 || len(a.Durations) != 1 || a.Durations[0].Event != "Stop" {
		t.Fatalf("s2 over a week: step %d, calls %d, %+v", a.Step, calls, a.Durations)
	}
	if _, err := s.Activity(ctx, t0, t0, ""); !errors.Is(err, ErrBadFilter) {
		t.Fatalf("an empty range: %v", err)
	}
}

// The charts' queries read the time index alone, never the rows.
func TestActivityReadsOnlyTheTimeIndex(t *testing.T) {
	s := open(t, t.TempDir())
	for name, q := range map[string]string{"buckets": activityBuckets, "durations": activityDurations} {
		rows, err := s.DB().Query("EXPLAIN QUERY PLAN "+q, 0, 1, "", 60)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			rows.Scan(&id, &parent, &unused, &detail)
			plan = append(plan, detail)
		}
		rows.Close()
		text := strings.Join(plan, "; ")
		if !strings.Contains(text, "USING COVERING INDEX events_ts") || strings.Contains(text, "SCAN events ") {
			t.Errorf("%s: plan %q", name, text)
		}
	}
}
