package quality

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
)

// badGo is badly formatted and has a vet error (a Printf verb without its
// argument).
const badGo = "package m\n\nimport \"fmt\"\n\nfunc F() {\n      fmt.Printf(\"%d\\n\")\n}\n"

func edit(t *testing.T, dir, session, file string) hooks.Input {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{
		"session_id": session, "cwd": dir, "hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": file, "content": "x"}, "tool_response": map[string]any{},
	})
	in, err := hooks.Decode(raw, hooks.EventPostToolUse)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestGoFormatAndVet(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644)
	file := filepath.Join(dir, "m.go")
	os.WriteFile(file, []byte(badGo), 0o644)
	c := Checker{Config: config.Quality{Lint: true, Format: true}, Dir: dir}
	res, err := c.Handle(context.Background(), edit(t, dir, "s1", file))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	if !strings.Contains(string(got), "\n\tfmt.Printf") {
		t.Errorf("the file was not formatted:\n%s", got)
	}
	if !strings.Contains(res.Context, "go vet") || !strings.Contains(res.Context, "Printf") {
		t.Errorf("feedback lacks the vet finding: %q", res.Context)
	}
	// A clean file adds nothing.
	os.WriteFile(file, []byte("package m\n"), 0o644)
	if res, _ := c.Handle(context.Background(), edit(t, dir, "s1", file)); res.Context != "" {
		t.Errorf("a clean file: %q", res.Context)
	}
	// Off: nothing runs.
	os.WriteFile(file, []byte(badGo), 0o644)
	if res, _ := (Checker{Dir: dir}).Handle(context.Background(), edit(t, dir, "s1", file)); res.Context != "" {
		t.Errorf("quality off: %q", res.Context)
	}
	if got, _ := os.ReadFile(file); string(got) != badGo {
		t.Error("quality off rewrote the file")
	}
}

// quality.commands run on the file they match, argv only, with {file}
// replaced. (Whether a project's commands get here at all is decided by
// config.LoadLayers: TestProjectQualityCommandsNeedTrust there.)
func TestConfigCommandsRun(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("x\n"), 0o644)
	cfg := config.Quality{Lint: true, Format: true, Commands: []config.QualityCommand{{Match: "*.txt", Lint: []string{"touch", "{file}.ran"}}}}
	c := Checker{Config: cfg, Dir: dir}
	if _, err := c.Handle(context.Background(), edit(t, dir, "s1", file)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file + ".ran"); err != nil {
		t.Errorf("the command did not run: %v", err)
	}
	os.Remove(file + ".ran")
	os.WriteFile(filepath.Join(dir, "other.go"), []byte("package x\n"), 0o644)
	if _, err := c.Handle(context.Background(), edit(t, dir, "s1", filepath.Join(dir, "other.go"))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file + ".ran"); err == nil {
		t.Error("the command ran for a file it does not match")
	}
}

func TestMissingAndHangingToolsReportedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the quality budget; skipped with -short")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	os.WriteFile(file, []byte("x\n"), 0o644)
	cfg := config.Quality{Lint: true, Commands: []config.QualityCommand{
		{Match: "*.txt", Lint: []string{"hookwright-no-such-linter"}},
		{Match: "*.txt", Lint: []string{"sleep", "30"}},
	}}
	c := Checker{Config: cfg, Dir: dir}
	res, err := c.Handle(context.Background(), edit(t, dir, "s1", file))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hookwright-no-such-linter could not be started", "sleep did not finish"} {
		if !strings.Contains(res.Context, want) {
			t.Errorf("feedback lacks %q: %q", want, res.Context)
		}
	}
	res, _ = c.Handle(context.Background(), edit(t, dir, "s1", file))
	if res.Context != "" {
		t.Errorf("reported twice: %q", res.Context)
	}
}

func TestNoToolNoCost(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	os.WriteFile(file, []byte("x\n"), 0o644)
	c := Checker{Config: config.Quality{Lint: true, Format: true}, Dir: dir}
	if res, err := c.Handle(context.Background(), edit(t, dir, "s1", file)); err != nil || !res.Empty() {
		t.Errorf("a type with no tool: %+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(dir, StateFile)); err == nil {
		t.Error("a type with no tool wrote state")
	}
	// A file outside the project is not touched.
	out := filepath.Join(t.TempDir(), "x.go")
	os.WriteFile(out, []byte(badGo), 0o644)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o644)
	if res, _ := c.Handle(context.Background(), edit(t, dir, "s1", out)); res.Context != "" {
		t.Errorf("a file outside the project: %q", res.Context)
	}
	if got, _ := os.ReadFile(out); string(got) != badGo {
		t.Error("a file outside the project was rewritten")
	}
}
