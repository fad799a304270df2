package compact

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/state/pdca"
	"github.com/hookwright/hookwright/internal/state/work"
)

var now = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func preCompact(session string) *hooks.PreCompact {
	e := &hooks.PreCompact{Trigger: "manual"}
	e.HookEventName, e.SessionID = hooks.EventPreCompact, session
	return e
}

func sessionStart(session, source string) *hooks.SessionStart {
	e := &hooks.SessionStart{Source: source}
	e.HookEventName, e.SessionID = hooks.EventSessionStart, session
	return e
}

func writeTask(t *testing.T, cfgDir, list, id, subject, status, owner string) {
	t.Helper()
	p := filepath.Join(cfgDir, "tasks", list, id+".json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	data, _ := json.Marshal(map[string]any{"id": id, "subject": subject, "status": status, "owner": owner, "blocks": []string{}, "blockedBy": []string{}})
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestSaveAndBrief(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, dir, cc string)
		env    map[string]string
		want   []string
		absent []string
	}{
		{name: "an empty project still orients", want: []string{"just compacted", "No active work unit", "Today's scratchpad: .claude/scratchpad/coordinator/2026-03-01.md"},
			absent: []string{"PDCA", "Open tasks", "Team"}},
		{name: "work, team, features and tasks",
			setup: func(t *testing.T, dir, cc string) {
				if err := work.Start(dir, "parser", now); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(dir, config.Dir, "pdca.json")
				for i, s := range []string{"[Plan] login: outline", "[Do] login: build", "[Report] billing"} {
					tag, _, _ := pdca.Parse(s)
					if _, err := pdca.Record(path, tag, fmt.Sprint("l/", i), s, now.Add(time.Duration(i)*time.Minute)); err != nil {
						t.Fatal(err)
					}
				}
				writeTask(t, cc, "core", "1", "[Do] login: build", "completed", "alice")
				writeTask(t, cc, "core", "2", "[Check] login: review", "in_progress", "alice")
				writeTask(t, cc, "core", "3", "write docs\nsecond line", "pending", "")
			},
			env: map[string]string{"CLAUDE_CODE_TEAM_NAME": "core", "CLAUDE_CODE_AGENT_NAME": "alice"},
			want: []string{"Active work unit: parser", `Team "core", you are teammate "alice"`, "PDCA login: phase Do, next step Check",
				"#2 [in_progress, alice] [Check] login: review", "#3 [pending] write docs"},
			absent: []string{"billing", "#1 ", "second line"}},
		{name: "tasks are bounded", setup: func(t *testing.T, dir, cc string) {
			for i := 1; i <= 40; i++ {
				writeTask(t, cc, "s1", fmt.Sprint(i), strings.Repeat("long subject ", 20), "pending", "")
			}
		}, want: []string{"#1 [pending]"}, absent: []string{"#16 "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, cc := t.TempDir(), t.TempDir()
			if tt.setup != nil {
				tt.setup(t, dir, cc)
			}
			e := map[string]string{"CLAUDE_CONFIG_DIR": cc}
			for k, v := range tt.env {
				e[k] = v
			}
			cfg := config.Default()
			cfg.Scratchpad.Enabled, cfg.PDCA.Enabled = true, true // the workflows this project turned on
			if _, err := saver(cfg, dir, env(e), func() time.Time { return now }).Handle(context.Background(), preCompact("s1")); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(filepath.Join(dir, Dir, "s1.json"))
			if err != nil || info.Size() > MaxFile {
				t.Fatalf("snapshot: %v, %v", info, err)
			}
			res, err := briefer(cfg, dir).Handle(context.Background(), sessionStart("s1", "compact"))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Context) > MaxBriefing {
				t.Errorf("briefing is %d bytes", len(res.Context))
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Context, w) {
					t.Errorf("briefing lacks %q:\n%s", w, res.Context)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(res.Context, a) {
					t.Errorf("briefing has %q:\n%s", a, res.Context)
				}
			}
		})
	}
}

