package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hookwright/hookwright/internal/journaltail"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// MaxLimit caps one page of any query.
const MaxLimit = 1000

// smallRange is the number of events below which a time-bounded query
// reads the time range through its index and sorts it.
const smallRange = 2000

// Filter selects events; zero fields select everything.
type Filter struct {
	Session, Event, Decision string
	// Kind matches the event's kind (journal.Kinds).
	Kind string
	// Tool and Agent match the tool name and the agent/teammate; Handler
	// the handler that decided the call ("guard", "work-gate"), Rule the
	// rule of it that did ("git-force-push", journal.RuleOf).
	Tool, Agent, Handler, Rule string
	// Since keeps events at or after this time, Until those before it.
	Since, Until time.Time
	// Search keeps events whose subject (the command, path or URL), target
	// or reason holds every word of it, each as a word or the start of one
	// (full-text, any letter case). Only letters and digits count: a search
	// with none matches nothing.
	Search string
	// Before keeps ids below it (the next page going back); After keeps
	// ids above it and returns them oldest first (following).
	Before, After int64
	// Limit is the page size: 0 means 100, at most MaxLimit.
	Limit int
}

// Event is one stored journal line: the journal's own entry, with its
// row id and line id.
type Event struct {
	ID int64 `json:"id"`
	// Line is the journal line's id, "<file>:<offset>"; it survives a
	// rebuild of the store.
	Line string `json:"line"`
	journal.Entry
	// Bad says why the journal line did not parse; the entry's fields are
	// then empty.
	Bad string `json:"bad,omitempty"`
}

const eventCols = `id, file, off, ts, session, event, via, target, tool, agent, team, band, decision, reason, handler,
	exit, us, tool_ms, outcome, error, faults, bad, subject, kind, rule`

