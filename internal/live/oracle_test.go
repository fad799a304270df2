package live

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/hookwright/hookwright/hooks"
	mkt "github.com/hookwright/hookwright/internal/marketplace"
	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/oracle"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// updateLoader rewrites internal/oracle/testdata/loader.json from what the
// releases did.
var updateLoader = flag.Bool("update-loader", false, "TestLoaderShapes: write what the releases did to internal/oracle/testdata/loader.json")

// The committed fixtures (built for the oracle, not copied from any
// plugin): plugin folders loaded with --plugin-dir, and marketplaces added
// and installed with claude plugin.
var (
	oracleFixtures     = filepath.Join("..", "oracle", "testdata", "marketplace", "plugins")
	oracleMarketplaces = filepath.Join("..", "oracle", "testdata", "marketplaces")
	loaderRecordPath   = filepath.Join("..", "oracle", "testdata", "loader.json")
)

// TestLoaderShapes is the live proof of the oracle: every fixture plugin is
// loaded into each band-edge release, as a --plugin-dir and from the
// fixture marketplaces (claude plugin marketplace add, claude plugin
// install), in a session with one Bash call. Each hook of a fixture writes
// a mark when it runs. For every plugin, the marks and what the debug log
// says about it (plugin refused, which hooks file refused, a named file
// missing, a duplicate, entries ignored, its MCP servers off) must be what
// hookgen's oracle predicts, and the sessions' "Registered N hooks" the
// sum of its counts. -update-loader writes what the releases did to
// internal/oracle/testdata/loader.json, which the oracle's offline tests
// hold it to.
func TestLoaderShapes(t *testing.T) {
	Available(t)
	releases := bandEdgeReleases
	if *releaseFlag != "" {
		releases = strings.Split(*releaseFlag, ",")
	}
	record := LoaderRecord{Releases: map[string]*ReleaseRecord{}}
	if b, err := os.ReadFile(loaderRecordPath); err == nil {
		_ = json.Unmarshal(b, &record)
		if record.Releases == nil {
			record.Releases = map[string]*ReleaseRecord{}
		}
	}
	for _, v := range releases {
		v = strings.TrimSpace(v)
		t.Run(v, func(t *testing.T) {
			claude := installT(t, v)
			rel := &ReleaseRecord{Plugins: map[string]PluginRecord{}}
			folderSession(t, claude, v, rel)
			marketplaceSession(t, claude, v, rel)
			record.Releases[v] = rel
		})
	}
	if *updateLoader && !t.Failed() || *updateLoader && os.Getenv("HOOKWRIGHT_UPDATE_ANYWAY") != "" {
		b, err := json.MarshalIndent(record, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(loaderRecordPath, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// folderSession loads every fixture folder with --plugin-dir in one
// session and checks each against the oracle.
func folderSession(t *testing.T, claude, v string, rel *ReleaseRecord) {
	t.Helper()
	entries, err := os.ReadDir(oracleFixtures)
	if err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	var names, dirs []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(scratch, e.Name())
		if err := copyTree(filepath.Join(oracleFixtures, e.Name()), dir); err != nil {
			t.Fatal(err)
		}
		names = append(names, e.Name())
		dirs = append(dirs, dir)
	}
	dirs = append(dirs, writeControlPlugin(t, scratch))
	marks := filepath.Join(t.TempDir(), "marks")
	_, res := session(t, claude, modelapi.Script{bash("true")}, sessionOpts{pluginDirs: dirs, env: []string{"HW_MARKS=" + marks}})
	got, fired := readMarks(t, marks)
	rel.Fired = fired
	n, ok := RegisteredHooks(res.DebugLog)
	if !ok {
		t.Fatalf("%s: no \"Registered N hooks\" line", v)
	}
	rel.Registered = n
	logs := Classify(res.DebugLog, names)
	want := len(ControlEvents)
	for _, name := range names {
		p, err := mkt.ReadPlugin(filepath.Join(oracleFixtures, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		seen := PluginRecord{Marks: got[name], Log: logs[name]}
		rel.Plugins[name] = seen
		pred, vd, err := Predict(hooks.MustRelease(v), name, p, fired)
		if err != nil {
			t.Fatal(err)
		}
		want += len(vd.Hooks)
		compareRecord(t, v, name, pred, seen, vd)
	}
	if n != want {
		t.Errorf("%s registered %d hooks from the folders; the oracle says %d (the control plugin's %d included)", v, n, want, len(ControlEvents))
	}
	if t.Failed() {
		t.Logf("debug log:\n%s", res.DebugLog)
	}
}

// marketplaceSession adds every fixture marketplace, installs each of its
// plugins, runs one session and checks each plugin against the oracle.
func marketplaceSession(t *testing.T, claude, v string, rel *ReleaseRecord) {
	t.Helper()
	mkts, err := os.ReadDir(oracleMarketplaces)
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	type group struct {
		names   []string
		plugins []oracle.Plugin
		logs    [][]string
	}
	var groups []group
	var names []string
	for _, e := range mkts {
		dir := filepath.Join(t.TempDir(), e.Name())
		if err := copyTree(filepath.Join(oracleMarketplaces, e.Name()), dir); err != nil {
			t.Fatal(err)
		}
		m, err := mkt.Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		added := claudeTry(t, claude, home, "plugin", "marketplace", "add", dir)
		var g group
		for _, p := range m.Plugins {
			p.Files.Name = p.Name
			var log []string
			switch {
			case added != nil:
				log = []string{LogMarketplaceRefused}
			case claudeTry(t, claude, home, "plugin", "install", p.Name+"@"+m.Name) != nil:
				log = []string{LogPluginRefused}
			}
			g.names = append(g.names, p.Name)
			g.plugins = append(g.plugins, p.Files)
			g.logs = append(g.logs, log)
			names = append(names, p.Name)
		}
		groups = append(groups, g)
	}
	marks := filepath.Join(t.TempDir(), "marks")
	control := writeControlPlugin(t, t.TempDir())
	_, res := session(t, claude, modelapi.Script{bash("true")}, sessionOpts{home: home, pluginDirs: []string{control}, env: []string{"HW_MARKS=" + marks}})
	got, fired := readMarks(t, marks)
	logs := Classify(res.DebugLog, names)
	n, _ := RegisteredHooks(res.DebugLog)
	rel.MarketplaceRegistered = n
	want := len(ControlEvents)
	for _, g := range groups {
		preds, err := PredictMarketplace(hooks.MustRelease(v), g.names, g.plugins, fired)
		if err != nil {
			t.Fatal(err)
		}
		vds, _ := oracle.JudgeMarketplace(hooks.MustRelease(v), g.plugins)
		for i, name := range g.names {
			log := g.logs[i]
			if log == nil {
				log = logs[name]
			}
			seen := PluginRecord{Marks: got[name], Log: log}
			rel.Plugins[name] = seen
			want += len(vds[i].Hooks)
			compareRecord(t, v, name, preds[i], seen, vds[i])
		}
	}
	if n != want {
		t.Errorf("%s registered %d hooks from the marketplaces; the oracle says %d", v, n, want)
	}
	if t.Failed() {
		t.Logf("marketplace session debug log:\n%s", res.DebugLog)
	}
}

// compareRecord fails t where what the release did differs from what the
// oracle predicts.
func compareRecord(t *testing.T, v, name string, pred, seen PluginRecord, vd oracle.Verdict) {
	t.Helper()
	if !slices.Equal(pred.Marks, seen.Marks) || !slices.Equal(pred.Log, seen.Log) {
		var fs []string
		for _, f := range vd.Findings {
			fs = append(fs, "    "+f.String())
		}
		t.Errorf("%s %s: the release ran %q and logged %q; the oracle says %q and %q:\n%s",
			v, name, seen.Marks, seen.Log, pred.Marks, pred.Log, strings.Join(fs, "\n"))
	}
}

// claudeTry runs a claude subcommand with home as HOME; the error is its
// failure with the output.
func claudeTry(t *testing.T, claude, home string, args ...string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, args...)
	cmd.Dir = home
	cmd.Env = baseEnv(home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("claude %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// writeControlPlugin writes the plugin that marks every event it sees.
func writeControlPlugin(t *testing.T, dir string) string {
	t.Helper()
	root := filepath.Join(dir, controlPlugin)
	hooks := map[string]any{}
	for _, ev := range ControlEvents {
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command",
			"command": `cat > /dev/null; echo ` + controlPlugin + "." + ev + ` >> "$HW_MARKS"`}}}}
	}
	b, _ := json.Marshal(map[string]any{"hooks": hooks})
	writeFile(t, filepath.Join(root, "hooks", "hooks.json"), string(b))
	writeFile(t, filepath.Join(root, ".claude-plugin", "plugin.json"), `{"name": "`+controlPlugin+`"}`)
	return root
}

// readMarks returns the marks by plugin, sorted, and the events the
// control plugin saw fire.
func readMarks(t *testing.T, path string) (map[string][]string, []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string][]string{}
	var fired []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		plugin, tag, ok := strings.Cut(l, ".")
		if !ok {
			continue
		}
		if plugin == controlPlugin {
			fired = append(fired, tag)
			continue
		}
		out[plugin] = append(out[plugin], l)
	}
	for _, m := range out {
		sort.Strings(m)
	}
	sort.Strings(fired)
	return out, slices.Compact(fired)
}

// copyTree copies the regular files and folders under src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
