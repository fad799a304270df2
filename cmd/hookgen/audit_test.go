package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// fixtures is the committed marketplace of plugin shapes the live test
// loads into real releases.
const fixtures = "../../internal/oracle/testdata/marketplace"

// table parses the audit's table: the header's column starts cut each row
// into cells, by plugin name.
func table(t *testing.T, out string) (header []string, rows map[string][]string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "PLUGIN ") {
			at = i
			break
		}
	}
	if at < 0 {
		t.Fatalf("no table:\n%s", out)
	}
	var starts []int
	h := lines[at]
	for i := range h {
		if h[i] != ' ' && (i == 0 || h[i-1] == ' ' && i > 1 && h[i-2] == ' ') {
			starts = append(starts, i)
		}
	}
	cut := func(l string) []string {
		var cells []string
		for k, st := range starts {
			end := len(l)
			if k+1 < len(starts) && starts[k+1] < end {
				end = starts[k+1]
			}
			if st >= len(l) {
				cells = append(cells, "")
				continue
			}
			cells = append(cells, strings.TrimSpace(l[st:end]))
		}
		return cells
	}
	header = cut(h)
	rows = map[string][]string{}
	for _, l := range lines[at+1:] {
		if strings.TrimSpace(l) == "" {
			break
		}
		c := cut(l)
		rows[c[0]] = c[1:]
	}
	return header, rows
}

