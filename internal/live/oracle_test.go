package live

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/oracle"
)

// oracleFixtures holds the committed plugin shapes (built for the oracle,
// not copied from any plugin): one folder per plugin.
var oracleFixtures = filepath.Join("..", "oracle", "testdata", "marketplace", "plugins")

// fixture is one plugin shape and what the oracle says of it on a release.
type fixture struct {
	name, dir         string
	hooks, manifest   []byte
	registers         int
	rejected, dropped int
	// announced counts the drops the loader logs ("entry ignored"): an
	// unknown event or an invalid entry; others are silent.
	announced int
}

// TestOracleAgreesWithLoader loads every plugin fixture into each
// band-edge release in one session and checks that hookgen validate's
// consequence is what the loader did: the "Registered N hooks" count is the
// sum of oracle.Registers (a refused plugin or hooks.json registers none,
// a dropped entry is not counted); a hooks.json the oracle calls rejected
// up to 2.1.252 logs a load failure for that plugin; on 2.1.257 and later a
// plugin the oracle says loads with an invalid entry or unknown event
// dropped gets an "entry ignored" warning.
func TestOracleAgreesWithLoader(t *testing.T) {
	Available(t)
	for _, v := range bandEdgeReleases {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			claude := installT(t, v)
			fx := loadFixtures(t, hooks.MustRelease(v))
			var dirs []string
			want := 0
			for _, f := range fx {
				dirs = append(dirs, f.dir)
				want += f.registers
			}
			_, res := session(t, claude, modelapi.Script{}, sessionOpts{pluginDirs: dirs})
			got, ok := RegisteredHooks(res.DebugLog)
			if !ok || got != want {
				t.Errorf("%s registered %d hooks (line found %v); the oracle says %d:\n%s", v, got, ok, want, table(fx))
			}
			ignored := strings.Join(IgnoredHookEntries(res.DebugLog), "\n")
			for _, f := range fx {
				if f.rejected > 0 && !refusedIn(res.DebugLog, f.name) {
					t.Errorf("%s: the oracle says %s is refused; the log has no failure naming it", v, f.name)
				}
				if f.rejected == 0 && f.announced > 0 && !hooks.MustRelease(v).Less(hooks.MustRelease(compat.EntriesTolerated)) && !strings.Contains(ignored, f.name) {
					t.Errorf("%s: the oracle says %s loads with %d dropped; no \"entry ignored\" warning names it:\n%s", v, f.name, f.dropped, ignored)
				}
			}
			if t.Failed() {
				t.Logf("debug log:\n%s", res.DebugLog)
			}
		})
	}
}

// refusedIn reports whether a debug log has a line that names plugin and
// says it failed to load: "Failed to load hooks for p" (up to 2.1.252),
// "Failed to load session plugin from .../p" (2.1.330), or an error line
// naming it (a plugin.json refused).
func refusedIn(debugLog, plugin string) bool {
	for _, l := range strings.Split(debugLog, "\n") {
		if !strings.Contains(l, plugin) {
			continue
		}
		low := strings.ToLower(l)
		if strings.Contains(low, "failed to load") || strings.Contains(low, "hook load failed") || strings.Contains(l, "[ERROR]") ||
			strings.Contains(low, "unrecognized key") || strings.Contains(low, "validation error") {
			return true
		}
	}
	return false
}

// loadFixtures copies every fixture into a temp folder (a release may
// write into a plugin folder) and asks the oracle about each on v.
func loadFixtures(t *testing.T, v hooks.Release) []fixture {
	t.Helper()
	entries, err := os.ReadDir(oracleFixtures)
	if err != nil {
		t.Fatal(err)
	}
	var out []fixture
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(t.TempDir(), e.Name())
		if err := copyTree(filepath.Join(oracleFixtures, e.Name()), dir); err != nil {
			t.Fatal(err)
		}
		f := fixture{name: e.Name(), dir: dir}
		f.hooks = readOptional(t, filepath.Join(dir, "hooks", "hooks.json"))
		f.manifest = readOptional(t, filepath.Join(dir, ".claude-plugin", "plugin.json"))
		if f.registers, err = oracle.Registers(v, f.hooks, f.manifest); err != nil {
			t.Fatal(err)
		}
		// The other hooks files plugin.json names load on their own: a
		// refused one is skipped and the rest of the plugin still loads.
		if mfs, _ := oracle.CheckPlugin(v, orEmpty(f.manifest)); f.manifest == nil || oracle.Count(mfs, compat.Rejected) == 0 {
			for _, name := range oracle.ExtraHooksPaths(f.manifest) {
				n, err := oracle.Registers(v, readOptional(t, filepath.Join(dir, filepath.FromSlash(name))), nil)
				if err != nil {
					t.Fatal(err)
				}
				f.registers += n
			}
		}
		for _, doc := range []struct {
			b     []byte
			check func(hooks.Release, []byte) ([]oracle.Finding, error)
		}{{f.hooks, oracle.CheckHooks}, {f.manifest, oracle.CheckPlugin}} {
			if doc.b == nil {
				continue
			}
			fs, err := doc.check(v, doc.b)
			if err != nil {
				t.Fatal(err)
			}
			f.rejected += oracle.Count(fs, compat.Rejected)
			f.dropped += oracle.Count(fs, compat.Dropped)
			for _, x := range fs {
				if x.Consequence == compat.Dropped && (x.Rule == compat.RuleUnknownEvent || x.Rule == compat.RuleEntryInvalid) {
					f.announced++
				}
			}
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		t.Fatalf("no fixtures in %s", oracleFixtures)
	}
	return out
}

// orEmpty is b, or an empty object for nil.
func orEmpty(b []byte) []byte {
	if b == nil {
		return []byte(`{"name":"x"}`)
	}
	return b
}

// table renders what the oracle says of each fixture, for a failure.
func table(fx []fixture) string {
	var lines []string
	for _, f := range fx {
		lines = append(lines, "  "+f.name+": registers "+itoa(f.registers)+", rejected "+itoa(f.rejected)+", dropped "+itoa(f.dropped))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// itoa formats a small int.
func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// readOptional reads path, nil when it does not exist.
func readOptional(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
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
