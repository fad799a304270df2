package hooks

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestRunningRelease(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "t.jsonl")
	os.WriteFile(transcript, []byte(`{"type":"summary"}`+"\n"+`{"type":"user","version":"2.1.33","cwd":"/p"}`+"\n"), 0o644)
	late := filepath.Join(dir, "late.jsonl")
	os.WriteFile(late, []byte(strings.Repeat(`{"type":"x"}`+"\n", TranscriptPrefix/12+1)+`{"version":"2.1.40"}`+"\n"), 0o644)
	tests := []struct {
		agent, transcript, want string
	}{
		{"claude-code_2-1-330_harness", transcript, "2.1.330"},
		{"claude-code_2-1-120", "", "2.1.120"},
		{"", transcript, "2.1.33"},
		{"something-else", transcript, "2.1.33"},
		{"", filepath.Join(dir, "missing.jsonl"), ""},
		{"", late, ""}, // beyond the prefix: not read
		{"", "", ""},
	}
	for _, tt := range tests {
		r, ok := RunningRelease(&Common{TranscriptPath: tt.transcript}, func(k string) string {
			if k == "AI_AGENT" {
				return tt.agent
			}
			return ""
		})
		got := ""
		if ok {
			got = r.String()
		}
		if got != tt.want {
			t.Errorf("RunningRelease(AI_AGENT %q, transcript %q) = %q, want %q", tt.agent, filepath.Base(tt.transcript), got, tt.want)
		}
	}
}

// The patterns the hand-written parsers replace.
var (
	agentPattern   = regexp.MustCompile(`^claude-code_(\d+)-(\d+)-(\d+)(?:_|$)`)
	versionPattern = regexp.MustCompile(`"version"\s*:\s*"(\d+\.\d+\.\d+)"`)
)

func checkParsers(t *testing.T, agent string, transcript []byte) {
	t.Helper()
	want := ""
	if m := agentPattern.FindStringSubmatch(agent); m != nil {
		want = m[1] + "." + m[2] + "." + m[3]
	}
	if got := fromAgent(agent); got != want {
		t.Errorf("fromAgent(%q) = %q, the pattern %q", agent, got, want)
	}
	want = ""
	if m := versionPattern.FindSubmatch(transcript); m != nil {
		want = string(m[1])
	}
	if got := fromTranscriptPrefix(transcript); got != want {
		t.Errorf("fromTranscriptPrefix(%q) = %q, the pattern %q", transcript, got, want)
	}
}

func TestParsersMatchPatterns(t *testing.T) {
	for _, agent := range []string{"claude-code_2-1-330_harness", "claude-code_2-1-330", "claude-code_2-1-330x", "claude-code_2-1_", "Claude-code_2-1-3",
		"xclaude-code_2-1-3", "claude-code_-1-2-3", "claude-code_02-001-0_", "claude-code_1-2-3__", "", "claude-code_"} {
		checkParsers(t, agent, nil)
	}
	for _, tr := range []string{`{"version":"2.1.33"}`, `{"version" : "2.1.33"}`, "{\"version\"\t:\n\"2.1.33\"}", `{"version":"2.1"}`, `{"version":"2.1.33.4"}`,
		`{"xversion":"1.2.3"}`, `"version""version":"1.2.3"`, `{"version":2.1}{"version":"9.9.9"}`, `"version":"1.2.3`, `"version":"`, `"version"`,
		`{"version":"v2.1.33"}`, "{\"version\":\v\"1.2.3\"}", `{"version":"` + strings.Repeat("9", 100) + `.0.1"}`} {
		checkParsers(t, "", []byte(tr))
	}
}

func FuzzParsers(f *testing.F) {
	f.Add("claude-code_2-1-330_harness", []byte(`{"type":"user","version":"2.1.33"}`))
	f.Add("claude-code_1-2-", []byte(`"version" :"1.2.3" "version":"4.5.6"`))
	f.Fuzz(func(t *testing.T, agent string, transcript []byte) { checkParsers(t, agent, transcript) })
}
