package teamctx

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
)

type team struct {
	folder string // under teams/, a dir with config.json, or "x.json" for the flat layout
	name   string
	cwds   []string
	age    time.Duration // how long ago the config changed
}

func setup(t *testing.T, project, teamsDir string, teams []team) {
	t.Helper()
	for _, tm := range teams {
		cfg := map[string]any{"leadAgentId": "team-lead@" + tm.name}
		if tm.name != "" {
			cfg["name"] = tm.name
		}
		var members []map[string]any
		for _, c := range tm.cwds {
			if c == "@project" {
				c = project
			}
			members = append(members, map[string]any{"name": "m", "cwd": c})
		}
		cfg["members"] = members
		data, _ := json.Marshal(cfg)
		path := filepath.Join(teamsDir, tm.folder, "config.json")
		if strings.HasSuffix(tm.folder, ".json") {
			path = filepath.Join(teamsDir, tm.folder)
		}
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		when := time.Now().Add(-tm.age)
		os.Chtimes(path, when, when)
	}
}

func start() hooks.Input {
	e := &hooks.SubagentStart{}
	e.HookEventName, e.AgentType = hooks.EventSubagentStart, "Explore"
	return e
}

func TestInjector(t *testing.T) {
	tests := []struct {
		name   string
		teams  []team
		gc     map[string]string // team -> global-context.md content
		want   string            // "" = no output
		errors bool
	}{
		{name: "no teams folder"},
		{name: "one team, GC-v3", teams: []team{{folder: "core", name: "core", cwds: []string{"@project"}}},
			gc:   map[string]string{"core": "# Global context GC-v3\n"},
			want: "[DIA-HOOK] Active team: core. Current GC: GC-v3. Verify your injected context version matches."},
		{name: "lower case gc-v10", teams: []team{{folder: "core", name: "core"}},
			gc: map[string]string{"core": "current: gc-v10\n- GC-v9 before\n"}, want: "Current GC: GC-v10."},
		{name: "front matter version: 9", teams: []team{{folder: "core", name: "core"}},
			gc: map[string]string{"core": "---\nversion: 9\nteam: core\n---\n# Global context\n"}, want: "Current GC: GC-v9."},
		{name: "quoted version and GC-v in it", teams: []team{{folder: "core", name: "core"}},
			gc: map[string]string{"core": "---\nversion: \"GC-v14\"\n---\nGC-v3 was the first\n"}, want: "Current GC: GC-v14."},
		{name: "a version in prose is not the GC version", teams: []team{{folder: "core", name: "core"}},
			gc: map[string]string{"core": "Uses Go version: 1.22 of the toolchain\n"}, want: "Current GC: unknown"},
		{name: "highest version wins", teams: []team{{folder: "core", name: "core"}},
			gc:   map[string]string{"core": "GC-v12 (current)\n\n## Changelog\n- GC-v11: x\n- GC-v2: y\n"},
			want: "Current GC: GC-v12."},
		{name: "newest config is the active team", teams: []team{
			{folder: "old", name: "old", age: time.Hour}, {folder: "new", name: "new", age: time.Minute}},
			gc:   map[string]string{"old": "GC-v9", "new": "GC-v1"},
			want: "Active team: new. Current GC: GC-v1."},
		{name: "teams of other projects are skipped", teams: []team{
			{folder: "mine", name: "mine", cwds: []string{"@project"}, age: time.Hour},
			{folder: "theirs", name: "theirs", cwds: []string{"/somewhere/else"}}},
			gc:   map[string]string{"mine": "GC-v2"},
			want: "Active team: mine. Current GC: GC-v2."},
		{name: "only other projects' teams: no output", teams: []team{{folder: "theirs", name: "theirs", cwds: []string{"/elsewhere"}}}},
		{name: "name comes from config, not the sanitized folder", teams: []team{{folder: "my-team", name: "My_Team"}},
			gc: map[string]string{"My_Team": "GC-v4"}, want: "Active team: My_Team. Current GC: GC-v4."},
		{name: "folder name when config has none", teams: []team{{folder: "alpha"}},
			gc: map[string]string{"alpha": "GC-v5"}, want: "Active team: alpha. Current GC: GC-v5."},
		{name: "flat teams/{team}.json layout", teams: []team{{folder: "flat.json", name: "flat"}},
			gc: map[string]string{"flat": "GC-v7"}, want: "Active team: flat. Current GC: GC-v7."},
		{name: "no global context file", teams: []team{{folder: "core", name: "core"}},
			want: "Active team: core. Current GC: unknown (no GC-v<N> in .agent/teams/core/global-context.md)."},
		{name: "no version in the file", teams: []team{{folder: "core", name: "core"}}, gc: map[string]string{"core": "GC-vX"},
			want: "Current GC: unknown"},
		{name: "unsafe team name fails open", teams: []team{{folder: "evil", name: "../../etc"}}, errors: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project, home := t.TempDir(), t.TempDir()
			teamsDir := filepath.Join(home, "teams")
			setup(t, project, teamsDir, tt.teams)
			for name, text := range tt.gc {
				p := filepath.Join(project, ".agent/teams", name, GlobalContextFile)
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte(text), 0o644)
			}
			j := Injector{Enabled: true, TeamsDir: teamsDir, Project: project}
			res, err := j.Handle(context.Background(), start())
			if (err != nil) != tt.errors {
				t.Fatalf("err = %v, want error %v", err, tt.errors)
			}
			if tt.want == "" {
				if !res.Empty() {
					t.Fatalf("want no output, got %+v", res)
				}
				return
			}
			if !strings.Contains(res.Context, tt.want) {
				t.Fatalf("context %q\ndoes not contain %q", res.Context, tt.want)
			}
			if !strings.HasPrefix(res.Context, "[DIA-HOOK] ") {
				t.Fatalf("context %q lacks ADR-003's [DIA-HOOK] tag", res.Context)
			}
			// Where the artifacts workflow is off, the injector says nothing.
			off := j
			off.Enabled = false
			if res, err := off.Handle(context.Background(), start()); err != nil || !res.Empty() {
				t.Fatalf("off: %+v, %v", res, err)
			}
		})
	}
}

func TestTeamsDirFromClaudeConfigDir(t *testing.T) {
	project, cfgDir := t.TempDir(), t.TempDir()
	setup(t, project, filepath.Join(cfgDir, "teams"), []team{{folder: "core", name: "core"}})
	t.Setenv("CLAUDE_CONFIG_DIR", cfgDir)
	res, err := Injector{Enabled: true, Project: project, Getenv: os.Getenv}.Handle(context.Background(), start())
	if err != nil || !strings.Contains(res.Context, "Active team: core.") {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
}

func TestOtherEventsSayNothing(t *testing.T) {
	res, err := Injector{Enabled: true, TeamsDir: t.TempDir()}.Handle(context.Background(), &hooks.Stop{})
	if err != nil || !res.Empty() {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
}
