package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
	"github.com/hookwright/hookwright/internal/state/pdca"
	"github.com/hookwright/hookwright/internal/state/session"
	"github.com/hookwright/hookwright/internal/state/work"
)

// TeamDir holds one status file per agent team, <team>.json.
const TeamDir = config.Dir + "/team"

// maxFiles caps how many session or team files one sync reads.
const maxFiles = 10000

// syncFiles refreshes the tables that mirror state files: session
// fingerprints, the PDCA state, work units and team files. A file is read
// again only when its size or modification time changed since the last
// sync in this process.
func (s *Store) syncFiles(ctx context.Context) error {
	root, err := os.OpenRoot(s.project)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer root.Close()
	return errors.Join(s.syncSessions(ctx, root), s.syncPDCA(ctx), s.syncWork(ctx), s.syncTeams(ctx, root))
}

// changed reports whether name's stamp differs from the last sync and
// records the new one.
func (s *Store) changed(key string, info fs.FileInfo) bool {
	stamp := ""
	if info != nil {
		stamp = fmt.Sprint(info.Size(), info.ModTime().UnixNano())
	}
	if s.stamp[key] == stamp {
		return false
	}
	s.stamp[key] = stamp
	return true
}

// readBounded reads a regular file inside root, at most statefile.MaxSize.
func readBounded(root *os.Root, name string) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, statefile.MaxSize+1))
	if err == nil && len(data) > statefile.MaxSize {
		err = fmt.Errorf("%s: larger than %d bytes", name, statefile.MaxSize)
	}
	return data, err
}

// jsonFiles lists the regular *.json files in dir under root, each with
// its info; a missing dir is empty.
func jsonFiles(root *os.Root, dir string) ([]fs.FileInfo, error) {
	f, err := root.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(maxFiles)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	var out []fs.FileInfo
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if info, err := e.Info(); err == nil {
			out = append(out, info)
		}
	}
	return out, nil
}

func (s *Store) syncSessions(ctx context.Context, root *os.Root) error {
	infos, err := sessionFiles(root)
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	changed := false
	for _, info := range infos {
		// Every file is stamped: one changed leaves the others' stamps.
		changed = s.changed(path.Join(session.Dir, info.Name()), info) || changed
	}
	if !changed {
		return nil
	}
	// A session's lines may be in several day files: fold them all.
	list, err := session.List(s.project, 0)
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	var rows [][]any
	for _, fp := range list {
		source := ""
		if n := len(fp.Starts); n > 0 {
			source = fp.Starts[n-1].Source
		}
		rows = append(rows, []any{fp.SessionID, micros(fp.Started), micros(fp.Ended), fp.EndReason, source, fp.Cwd, fp.Model,
			fp.ClaudeVersion, fp.GitHead, fp.GitBranch, fp.HookwrightVersion, fp.PPID, fp.Terminal})
	}
	if len(rows) == 0 {
		return nil
	}
	return s.write(ctx, func(tx txExec) error {
		return execAll(ctx, tx.Tx, `INSERT INTO sessions (id, started, ended, end_reason, source, cwd, model, claude_version,
			git_head, git_branch, hookwright_version, ppid, terminal) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)
			ON CONFLICT (id) DO UPDATE SET started = excluded.started, ended = excluded.ended, end_reason = excluded.end_reason,
			source = excluded.source, cwd = excluded.cwd, model = excluded.model, claude_version = excluded.claude_version,
			git_head = excluded.git_head, git_branch = excluded.git_branch, hookwright_version = excluded.hookwright_version,
			ppid = excluded.ppid, terminal = excluded.terminal`, rows)
	})
}

// sessionFiles lists the regular files of the sessions folder: the day
// files and earlier releases' per-session files (at most maxFiles entries
// are read).
func sessionFiles(root *os.Root) ([]fs.FileInfo, error) {
	f, err := root.Open(session.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(maxFiles)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	var out []fs.FileInfo
	for _, e := range ents {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if info, err := e.Info(); err == nil {
			out = append(out, info)
		}
	}
	return out, nil
}

func (s *Store) syncPDCA(ctx context.Context) error {
	cfg, _ := config.Load(s.project) // a bad config still has the default path
	name := filepath.Join(s.project, cfg.PDCA.State)
	info, _ := os.Stat(name)
	if !s.changed("pdca", info) {
		return nil
	}
	st, err := pdca.Load(name)
	if err != nil {
		return fmt.Errorf("pdca: %w", err)
	}
	var rows [][]any
	for feature, f := range st.Features {
		tasks := 0
		for _, n := range f.Done {
			tasks += n
		}
		hist, _ := json.Marshal(f.History)
		rows = append(rows, []any{feature, f.Phase, f.Iteration, tasks, micros(f.Updated), pdca.Next(f.Phase), string(hist)})
	}
	return s.write(ctx, func(tx txExec) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM pdca"); err != nil {
			return err
		}
		return execAll(ctx, tx.Tx, "INSERT INTO pdca (feature, phase, iteration, tasks, updated, next, history) VALUES (?,?,?,?,?,?,?)", rows)
	})
}

