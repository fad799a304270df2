package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	suite "github.com/hookwright/hookwright/internal/compatsuite"
	"github.com/hookwright/hookwright/internal/doctor"
	"github.com/hookwright/hookwright/internal/marketplace"
	"github.com/hookwright/hookwright/internal/oracle"
	"github.com/hookwright/hookwright/schemas"
)

// oneVerdictReleases are the releases the live tier loads the fixtures
// into (internal/oracle/testdata/loader.json).
var oneVerdictReleases = []string{"2.0.30", "2.1.33", "2.1.100", "2.1.252", "2.1.330"}

// TestOneVerdict feeds every fixture plugin through every tool that
// judges a plugin for a release, and requires each to give the oracle's
// verdict: hookgen validate's exit code, hookgen audit's cell, the
// compat suite's loader cases (HWC-01..04, HWR-01..03: FAIL where the
// oracle refuses something), hookgen doctor's manifest check, and, for the
// hooks.json alone, the JSON Schema of the release's band. None of them
// carries a rule of its own; the oracle itself is held to what the
// releases did by internal/oracle's TestJudgeAgreesWithTheReleases.
func TestOneVerdict(t *testing.T) {
	plugins := filepath.Join(fixtures, "plugins")
	entries, err := os.ReadDir(plugins)
	if err != nil {
		t.Fatal(err)
	}
	loaderCases := map[string]bool{}
	for _, m := range suite.IDMap() {
		if m.By == suite.ByLoader {
			loaderCases[m.ID] = true
		}
	}
	for _, release := range oneVerdictReleases {
		v := hooks.MustRelease(release)
		e, out, _ := fakeEnv(t)
		hookgen(t, e, "audit", "--json", "--cc-version", release, fixtures)
		var doc struct {
			Plugins []struct {
				Name     string
				Releases []struct{ Verdict string }
			}
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		audit := map[string]string{}
		for _, p := range doc.Plugins {
			audit[p.Name] = p.Releases[0].Verdict
		}
		for _, entry := range entries {
			name := entry.Name()
			dir := filepath.Join(plugins, name)
			p, err := marketplace.ReadPlugin(dir)
			if err != nil {
				t.Fatal(err)
			}
			vd, err := oracle.Judge(v, p)
			if err != nil {
				t.Fatal(err)
			}
			refused := vd.Refused() != ""
			at := release + " " + name
			// hookgen validate: exit 1 exactly where the oracle refuses.
			e, vout, _ := fakeEnv(t)
			if code := hookgen(t, e, "validate", "--cc-version", release, dir); (code == exitInvalid) != refused || code != exitOK && code != exitInvalid {
				t.Errorf("%s: validate exits %d; the oracle says %q\n%s", at, code, vd.Outcome(), vout)
			}
			// hookgen audit: the cell is the oracle's outcome.
			if got := audit[name]; got != vd.Outcome() {
				t.Errorf("%s: audit says %q; the oracle %q", at, got, vd.Outcome())
			}
			// The compat suite's loader cases fail exactly where it refuses.
			s, err := suite.Open(suite.Config{Dir: dir, Versions: []hooks.Release{v}})
			if err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			failed := false
			var lines []string
			for _, c := range suite.Cases() {
				if !loaderCases[c.ID] {
					continue
				}
				o := s.Check(context.Background(), c)
				if o.Status == suite.Fail {
					failed = true
					lines = append(lines, o.String())
				}
			}
			s.Close()
			if failed != refused {
				t.Errorf("%s: the compat suite's loader cases fail = %v; the oracle says %q\n%s", at, failed, vd.Outcome(), strings.Join(lines, "\n"))
			}
			// hookgen doctor's manifest check on the plugin folder.
			if p.Hooks != nil {
				r := doctor.Run(doctor.Options{PluginRoot: dir, Version: v, VersionHow: "test", Project: t.TempDir()})
				ok := true
				for _, f := range r {
					if f.Topic == "manifest" && !f.OK {
						ok = false
					}
				}
				if ok == refused {
					t.Errorf("%s: doctor's manifest check OK = %v; the oracle says %q", at, ok, vd.Outcome())
				}
			}
			// The JSON Schema of the release, on hooks.json alone: an
			// error exactly where the oracle refuses the file or drops
			// a hook of it (a hook would not run as written), a warning
			// exactly where it reads a key past or lints.
			if p.Hooks != nil {
				fs, err := oracle.CheckHooks(v, p.Hooks)
				if err != nil {
					t.Fatal(err)
				}
				vs, err := schemas.Validate(v, p.Hooks)
				if err != nil {
					t.Fatal(err)
				}
				errs := len(schemas.Errors(vs)) > 0
				warns := len(vs) > len(schemas.Errors(vs))
				oracleErrs := oracle.Count(fs, compat.Rejected)+oracle.Count(fs, compat.Dropped) > 0
				oracleWarns := oracle.Count(fs, compat.Ignored)+oracle.Count(fs, compat.Lint) > 0
				if errs != oracleErrs || warns != oracleWarns {
					t.Errorf("%s: the schema gives errors %v, warnings %v (%v); the oracle %v, %v:\n%v", at, errs, warns, vs, oracleErrs, oracleWarns, fs)
				}
			}
		}
	}
}
