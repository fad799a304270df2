package guard

import (
	"os"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/runtime/config"
)

// readCorpus reads a command list: one command per line, # comments and
// blank lines skipped, a line that starts with two spaces continuing the
// one before after a new line (heredocs).
func readCorpus(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "  ") && len(out) > 0:
			out[len(out)-1] += "\n" + line[2:]
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
		default:
			out = append(out, line)
		}
	}
	return out
}

// TestPackCorpus reports the ask-or-block rate on a held-back style set
// of the packs' families: at least 95% of the dangerous commands, at most
// 1% of the harmless ones. Each miss is logged.
func TestPackCorpus(t *testing.T) {
	g := newTest(config.Guard{}, nil)
	for _, set := range []struct {
		file    string
		danger  bool
		minRate float64
	}{{"testdata/packs/dangerous.txt", true, 0.95}, {"testdata/packs/harmless.txt", false, 0.99}} {
		cmds := readCorpus(t, set.file)
		if len(cmds) < 100 {
			t.Fatalf("%s: %d commands, want at least 100", set.file, len(cmds))
		}
		right := 0
		for _, c := range cmds {
			rep := bash(g, c)
			stopped := rep.Decision != "allow"
			if stopped == set.danger {
				right++
				continue
			}
			t.Logf("%s: %q: %s %s", set.file, c, rep.Decision, rep.Rule)
		}
		rate := float64(right) / float64(len(cmds))
		t.Logf("%s: %d of %d right (%.1f%%)", set.file, right, len(cmds), 100*rate)
		if rate < set.minRate {
			t.Errorf("%s: %.1f%% right, want at least %.0f%%", set.file, 100*rate, 100*set.minRate)
		}
	}
}
