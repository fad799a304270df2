package suite

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/hookwright/hookwright/internal/live"
	"github.com/hookwright/hookwright/manifests"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/testkit"
)

// scratchRoot holds what the tests build once per run; TestMain removes it.
var scratchRoot string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hookwright-suite-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	scratchRoot = dir
	guard := live.NewHomeGuard()
	code := testkit.Main(m)
	os.RemoveAll(dir)
	if leaked := guard.Leaked(); len(leaked) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: a test started Claude Code with the user's HOME: %v appeared (give every claude a scratch HOME)\n", leaked)
		code = 1
	}
	os.Exit(code)
}

// builtPlugin is a copy of the repository's plugin tree, with the runtime
// built for every platform next to the launcher, inside a copy of the
// repository layout (the marketplace at the parent's .claude-plugin/).
var builtPlugin = sync.OnceValues(func() (string, error) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return "", err
	}
	root := filepath.Join(scratchRoot, "repo")
	dir := filepath.Join(root, "plugin")
	copies := map[string]string{
		filepath.Join(repo, ".claude-plugin", "marketplace.json"):      filepath.Join(root, ".claude-plugin", "marketplace.json"),
		filepath.Join(repo, "plugin", ".claude-plugin", "plugin.json"): filepath.Join(dir, ".claude-plugin", "plugin.json"),
		filepath.Join(repo, "plugin", "bin", "hookwright"):             filepath.Join(dir, "bin", "hookwright"),
	}
	hooks, _ := filepath.Glob(filepath.Join(repo, "plugin", "hooks", "*.json"))
	bands, _ := filepath.Glob(filepath.Join(repo, "plugin", "hooks", "bands", "*.json"))
	for _, f := range append(hooks, bands...) {
		rel, _ := filepath.Rel(filepath.Join(repo, "plugin"), f)
		copies[f] = filepath.Join(dir, rel)
	}
	for from, to := range copies {
		if err := copyFile(from, to); err != nil {
			return "", err
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(platforms))
	sem := make(chan struct{}, 3)
	for i, p := range platforms {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			name := "hookwright-" + p.GOOS + "-" + p.GOARCH
			if p.GOOS == "windows" {
				name += ".exe"
			}
			errs[i] = testkit.BuildFile("github.com/hookwright/hookwright/cmd/hookwright", filepath.Join(dir, "bin", name),
				testkit.Options{Flags: []string{"-trimpath"}, Env: []string{"CGO_ENABLED=0", "GOOS=" + p.GOOS, "GOARCH=" + p.GOARCH}, Name: name})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return "", err
		}
	}
	return dir, nil
})

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

func pluginT(t *testing.T) string {
	t.Helper()
	dir, err := builtPlugin()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestCases runs every case on hookwright's own plugin; each is a subtest
// named by its ID, so -run 'TestCases/HWC-03' runs one. Every case must
// pass: a SKIP here means the suite no longer covers our plugin.
func TestCases(t *testing.T) {
	spec := manifests.Hookwright()
	s, err := Open(Config{Dir: pluginT(t), Spec: &spec})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, c := range Cases() {
		t.Run(c.ID, func(t *testing.T) {
			o := s.Check(context.Background(), c)
			if o.Status != Pass {
				t.Errorf("%s", o)
			}
		})
	}
}

// TestBrokenPlugins points the suite at each plugin in
// compat/testdata/broken and checks exactly which cases fail.
func TestBrokenPlugins(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "compat", "testdata", "broken", "*", "expect"))
	if len(dirs) == 0 {
		t.Fatal("no broken plugins found")
	}
	for _, expect := range dirs {
		dir := filepath.Dir(expect)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cfg, want, warns := readExpect(t, expect)
			cfg.Dir = dir
			outcomes := checkFailures(t, cfg, want)
			for _, id := range warns {
				for _, o := range outcomes {
					if o.ID == id && o.Status != Warn {
						t.Errorf("%s, want WARN", o)
					}
				}
			}
		})
	}
}

