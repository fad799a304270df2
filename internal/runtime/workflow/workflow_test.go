package workflow

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/runtime/config"
)

// project is a temporary project with a user config folder beside it.
type project struct {
	dir, xdg string
}

func newProject(t *testing.T) project {
	t.Helper()
	root := t.TempDir()
	p := project{dir: filepath.Join(root, "proj"), xdg: filepath.Join(root, "xdg")}
	must(t, os.MkdirAll(p.dir, 0o755))
	return p
}

func (p project) getenv(k string) string {
	switch k {
	case "XDG_CONFIG_HOME":
		return p.xdg
	case "XDG_STATE_HOME":
		return filepath.Join(p.xdg, "state")
	case "HOME":
		return filepath.Dir(p.xdg)
	}
	return ""
}

func (p project) write(t *testing.T, rel, data string) {
	t.Helper()
	path := filepath.Join(p.dir, filepath.FromSlash(rel))
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte(data), 0o644))
}

func (p project) user(t *testing.T, data string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Join(p.xdg, "hookwright"), 0o755))
	must(t, os.WriteFile(filepath.Join(p.xdg, "hookwright", "config.json"), []byte(data), 0o644))
}

func (p project) decide(t *testing.T, n Name) Status {
	t.Helper()
	l, err := config.LoadLayers(p.dir, p.getenv)
	if err != nil {
		t.Fatal(err)
	}
	return Decide(n, p.dir, l, p.getenv)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A fresh project with no config runs no workflow, and hookwright's own
// files in .hookwright (which the handlers write) turn none on.
func TestFreshProjectRunsNoWorkflow(t *testing.T) {
	p := newProject(t)
	for _, rel := range []string{".hookwright/pdca.json", ".hookwright/work.json", ".hookwright/loop.json", ".hookwright/journal/2026-01-01.jsonl",
		".hookwright/compact/s.json", ".hookwright/team/core.json", ".hookwright/quality.json"} {
		p.write(t, rel, "{}\n")
	}
	for _, n := range Names {
		if st := p.decide(t, n); st.On || st.By != ByDefault || !strings.Contains(st.Why, "hwctl workflow enable "+string(n)) {
			t.Errorf("%s: %+v, want off by default with the command that turns it on", n, st)
		}
	}
}

// The scratchpads an agent wrote while the chain was on by default (one
// folder per agent type, the coordinator's notes) do not turn it on; the
// ego notes, which no hookwright handler ever asked for, do.
func TestScratchpadFolderEvidence(t *testing.T) {
	p := newProject(t)
	for _, rel := range []string{".claude/scratchpad/Explore/2026-01-01.md", ".claude/scratchpad/general-purpose/2026-01-01.md",
		".claude/scratchpad/coordinator/2026-01-01.md", ".claude/scratchpad/ego/notes.txt"} {
		p.write(t, rel, "## What I did\n")
	}
	if st := p.decide(t, Scratchpad); st.On {
		t.Fatalf("scratchpads a former default made turned the chain on: %+v", st)
	}
	p.write(t, ".claude/scratchpad/ego/2026-01-01.md", "steady\n")
	st := p.decide(t, Scratchpad)
	if !st.On || st.By != ByFolder || !strings.Contains(st.Why, ".claude/scratchpad/ego/") {
		t.Fatalf("ego notes: %+v", st)
	}
	// A dir the config moves moves the evidence with it.
	p.write(t, ".hookwright/config.json", `{"scratchpad": {"dir": "notes"}}`)
	if st := p.decide(t, Scratchpad); !st.On || st.By != BySection {
		t.Fatalf("a configured section: %+v", st)
	}
}

func TestArtifactsAndPDCAFolderEvidence(t *testing.T) {
	p := newProject(t)
	p.write(t, ".agent/teams.txt", "not a folder")
	p.write(t, "docs/01-plan", "a file, not a folder")
	if st := p.decide(t, Artifacts); st.On {
		t.Fatalf("no artifacts root: %+v", st)
	}
	if st := p.decide(t, PDCA); st.On {
		t.Fatalf("docs/01-plan is a file: %+v", st)
	}
	must(t, os.MkdirAll(filepath.Join(p.dir, ".agent", "teams"), 0o755))
	if st := p.decide(t, Artifacts); !st.On || st.By != ByFolder || !strings.Contains(st.Why, ".agent/teams/") {
		t.Fatalf("artifacts root: %+v", st)
	}
	must(t, os.Remove(filepath.Join(p.dir, "docs", "01-plan")))
	must(t, os.MkdirAll(filepath.Join(p.dir, "docs", "01-plan", "features"), 0o755))
	if st := p.decide(t, PDCA); !st.On || st.By != ByFolder {
		t.Fatalf("bkit's plan folder: %+v", st)
	}
}

// A symlink that leads the evidence out of the project counts for nothing.
func TestEvidenceConfined(t *testing.T) {
	p := newProject(t)
	outside := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(outside, "ego"), 0o755))
	must(t, os.WriteFile(filepath.Join(outside, "ego", "x.md"), []byte("x"), 0o644))
	must(t, os.MkdirAll(filepath.Join(p.dir, ".claude"), 0o755))
	must(t, os.Symlink(outside, filepath.Join(p.dir, ".claude", "scratchpad")))
	must(t, os.MkdirAll(filepath.Join(p.dir, ".agent"), 0o755))
	must(t, os.Symlink(outside, filepath.Join(p.dir, ".agent", "teams")))
	for _, n := range []Name{Scratchpad, Artifacts} {
		if st := p.decide(t, n); st.On {
			t.Errorf("%s: evidence outside the project counted: %+v", n, st)
		}
	}
}

