package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// maxBuckets caps the buckets of an Activity.
const maxBuckets = 150

// steps are the bucket widths Activity picks from: the smallest that
// gives at most maxBuckets.
var steps = []time.Duration{5 * time.Second, 15 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour, 3 * time.Hour, 6 * time.Hour, 24 * time.Hour, 7 * 24 * time.Hour}

// activityWhere selects the readable lines of [?1, ?2) (unix
// microseconds), of session ?3 unless it is empty, from the time index
// alone: it covers every column the two queries read.
const activityWhere = `FROM events INDEXED BY events_ts WHERE ts >= ?1 AND ts < ?2 AND bad = '' AND (?3 = '' OR session = ?3)`

// activityBuckets counts calls, blocks and asks per bucket of ?4
// microseconds.
const activityBuckets = `SELECT (ts - ?1) / ?4, count(*), coalesce(sum(decision = 'block'), 0), coalesce(sum(decision = 'ask'), 0) ` + activityWhere + ` GROUP BY 1`

// activityDurations is each event's nearest-rank p50 and p95 hook time
// and its longest: the p-th percentile of n sorted values is the k-th, k
// the least with k*100 >= n*p.
const activityDurations = `WITH r AS (
		SELECT event, us, row_number() OVER (PARTITION BY event ORDER BY us) AS k, count(*) OVER (PARTITION BY event) AS n
		` + activityWhere + ` AND event <> '')
	SELECT event, n, min(CASE WHEN k * 100 >= n * 50 THEN us END), min(CASE WHEN k * 100 >= n * 95 THEN us END), max(us)
	FROM r GROUP BY event ORDER BY n DESC, event LIMIT 100`

// Bucket is the calls in one step of time from Start: all of them, those
// that blocked and those that asked the user.
type Bucket struct {
	Start  time.Time `json:"t"`
	Calls  int64     `json:"calls"`
	Blocks int64     `json:"blocks"`
	Asks   int64     `json:"asks"`
}

// Duration is one event's hook time over a range, in milliseconds: the
// nearest-rank median and 95th percentile, and the longest.
type Duration struct {
	Event string  `json:"event"`
	N     int64   `json:"n"`
	P50   float64 `json:"p50_ms"`
	P95   float64 `json:"p95_ms"`
	Max   float64 `json:"max_ms"`
}

// Activity is what the dashboard's charts draw: calls and blocks per
// bucket of time, and hook durations per event, over [Since, Until).
type Activity struct {
	Since     time.Time  `json:"since"`
	Until     time.Time  `json:"until"`
	Step      int64      `json:"step_s"`
	Buckets   []Bucket   `json:"buckets"`
	Durations []Duration `json:"durations"`
}

// FitSpan is the narrowest range [Fit] returns: a session of a few calls
// in one second still gets a chart of some width.
const FitSpan = time.Minute

// Fit is the range the charts fit to: the readable calls of the window
// before until (one session's, if session is set), from the first to the
// last with a margin of a tenth of their span on each side, at least
// FitSpan wide, ending no later than until. ok is false when the window
// holds no call.
func (s *Store) Fit(ctx context.Context, until time.Time, window time.Duration, session string) (since, end time.Time, ok bool, err error) {
	var first, last sql.NullInt64
	err = s.db.QueryRowContext(ctx, `SELECT min(ts), max(ts) `+activityWhere, until.Add(-window).UnixMicro(), until.UnixMicro(), session).Scan(&first, &last)
	if err != nil || !first.Valid {
		return time.Time{}, time.Time{}, false, err
	}
	since, end = time.UnixMicro(first.Int64), time.UnixMicro(last.Int64).Add(time.Microsecond)
	pad := end.Sub(since) / 10
	since, end = since.Add(-pad), end.Add(pad)
	if short := FitSpan - end.Sub(since); short > 0 {
		since, end = since.Add(-short/2), end.Add(short-short/2)
	}
	if end.After(until) {
		since, end = since.Add(-end.Sub(until)), until
	}
	return since, end, true, nil
}

// Activity counts the calls and blocks from since to until (the store's
// readable lines, by their time) in buckets of a round step, at most
// maxBuckets of them, every bucket present; and each event's hook
// duration percentiles over the same range. session, if set, keeps one
// session's calls. Both are computed in SQL over the time index.
func (s *Store) Activity(ctx context.Context, since, until time.Time, session string) (Activity, error) {
	if !until.After(since) {
		return Activity{}, fmt.Errorf("%w: the range from %s to %s is empty", ErrBadFilter, since.Format(time.RFC3339), until.Format(time.RFC3339))
	}
	step := steps[len(steps)-1]
	for _, d := range steps {
		if until.Sub(since) <= d*maxBuckets {
			step = d
			break
		}
	}
	// Buckets start on multiples of the step (UTC).
	start := since.Truncate(step)
	n := int((until.Sub(start) + step - 1) / step)
	if n > maxBuckets+1 {
		// Longer than maxBuckets weeks: keep the newest.
		start = until.Add(-step * maxBuckets).Truncate(step)
		n = int((until.Sub(start) + step - 1) / step)
	}
	a := Activity{Since: start.UTC(), Until: until.UTC(), Step: int64(step / time.Second), Buckets: make([]Bucket, n), Durations: []Duration{}}
	for i := range a.Buckets {
		a.Buckets[i].Start = start.Add(time.Duration(i) * step).UTC()
	}
	from, to, us := start.UnixMicro(), until.UnixMicro(), step.Microseconds()
	rows, err := s.db.QueryContext(ctx, activityBuckets, from, to, session, us)
	if err != nil {
		return a, err
	}
	for rows.Next() {
		var i, calls, blocks, asks int64
		if err := rows.Scan(&i, &calls, &blocks, &asks); err != nil {
			rows.Close()
			return a, err
		}
		if i >= 0 && i < int64(n) {
			a.Buckets[i].Calls, a.Buckets[i].Blocks, a.Buckets[i].Asks = calls, blocks, asks
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return a, err
	}
	// Nearest rank: the p-th percentile of n sorted values is the k-th,
	// k the least with k*100 >= n*p.
	rows, err = s.db.QueryContext(ctx, activityDurations, from, to, session)
	if err != nil {
		return a, err
	}
	defer rows.Close()
	for rows.Next() {
		var d Duration
		var p50, p95, mx int64
		if err := rows.Scan(&d.Event, &d.N, &p50, &p95, &mx); err != nil {
			return a, err
		}
		d.P50, d.P95, d.Max = float64(p50)/1000, float64(p95)/1000, float64(mx)/1000
		a.Durations = append(a.Durations, d)
	}
	return a, rows.Err()
}