// TestLauncherWithoutAPlatform removes one platform's binary from our
// plugin: only HWC-06 fails, naming the platform.
func TestLauncherWithoutAPlatform(t *testing.T) {
	src := pluginT(t)
	repo := t.TempDir()
	dir := filepath.Join(repo, "plugin")
	if err := copyFile(filepath.Join(filepath.Dir(src), ".claude-plugin", "marketplace.json"), filepath.Join(repo, ".claude-plugin", "marketplace.json")); err != nil {
		t.Fatal(err)
	}
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == filepath.Join("bin", "hookwright-darwin-arm64") {
			return nil
		}
		to := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.Link(p, to)
	})
	if err != nil {
		t.Fatal(err)
	}
	spec := manifests.Hookwright()
	outcomes := checkFailures(t, Config{Dir: dir, Spec: &spec}, []string{"HWC-06"})
	for _, o := range outcomes {
		if o.ID == "HWC-06" && !strings.Contains(o.Detail, "darwin/arm64 picks no binary") {
			t.Errorf("HWC-06 does not name the platform: %s", o.Detail)
		}
	}
}

// TestJavaScriptPlugin runs the suite on a bkit-style plugin whose hooks
// are node scripts and whose hooks.json hookgen wrote for 2.1.32.
func TestJavaScriptPlugin(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed")
	}
	spec, err := readSpec(filepath.Join("testdata", "jsplugin", "spec.json"))
	if err != nil {
		t.Fatal(err)
	}
	outcomes := checkFailures(t, Config{Dir: filepath.Join("testdata", "jsplugin"), Versions: versions(t, "2.1.32"), Spec: &spec}, nil)
	var passed []string
	for _, o := range outcomes {
		if o.Status == Pass {
			passed = append(passed, o.ID)
		}
	}
	for _, id := range []string{"HWC-06", "HWF-01", "HWF-02", "HWF-04", "HWF-06", "HWR-06", "HWR-11", "HWR-12"} {
		if !slices.Contains(passed, id) {
			t.Errorf("%s did not pass on the JavaScript plugin", id)
		}
	}
}

func TestCaseIDsAreDocumented(t *testing.T) {
	var ids []string
	for _, c := range Cases() {
		ids = append(ids, c.ID)
	}
	var want []string
	for prefix, n := range map[string]int{"HWC": 7, "HWF": 10, "HWR": 14} {
		for i := 1; i <= n; i++ {
			want = append(want, fmt.Sprintf("%s-%02d", prefix, i))
		}
	}
	sorted := append([]string(nil), ids...)
	sort.Strings(sorted)
	sort.Strings(want)
	if !reflect.DeepEqual(sorted, want) {
		t.Fatalf("case IDs = %v, want %v", ids, want)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if !strings.Contains(string(doc), "//\t"+id+" ") {
			t.Errorf("%s is not described in the package comment", id)
		}
	}
}

