// Package statusline builds the one line hookwright shows in Claude Code's
// status bar (`hwctl statusline`, set as the statusLine command in a
// settings file).
//
// Claude Code runs a statusLine command with a JSON object on stdin that
// names the session (session_id), its folders (cwd, workspace.current_dir,
// workspace.project_dir), the model and more; the command's first line of
// stdout is the status line. [Read] takes the fields it needs from that
// object, [Collect] reads what hookwright knows of the session from the
// project's own files, never the database:
//
//   - the PDCA phase and the last task of the feature updated last
//     (.hookwright/pdca.json, or pdca.state);
//   - the session's open work units (.hookwright/work.json);
//   - the hook calls and blocks of the session, and the rule of its last
//     block, from the end of the journal (at most [TailBytes] of each of
//     the last two daily files; a count from a longer session is marked
//     with "+").
//
// Every file is read as the runtime reads them: inside the project,
// regular files only, without blocking, with a cap. [Status.Line] makes
// every string from those files terminal-safe: control characters (escape
// sequences among them), bidirectional overrides and invalid UTF-8 become
// '?', and each piece is cut to a few dozen characters.
package statusline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/state/pdca"
	"github.com/hookwright/hookwright/internal/state/work"
)

// MaxInput caps the JSON read from stdin.
const MaxInput = 1 << 20

// TailBytes is how much of the end of each journal file is read.
const TailBytes = 512 << 10

// Input is what the status line needs of Claude Code's statusLine JSON.
type Input struct {
	SessionID string `json:"session_id"`
	Cwd       string `json:"cwd"`
	Workspace struct {
		CurrentDir string `json:"current_dir"`
		ProjectDir string `json:"project_dir"`
	} `json:"workspace"`
}

// Read decodes the first JSON value of r (at most [MaxInput] bytes); it
// does not wait for the end of the stream.
func Read(r io.Reader) (Input, error) {
	var in Input
	dec := json.NewDecoder(io.LimitReader(r, MaxInput))
	if err := dec.Decode(&in); err != nil {
		return Input{}, fmt.Errorf("statusline input: %w", err)
	}
	return in, nil
}

// ProjectDir is the session's project folder: workspace.project_dir, else
// the nearest folder holding .hookwright/ upwards of workspace.current_dir
// or cwd by [project.Find]'s rule (no higher than the folder with .git,
// never into another user's folder), else fallback (the caller's
// $CLAUDE_PROJECT_DIR or "").
func (in Input) ProjectDir(fallback string) string {
	if d := in.Workspace.ProjectDir; d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	for _, start := range []string{in.Workspace.CurrentDir, in.Cwd} {
		if start == "" || !filepath.IsAbs(start) {
			continue
		}
		if found := project.Find(filepath.Clean(start)); found.Found {
			return found.Dir
		}
	}
	return fallback
}

// Status is what the line shows.
type Status struct {
	// Feature, Phase and Task: the PDCA feature updated last, its phase
	// and the subject of its last step.
	Feature, Phase, Task string
	// Units are the session's open work units.
	Units []string
	// Calls and Blocks count the session's hook calls and blocks in the
	// journal read; Partial says the journal was read only in part.
	Calls, Blocks int
	Partial       bool
	// LastBlock is the rule (or else the handler) of the last block.
	LastBlock string
}

// Collect reads the status of session in the project at dir; what cannot
// be read is left out.
func Collect(dir, session string, now time.Time) Status {
	var st Status
	if dir == "" {
		return st
	}
	cfg, _ := config.Load(dir)
	if p, err := project.Path(dir, cfg.PDCA.State); err == nil {
		if ps, err := pdca.LoadPath(p); err == nil {
			st.pdca(ps)
		}
	}
	if ws, err := work.Load(dir); err == nil && session != "" {
		for _, u := range ws.Active(session) {
			st.Units = append(st.Units, u.Name)
		}
	}
	if session != "" {
		st.journal(dir, session, now)
	}
	return st
}

func (st *Status) pdca(ps pdca.State) {
	names := make([]string, 0, len(ps.Features))
	for n := range ps.Features {
		names = append(names, n)
	}
	sort.Strings(names)
	var best *pdca.Feature
	for _, n := range names {
		f := ps.Features[n]
		if f != nil && (best == nil || f.Updated.After(best.Updated)) {
			best, st.Feature = f, n
		}
	}
	if best == nil {
		return
	}
	st.Phase = best.Phase
	if h := best.History; len(h) > 0 {
		st.Task = h[len(h)-1].Subject
	}
}

func (st *Status) journal(dir, session string, now time.Time) {
	needle, _ := json.Marshal(session)
	needle = append(append([]byte(`"session":`), needle...), ',')
	day := now.UTC().Truncate(24 * time.Hour)
	// Yesterday's file first, so the last block read is the latest.
	for _, d := range []time.Time{day.Add(-24 * time.Hour), day} {
		p, err := project.Path(dir, journal.Dir+"/"+d.Format("2006-01-02")+".jsonl")
		if err != nil {
			continue
		}
		data, err := safepath.ReadTail(p, TailBytes)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			st.Partial = true
			continue
		}
		if len(data) == TailBytes {
			st.Partial = true
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				data = data[i+1:]
			}
		}
		for len(data) > 0 {
			line := data
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				line, data = data[:i], data[i+1:]
			} else {
				data = nil
			}
			if !bytes.Contains(line, needle) {
				continue
			}
			var e journal.Entry
			if json.Unmarshal(line, &e) != nil || e.Session != session {
				continue
			}
			st.Calls++
			if e.Decision == "block" {
				st.Blocks++
				st.LastBlock = e.Handler
				if r := journal.RuleOf(e); r != "" {
					st.LastBlock = r
				}
			}
		}
	}
}

// Line is the status as one line of plain text, every piece made
// terminal-safe; "" when there is nothing to show.
func (st Status) Line() string {
	var parts []string
	if st.Phase != "" || st.Feature != "" {
		s := "PDCA " + Safe(st.Phase, 16)
		if st.Feature != "" {
			s += " " + Safe(st.Feature, 24)
		}
		if st.Task != "" {
			s += ": " + Safe(st.Task, 40)
		}
		parts = append(parts, s)
	}
	if len(st.Units) > 0 {
		s := "work " + Safe(st.Units[0], 24)
		if len(st.Units) > 1 {
			s += " +" + strconv.Itoa(len(st.Units)-1)
		}
		parts = append(parts, s)
	}
	if st.Calls > 0 {
		plus := ""
		if st.Partial {
			plus = "+"
		}
		s := fmt.Sprintf("%d%s %s, %d%s %s", st.Calls, plus, plural(st.Calls, "call"), st.Blocks, plus, plural(st.Blocks, "block"))
		if st.LastBlock != "" {
			s += " (last: " + Safe(st.LastBlock, 32) + ")"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	return "hookwright · " + strings.Join(parts, " · ")
}

// Safe makes s safe to print on a terminal in one line: control
// characters (C0, DEL, C1, so every escape sequence), line and paragraph
// separators, bidirectional controls and invalid UTF-8 become '?', and s
// is cut to max runes, ending in "…" when cut.
func Safe(s string, max int) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if n == max {
			b.WriteString("…")
			break
		}
		switch {
		case r == utf8.RuneError && size <= 1,
			unicode.IsControl(r),
			r == '\u2028' || r == '\u2029',
			r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069', r == '\u200e' || r == '\u200f' || r == '\u061c':
			r = '?'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
