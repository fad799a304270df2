package call

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/project"
)

// Resolve works the project folder out once, by the runtime's rule, and
// reads its config from there, not from the event's cwd.
func TestResolve(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "src")
	os.MkdirAll(filepath.Join(root, ".hookwright"), 0o755)
	os.MkdirAll(filepath.Join(src, ".hookwright"), 0o755)
	os.WriteFile(filepath.Join(root, ".hookwright", "config.json"), []byte(`{"loop": {"max_rounds": 7}}`), 0o644)
	os.WriteFile(filepath.Join(src, ".hookwright", "config.json"), []byte(`{"loop": {"max_rounds": 3}}`), 0o644)
	in := &hooks.Stop{}
	in.HookEventName, in.SessionID, in.Cwd = hooks.EventStop, "s1", src
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	env := project.Env{Now: func() time.Time { return t0 }, Getenv: func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return root
		}
		return ""
	}}
	c, err := Resolve(in, env, hooks.Band{}, "0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	if c.Root() != root || c.Config().Loop.MaxRounds != 7 || c.Session() != "s1" || !c.Now().Equal(t0) || c.Getenv("CLAUDE_PROJECT_DIR") != root {
		t.Errorf("resolved %q, max_rounds %d, session %q, now %v", c.Root(), c.Config().Loop.MaxRounds, c.Session(), c.Now())
	}
	// Without CLAUDE_PROJECT_DIR the event's cwd is the project.
	c, _ = Resolve(in, project.Env{}, hooks.Band{}, "")
	if c.Root() != src || c.Config().Loop.MaxRounds != 3 {
		t.Errorf("without CLAUDE_PROJECT_DIR: %q, max_rounds %d", c.Root(), c.Config().Loop.MaxRounds)
	}
	if v := c.Version(); v != "devel" && !strings.HasPrefix(v, "devel ") {
		t.Errorf("a test binary's version is %q, want devel", v)
	}
	if _, ok := c.Running(); ok {
		t.Error("a release was learned from nothing")
	}
}