// TestAuditTable: one column per release given, the cells' words (as
// --help lists them), the details, the summary naming the range, and exit
// 1 for a refusal.
func TestAuditTable(t *testing.T) {
	e, out, errb := fakeEnv(t)
	code := hookgen(t, e, "audit", "--cc-version", "2.0.30", "--cc-version", "2.1.252", "--cc-version", "2.1.330", fixtures)
	if code != exitInvalid {
		t.Fatalf("exit %d, want %d: %s", code, exitInvalid, errb)
	}
	header, rows := table(t, out.String())
	if strings.Join(header, "|") != "PLUGIN|2.0.30|2.1.252|2.1.330" {
		t.Errorf("header %q", header)
	}
	want := map[string]string{
		"clean":                    "loads|loads|loads",
		"http-var":                 "hooks file refused|hooks file refused|1 dropped",
		"top-level-guard":          "1 dropped|1 dropped|plugin refused",
		"long-timeout":             "1 dropped|1 dropped|1 dropped",
		"prompt-handlers":          "2 dropped|loads|loads",
		"display-name":             "plugin refused|loads|loads",
		"unknown-event":            "hooks file refused|hooks file refused|1 dropped",
		"skills-only":              "2 dropped|2 dropped|2 dropped",
		"escape":                   "skipped|skipped|skipped",
		"author-string":            "plugin refused|plugin refused|loads",
		"guard-bad-url":            "hooks file refused|hooks file refused|plugin refused",
		"schema-key":               "plugin refused|loads|loads",
		"path-no-dot":              "plugin refused|plugin refused|plugin refused",
		"shell-zsh":                "loads|hooks file refused|1 dropped",
		"top-level-stop":           "1 dropped|1 dropped|1 dropped",
		"surface-key":              "loads|loads|hooks file refused",
		"guards-in-experimental":   "plugin refused|loads|plugin refused",
		"bidi-name":                "loads|plugin refused|plugin refused",
		"ph-array-objects-invalid": "plugin refused|plugin refused|1 dropped",
		"ph-edge-files":            "1 dropped|loads|loads",
		"ph-only-unknown":          "hooks file refused|hooks file refused|no hook runs",
		"ph-only-prompt":           "no hook runs|loads|loads",
		"ph-same-twice":            "loads|loads|loads",
		"dependencies-object":      "plugin refused|plugin refused|plugin refused",
	}
	for name, w := range want {
		if got := strings.Join(rows[name], "|"); got != w {
			t.Errorf("%s: %q, want %q", name, got, w)
		}
	}
	for _, w := range []string{
		`top-level-guard: plugin refused on 2.1.257 and later: hooks.json /PreToolUse: PreToolUse hooks sit outside "hooks"`,
		"escape: skipped: marketplace: path leaves the marketplace root",
		"judged on 2.0.30, 2.1.252, 2.1.330 (--cc-version)",
		"lints and ignored keys not shown (--fail-on lint shows them)",
	} {
		if !strings.Contains(strings.ReplaceAll(out.String(), "\n", " "), w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if utf8.RuneCountInString(l) > defaultWidth {
			t.Errorf("a line of %d columns: %q", utf8.RuneCountInString(l), l)
		}
	}
}

// TestAuditHelpMatchesOutput: every cell the audit prints is one --help
// documents, and --help shows the cells as the audit prints them.
func TestAuditHelpMatchesOutput(t *testing.T) {
	e, help, _ := fakeEnv(t)
	hookgen(t, e, "audit", "--help")
	e, out, _ := fakeEnv(t)
	hookgen(t, e, "audit", "--wide", fixtures)
	_, rows := table(t, out.String())
	seen := map[string]bool{}
	for _, cells := range rows {
		for _, c := range cells {
			if n := strings.TrimSuffix(c, " dropped"); n != c {
				c = "N dropped"
			}
			seen[c] = true
		}
	}
	for c := range seen {
		if !strings.Contains(help.String(), "   "+c+" ") {
			t.Errorf("the audit prints %q, which --help does not list:\n%s", c, help)
		}
	}
	for _, c := range []string{"loads", "N dropped", "hooks file refused", "no hook runs", "plugin refused", "skipped"} {
		if !seen[c] {
			t.Errorf("the fixtures never show %q", c)
		}
	}
}

// TestAuditFitsByDefault: at the default release set every line fits 120
// columns (the spans of releases grouped, or one line of spans per
// plugin), and --width narrows it.
func TestAuditFitsByDefault(t *testing.T) {
	for _, width := range []string{"", "80", "60"} {
		e, out, _ := fakeEnv(t)
		args := []string{"audit"}
		max := defaultWidth
		if width != "" {
			args = append(args, "--width", width)
			fmt.Sscan(width, &max)
		}
		hookgen(t, e, append(args, fixtures)...)
		for _, l := range strings.Split(out.String(), "\n") {
			if utf8.RuneCountInString(l) > max {
				t.Errorf("width %s: a line of %d columns: %q", width, utf8.RuneCountInString(l), l)
			}
		}
		if !strings.Contains(out.String(), "http-var") || !strings.Contains(out.String(), "2.1.257 and later") {
			t.Errorf("width %s: the spans are missing:\n%s", width, out)
		}
	}
}

// TestAuditJSONAndMarkdown: --json is one object with every plugin's
// verdict per release; --markdown a table a CI summary renders.
func TestAuditJSONAndMarkdown(t *testing.T) {
	e, out, _ := fakeEnv(t)
	if code := hookgen(t, e, "audit", "--json", "--cc-version", "2.1.330", fixtures); code != exitInvalid {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Judged   string
		Releases []string
		Plugins  []struct {
			Name     string
			Releases []struct{ Release, Verdict, Reason string }
		}
		Summary map[string]int
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Plugins) < 70 || doc.Plugins[2].Name != "top-level-guard" || doc.Plugins[2].Releases[0].Verdict != "plugin refused" ||
		!strings.Contains(doc.Plugins[2].Releases[0].Reason, "/PreToolUse") || doc.Judged != "2.1.330 (--cc-version)" {
		t.Errorf("json = %+v", doc)
	}
	e, out, _ = fakeEnv(t)
	hookgen(t, e, "audit", "--markdown", "--cc-version", "2.1.330", "--cc-version", "2.0.30", fixtures)
	md := out.String()
	for _, w := range []string{"| plugin | 2.1.330 | 2.0.30 |", "|---|---|---|", "| top-level-guard | **plugin refused** | 1 dropped |"} {
		if !strings.Contains(md, w) {
			t.Errorf("markdown lacks %q:\n%s", w, md)
		}
	}
}

// TestAuditExitLevels: a marketplace whose worst is a drop exits 0, and 1
// with --strict.
func TestAuditExitLevels(t *testing.T) {
	e, out, _ := fakeEnv(t)
	if code := hookgen(t, e, "audit", "--cc-version", "2.1.100", "--json", fixtures); code != exitInvalid {
		t.Errorf("2.1.100 refuses http-var: exit %d\n%s", code, out)
	}
	for _, tt := range []struct {
		flag string
		code int
	}{{"--fail-on=rejected", exitOK}, {"--strict", exitInvalid}} {
		e, out, _ := fakeEnv(t)
		// 2.0.30 without the plugins it refuses: only drops remain, so
		// check one plugin folder through validate, the same levels.
		if code := hookgen(t, e, "validate", tt.flag, "--cc-version", "2.0.30", fixtures+"/plugins/prompt-handlers"); code != tt.code {
			t.Errorf("validate %s on prompt-handlers: exit %d, want %d\n%s", tt.flag, code, tt.code, out)
		}
	}
	e, _, errb := fakeEnv(t)
	if code := hookgen(t, e, "audit", t.TempDir()); code != exitFailure || !strings.Contains(errb.String(), "marketplace.json") {
		t.Errorf("no marketplace.json: exit %d, %s", code, errb)
	}
}

// TestValidateRejectionFirst: an unknown event among a hundred other
// findings is the first line, and the exit code is 1 for it alone.
func TestValidateRejectionFirst(t *testing.T) {
	var hs []string
	for i := 0; i < 100; i++ {
		hs = append(hs, `{"type":"command","command":"x","timeout":5000,"note":1}`)
	}
	e, out, _ := fakeEnv(t)
	e.In = strings.NewReader(`{"hooks":{"Stop":[{"matcher":"Bash","hooks":[` + strings.Join(hs, ",") + `]}],"NoSuchEvent":[]}}`)
	if code := hookgen(t, e, "validate", "--cc-version", "2.1.33", "-"); code != exitInvalid {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 203 || !strings.HasPrefix(lines[0], "rejected hooks.json /hooks/NoSuchEvent ") ||
		lines[202] != "hookgen validate: judged 2.1.33 (--cc-version): hooks file refused" {
		t.Errorf("%d lines, first %q, last %q; want 202 findings, the unknown event first, and the summary", len(lines), lines[0], lines[len(lines)-1])
	}
	e, out, _ = fakeEnv(t)
	e.In = strings.NewReader(`{"hooks":{"Stop":[{"matcher":"Bash","hooks":[` + strings.Join(hs, ",") + `]}]}}`)
	if code := hookgen(t, e, "validate", "--cc-version", "2.1.33", "-"); code != exitOK {
		t.Errorf("lints and ignored keys alone: exit %d, want 0\n%s", code, out)
	}
}

// TestAuditGitURL clones a marketplace (a local repository by file://
// URL, standing in for a remote) shallow into a temporary folder, audits
// it and removes the clone.
func TestAuditGitURL(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	if err := copyDir(fixtures, repo); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "m"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	before, _ := filepath.Glob(filepath.Join(os.TempDir(), "hookgen-audit-*"))
	e, out, errb := fakeEnv(t)
	if code := hookgen(t, e, "audit", "--cc-version", "2.1.330", "file://"+repo); code != exitInvalid ||
		!strings.Contains(out.String(), "top-level-guard: plugin refused on 2.1.257 and later") {
		t.Errorf("exit %d\n%s%s", code, out, errb)
	}
	after, _ := filepath.Glob(filepath.Join(os.TempDir(), "hookgen-audit-*"))
	if len(after) > len(before) {
		t.Errorf("clone left behind: %v", after)
	}
}

// copyDir copies the regular files under src into dst.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

// TestMatrixFits: hookgen matrix fits the width by default (five
// columns), --wide adds the evidence whatever the width.
func TestMatrixFits(t *testing.T) {
	for _, width := range []int{defaultWidth, 80, 60} {
		e, out, _ := fakeEnv(t)
		if code := hookgen(t, e, "matrix", "--width", fmt.Sprint(width)); code != exitOK {
			t.Fatalf("exit %d", code)
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if utf8.RuneCountInString(l) > width {
				t.Errorf("width %d: a line of %d: %q", width, utf8.RuneCountInString(l), l)
			}
		}
		if !strings.HasPrefix(out.String(), "KIND ") || !strings.Contains(out.String(), "PreToolUse") || strings.Contains(out.String(), "WITNESS") {
			t.Errorf("width %d:\n%s", width, out)
		}
	}
	e, out, _ := fakeEnv(t)
	hookgen(t, e, "matrix", "--wide", "--width", "60")
	if !strings.Contains(strings.Split(out.String(), "\n")[0], "WITNESS") || !strings.Contains(out.String(), "probe") {
		t.Errorf("--wide lacks the evidence:\n%s", out)
	}
}

// TestDocsAuditExample: the audit docs/validate.md shows is what the
// command prints for its marketplace (three fixtures under other names).
func TestDocsAuditExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "validate.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```\n$ hookgen audit .\n")
	block, _, _ = strings.Cut(block, "```\n")
	if !ok || block == "" {
		t.Fatal("docs/validate.md shows no audit")
	}
	root := t.TempDir()
	for name, fixture := range map[string]string{"guard": "top-level-guard", "notifier": "unknown-event", "teams": "ph-edge-files"} {
		if err := copyDir(filepath.Join(fixtures, "plugins", fixture), filepath.Join(root, "plugins", name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, ".claude-plugin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude-plugin", "marketplace.json"), []byte(`{"name":"my-market","owner":{"name":"me"},"plugins":[{"name":"guard","source":"./plugins/guard"},{"name":"notifier","source":"./plugins/notifier"},{"name":"teams","source":"./plugins/teams"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	e, out, _ := fakeEnv(t)
	hookgen(t, e, "audit", root)
	if out.String() != block {
		t.Errorf("docs/validate.md shows:\n%s\nthe audit prints:\n%s", block, out)
	}
}

// TestAuditLints: lints show with --fail-on lint (and fail the run), and
// only then.
func TestAuditLints(t *testing.T) {
	const line = "long-timeout: lint on 2.0.12 and later: hooks.json /hooks/SessionEnd/0/hooks/0/timeout: timeout is in seconds"
	e, out, _ := fakeEnv(t)
	hookgen(t, e, "audit", "--cc-version", "2.1.330", fixtures)
	if strings.Contains(out.String(), line) {
		t.Errorf("a lint shown without --fail-on lint:\n%s", out)
	}
	e, out, _ = fakeEnv(t)
	if code := hookgen(t, e, "audit", "--fail-on", "lint", "--cc-version", "2.1.330", fixtures); code != exitInvalid || !strings.Contains(out.String(), line) {
		t.Errorf("--fail-on lint: exit %d, the lint shown %v:\n%s", code, strings.Contains(out.String(), line), out)
	}
}

// TestValidateRanges: the releases judged come from engines by default,
// else every release from the floor; --since and --releases narrow them;
// the summary names the range and labels each span inside it; a release
// where every hook is dropped fails as a refusal.
func TestValidateRanges(t *testing.T) {
	httpVar := filepath.Join(fixtures, "plugins", "http-var")
	for _, tt := range []struct {
		args    []string
		code    int
		summary string
	}{
		{[]string{httpVar}, exitInvalid, "judged 2.0.12 and later (every release that loads plugins): 2.0.12–2.1.256: hooks file refused · 2.1.257 and later: 1 dropped"},
		{[]string{"--since", "2.1.257", httpVar}, exitOK, "judged 2.1.257 and later (--since): 1 dropped on every release judged"},
		{[]string{"--releases", ">=2.1.100 <2.1.300", httpVar}, exitInvalid, "2.1.100–2.1.256: hooks file refused · 2.1.257 and later in the range: 1 dropped"},
		{[]string{"--releases", "<2.1.0 || >=2.1.300", httpVar}, exitInvalid, "(and the range's releases after): hooks file refused · 2.1.300 and later: 1 dropped"},
		{[]string{"--cc-version", "2.1.330", filepath.Join(fixtures, "plugins", "ph-only-unknown")}, exitInvalid, "judged 2.1.330 (--cc-version): no hook runs"},
		{[]string{filepath.Join(fixtures, "plugins", "engines-later")}, exitOK, `judged 9.0.0 and later (plugin.json engines["claude-code"])`},
	} {
		e, out, errb := fakeEnv(t)
		code := hookgen(t, e, append([]string{"validate"}, tt.args...)...)
		if code != tt.code || !strings.Contains(out.String(), tt.summary) {
			t.Errorf("validate %v: exit %d, want %d; want %q in:\n%s%s", tt.args, code, tt.code, tt.summary, out, errb)
		}
	}
}
