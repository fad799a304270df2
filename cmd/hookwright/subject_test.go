package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// The built binary, run as hooks.json runs it (sh -c, the event on
// stdin, CLAUDE_PROJECT_DIR at the project, cwd in a subfolder), journals
// what each tool call was about, with secrets redacted and control
// characters kept as data (escaped only where shown).
func TestJournalRecordsTheSubject(t *testing.T) {
	project := t.TempDir()
	sub := filepath.Join(project, "src", "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ event, input, want string }{
		{"PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"API_KEY=abc123 make deploy\nTOKEN=zz echo hi"}}`, "API_KEY=… make deploy TOKEN=… echo hi"},
		{"PreToolUse", `{"tool_name":"Read","tool_input":{"file_path":"` + sub + `/main.go"}}`, sub + "/main.go"},
		{"PostToolUse", `{"tool_name":"WebFetch","tool_input":{"url":"https://u:pw@example.com/?token=abc","prompt":"x"},"tool_response":{}}`, "https://u:…@example.com/?token=…"},
		{"PreToolUse", `{"tool_name":"mcp__srv__do","tool_input":{"n":1}}`, ""},
	}
	for _, c := range cases {
		payload := `{"session_id":"subj-1","cwd":"` + sub + `","hook_event_name":"` + c.event + `",` + strings.TrimPrefix(c.input, "{")
		cmd := exec.Command("sh", "-c", `"`+binPath+`" `+c.event)
		cmd.Dir = sub
		cmd.Stdin = strings.NewReader(payload)
		cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+project)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v %s", c.input, err, out)
		}
	}
	entries, bad, err := journal.ReadAll(project)
	if err != nil || bad != 0 || len(entries) != len(cases) {
		t.Fatalf("journal: %d entries, %d bad, %v", len(entries), bad, err)
	}
	for i, e := range entries {
		if e.Subject != cases[i].want {
			t.Errorf("%s: subject %q, want %q", cases[i].input, e.Subject, cases[i].want)
		}
	}
}
