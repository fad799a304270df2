package manifests

import (
	"slices"
	"testing"
)

func TestSplitExec(t *testing.T) {
	for line, want := range map[string][]string{
		`"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" TaskCompleted --via PostToolUse`: {"${CLAUDE_PLUGIN_ROOT}/bin/hookwright", "TaskCompleted", "--via", "PostToolUse"},
		`node "${CLAUDE_PLUGIN_ROOT}/scripts/a b.js"`:                            {"node", "${CLAUDE_PLUGIN_ROOT}/scripts/a b.js"},
		"  x\ty  ": {"x", "y"},
		`x | y`:    nil, `x > f`: nil, `$HOME/x`: nil, `"$HOME/x"`: nil, `'x'`: nil, `"a\"b"`: nil, "`x`": nil,
		`"a"b`: nil, `"unterminated`: nil, ``: nil, `x; y`: nil, `"${}"`: nil, `"${A-B}"`: nil,
	} {
		got, ok := SplitExec(line)
		if !slices.Equal(got, want) || ok != (want != nil) {
			t.Errorf("SplitExec(%q) = %q, %v; want %q", line, got, ok, want)
		}
	}
}

// FuzzSplitJoin: what SplitExec accepts, JoinExec writes back to a line
// that splits to the same words.
func FuzzSplitJoin(f *testing.F) {
	for _, s := range []string{`"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" Stop`, `node "a b" c`, `x "$" y`, `a "${X}y${Z}"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		argv, ok := SplitExec(line)
		if !ok {
			return
		}
		again, ok := SplitExec(JoinExec(argv))
		if !ok || !slices.Equal(again, argv) {
			t.Fatalf("%q → %q → %q → %q, %v", line, argv, JoinExec(argv), again, ok)
		}
	})
}
