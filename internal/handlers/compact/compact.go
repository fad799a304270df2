// Package compact keeps the model oriented across a compaction.
//
// At PreCompact, [Saver] writes a snapshot of where the session stands to
// .hookwright/compact/<session_id>.json:
//
//	{"session_id": "...", "taken": "...", "trigger": "manual",
//	 "work": ["parser"], "team": "core", "teammate": "alice",
//	 "features": [{"name": "login", "phase": "Do", "next": "Check"}],
//	 "scratchpad": ".claude/scratchpad/coordinator/2026-03-01.md",
//	 "tasks": [{"id": "3", "subject": "...", "status": "in_progress", "owner": "alice"}]}
//
// that is: the session's active work units (package work), each feature
// whose PDCA phase is not yet Report with its next step (package pdca), the
// team and teammate (CLAUDE_CODE_TEAM_NAME, CLAUDE_CODE_AGENT_NAME), today's
// scratchpad path, and the open tasks of the session's task list.
//
// At SessionStart with source "compact", [Briefer] reads that snapshot and
// injects a short briefing (at most [MaxBriefing] bytes) as
// additionalContext, so the model's next request carries it.
//
// Bounds: at most [MaxWork] work units, [MaxFeatures] features (the most
// recently advanced) and [MaxTasks] open tasks are kept, every text is cut
// to [MaxText] bytes, a snapshot file is read only up to [MaxFile] bytes,
// and the folder keeps the newest compact.keep snapshots (default 20).
// Session ids pass safepath.Name before they become file names. Errors fail
// open: a compaction is never held up by its snapshot.
package compact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/atomicfile"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/tasklist"
	"github.com/hookwright/hookwright/internal/state/pdca"
	"github.com/hookwright/hookwright/internal/state/work"
)

// Dir is the snapshot folder, relative to the project.
const Dir = config.Dir + "/compact"

// Bounds of a snapshot and of the briefing.
const (
	MaxWork     = 5
	MaxFeatures = 10
	MaxTasks    = 15
	MaxText     = 120
	MaxFile     = 64 << 10
	MaxBriefing = 2000
)

// Snapshot is what a session looked like just before a compaction.
type Snapshot struct {
	SessionID  string    `json:"session_id"`
	Taken      time.Time `json:"taken"`
	Trigger    string    `json:"trigger,omitempty"`
	Work       []string  `json:"work,omitempty"`
	Team       string    `json:"team,omitempty"`
	Teammate   string    `json:"teammate,omitempty"`
	Features   []Feature `json:"features,omitempty"`
	Scratchpad string    `json:"scratchpad,omitempty"`
	Tasks      []Task    `json:"tasks,omitempty"`
}

// Feature is one feature in progress.
type Feature struct {
	Name  string `json:"name"`
	Phase string `json:"phase"`
	Next  string `json:"next,omitempty"`
}

// Task is one open task.
type Task struct {
	ID      string `json:"id"`
	Subject string `json:"subject"`
	Status  string `json:"status"`
	Owner   string `json:"owner,omitempty"`
}

// Saver is the PreCompact handler.
type Saver struct{ call call.Call }

// NewSaver returns the Saver of the hook call c: its project folder,
// environment, clock and config.
func NewSaver(c call.Call) Saver { return Saver{call: c} }

// Name names the handler in reports.
func (Saver) Name() string { return "compact-save" }

// Handle serves [Saver.PreCompact] and ignores every other event.
func (s Saver) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(s.PreCompact).Handle(ctx, in)
}

// PreCompact writes the snapshot.
func (s Saver) PreCompact(_ context.Context, ev *hooks.PreCompact) (hooks.Result, error) {
	if !s.call.Config().Compact.Enabled {
		return hooks.Result{}, nil
	}
	cfg := s.call.Effective() // the scratchpad and PDCA only where they run
	dir := s.call.Root()
	path, err := File(dir, ev.SessionID)
	if err != nil {
		return hooks.Result{}, err
	}
	snap := Take(cfg, dir, ev, s.call.Getenv, s.call.Now())
	snap.Trigger = cut(ev.Trigger)
	data, err := json.MarshalIndent(snap, "", "  ")
	if err != nil {
		return hooks.Result{}, err
	}
	if err := safepath.MkdirAllIn(dir, Dir, 0o755); err != nil {
		return hooks.Result{}, err
	}
	if err := atomicfile.Write(path, append(data, '\n')); err != nil {
		return hooks.Result{}, err
	}
	return hooks.Result{}, prune(filepath.Dir(path), cfg.Compact.Keep)
}

