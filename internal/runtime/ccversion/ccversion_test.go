package ccversion

import (
	"os"
	"path/filepath"
	"testing"
)

// Running forwards to hooks.RunningRelease, which is tested there.
func TestRunningForwards(t *testing.T) {
	transcript := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(transcript, []byte(`{"type":"user","version":"2.1.33"}`+"\n"), 0o644)
	if got := Running("claude-code_2-1-330_harness", transcript); got != "2.1.330" {
		t.Errorf("AI_AGENT first: %q", got)
	}
	if got := Running("", transcript); got != "2.1.33" {
		t.Errorf("transcript: %q", got)
	}
	if got := Running("", ""); got != "" {
		t.Errorf("neither: %q", got)
	}
}