func TestOutcomeLines(t *testing.T) {
	for _, tc := range []struct {
		o    Outcome
		want string
	}{
		{Outcome{ID: "HWC-03", Title: "valid JSON", Status: Pass, Detail: "3 manifests"}, "PASS HWC-03 valid JSON: 3 manifests"},
		{Outcome{ID: "HWF-02", Title: "fallback", Status: Fail, Detail: "no Stop handler"}, "FAIL HWF-02: no Stop handler"},
		{Outcome{ID: "HWR-03", Title: "marketplace", Status: Skip, Detail: "none"}, "SKIP HWR-03 marketplace: none"},
	} {
		if got := tc.o.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

func TestWordsAndTargets(t *testing.T) {
	got := words(`node "${CLAUDE_PLUGIN_ROOT}/scripts/a b.js" 'x y' z\ w && rm -rf /`)
	want := []string{"node", "${CLAUDE_PLUGIN_ROOT}/scripts/a b.js", "x y", "z w"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("words = %q, want %q", got, want)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scripts", "x.js"), []byte("//"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := checkTargets(dir, `node "${CLAUDE_PLUGIN_ROOT}/scripts/x.js" Stop`, nil); len(p) != 0 {
		t.Errorf("an existing script reported: %v", p)
	}
	if p := checkTargets(dir, `node "${CLAUDE_PLUGIN_ROOT}/scripts/y.js"`, nil); len(p) != 1 || !strings.Contains(p[0], "scripts/y.js is missing") {
		t.Errorf("a missing script: %v", p)
	}
	if p := checkTargets(dir, `"${CLAUDE_PLUGIN_ROOT}/scripts/x.js"`, nil); len(p) != 1 || !strings.Contains(p[0], "not executable") {
		t.Errorf("a non-executable program: %v", p)
	}
}

func TestCheckOutput(t *testing.T) {
	for _, tc := range []struct {
		event, stdout string
		ok            bool
	}{
		{"Stop", "", true},
		{"Stop", `{"decision":"block","reason":"write the summary"}`, true},
		{"Stop", `{"hookSpecificOutput":{"hookEventName":"Stop"}}`, false},
		{"PostToolUse", `{"hookSpecificOutput":{"hookEventName":"TaskCompleted","additionalContext":"x"}}`, false},
		{"SessionStart", `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"x"}}`, true},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"maybe"}}`, false},
		{"TaskCompleted", `{"continue":false,"stopReason":"no"}`, true},
		{"TaskCompleted", `{"context":"pal kit"}`, false},
		{"SessionEnd", `{"systemMessage":1}`, false},
	} {
		if err := checkOutput(tc.event, tc.stdout); (err == nil) != tc.ok {
			t.Errorf("checkOutput(%s, %s) = %v, want ok=%v", tc.event, tc.stdout, err, tc.ok)
		}
	}
}

// checkFailures runs the suite and requires exactly want to fail.
func checkFailures(t *testing.T, cfg Config, want []string) []Outcome {
	t.Helper()
	outcomes, _, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, o := range outcomes {
		if o.Status == Fail {
			failed = append(failed, o.ID)
		}
	}
	if !reflect.DeepEqual(failed, want) && !(len(failed) == 0 && len(want) == 0) {
		var lines []string
		for _, o := range outcomes {
			if o.Status == Fail {
				lines = append(lines, o.String())
			}
		}
		t.Errorf("failed cases = %v, want %v\n%s", failed, want, strings.Join(lines, "\n"))
	}
	return outcomes
}

// readExpect reads a broken plugin's expect file: "versions", "spec",
// "fail" and "warn" lines.
func readExpect(t *testing.T, path string) (Config, []string, []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cfg Config
	var fail, warn []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, rest, _ := strings.Cut(sc.Text(), " ")
		switch key {
		case "versions":
			cfg.Versions = versions(t, strings.Fields(rest)...)
		case "spec":
			s, err := readSpec(filepath.Join(filepath.Dir(path), rest))
			if err != nil {
				t.Fatal(err)
			}
			cfg.Spec = &s
		case "fail":
			fail = strings.Fields(rest)
		case "warn":
			warn = strings.Fields(rest)
		}
	}
	return cfg, fail, warn
}

func readSpec(path string) (manifests.Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return manifests.Spec{}, err
	}
	return manifests.ParseSpec(b)
}

func versions(t *testing.T, vs ...string) []hooks.Release {
	t.Helper()
	var out []hooks.Release
	for _, s := range vs {
		v, err := hooks.ParseRelease(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// TestWithoutBinariesNothingPasses: a checkout where make plugin has not
// run (no runtime next to the launcher) fails nothing: HWC-06 says what to
// run, as a SKIP, and no case that runs handlers passes: each says its
// handlers never ran.
func TestWithoutBinariesNothingPasses(t *testing.T) {
	built := pluginT(t)
	repo := filepath.Join(t.TempDir(), "repo")
	if out, err := exec.Command("cp", "-R", filepath.Dir(built), repo).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	bins, _ := filepath.Glob(filepath.Join(repo, "plugin", "bin", "hookwright-*"))
	for _, b := range bins {
		os.Remove(b)
	}
	spec := manifests.Hookwright()
	outcomes, _, err := Run(context.Background(), Config{Dir: filepath.Join(repo, "plugin"), Spec: &spec, Versions: versions(t, "2.0.30", "2.1.33")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, o := range outcomes {
		runsHandlers := strings.HasPrefix(o.ID, "HWF-") && o.ID >= "HWF-04" || strings.HasPrefix(o.ID, "HWR-") && o.ID >= "HWR-06"
		switch {
		case o.ID == "HWC-06" && (o.Status != Skip || !strings.Contains(o.Detail, "run make plugin")):
			t.Errorf("%s, want a SKIP that says to run make plugin", o)
		case o.Status == Fail:
			t.Errorf("%s: a checkout without binaries fails nothing", o)
		case runsHandlers && o.Status == Pass:
			t.Errorf("%s, but no handler ran", o)
		case o.Status == Skip && strings.Contains(o.Detail, "launcher found no binary"):
			skipped++
		}
	}
	if skipped == 0 {
		t.Errorf("no case says its handler never ran")
	}
}

// TestReleasedPlugin runs the suite on our plugin shaped as make release
// ships it: each runtime gzip-compressed beside the launcher, pinned by
// bin/SHA256SUMS. Every case passes (the launcher unpacks its runtime and
// the handlers run), and the folder checked is left byte for byte as it
// was: the hooks run from a private copy.
func TestReleasedPlugin(t *testing.T) {
	built := pluginT(t)
	repo := filepath.Join(t.TempDir(), "repo")
	if out, err := exec.Command("cp", "-R", filepath.Dir(built), repo).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	bin := filepath.Join(repo, "plugin", "bin")
	bins, _ := filepath.Glob(filepath.Join(bin, "hookwright-*"))
	var sums strings.Builder
	for _, b := range bins {
		raw, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(raw), filepath.Base(b))
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(raw)
		zw.Close()
		if err := os.WriteFile(b+".gz", gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(b)
	}
	if err := os.WriteFile(filepath.Join(bin, "SHA256SUMS"), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	before := treeSums(t, repo)
	spec := manifests.Hookwright()
	outcomes, failed, err := Run(context.Background(), Config{Dir: filepath.Join(repo, "plugin"), Spec: &spec, Versions: versions(t, "2.0.30", "2.1.33", "2.1.330")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outcomes {
		if o.Status == Fail || o.ID == "HWC-06" && o.Status != Pass || strings.Contains(o.Detail, "never reached the handler") {
			t.Errorf("%s", o)
		}
	}
	if failed {
		t.Errorf("the suite failed on a released plugin")
	}
	if after := treeSums(t, repo); !maps.Equal(before, after) {
		t.Errorf("the suite wrote into the folder it checks:\nbefore %v\nafter  %v", before, after)
	}
	// A .gz that unpacks to other bytes than SHA256SUMS pins is refused.
	gzs, _ := filepath.Glob(filepath.Join(bin, "hookwright-linux-arm64.gz"))
	if len(gzs) != 1 {
		t.Fatalf("no linux/arm64 runtime in %s", bin)
	}
	var other bytes.Buffer
	zw := gzip.NewWriter(&other)
	zw.Write([]byte("not the pinned runtime"))
	zw.Close()
	if err := os.WriteFile(gzs[0], other.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(Config{Dir: filepath.Join(repo, "plugin"), Spec: &spec, Versions: versions(t, "2.1.330")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range Cases() {
		if c.ID == "HWC-06" {
			if o := s.Check(context.Background(), c); o.Status != Fail || !strings.Contains(o.Detail, "but SHA256SUMS pins") {
				t.Errorf("a damaged runtime: %s", o)
			}
		}
	}
}

// treeSums returns the SHA-256 of every file under dir, by path.
func treeSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[p] = fmt.Sprintf("%x", sha256.Sum256(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestIDMapCoversEveryCase keeps IDMap in case order, one row per case;
// keeps every ID meaning one thing (no case is named like a design test,
// every design ID a case names exists, and each design ID is either carried
// by a case or listed as not carried, never both); and keeps
// compat/REPORT.md carrying the table as IDTable writes it.
func TestIDMapCoversEveryCase(t *testing.T) {
	cases, ids := Cases(), IDMap()
	if len(ids) != len(cases) || len(cases) != 31 {
		t.Fatalf("%d mappings for %d cases, want 31 each", len(ids), len(cases))
	}
	design := map[string]bool{}
	for _, d := range DesignIDs {
		design[d.ID] = true
	}
	if len(design) != 28 {
		t.Fatalf("%d design IDs, want the design's 28", len(design))
	}
	carried := map[string][]string{}
	for i, c := range cases {
		m := ids[i]
		if m.ID != c.ID || m.How == "" || (m.By != ByBehaviour && m.By != ByLoader && m.By != ByContent) {
			t.Errorf("IDMap()[%d] = %+v for case %s", i, m, c.ID)
		}
		if design[c.ID] {
			t.Errorf("case %s is named like the design's test %s: one ID, two meanings", c.ID, c.ID)
		}
		for _, d := range m.Design {
			if !design[d] {
				t.Errorf("case %s stands for %s, which the design does not name", c.ID, d)
			}
			carried[d] = append(carried[d], c.ID)
		}
	}
	for d := range design {
		_, not := NotCarried[d]
		switch {
		case not && len(carried[d]) > 0:
			t.Errorf("%s is carried by %v and listed as not carried", d, carried[d])
		case !not && len(carried[d]) == 0:
			t.Errorf("no case stands for %s, and NotCarried does not say why", d)
		}
	}
	for d := range NotCarried {
		if !design[d] {
			t.Errorf("NotCarried names %s, which the design does not name", d)
		}
	}
	report, err := os.ReadFile(filepath.Join("..", "..", "compat", "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(report), IDTable()) {
		t.Errorf("compat/REPORT.md lacks the current ID table; run make compat, or paste suite.IDTable()")
	}
}

// TestBkitShapedPlugin runs the suite on a plugin in the shape of bkit
// v2.1.38, which was loaded in real releases (compat/FACTS.md): 2.1.252
// registered all 28 of its hooks, top-level $schema and all, and 2.1.33
// refused the whole plugin over plugin.json's displayName. The suite must
// report exactly that: nothing fails on 2.1.252 and HWC-02 passes; on
// 2.1.33 HWR-02 (displayName) fails, and HWC-04 fails because 2.1.33's
// validator lacks events the file names (ConfigChange and later).
func TestBkitShapedPlugin(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed")
	}
	dir := filepath.Join("testdata", "bkit-2.1.38")
	if testing.Short() {
		// The loader-facing cases only; the full run also runs the 28
		// node hooks through every REG case (about 40 s).
		for _, tt := range []struct {
			release string
			want    map[string]Status
		}{
			{"2.1.252", map[string]Status{"HWC-01": Skip, "HWC-02": Pass, "HWC-03": Pass, "HWC-04": Pass, "HWC-07": Pass, "HWR-01": Pass, "HWR-02": Skip}},
			{"2.1.33", map[string]Status{"HWC-02": Pass, "HWC-04": Fail, "HWR-02": Fail}},
		} {
			s, err := Open(Config{Dir: dir, Versions: versions(t, tt.release)})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range Cases() {
				if want, ok := tt.want[c.ID]; ok {
					if o := s.Check(context.Background(), c); o.Status != want {
						t.Errorf("%s on %s: %s; want %s", c.ID, tt.release, o, want)
					}
				}
			}
			s.Close()
		}
		return
	}
	outcomes := checkFailures(t, Config{Dir: dir, Versions: versions(t, "2.1.252")}, nil)
	for _, o := range outcomes {
		if o.ID == "HWC-02" && o.Status != Pass {
			t.Errorf("HWC-02 on 2.1.252: %s; want PASS, since $schema loads", o)
		}
	}
	outcomes = checkFailures(t, Config{Dir: dir, Versions: versions(t, "2.1.33")}, []string{"HWC-04", "HWR-02"})
	for _, o := range outcomes {
		if o.ID == "HWC-04" && (strings.Contains(o.Detail, "$schema") || !strings.Contains(o.Detail, "ConfigChange")) {
			t.Errorf("HWC-04 on 2.1.33 blames the wrong thing: %s", o)
		}
	}
}
