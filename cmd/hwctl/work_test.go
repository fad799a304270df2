package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The strict work-unit block ends with a command that opens a unit under a
// generated id; run as it stands, by the shell, in a subfolder of the
// project and without CLAUDE_PROJECT_DIR (as the model's Bash may), it
// opens the unit, and the same edit then passes.
func TestStrictBlockCommandWorks(t *testing.T) {
	hookwright, hwctl := builtBinaries(t)
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, ".hookwright"), 0o755)
	os.MkdirAll(filepath.Join(project, "src", "deep"), 0o755)
	os.WriteFile(filepath.Join(project, ".hookwright", "config.json"), []byte(`{"work": {"mode": "strict"}}`), 0o644)
	edit := `{"session_id":"sess-42","cwd":"` + project + `/src","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"` + project + `/src/a.go","content":"package a\n"}}`

	_, stderr, code := runHook(t, hookwright, project, "PreToolUse", edit)
	if code != 2 {
		t.Fatalf("strict edit outside a unit: exit %d, stderr %q", code, stderr)
	}
	m := regexp.MustCompile("run: (hwctl work start (wu-[0-9a-f]{8}))\n?$").FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("the reason does not end with a runnable command: %q", stderr)
	}
	// Same session, same id.
	if _, again, _ := runHook(t, hookwright, project, "PreToolUse", edit); again != stderr {
		t.Errorf("a second block proposes another command: %q, then %q", stderr, again)
	}

	// The model runs the command as it stands, hwctl on its PATH.
	cmd := exec.Command("sh", "-c", m[1])
	cmd.Env = hermeticEnv(t, "PATH="+filepath.Dir(hwctl)+":"+os.Getenv("PATH"))
	cmd.Dir = filepath.Join(project, "src", "deep")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", m[1], err, out)
	}
	if _, err := os.Stat(filepath.Join(project, "src", "deep", ".hookwright")); err == nil {
		t.Error("hwctl work start in a subfolder made a .hookwright there")
	}
	if _, stderr, code := runHook(t, hookwright, project, "PreToolUse", edit); code != 0 {
		t.Fatalf("edit after %s: exit %d, stderr %q", m[1], code, stderr)
	}
	data, _ := os.ReadFile(filepath.Join(project, ".hookwright", "work.json"))
	if !strings.Contains(string(data), `"`+m[2]+`"`) {
		t.Errorf("work.json lacks the unit %s:\n%s", m[2], data)
	}
}