// qualified is eventCols, each prefixed (with "events.").
func qualified(prefix string) string {
	cols := strings.Split(eventCols, ",")
	for i, c := range cols {
		cols[i] = prefix + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

// Events returns one page of events matching f: newest first, or oldest
// first after f.After.
func (s *Store) Events(ctx context.Context, f Filter) ([]Event, error) {
	var where []string
	var args []any
	add := func(cond string, v any) { where = append(where, cond); args = append(args, v) }
	// One index serves the query: the first filter in this order, the
	// most selective first; a unary "+" keeps SQLite from walking a
	// less selective one instead. "<> ''" lets it use a partial index.
	indexed := false
	for _, c := range []struct{ col, v string }{{"session", f.Session}, {"agent", f.Agent}, {"rule", f.Rule}, {"handler", f.Handler}, {"kind", f.Kind}, {"decision", f.Decision}, {"tool", f.Tool}, {"event", f.Event}} {
		if c.v == "" {
			continue
		}
		if c.col == "decision" && c.v == "none" {
			continue // below: no index holds the calls without a decision
		}
		if indexed {
			add("+"+c.col+" = ?", c.v)
		} else {
			add(c.col+" = ? AND "+c.col+" <> ''", c.v)
			indexed = true
		}
	}
	if f.Decision == "none" {
		add("+decision = ?", "")
	}
	if !f.Since.IsZero() {
		add("ts >= ?", f.Since.UnixMicro())
	}
	if !f.Until.IsZero() {
		add("ts < ?", f.Until.UnixMicro())
	}
	// With a search the id bounds go to the full-text index, which
	// then starts its walk at them.
	idCol := "id"
	if f.Search != "" {
		idCol = "events_fts.rowid"
	}
	if f.Before > 0 {
		add(idCol+" < ?", f.Before)
	}
	order := "DESC"
	if f.After > 0 || f.After < 0 {
		add(idCol+" > ?", max(f.After, 0))
		order = "ASC"
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	limit = min(limit, MaxLimit)
	from := " FROM events"
	if !f.Since.IsZero() && !indexed && f.Search == "" {
		// Only a time bound: walking ids from the newest stops early when
		// the range is large, but reads every row when it is small or
		// empty. The ts index tells which, in one seek.
		var first, last int64
		err := s.db.QueryRowContext(ctx, `SELECT id, (SELECT max(id) FROM events) FROM events WHERE ts >= ? ORDER BY ts LIMIT 1`,
			f.Since.UnixMicro()).Scan(&first, &last)
		if errors.Is(err, sql.ErrNoRows) {
			return []Event{}, nil // nothing at or after since
		}
		if err != nil {
			return nil, err
		}
		if last-first < smallRange {
			from = " FROM events INDEXED BY events_ts"
		}
	}
	cols, orderBy := eventCols, "id"
	if f.Search != "" {
		match, ok := ftsQuery(f.Search)
		if !ok {
			return []Event{}, nil // no word to look for
		}
		// The index walks its matches from the newest (or after f.After)
		// and stops at the page's end; each is looked up by id.
		cols, orderBy = qualified("events."), idCol
		from = " FROM events_fts CROSS JOIN events ON events.id = events_fts.rowid"
		where = append([]string{"events_fts MATCH ?"}, where...)
		args = append([]any{match}, args...)
	}
	q := "SELECT " + cols + from
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += fmt.Sprintf(" ORDER BY %s %s LIMIT %d", orderBy, order, limit)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Event{}
	for rows.Next() {
		var e Event
		var file, faults string
		var off, ts int64
		if err := rows.Scan(&e.ID, &file, &off, &ts, &e.Session, &e.Event, &e.Via, &e.Target, &e.Tool, &e.Agent, &e.Team, &e.Band,
			&e.Decision, &e.Reason, &e.Handler, &e.Exit, &e.Micros, &e.ToolMillis, &e.Outcome, &e.Error, &faults, &e.Bad, &e.Subject, &e.Kind, &e.Rule); err != nil {
			return nil, err
		}
		e.Line = journaltail.Line{File: file, Offset: off}.ID()
		if ts != 0 {
			e.Time = time.UnixMicro(ts).UTC()
		}
		if faults != "" {
			json.Unmarshal([]byte(faults), &e.Faults)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// ErrUnknownLine is returned by IDOfLine for a line the store does not
// hold.
var ErrUnknownLine = errors.New("no such journal line in the store")

// IDOfLine returns the event id of a journal line id ("<file>:<offset>").
func (s *Store) IDOfLine(ctx context.Context, line string) (int64, error) {
	file, off, err := journaltail.ParseID(line)
	if err != nil {
		return 0, err
	}
	var id int64
	err = s.db.QueryRowContext(ctx, "SELECT id FROM events WHERE file = ? AND off = ?", file, off).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("%w: %s", ErrUnknownLine, line)
	}
	return id, nil
}

// Session is one session: its fingerprint (from the session file) and
// what the journal says of it.
type Session struct {
	ID                string    `json:"id"`
	FirstSeen         time.Time `json:"first_seen,omitzero"`
	LastSeen          time.Time `json:"last_seen,omitzero"`
	Calls             int64     `json:"calls"`
	Blocks            int64     `json:"blocks"`
	Started           time.Time `json:"started,omitzero"`
	Ended             time.Time `json:"ended,omitzero"`
	EndReason         string    `json:"end_reason,omitempty"`
	Source            string    `json:"source,omitempty"`
	Cwd               string    `json:"cwd,omitempty"`
	Model             string    `json:"model,omitempty"`
	ClaudeVersion     string    `json:"claude_version,omitempty"`
	GitHead           string    `json:"git_head,omitempty"`
	GitBranch         string    `json:"git_branch,omitempty"`
	HookwrightVersion string    `json:"hookwright_version,omitempty"`
	PPID              int64     `json:"ppid,omitempty"`
	Terminal          string    `json:"terminal,omitempty"`
}

func toTime(us int64) time.Time {
	if us == 0 {
		return time.Time{}
	}
	return time.UnixMicro(us).UTC()
}

// Sessions returns up to limit sessions (0: 100), most recently active
// first; since keeps those active at or after it.
func (s *Store) Sessions(ctx context.Context, since time.Time, limit int) ([]Session, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, first_seen, last_seen, calls, blocks, started, ended, end_reason, source, cwd,
		model, claude_version, git_head, git_branch, hookwright_version, ppid, terminal FROM sessions
		WHERE max(last_seen, started) >= ? ORDER BY max(last_seen, started) DESC LIMIT ?`, micros(since), min(limit, MaxLimit))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Session{}
	for rows.Next() {
		var x Session
		var first, last, started, ended int64
		if err := rows.Scan(&x.ID, &first, &last, &x.Calls, &x.Blocks, &started, &ended, &x.EndReason, &x.Source, &x.Cwd, &x.Model,
			&x.ClaudeVersion, &x.GitHead, &x.GitBranch, &x.HookwrightVersion, &x.PPID, &x.Terminal); err != nil {
			return nil, err
		}
		x.FirstSeen, x.LastSeen, x.Started, x.Ended = toTime(first), toTime(last), toTime(started), toTime(ended)
		out = append(out, x)
	}
	return out, rows.Err()
}

// Teammate is one agent's last known status.
type Teammate struct {
	Team      string    `json:"team"`
	Agent     string    `json:"agent"`
	Status    string    `json:"status"`
	LastEvent string    `json:"last_event,omitempty"`
	LastSeen  time.Time `json:"last_seen,omitzero"`
	Task      string    `json:"task,omitempty"`
}

// Teammates returns every known teammate and subagent, by team and name.
func (s *Store) Teammates(ctx context.Context) ([]Teammate, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT team, agent, status, last_event, last_seen, task FROM teammates ORDER BY team, agent LIMIT ?`, MaxLimit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Teammate{}
	for rows.Next() {
		var m Teammate
		var seen int64
		if err := rows.Scan(&m.Team, &m.Agent, &m.Status, &m.LastEvent, &seen, &m.Task); err != nil {
			return nil, err
		}
		m.LastSeen = toTime(seen)
		out = append(out, m)
	}
	return out, rows.Err()
}

// Feature is one feature's PDCA state.
type Feature struct {
	Feature   string          `json:"feature"`
	Phase     string          `json:"phase"`
	Iteration int             `json:"iteration"`
	Tasks     int             `json:"tasks"`
	Updated   time.Time       `json:"updated,omitzero"`
	Next      string          `json:"next,omitempty"`
	History   json.RawMessage `json:"history"`
}

// PDCA returns every feature's PDCA state, by name.
func (s *Store) PDCA(ctx context.Context) ([]Feature, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT feature, phase, iteration, tasks, updated, next, history FROM pdca ORDER BY feature LIMIT ?`, MaxLimit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Feature{}
	for rows.Next() {
		var f Feature
		var upd int64
		var hist string
		if err := rows.Scan(&f.Feature, &f.Phase, &f.Iteration, &f.Tasks, &upd, &f.Next, &hist); err != nil {
			return nil, err
		}
		f.Updated, f.History = toTime(upd), json.RawMessage(hist)
		out = append(out, f)
	}
	return out, rows.Err()
}

// WorkUnit is one active work unit.
type WorkUnit struct {
	Kind    string    `json:"kind"`
	Name    string    `json:"name"`
	Session string    `json:"session,omitempty"`
	TaskID  string    `json:"task_id,omitempty"`
	Started time.Time `json:"started,omitzero"`
}

// Work returns the active work units, oldest first.
func (s *Store) Work(ctx context.Context) ([]WorkUnit, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT kind, name, session, task_id, started FROM work_units ORDER BY started LIMIT ?`, MaxLimit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []WorkUnit{}
	for rows.Next() {
		var u WorkUnit
		var st int64
		if err := rows.Scan(&u.Kind, &u.Name, &u.Session, &u.TaskID, &st); err != nil {
			return nil, err
		}
		u.Started = toTime(st)
		out = append(out, u)
	}
	return out, rows.Err()
}

// Count is how many events match each (event, decision) pair.
type Count struct {
	Event    string `json:"event"`
	Decision string `json:"decision"`
	N        int64  `json:"n"`
}

// Counts returns the number of events per event and decision (a bad
// line counts under the empty event), kept by ingest.
func (s *Store) Counts(ctx context.Context) ([]Count, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT event, decision, n FROM counts ORDER BY event, decision`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Count{}
	for rows.Next() {
		var c Count
		if err := rows.Scan(&c.Event, &c.Decision, &c.N); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
