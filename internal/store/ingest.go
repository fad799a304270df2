package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/hookwright/hookwright/internal/journaltail"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/redact"
)

// DefaultBatch is how many journal lines one ingest transaction takes.
const DefaultBatch = 5000

// resync is how often Ingest looks at the state files when the journal
// did not grow.
const resync = 2 * time.Second

// insertRows is how many rows one INSERT statement carries; insertCols
// is the number of columns it sets.
const (
	insertRows = 32
	insertCols = 24
)

// Stats says what one Ingest added.
type Stats struct {
	// Lines is the number of journal lines added; Bad how many of them
	// did not parse (they are stored with their reason in events.bad).
	Lines, Bad int
	// LastID is the highest event id after the ingest.
	LastID int64
}

const insertEvent = `INSERT OR IGNORE INTO events
	(file, off, ts, session, event, via, target, tool, agent, team, band, decision, reason, handler,
	 exit, us, tool_ms, outcome, error, faults, bad, subject, kind, rule)
	VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`

// Ingest adds the journal lines not yet in the store, batch lines per
// transaction (0: DefaultBatch), and refreshes the snapshots of the
// session, PDCA, work and team files. Each transaction stores its rows and
// the advanced per-file offsets together, so a run killed at any point
// loses nothing and a re-run adds nothing; the (file, offset) key makes a
// duplicate impossible even so. A torn last line is left for the next run.
func (s *Store) Ingest(ctx context.Context, batch int) (Stats, error) {
	if batch <= 0 {
		batch = DefaultBatch
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var st Stats
	for {
		n, bad, err := s.ingestBatch(ctx, batch)
		st.Lines += n
		st.Bad += bad
		if err != nil {
			return st, err
		}
		if n < batch {
			break
		}
	}
	// The state files change with the calls that write journal lines;
	// without new lines they are looked at every few seconds, so that a
	// follower polling many times a second does not stat them all each time.
	if st.Lines > 0 || time.Since(s.synced) >= resync {
		if err := s.syncFiles(ctx); err != nil {
			return st, err
		}
		s.synced = time.Now()
	}
	err := s.db.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) FROM events").Scan(&st.LastID)
	return st, err
}

// sessionAgg and mateAgg gather one batch's changes to the derived tables.
type sessionAgg struct {
	first, last   int64
	calls, blocks int64
}

type mateAgg struct {
	status, event, task string
	seen                int64
}

