// Package store keeps a project's hook journal in SQLite, at
// .hookwright/hookwright.db, for hwctl's queries and its web dashboard.
// The journal stays the source of truth: the store only ever adds what the
// journal says (plus snapshots of the session, PDCA, work and team files),
// remembers how far it read each journal file in the same transaction as
// the rows, and can be deleted and rebuilt from the journal at any time.
// The hook runtime never links this package.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the pure Go SQLite driver "sqlite"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// File is the database, relative to the project.
const File = config.Dir + "/hookwright.db"

// migrations brings the schema from version i to i+1; PRAGMA user_version
// holds the version reached. Append, never edit.
var migrations = []string{
	`CREATE TABLE events (
		id       INTEGER PRIMARY KEY,
		file     TEXT    NOT NULL,          -- journal file base name
		off      INTEGER NOT NULL,          -- byte offset of the line in it
		ts       INTEGER NOT NULL,          -- unix microseconds, UTC; 0 when bad
		session  TEXT NOT NULL DEFAULT '',
		event    TEXT NOT NULL DEFAULT '',
		via      TEXT NOT NULL DEFAULT '',
		target   TEXT NOT NULL DEFAULT '',
		tool     TEXT NOT NULL DEFAULT '',
		agent    TEXT NOT NULL DEFAULT '',
		team     TEXT NOT NULL DEFAULT '',
		band     TEXT NOT NULL DEFAULT '',
		decision TEXT NOT NULL DEFAULT '',
		reason   TEXT NOT NULL DEFAULT '',
		handler  TEXT NOT NULL DEFAULT '',
		exit     INTEGER NOT NULL DEFAULT 0,
		us       INTEGER NOT NULL DEFAULT 0,
		tool_ms  INTEGER NOT NULL DEFAULT 0,
		outcome  TEXT NOT NULL DEFAULT '',
		error    TEXT NOT NULL DEFAULT '',
		faults   TEXT NOT NULL DEFAULT '',  -- JSON array, or ''
		bad      TEXT NOT NULL DEFAULT '',  -- why the line did not parse, or ''
		UNIQUE (file, off)
	);
	CREATE INDEX events_session  ON events (session, id);
	CREATE INDEX events_event    ON events (event, id);
	CREATE INDEX events_decision ON events (decision, id) WHERE decision <> '';
	CREATE INDEX events_tool     ON events (tool, id) WHERE tool <> '';
	CREATE INDEX events_agent    ON events (agent, id) WHERE agent <> '';
	CREATE INDEX events_ts       ON events (ts);
	CREATE TABLE counts (
		event    TEXT NOT NULL,
		decision TEXT NOT NULL,
		n        INTEGER NOT NULL,
		PRIMARY KEY (event, decision)
	);
	CREATE TABLE cursor (
		file TEXT PRIMARY KEY,
		off  INTEGER NOT NULL
	);
	CREATE TABLE sessions (
		id                 TEXT PRIMARY KEY,
		first_seen         INTEGER NOT NULL DEFAULT 0,
		last_seen          INTEGER NOT NULL DEFAULT 0,
		calls              INTEGER NOT NULL DEFAULT 0,
		blocks             INTEGER NOT NULL DEFAULT 0,
		started            INTEGER NOT NULL DEFAULT 0,
		ended              INTEGER NOT NULL DEFAULT 0,
		end_reason         TEXT NOT NULL DEFAULT '',
		source             TEXT NOT NULL DEFAULT '',
		cwd                TEXT NOT NULL DEFAULT '',
		model              TEXT NOT NULL DEFAULT '',
		claude_version     TEXT NOT NULL DEFAULT '',
		git_head           TEXT NOT NULL DEFAULT '',
		git_branch         TEXT NOT NULL DEFAULT '',
		hookwright_version TEXT NOT NULL DEFAULT '',
		ppid               INTEGER NOT NULL DEFAULT 0,
		terminal           TEXT NOT NULL DEFAULT ''
	);
	CREATE INDEX sessions_last ON sessions (last_seen);
	CREATE TABLE teammates (
		team       TEXT NOT NULL,
		agent      TEXT NOT NULL,
		status     TEXT NOT NULL,           -- active or idle (a team file may say more)
		last_event TEXT NOT NULL DEFAULT '',
		last_seen  INTEGER NOT NULL DEFAULT 0,
		task       TEXT NOT NULL DEFAULT '',
		PRIMARY KEY (team, agent)
	);
	CREATE TABLE pdca (
		feature   TEXT PRIMARY KEY,
		phase     TEXT NOT NULL,
		iteration INTEGER NOT NULL,
		tasks     INTEGER NOT NULL,
		updated   INTEGER NOT NULL,
		next      TEXT NOT NULL,
		history   TEXT NOT NULL              -- JSON array of steps
	);
	CREATE TABLE work_units (
		kind    TEXT NOT NULL,               -- manual or task
		name    TEXT NOT NULL,
		session TEXT NOT NULL DEFAULT '',
		task_id TEXT NOT NULL DEFAULT '',
		started INTEGER NOT NULL,
		PRIMARY KEY (kind, name, session, task_id)
	);`,
	// The store's identity: a rebuilt store gets a new one, so that a
	// client holding row ids of the old one (the dashboard's stream) knows
	// to start over.
	`CREATE TABLE meta (
		key   TEXT PRIMARY KEY,
		value TEXT NOT NULL
	);
	INSERT INTO meta (key, value) VALUES ('store_id', lower(hex(randomblob(16))));`,
	// What each tool call was about (the journal's subject, redacted).
	`ALTER TABLE events ADD COLUMN subject TEXT NOT NULL DEFAULT '';`,
	// 4: each event's kind (journal.KindOf), derived for the rows stored
	// before lines carried it.
	`ALTER TABLE events ADD COLUMN kind TEXT NOT NULL DEFAULT '';
	UPDATE events SET kind = CASE
		WHEN decision = 'block' THEN 'block'
		WHEN decision = 'ask' THEN 'ask'
		WHEN event = 'SubagentStart' THEN 'agent_started'
		WHEN event = 'SubagentStop' OR via = 'SubagentStop' THEN 'agent_stopped'
		WHEN event = 'PreCompact' AND target = 'auto' THEN 'context_overflow'
		WHEN event = 'PreCompact' THEN 'checkpoint'
		ELSE '' END
	WHERE bad = '';
	CREATE INDEX events_kind ON events (kind, id) WHERE kind <> '';`,
	// 5: full-text search over what each call ran or touched (subject),
	// its target and its reason: an FTS5 index over the events table,
	// kept by triggers, filled from the rows stored before it.
	`CREATE VIRTUAL TABLE events_fts USING fts5(subject, target, reason, content='events', content_rowid='id');
	CREATE TRIGGER events_fts_insert AFTER INSERT ON events BEGIN
		INSERT INTO events_fts (rowid, subject, target, reason) VALUES (new.id, new.subject, new.target, new.reason);
	END;
	CREATE TRIGGER events_fts_delete AFTER DELETE ON events BEGIN
		INSERT INTO events_fts (events_fts, rowid, subject, target, reason) VALUES ('delete', old.id, old.subject, old.target, old.reason);
	END;
	CREATE TRIGGER events_fts_update AFTER UPDATE OF subject, target, reason ON events BEGIN
		INSERT INTO events_fts (events_fts, rowid, subject, target, reason) VALUES ('delete', old.id, old.subject, old.target, old.reason);
		INSERT INTO events_fts (rowid, subject, target, reason) VALUES (new.id, new.subject, new.target, new.reason);
	END;
	INSERT INTO events_fts (events_fts) VALUES ('rebuild');`,
	// 6: the handler (rule) filter, over the calls a handler decided.
	`CREATE INDEX events_handler ON events (handler, id) WHERE handler <> '';`,
	// 7: the time index covers what the charts read (calls, blocks and
	// hook time per event and session), so that they never visit the rows.
	`DROP INDEX events_ts;
	CREATE INDEX events_ts ON events (ts, event, decision, us, bad, session);`,
	// 8: the rule that decided (the guard's rule id), its own field since
	// the journal carries it; the rows stored before get it from their
	// reason (backfillRules).
	`ALTER TABLE events ADD COLUMN rule TEXT NOT NULL DEFAULT '';
	CREATE INDEX events_rule ON events (rule, id) WHERE rule <> '';`,
}