// Take gathers the snapshot of the session in for the project at dir. What
// cannot be read is left out.
func Take(cfg config.Config, dir string, in hooks.Input, getenv func(string) string, now time.Time) Snapshot {
	base := in.Base()
	snap := Snapshot{SessionID: base.SessionID, Taken: now.UTC()}
	if st, err := work.Load(dir); err == nil {
		for _, u := range st.Active(base.SessionID) {
			if len(snap.Work) == MaxWork {
				break
			}
			name := u.Name
			if u.TaskID != "" {
				name += " (task #" + u.TaskID + ")"
			}
			snap.Work = append(snap.Work, cut(name))
		}
	}
	snap.Team, snap.Teammate = cut(getenv("CLAUDE_CODE_TEAM_NAME")), cut(getenv("CLAUDE_CODE_AGENT_NAME"))
	if cfg.PDCA.Enabled {
		if p, err := project.Path(dir, cfg.PDCA.State); err == nil {
			if st, err := pdca.LoadPath(p); err == nil {
				snap.Features = features(st)
			}
		}
	}
	if cfg.Scratchpad.Enabled {
		agent := base.AgentType
		if agent == "" {
			agent = cfg.Scratchpad.Coordinator
		}
		if safepath.Name("agent", agent) == nil {
			snap.Scratchpad = cut(filepath.ToSlash(filepath.Join(cfg.Scratchpad.Dir, agent, now.Format(time.DateOnly)+".md")))
		}
	}
	if cfgDir := tasklist.ConfigDir(getenv); cfgDir != "" {
		for _, list := range tasklist.ListIDs(getenv, snap.Team, base.SessionID) {
			tasks, err := tasklist.List(tasklist.Dir(cfgDir, list))
			if err != nil || len(tasks) == 0 {
				continue
			}
			for _, t := range tasks {
				if t.Status == tasklist.Completed || len(snap.Tasks) == MaxTasks {
					continue
				}
				snap.Tasks = append(snap.Tasks, Task{ID: cut(t.ID), Subject: cut(t.Subject), Status: cut(t.Status), Owner: cut(t.Owner)})
			}
			break
		}
	}
	return snap
}

// features lists the features not yet reported, the most recently
// advanced first.
func features(st pdca.State) []Feature {
	names := make([]string, 0, len(st.Features))
	for n, f := range st.Features {
		if f != nil && f.Phase != pdca.Report {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := st.Features[names[i]], st.Features[names[j]]
		if !a.Updated.Equal(b.Updated) {
			return a.Updated.After(b.Updated)
		}
		return names[i] < names[j]
	})
	var out []Feature
	for _, n := range names {
		if len(out) == MaxFeatures {
			break
		}
		f := st.Features[n]
		out = append(out, Feature{Name: cut(n), Phase: cut(f.Phase), Next: pdca.Next(f.Phase)})
	}
	return out
}

// Briefer is the SessionStart handler; it speaks only after a compaction.
type Briefer struct{ call call.Call }

// NewBriefer returns the Briefer of the hook call c.
func NewBriefer(c call.Call) Briefer { return Briefer{call: c} }

// Name names the handler in reports.
func (Briefer) Name() string { return "compact-brief" }

// Handle serves [Briefer.SessionStart] and ignores every other event.
func (b Briefer) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(b.SessionStart).Handle(ctx, in)
}

// SessionStart injects the briefing on SessionStart with source "compact".
func (b Briefer) SessionStart(_ context.Context, ev *hooks.SessionStart) (hooks.Result, error) {
	if ev.Source != "compact" || !b.call.Config().Compact.Enabled {
		return hooks.Result{}, nil
	}
	snap, ok, err := Load(b.call.Root(), ev.SessionID)
	if err != nil || !ok {
		return hooks.Result{}, err
	}
	return hooks.Context(Briefing(snap)), nil
}