func (s *Store) ingestBatch(ctx context.Context, batch int) (lines, bad int, err error) {
	// BEGIN IMMEDIATE (the DSN's _txlock) takes the write lock first, so
	// the cursor read below is the one this transaction advances: two
	// hwctl processes ingesting at once take turns, never the same lines.
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	cur, err := readCursor(ctx, tx)
	if err != nil {
		return 0, 0, err
	}
	ins, err := tx.PrepareContext(ctx, insertEvent)
	if err != nil {
		return 0, 0, err
	}
	defer ins.Close()
	// Rows go in insertRows at a time: one statement per row costs more
	// in binding and VM setup than the insert itself.
	insMany, err := tx.PrepareContext(ctx, insertEvent+strings.Repeat(",("+strings.TrimSuffix(strings.Repeat("?,", insertCols), ",")+")", insertRows-1))
	if err != nil {
		return 0, 0, err
	}
	defer insMany.Close()
	pending := make([]any, 0, insertRows*insertCols)
	exec := func(args ...any) error {
		pending = append(pending, args...)
		if len(pending) < insertRows*insertCols {
			return nil
		}
		_, err := insMany.ExecContext(ctx, pending...)
		pending = pending[:0]
		return err
	}
	sessions := map[string]*sessionAgg{}
	mates := map[[2]string]*mateAgg{}
	counts := map[[2]string]int64{}
	next, err := journaltail.Read(s.project, cur, batch, func(l journaltail.Line) error {
		lines++
		e := l.Entry
		if l.Err != nil {
			bad++
			counts[[2]string{"", ""}]++
			return exec(l.File, l.Offset, 0, "", "", "", "", "", "", "", "", "", "", "", 0, 0, 0, "", "", "", oneLine(l.Err.Error()), "", "", "")
		}
		ts := e.Time.UnixMicro()
		faults := ""
		if len(e.Faults) > 0 {
			b, _ := json.Marshal(e.Faults)
			faults = string(b)
		}
		kind := e.Kind
		if kind == "" { // a line written before lines carried their kind
			kind = journal.KindOf(e.Event, e.Via, e.Target, e.Decision)
		}
		if err := exec(l.File, l.Offset, ts, e.Session, e.Event, e.Via, e.Target, e.Tool, e.Agent, e.Team,
			e.Band, e.Decision, e.Reason, e.Handler, e.Exit, e.Micros, e.ToolMillis, e.Outcome, e.Error, faults, "",
			redact.Subject(e.Subject, journal.MaxSubject), kind, journal.RuleOf(e)); err != nil {
			return err
		}
		counts[[2]string{e.Event, e.Decision}]++
		if e.Session != "" {
			a := sessions[e.Session]
			if a == nil {
				a = &sessionAgg{first: ts, last: ts}
				sessions[e.Session] = a
			}
			a.first, a.last = min(a.first, ts), max(a.last, ts)
			a.calls++
			if e.Decision == "block" {
				a.blocks++
			}
		}
		if e.Agent != "" {
			k := [2]string{e.Team, e.Agent}
			if m := mates[k]; m == nil || m.seen <= ts {
				mates[k] = &mateAgg{status: StatusOf(e.Event), event: e.Event, seen: ts, task: taskOf(e.Event, e.Target)}
			}
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	for i := 0; i < len(pending); i += insertCols {
		if _, err := ins.ExecContext(ctx, pending[i:i+insertCols]...); err != nil {
			return 0, 0, err
		}
	}
	if lines == 0 {
		tx.Rollback()
		return 0, 0, nil
	}
	for k, a := range sessions {
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, first_seen, last_seen, calls, blocks) VALUES (?,?,?,?,?)
			ON CONFLICT (id) DO UPDATE SET first_seen = min(first_seen, excluded.first_seen),
			last_seen = max(last_seen, excluded.last_seen), calls = calls + excluded.calls, blocks = blocks + excluded.blocks`,
			k, a.first, a.last, a.calls, a.blocks); err != nil {
			return 0, 0, err
		}
	}
	for k, n := range counts {
		if _, err := tx.ExecContext(ctx, `INSERT INTO counts (event, decision, n) VALUES (?,?,?)
			ON CONFLICT (event, decision) DO UPDATE SET n = n + excluded.n`, k[0], k[1], n); err != nil {
			return 0, 0, err
		}
	}
	for k, m := range mates {
		if _, err := tx.ExecContext(ctx, `INSERT INTO teammates (team, agent, status, last_event, last_seen, task) VALUES (?,?,?,?,?,?)
			ON CONFLICT (team, agent) DO UPDATE SET status = excluded.status, last_event = excluded.last_event,
			last_seen = excluded.last_seen, task = CASE WHEN excluded.task <> '' THEN excluded.task ELSE task END
			WHERE excluded.last_seen >= last_seen`,
			k[0], k[1], m.status, m.event, m.seen, m.task); err != nil {
			return 0, 0, err
		}
	}
	for f, off := range next {
		if cur[f] == off {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO cursor (file, off) VALUES (?, ?) ON CONFLICT (file) DO UPDATE SET off = excluded.off`, f, off); err != nil {
			return 0, 0, err
		}
	}
	return lines, bad, tx.Commit()
}

// StatusOf is a teammate's status after an event it fired: idle after
// TeammateIdle, SubagentStop or Stop, else active.
func StatusOf(event string) string {
	switch event {
	case "TeammateIdle", "SubagentStop", "Stop":
		return "idle"
	}
	return "active"
}

func taskOf(event, target string) string {
	if event == "TaskCompleted" {
		return target
	}
	return ""
}

// Cursor returns how far the store has read each journal file.
func (s *Store) Cursor(ctx context.Context) (journaltail.Cursor, error) { return readCursor(ctx, s.db) }

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func readCursor(ctx context.Context, q querier) (journaltail.Cursor, error) {
	rows, err := q.QueryContext(ctx, "SELECT file, off FROM cursor")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	c := journaltail.Cursor{}
	for rows.Next() {
		var f string
		var off int64
		if err := rows.Scan(&f, &off); err != nil {
			return nil, err
		}
		c[f] = off
	}
	return c, rows.Err()
}

func oneLine(s string) string {
	if len(s) > 200 {
		s = s[:200]
	}
	b := []byte(s)
	for i, c := range b {
		if c == '\n' || c == '\r' {
			b[i] = ' '
		}
	}
	return string(b)
}

// micros turns a time into the store's unix microseconds; zero stays 0.
func micros(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

// execAll runs stmt for each args row in tx.
func execAll(ctx context.Context, tx *sql.Tx, stmt string, rows [][]any) error {
	for _, r := range rows {
		if _, err := tx.ExecContext(ctx, stmt, r...); err != nil {
			return fmt.Errorf("%.40s: %w", stmt, err)
		}
	}
	return nil
}