// afterMigration is Go work a migration does in its transaction, by the
// schema version it reaches.
var afterMigration = map[int]func(context.Context, *sql.Tx) error{8: backfillRules}

// backfillRules gives the guard's rows stored before migration 8 the rule
// their reason names (journal.RuleOf, as ingest does for old lines).
func backfillRules(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, "SELECT id, reason FROM events WHERE handler = 'guard' AND rule = '' AND instr(reason, '(rule ') > 0")
	if err != nil {
		return err
	}
	type fix struct {
		id   int64
		rule string
	}
	var fixes []fix
	for rows.Next() {
		var f fix
		var reason string
		if err := rows.Scan(&f.id, &reason); err != nil {
			rows.Close()
			return err
		}
		if f.rule = journal.RuleInReason(reason); f.rule != "" {
			fixes = append(fixes, f)
		}
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	for _, f := range fixes {
		if _, err := tx.ExecContext(ctx, "UPDATE events SET rule = ? WHERE id = ?", f.rule, f.id); err != nil {
			return err
		}
	}
	return nil
}

// SchemaVersion is the schema version this build writes.
var SchemaVersion = len(migrations)

// Store is an open project database. Its methods are safe for concurrent
// use; writes are serialised.
type Store struct {
	db      *sql.DB
	project string
	path    string
	id      string // meta.store_id

	mu     sync.Mutex // one ingest at a time in this process
	stamp  map[string]string
	synced time.Time // when the state files were last looked at
}

