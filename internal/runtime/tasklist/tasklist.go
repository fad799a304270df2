// Package tasklist reads the task list Claude Code keeps on disk for its
// Task tools (TaskCreate, TaskUpdate, TaskList, TaskGet; 2.1.16+).
//
// Observed on 2.1.32 and 2.1.33, and read from their source: each task is
// one file
//
//	<config>/tasks/<list>/<id>.json
//	{"id":"1","subject":"...","description":"...","activeForm":"...",
//	 "owner":"...","status":"pending|in_progress|completed",
//	 "blocks":[],"blockedBy":[],"metadata":{}}
//
// where <config> is $CLAUDE_CONFIG_DIR or ~/.claude, and <list> is
// $CLAUDE_CODE_TASK_LIST_ID, else the team name in a team session, else the
// session id. Claude Code replaces every character outside [A-Za-z0-9_-]
// with "-" in both the list and the id before using them as names; so does
// this package. Ids are small decimal numbers given out in order.
//
// Reads are bounded: at most [MaxTasks] files per list and [MaxTaskSize]
// bytes per file. Missing folders and files are not errors: they are an
// empty list.
package tasklist

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// Bounds on what is read.
const (
	MaxTasks    = 2000
	MaxTaskSize = 256 << 10
)

// Statuses a task can have.
const (
	Pending    = "pending"
	InProgress = "in_progress"
	Completed  = "completed"
)

// Task is one task file.
type Task struct {
	ID          string   `json:"id"`
	Subject     string   `json:"subject"`
	Description string   `json:"description"`
	ActiveForm  string   `json:"activeForm,omitempty"`
	Owner       string   `json:"owner,omitempty"`
	Status      string   `json:"status"`
	Blocks      []string `json:"blocks"`
	BlockedBy   []string `json:"blockedBy"`
}

// Env is what locating a list needs from the environment: main's getenv
// (see project.Env).
type Env func(string) string

// ConfigDir is $CLAUDE_CONFIG_DIR, else $HOME/.claude (%USERPROFILE% on
// Windows), else "" when neither is known.
func ConfigDir(getenv Env) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".claude")
	}
	if h := getenv("USERPROFILE"); h != "" {
		return filepath.Join(h, ".claude")
	}
	return ""
}

// ListID returns the list Claude Code uses: $CLAUDE_CODE_TASK_LIST_ID, else
// team, else session.
func ListID(getenv Env, team, session string) string {
	if id := getenv("CLAUDE_CODE_TASK_LIST_ID"); id != "" {
		return id
	}
	if team != "" {
		return team
	}
	return session
}

// ListIDs returns the lists a team member's task may be in, most likely
// first: [ListID] with the team, then the session's own list. Claude Code
// keeps a teammate's tasks under the team's list; where the team came from
// an override it does not read (CLAUDE_CODE_TEAM_NAME), it keeps them under
// the session's. Duplicates are dropped.
func ListIDs(getenv Env, team, session string) []string {
	first, second := ListID(getenv, team, session), ListID(getenv, "", session)
	if first == second {
		return []string{first}
	}
	return []string{first, second}
}

// Sanitize maps s the way Claude Code does before using it as a file name:
// every byte outside [A-Za-z0-9_-] becomes "-".
func Sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// Dir is the folder of list under config, confined to config: every read
// goes through package safepath (no symlink out, no FIFO, capped).
func Dir(config, list string) safepath.Path {
	return safepath.Path{Root: config, Rel: filepath.Join("tasks", Sanitize(list))}
}

// Get reads one task. A missing file returns ok=false and no error.
func Get(dir safepath.Path, id string) (t Task, ok bool, err error) {
	name := dir.Join(Sanitize(id) + ".json")
	data, err := safepath.ReadFile(name, MaxTaskSize)
	if errors.Is(err, fs.ErrNotExist) {
		return t, false, nil
	}
	if err != nil {
		return t, false, fmt.Errorf("task %w", err)
	}
	if err := json.Unmarshal(data, &t); err != nil {
		return t, false, fmt.Errorf("task %s: %w", name, err)
	}
	return t, true, nil
}

// List reads every task of dir, ordered by numeric id (ids that are not
// numbers sort last, by name). Files that do not parse are skipped.
func List(dir safepath.Path) ([]Task, error) {
	entries, err := safepath.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("task list %s: %w", dir, err)
	}
	var tasks []Task
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		if len(tasks) >= MaxTasks {
			break
		}
		t, ok, err := Get(dir, strings.TrimSuffix(name, ".json"))
		if err != nil || !ok {
			continue
		}
		tasks = append(tasks, t)
	}
	sort.SliceStable(tasks, func(i, j int) bool { return idLess(tasks[i].ID, tasks[j].ID) })
	return tasks, nil
}

func idLess(a, b string) bool {
	na, ea := strconv.Atoi(a)
	nb, eb := strconv.Atoi(b)
	switch {
	case ea == nil && eb == nil:
		return na < nb
	case ea == nil:
		return true
	case eb == nil:
		return false
	}
	return a < b
}

// Ready reports whether t can be started: pending, and every task it is
// blocked by is completed or gone.
func Ready(t Task, all []Task) bool {
	if t.Status != Pending {
		return false
	}
	status := make(map[string]string, len(all))
	for _, o := range all {
		status[o.ID] = o.Status
	}
	for _, b := range t.BlockedBy {
		if s, ok := status[b]; ok && s != Completed {
			return false
		}
	}
	return true
}
