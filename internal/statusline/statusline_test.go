package statusline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/state/pdca"
	"github.com/hookwright/hookwright/internal/state/work"
)

func TestSafe(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"plain", 100, "plain"},
		{"\x1b]0;pwned\x07title", 100, "?]0;pwned?title"},
		{"a\nb\rc\td", 100, "a?b?c?d"},
		{"\u202egnp.exe", 100, "?gnp.exe"},
		{"\xff\xfe", 100, "??"},
		{"\u009b31m", 100, "?31m"},
		{"abcdef", 3, "abc…"},
		{"abc", 3, "abc"},
	}
	for _, tt := range tests {
		if got := Safe(tt.in, tt.max); got != tt.want {
			t.Errorf("Safe(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	os.MkdirAll(filepath.Join(dir, ".hookwright"), 0o755)
	ps := pdca.State{Features: map[string]*pdca.Feature{
		"old":    {Phase: "Plan", Updated: now.Add(-time.Hour), History: []pdca.Step{{Phase: "Plan", Subject: "old plan"}}},
		"parser": {Phase: "Do", Updated: now, History: []pdca.Step{{Phase: "Plan", Subject: "plan"}, {Phase: "Do", Subject: "write the \x1b[2Jtests"}}},
	}}
	data, _ := json.Marshal(ps)
	os.WriteFile(filepath.Join(dir, ".hookwright", "pdca.json"), data, 0o644)
	if err := work.Start(dir, "wu-1", now); err != nil {
		t.Fatal(err)
	}
	for _, e := range []journal.Entry{
		{Time: now.Add(-25 * time.Hour), Session: "s1", Event: "PreToolUse", Decision: "block", Handler: "guard", Reason: "x (rule rm-root; y)"},
		{Time: now, Session: "s1", Event: "PreToolUse", Decision: "block", Handler: "guard", Reason: "hookwright guard: … (rule git-force-push; `hwctl explain` …)"},
		{Time: now, Session: "s2", Event: "PreToolUse", Decision: "block", Handler: "artifacts"},
		{Time: now, Session: "s1", Event: "PostToolUse"},
	} {
		p := filepath.Join(dir, journal.Dir, e.Time.Format("2006-01-02")+".jsonl")
		os.MkdirAll(filepath.Dir(p), 0o755)
		line, _ := json.Marshal(e)
		f, _ := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		f.Write(append(line, '\n'))
		f.Close()
	}
	st := Collect(dir, "s1", now)
	if st.Phase != "Do" || st.Feature != "parser" || st.Calls != 3 || st.Blocks != 2 || st.LastBlock != "git-force-push" || len(st.Units) != 1 || st.Partial {
		t.Fatalf("Collect = %+v", st)
	}
	line := st.Line()
	want := "hookwright · PDCA Do parser: write the ?[2Jtests · work wu-1 · 3 calls, 2 blocks (last: git-force-push)"
	if line != want {
		t.Errorf("Line = %q\nwant   %q", line, want)
	}
	if got := Collect(dir, "s2", now); got.LastBlock != "artifacts" || got.Blocks != 1 {
		t.Errorf("a block without a rule names its handler: %+v", got)
	}
	if got := Collect(t.TempDir(), "s1", now).Line(); got != "" {
		t.Errorf("an empty project shows %q", got)
	}
}

func TestProjectDir(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".hookwright"), 0o755)
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	in, err := Read(strings.NewReader(`{"session_id":"s","cwd":"` + dir + `/a/b","workspace":{"current_dir":"` + dir + `/a/b"}} trailing`))
	if err != nil {
		t.Fatal(err)
	}
	if got := in.ProjectDir("fb"); got != dir {
		t.Errorf("ProjectDir = %q, want %q", got, dir)
	}
	in.Workspace.ProjectDir = "/elsewhere"
	if got := in.ProjectDir("fb"); got != "/elsewhere" {
		t.Errorf("project_dir wins: %q", got)
	}
	if _, err := Read(strings.NewReader("not json")); err == nil {
		t.Error("Read of garbage: no error")
	}
}

// FuzzLine: whatever the statusLine JSON and the strings in the session's
// files hold, Read never panics and the line is one terminal-safe line.
func FuzzLine(f *testing.F) {
	f.Add(`{"session_id":"s","cwd":"/tmp","workspace":{"project_dir":"/nowhere"}}`, "Do", "write \x1b[2J tests", "wu-1", "rule-\u202e")
	f.Add(`{"session_id":`, "", "", "", "")
	f.Fuzz(func(t *testing.T, input, phase, task, unit, rule string) {
		if _, err := Read(strings.NewReader(input)); err != nil {
			return
		}
		line := Status{Phase: phase, Feature: task, Task: task, Units: []string{unit}, Calls: 3, Blocks: 1, LastBlock: rule}.Line()
		for _, r := range line {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x2028 || r == 0x2029 {
				t.Fatalf("line %q holds %U", line, r)
			}
		}
	})
}