// The config's own switch wins over everything; a section turns the
// workflow on; the user config counts like the project's.
func TestConfigDecides(t *testing.T) {
	for _, c := range []struct {
		name, user, proj string
		n                Name
		on               bool
		mode, by, why    string
	}{
		{"enabled", "", `{"scratchpad": {"enabled": true}}`, Scratchpad, true, "", ByConfig, "scratchpad.enabled is true in the project config"},
		{"disabled over a folder", "", `{"artifacts": {"enabled": false}}`, Artifacts, false, "", ByConfig, "artifacts.enabled is false"},
		{"user config", `{"pdca": {"enabled": true}}`, "", PDCA, true, "", ByConfig, "in the user config"},
		{"project over user", `{"pdca": {"enabled": true}}`, `{"pdca": {"enabled": false}}`, PDCA, false, "", ByConfig, "project config"},
		{"section", "", `{"scratchpad": {"fail": "closed"}}`, Scratchpad, true, "", BySection, "configures scratchpad"},
		{"pdca section", "", `{"pdca": {"automation": "full"}}`, PDCA, true, "", BySection, ""},
		{"work strict", "", `{"work": {"mode": "strict"}}`, Work, true, "strict", ByConfig, `work.mode is "strict"`},
		{"work off", "", `{"work": {"mode": "off"}}`, Work, false, "", ByConfig, ""},
		{"work section without mode", "", `{"work": {"auto_create": false}}`, Work, true, "warn", BySection, "warn, its former default"},
		{"loop section is not a switch", "", `{"loop": {"max_rounds": 3}}`, Loop, false, "", ByDefault, ""},
		{"an empty section configures nothing", "", `{"pdca": {}}`, PDCA, false, "", ByDefault, ""},
		{"an empty work section configures nothing", "", `{"work": {}}`, Work, false, "", ByDefault, ""},
		{"loop enabled", "", `{"loop": {"enabled": true, "promise": "DONE"}}`, Loop, true, "", ByConfig, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newProject(t)
			must(t, os.MkdirAll(filepath.Join(p.dir, ".agent", "teams"), 0o755))
			if c.user != "" {
				p.user(t, c.user)
			}
			if c.proj != "" {
				p.write(t, ".hookwright/config.json", c.proj)
			}
			st := p.decide(t, c.n)
			if st.On != c.on || st.Mode != c.mode || st.By != c.by || !strings.Contains(st.Why, c.why) {
				t.Errorf("%+v, want on=%v mode=%q by=%s why~%q", st, c.on, c.mode, c.by, c.why)
			}
		})
	}
}

// A broken project config is left out: the decision is the defaults'.
func TestBrokenConfigIsLeftOut(t *testing.T) {
	p := newProject(t)
	p.write(t, ".hookwright/config.json", `{"scratchpad": {"enabled": true, "typo": 1}}`)
	l, err := config.LoadLayers(p.dir, p.getenv)
	if err == nil {
		t.Fatal("the broken config was accepted")
	}
	if st := Decide(Scratchpad, p.dir, l, p.getenv); st.On {
		t.Fatalf("a broken config turned the chain on: %+v", st)
	}
}

func TestParse(t *testing.T) {
	if n, err := Parse("PDCA"); err != nil || n != PDCA {
		t.Fatalf("Parse(PDCA) = %q, %v", n, err)
	}
	if _, err := Parse("scratch"); err == nil || !strings.Contains(err.Error(), "scratchpad, artifacts, pdca, work, loop") {
		t.Fatalf("Parse(scratch) = %v", err)
	}
}
