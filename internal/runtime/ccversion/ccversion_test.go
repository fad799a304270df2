package ccversion

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunning(t *testing.T) {
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
		if got := Running(tt.agent, tt.transcript); got != tt.want {
			t.Errorf("Running(%q, %q) = %q, want %q", tt.agent, filepath.Base(tt.transcript), got, tt.want)
		}
	}
}
