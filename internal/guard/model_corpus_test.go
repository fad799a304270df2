package guard

import (
	"bufio"
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/runtime/config"
)

// corpusCase is one command of a corpus and the family it is in.
type corpusCase struct {
	family, cmd string
}

// readFamilies reads a corpus as readCorpus does, and also the family
// each command is in: a line "## name" starts one.
func readFamilies(t testing.TB, name string) []corpusCase {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	fam := "(none)"
	var out []corpusCase
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			fam = strings.TrimSpace(line[3:])
		case strings.HasPrefix(line, "  ") && len(out) > 0:
			out[len(out)-1].cmd += "\n" + line[2:]
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
		default:
			out = append(out, corpusCase{fam, line})
		}
	}
	return out
}

// mcpCase is one line of an MCP corpus: a tool call and whether it must
// be stopped. $HOME and $PROJECT in the input stand for the test world's.
type mcpCase struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
	Want  string          `json:"want"` // stop or pass
}

func readMCP(t testing.TB, name, home, project string) []mcpCase {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []mcpCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.ReplaceAll(strings.ReplaceAll(line, "$HOME", home), "$PROJECT", project)
		var c mcpCase
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%s: %v: %s", name, err, line)
		}
		if c.Want != "stop" && c.Want != "pass" {
			t.Fatalf("%s: want is %q: %s", name, c.Want, line)
		}
		out = append(out, c)
	}
	return out
}

// corpusSet is a corpus and the share of it that must be decided right.
type corpusSet struct {
	file   string
	danger bool
	// minRight is the share of commands that must be decided right: for
	// a dangerous set, stopped (ask or block); for a harmless one, let
	// through.
	minRight float64
}

// The corpora of the model of harm (testdata/model). The tuned split is
// what the model was developed against; the holdout split was written
// before it and never tuned against (its floor is what the first honest
// run reached, so that it cannot regress); everyday commands may never be
// stopped.
var modelSets = []corpusSet{
	{"testdata/model/dangerous.txt", true, 0.95},
	{"testdata/model/harmless.txt", false, 0.99},
	{"testdata/model/peer-dangerous.txt", true, 0.95},
	{"testdata/model/peer-harmless.txt", false, 0.99},
	{"testdata/model/everyday.txt", false, 1},
	{"testdata/model/holdout-dangerous.txt", true, holdoutDangerFloor},
	{"testdata/model/holdout-harmless.txt", false, holdoutHarmlessFloor},
}

// The holdout split's floors (see modelSets).
const (
	holdoutDangerFloor   = 0.95
	holdoutHarmlessFloor = 0.99
)

// TestModelCorpora runs every corpus of the model of harm through the
// guard and checks its rate; each miss is logged with the rule that
// decided, and the rates by family.
func TestModelCorpora(t *testing.T) {
	g := newTest(config.Guard{}, nil)
	for _, set := range modelSets {
		t.Run(strings.TrimSuffix(strings.TrimPrefix(set.file, "testdata/model/"), ".txt"), func(t *testing.T) {
			cases := readFamilies(t, set.file)
			right := 0
			byFam := map[string][2]int{}
			for _, c := range cases {
				rep := bash(g, c.cmd)
				stopped := rep.Decision != "allow"
				n := byFam[c.family]
				n[1]++
				if stopped == set.danger {
					right++
					n[0]++
				} else if showMisses(set.file) {
					t.Logf("miss [%s] %q: %s %s", c.family, c.cmd, rep.Decision, rep.Rule)
				}
				byFam[c.family] = n
			}
			var fams []string
			for f := range byFam {
				fams = append(fams, f)
			}
			sort.Strings(fams)
			for _, f := range fams {
				t.Logf("  %-70s %d/%d", f, byFam[f][0], byFam[f][1])
			}
			rate := float64(right) / float64(len(cases))
			t.Logf("%s: %d of %d right (%.1f%%)", set.file, right, len(cases), 100*rate)
			if rate < set.minRight {
				t.Errorf("%s: %.1f%% right, want at least %.1f%%", set.file, 100*rate, 100*set.minRight)
			}
		})
	}
}

// TestModelMCP runs the MCP corpora: a tool call of an MCP server judged
// by what it does.
func TestModelMCP(t *testing.T) {
	g := newTest(config.Guard{}, nil)
	for _, f := range []string{"testdata/model/mcp.jsonl", "testdata/model/holdout-mcp.jsonl"} {
		right, n := 0, 0
		for _, c := range readMCP(t, f, home, project) {
			rep := g.Check(Call{Tool: c.Tool, Input: c.Input, Cwd: project})
			n++
			if (rep.Decision != "allow") == (c.Want == "stop") {
				right++
				continue
			}
			if showMisses(f) {
				t.Logf("miss %s %s: %s %s (want %s)", c.Tool, c.Input, rep.Decision, rep.Rule, c.Want)
			}
		}
		t.Logf("%s: %d of %d right", f, right, n)
		if f == "testdata/model/mcp.jsonl" && right < n {
			t.Errorf("%s: %d of %d right, want all", f, right, n)
		}
	}
}

// showMisses says whether a corpus's misses are logged: the holdout
// split's only when HOOKWRIGHT_SHOW_HOLDOUT is set (its rates are always
// logged), so that its misses are not tuned against by accident.
func showMisses(file string) bool {
	return !strings.Contains(file, "holdout") || os.Getenv("HOOKWRIGHT_SHOW_HOLDOUT") != ""
}
