package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Quality feedback through the built binaries: with quality.lint and
// quality.format on, a PostToolUse for a Write of a badly formatted Go file
// with a vet error leaves the file formatted and answers with the finding
// as additionalContext; the journal marks the call quality_warning.
func TestQualityFeedbackBinary(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	hookwright, hwctl := builtBinaries(t)
	goenv, err := exec.Command("go", "env", "GOCACHE", "GOPATH", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	vals := strings.Split(strings.TrimSpace(string(goenv)), "\n")
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, ".hookwright"), 0o755)
	os.MkdirAll(filepath.Join(project, "pkg"), 0o755)
	os.WriteFile(filepath.Join(project, ".hookwright", "config.json"), []byte(`{"quality": {"lint": true, "format": true, "timeout": 8}}`), 0o644)
	os.WriteFile(filepath.Join(project, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644)
	file := filepath.Join(project, "pkg", "m.go")
	os.WriteFile(file, []byte("package pkg\n\nimport \"fmt\"\n\nfunc F() {\n      fmt.Printf(\"%d\\n\")\n}\n"), 0o644)
	stdout, stderr, code := runHookEnv(t, hookwright, project, "PostToolUse",
		`{"session_id":"q1","cwd":"`+project+`/pkg","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"`+file+`","content":"x"},"tool_response":{}}`,
		"GOCACHE="+vals[0], "GOPATH="+vals[1], "GOMODCACHE="+vals[2])
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var out struct {
		Specific struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || !strings.Contains(out.Specific.AdditionalContext, "go vet") || !strings.Contains(out.Specific.AdditionalContext, "Printf") {
		t.Fatalf("stdout %q (%v), want additionalContext with the vet finding; stderr %q", stdout, err, stderr)
	}
	if got, _ := os.ReadFile(file); !strings.Contains(string(got), "\n\tfmt.Printf") {
		t.Errorf("the file was not formatted:\n%s", got)
	}
	cmd := exec.Command(hwctl, "events", "--dir", project, "--kind", "quality_warning", "--json")
	cmd.Env = hermeticEnv(t)
	if b, err := cmd.Output(); err != nil || strings.Count(strings.TrimSpace(string(b)), "\n") != 0 || !strings.Contains(string(b), `"kind":"quality_warning"`) {
		t.Errorf("events --kind quality_warning: %v\n%s", err, b)
	}
}