// Open opens (creating it if needed) the project's database and brings its
// schema up to date. A database newer than this build, or one that is not
// a database, is an error that says to rebuild.
func Open(ctx context.Context, project string) (*Store, error) {
	if info, err := os.Stat(project); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("store: project folder %s: not found", project)
	}
	path := filepath.Join(project, File)
	if err := safepath.Within(project, filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("store: %w", err) // a .hookwright symlinked out of the project
	}
	if err := safepath.MkdirAllIn(project, config.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// SQLite opens these by name and would follow a planted link, or
	// wait on a FIFO: each must be missing or a plain regular file.
	for _, rel := range []string{File, File + "-wal", File + "-shm", File + "-journal"} {
		if err := safepath.Plain(project, rel); err != nil {
			return nil, fmt.Errorf("store: %w; remove it (hwctl ingest --rebuild then rebuilds the store from the journal)", err)
		}
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "cache_size(-32768)") // 32 MiB: the indexes of a big ingest stay in memory
	q.Add("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	s := &Store{db: db, project: project, path: path, stamp: map[string]string{}}
	err = s.migrate(ctx)
	if err == nil {
		err = db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'store_id'").Scan(&s.id)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %w (hwctl ingest --rebuild rebuilds it from the journal)", path, err)
	}
	return s, nil
}

// ID is the store's identity, random at creation: a store rebuilt from
// the journal has a new one (and new row ids).
func (s *Store) ID() string { return s.id }

// Path is the database file.
func (s *Store) Path() string { return s.path }

// DB is the database handle, for callers with their own queries.
func (s *Store) DB() *sql.DB { return s.db }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) migrate(ctx context.Context) error {
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this hwctl's %d", v, len(migrations))
	}
	for ; v < len(migrations); v++ {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		// Another process may have migrated meanwhile: re-check inside
		// the write lock.
		var now int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&now); err != nil {
			tx.Rollback()
			return err
		}
		if now > v {
			tx.Rollback()
			v = now - 1
			continue
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %d: %w", v+1, err)
		}
		if fn := afterMigration[v+1]; fn != nil {
			if err := fn(ctx, tx); err != nil {
				tx.Rollback()
				return fmt.Errorf("migration %d: %w", v+1, err)
			}
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// Remove deletes the project's database with its WAL files, for a rebuild.
// A missing database is no error.
func Remove(project string) error {
	path := filepath.Join(project, File)
	var errs []error
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