// Briefing is the text the model reads after a compaction, at most
// MaxBriefing bytes.
func Briefing(s Snapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "hookwright: this conversation was just compacted. Where the work stood before it (%s):\n", s.Taken.Format(time.RFC3339))
	if len(s.Work) > 0 {
		fmt.Fprintf(&b, "- Active work unit: %s\n", strings.Join(s.Work, ", "))
	} else {
		b.WriteString("- No active work unit.\n")
	}
	if s.Team != "" {
		fmt.Fprintf(&b, "- Team %q", s.Team)
		if s.Teammate != "" {
			fmt.Fprintf(&b, ", you are teammate %q", s.Teammate)
		}
		b.WriteString("\n")
	}
	for _, f := range s.Features {
		fmt.Fprintf(&b, "- PDCA %s: phase %s", f.Name, f.Phase)
		if f.Next != "" {
			fmt.Fprintf(&b, ", next step %s", f.Next)
		}
		b.WriteString("\n")
	}
	if s.Scratchpad != "" {
		fmt.Fprintf(&b, "- Today's scratchpad: %s\n", s.Scratchpad)
	}
	if len(s.Tasks) > 0 {
		b.WriteString("- Open tasks:\n")
		for _, t := range s.Tasks {
			line := fmt.Sprintf("  #%s [%s", t.ID, t.Status)
			if t.Owner != "" {
				line += ", " + t.Owner
			}
			line += "] " + t.Subject + "\n"
			if b.Len()+len(line) > MaxBriefing-40 {
				b.WriteString("  (more in TaskList)\n")
				break
			}
			b.WriteString(line)
		}
	}
	out := strings.TrimRight(b.String(), "\n")
	if len(out) > MaxBriefing {
		out = cutBytes(out, MaxBriefing)
	}
	return out
}

// File returns the snapshot path of session in the project at dir.
func File(dir, session string) (string, error) {
	if err := safepath.Name("session id", session); err != nil {
		return "", err
	}
	folder, err := project.Path(dir, Dir)
	if err != nil {
		return "", err
	}
	path := folder.Join(session + ".json").String()
	if err := safepath.Within(dir, path); err != nil { // atomicfile writes by name
		return "", err
	}
	return path, nil
}

// Load reads the snapshot of session; ok is false when there is none.
func Load(dir, session string) (s Snapshot, ok bool, err error) {
	path, err := File(dir, session)
	if err != nil {
		return s, false, err
	}
	f, _, err := safepath.Open(safepath.At(path)) // without blocking: a FIFO here is refused
	if errors.Is(err, os.ErrNotExist) {
		return s, false, nil
	}
	if err != nil {
		return s, false, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return s, false, fmt.Errorf("snapshot %s is not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return s, false, err
	}
	if len(data) > MaxFile {
		return s, false, fmt.Errorf("snapshot %s is over %d bytes", path, MaxFile)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, false, fmt.Errorf("snapshot %s: %w", path, err)
	}
	return s, true, nil
}

// prune removes all but the newest keep snapshots in folder.
func prune(folder string, keep int) error {
	entries, err := os.ReadDir(folder)
	if err != nil {
		return err
	}
	type snap struct {
		name string
		at   time.Time
	}
	var all []snap
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if info, err := e.Info(); err == nil {
			all = append(all, snap{e.Name(), info.ModTime()})
		}
	}
	if len(all) <= keep {
		return nil
	}
	sort.Slice(all, func(i, j int) bool {
		if !all[i].at.Equal(all[j].at) {
			return all[i].at.After(all[j].at)
		}
		return all[i].name > all[j].name
	})
	var errs []error
	for _, s := range all[keep:] {
		if err := os.Remove(filepath.Join(folder, s.name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// cut keeps the first line of s, at most MaxText bytes.
func cut(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return cutBytes(strings.TrimSpace(s), MaxText)
}

func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