func (s *Store) syncWork(ctx context.Context) error {
	info, _ := os.Stat(filepath.Join(s.project, work.File))
	if !s.changed("work", info) {
		return nil
	}
	st, err := work.Load(s.project)
	if err != nil {
		return fmt.Errorf("work: %w", err)
	}
	var rows [][]any
	for _, u := range st.Manual {
		rows = append(rows, []any{"manual", u.Name, u.Session, u.TaskID, micros(u.Started)})
	}
	for _, u := range st.Tasks {
		rows = append(rows, []any{"task", u.Name, u.Session, u.TaskID, micros(u.Started)})
	}
	return s.write(ctx, func(tx txExec) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM work_units"); err != nil {
			return err
		}
		return execAll(ctx, tx.Tx, "INSERT OR REPLACE INTO work_units (kind, name, session, task_id, started) VALUES (?,?,?,?,?)", rows)
	})
}

// teamFile is read leniently: the teammates are a map by name or a list
// with a name each, under "teammates" or "members".
type teamFile struct {
	Team      string          `json:"team"`
	Teammates json.RawMessage `json:"teammates"`
	Members   json.RawMessage `json:"members"`
}

type mateFile struct {
	Name      string    `json:"name"`
	Status    string    `json:"status"`
	LastEvent string    `json:"last_event"`
	LastSeen  time.Time `json:"last_seen"`
	Task      string    `json:"task"`
	OpenTask  string    `json:"open_task"`
}

func parseTeam(data []byte) (string, []mateFile) {
	var tf teamFile
	if json.Unmarshal(data, &tf) != nil {
		return "", nil
	}
	raw := tf.Teammates
	if len(raw) == 0 {
		raw = tf.Members
	}
	var list []mateFile
	var byName map[string]mateFile
	if json.Unmarshal(raw, &byName) == nil {
		for n, m := range byName {
			if m.Name == "" {
				m.Name = n
			}
			list = append(list, m)
		}
	} else {
		json.Unmarshal(raw, &list)
	}
	return tf.Team, list
}

func (s *Store) syncTeams(ctx context.Context, root *os.Root) error {
	infos, err := jsonFiles(root, TeamDir)
	if err != nil {
		return fmt.Errorf("team: %w", err)
	}
	var rows [][]any
	for _, info := range infos {
		name := path.Join(TeamDir, info.Name())
		if !s.changed(name, info) {
			continue
		}
		data, err := readBounded(root, name)
		if err != nil {
			continue
		}
		team, mates := parseTeam(data)
		if team == "" {
			team = strings.TrimSuffix(info.Name(), ".json")
		}
		for _, m := range mates {
			if m.Name == "" || m.Status == "" {
				continue
			}
			task := m.Task
			if task == "" {
				task = m.OpenTask
			}
			rows = append(rows, []any{team, m.Name, m.Status, m.LastEvent, micros(m.LastSeen), task})
		}
	}
	if len(rows) == 0 {
		return nil
	}
	return s.write(ctx, func(tx txExec) error {
		return execAll(ctx, tx.Tx, `INSERT INTO teammates (team, agent, status, last_event, last_seen, task) VALUES (?,?,?,?,?,?)
			ON CONFLICT (team, agent) DO UPDATE SET status = excluded.status, last_event = excluded.last_event,
			last_seen = excluded.last_seen, task = excluded.task WHERE excluded.last_seen >= last_seen`, rows)
	})
}

// txExec is a transaction handed to a write function.
type txExec struct{ *sql.Tx }

// write runs fn in one transaction.
func (s *Store) write(ctx context.Context, fn func(txExec) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(txExec{tx}); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