// Where the scratchpad chain and PDCA do not run, the briefing names no
// scratchpad (the model would write one) and no PDCA phase.
func TestBriefingNamesOnlyWorkflowsThatRun(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".hookwright"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".hookwright", "pdca.json"), []byte(`{"features":{"login":{"phase":"Do","updated":"2026-03-01T09:00:00Z"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	if _, err := saver(cfg, dir, env(nil), func() time.Time { return now }).Handle(context.Background(), preCompact("s1")); err != nil {
		t.Fatal(err)
	}
	res, err := briefer(cfg, dir).Handle(context.Background(), sessionStart("s1", "compact"))
	if err != nil || res.Context == "" {
		t.Fatalf("no briefing: %+v, %v", res, err)
	}
	for _, absent := range []string{"scratchpad", "PDCA"} {
		if strings.Contains(res.Context, absent) {
			t.Errorf("the briefing names %s, which does not run here:\n%s", absent, res.Context)
		}
	}
}

func TestBrieferSpeaksOnlyAfterCompaction(t *testing.T) {
	dir := t.TempDir()
	cfg := config.Default()
	saver(cfg, dir, env(nil), nil).Handle(context.Background(), preCompact("s1"))
	for _, tt := range []struct {
		in   hooks.Input
		cfg  func(*config.Config)
		want bool
	}{
		{in: sessionStart("s1", "compact"), want: true},
		{in: sessionStart("s1", "startup")},
		{in: sessionStart("s1", "resume")},
		{in: sessionStart("other", "compact")},
		{in: sessionStart("../../etc", "compact")},
		{in: sessionStart("s1", "compact"), cfg: func(c *config.Config) { c.Compact.Enabled = false }},
	} {
		c := cfg
		if tt.cfg != nil {
			tt.cfg(&c)
		}
		res, _ := briefer(c, dir).Handle(context.Background(), tt.in)
		if got := res.Context != ""; got != tt.want {
			t.Errorf("%+v: briefed = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestSnapshotsAreBounded(t *testing.T) {
	dir := t.TempDir()
	cfg := config.Default()
	cfg.Compact.Keep = 3
	for i := range 6 {
		s := saver(cfg, dir, env(nil), nil)
		if _, err := s.Handle(context.Background(), preCompact(fmt.Sprint("s", i))); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, Dir, fmt.Sprint("s", i, ".json"))
		os.Chtimes(p, now.Add(time.Duration(i)*time.Minute), now.Add(time.Duration(i)*time.Minute))
	}
	entries, _ := os.ReadDir(filepath.Join(dir, Dir))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "s3.json s4.json s5.json" {
		t.Errorf("kept %v, want the newest 3", names)
	}
	// An unsafe session id writes nothing.
	if _, err := saver(cfg, dir, env(nil), nil).Handle(context.Background(), preCompact("../x")); err == nil {
		t.Error("an unsafe session id was accepted")
	}
	// A huge or foreign snapshot is refused, not loaded.
	os.WriteFile(filepath.Join(dir, Dir, "big.json"), []byte(strings.Repeat(" ", MaxFile+1)), 0o644)
	if _, ok, err := Load(dir, "big"); ok || err == nil {
		t.Errorf("oversized snapshot: ok %v err %v", ok, err)
	}
	os.Mkdir(filepath.Join(dir, Dir, "dir.json"), 0o755)
	if _, ok, err := Load(dir, "dir"); ok || err == nil {
		t.Errorf("a folder as snapshot: ok %v err %v", ok, err)
	}
}

// saver is the Saver of a call in the project at dir.
func saver(cfg config.Config, dir string, getenv func(string) string, now func() time.Time) Saver {
	return NewSaver(call.New(call.Spec{Root: dir, Config: cfg, Env: project.Env{Getenv: getenv, Now: now}}))
}

// briefer is the Briefer of a call in the project at dir.
func briefer(cfg config.Config, dir string) Briefer {
	return NewBriefer(call.New(call.Spec{Root: dir, Config: cfg}))
}
