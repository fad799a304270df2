package oracle_test

import (
	"encoding/json"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/live"
	"github.com/hookwright/hookwright/internal/marketplace"
	"github.com/hookwright/hookwright/internal/oracle"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestJudgeAgreesWithTheReleases holds the oracle, offline, to what the
// band-edge releases did with every committed fixture
// (testdata/loader.json, written by internal/live's TestLoaderShapes
// -update-loader from real sessions): for each plugin and release, the
// hooks that ran (their marks) and what the debug log said about it must
// be what Judge predicts, and the sessions' "Registered N hooks" the sum
// of its counts.
func TestJudgeAgreesWithTheReleases(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "loader.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec live.LoaderRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Releases) < 5 {
		t.Fatalf("the record holds %d releases, want the five band edges", len(rec.Releases))
	}
	folders, err := os.ReadDir(filepath.Join("testdata", "marketplace", "plugins"))
	if err != nil {
		t.Fatal(err)
	}
	mkts, err := os.ReadDir(filepath.Join("testdata", "marketplaces"))
	if err != nil {
		t.Fatal(err)
	}
	pairs := 0
	for release, r := range rec.Releases {
		v := hooks.MustRelease(release)
		registered := len(live.ControlEvents)
		for _, e := range folders {
			seen, ok := r.Plugins[e.Name()]
			if !ok {
				t.Errorf("%s: no record of %s: run TestLoaderShapes -update-loader", release, e.Name())
				continue
			}
			p, err := marketplace.ReadPlugin(filepath.Join("testdata", "marketplace", "plugins", e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			pred, vd, err := live.Predict(v, e.Name(), p, r.Fired)
			if err != nil {
				t.Fatal(err)
			}
			registered += len(vd.Hooks)
			agree(t, release, e.Name(), pred, seen, vd)
			pairs++
		}
		if registered != r.Registered {
			t.Errorf("%s registered %d hooks from the folders; the oracle says %d", release, r.Registered, registered)
		}
		registered = len(live.ControlEvents)
		for _, e := range mkts {
			m, err := marketplace.Read(filepath.Join("testdata", "marketplaces", e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			var ps []oracle.Plugin
			for _, p := range m.Plugins {
				p.Files.Name = p.Name
				names = append(names, p.Name)
				ps = append(ps, p.Files)
			}
			preds, err := live.PredictMarketplace(v, names, ps, r.Fired)
			if err != nil {
				t.Fatal(err)
			}
			vds, _ := oracle.JudgeMarketplace(v, ps)
			for i, name := range names {
				registered += len(vds[i].Hooks)
				agree(t, release, name, preds[i], r.Plugins[name], vds[i])
				pairs++
			}
		}
		if registered != r.MarketplaceRegistered {
			t.Errorf("%s registered %d hooks from the marketplaces; the oracle says %d", release, r.MarketplaceRegistered, registered)
		}
	}
	t.Logf("%d (plugin, release) pairs agree", pairs)
}

// agree fails t where the record and the prediction differ.
func agree(t *testing.T, release, name string, pred, seen live.PluginRecord, vd oracle.Verdict) {
	t.Helper()
	if slices.Equal(pred.Marks, seen.Marks) && slices.Equal(pred.Log, seen.Log) {
		return
	}
	var fs []string
	for _, f := range vd.Findings {
		fs = append(fs, "    "+f.String())
	}
	sort.Strings(fs)
	t.Errorf("%s %s: the release ran %q and logged %q; the oracle says %q and %q:\n%s",
		release, name, seen.Marks, seen.Log, pred.Marks, pred.Log, strings.Join(fs, "\n"))
}
