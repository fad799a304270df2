package compat

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/Masterminds/semver/v3"
	"github.com/hookwright/hookwright/hooks"
)

// probe is one committed fixture of compat/testdata/probes: what one
// release's validator accepts, read from its code by internal/live's probe.
type probe struct {
	Release  string              `json:"release"`
	Events   []string            `json:"events"`
	Handlers map[string][]string `json:"handlers"`
}

// has reports whether the release's validator knows name as an event, a
// handler type or a key of some handler type.
func (p probe) has(kind Kind, name string) bool {
	switch kind {
	case KindEvent:
		return slices.Contains(p.Events, name)
	case KindHandlerType:
		_, ok := p.Handlers[name]
		return ok
	}
	for _, keys := range p.Handlers {
		if slices.Contains(keys, name) {
			return true
		}
	}
	return false
}

// probes reads every fixture, oldest release first, and the list of
// published releases the bisection walked.
func probes(t *testing.T) ([]probe, []string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "probes", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []probe
	var published []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(f) == "published.json" {
			if err := json.Unmarshal(b, &published); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			continue
		}
		var p probe
		if err := json.Unmarshal(b, &p); err != nil || p.Release+".json" != filepath.Base(f) || len(p.Events) == 0 {
			t.Fatalf("%s: bad fixture (%v)", f, err)
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return hooks.MustRelease(out[i].Release).Less(hooks.MustRelease(out[j].Release)) })
	if len(out) < 2 || len(published) < len(out) {
		t.Fatalf("testdata/probes holds %d fixtures and %d published releases; run the bisection (README, maintainers)", len(out), len(published))
	}
	return out, published
}

// TestMatrixAgreesWithProbes checks the matrix against what each probed
// release's own validator accepts: every event, on every probed release,
// is accepted exactly when the matrix dates it at or before that release.
// No network: the fixtures are committed.
func TestMatrixAgreesWithProbes(t *testing.T) {
	ps, _ := probes(t)
	for _, p := range ps {
		v := hooks.MustRelease(p.Release)
		for _, ev := range p.Events {
			f, ok := Lookup(KindEvent, ev)
			if !ok {
				t.Errorf("%s accepts event %s, which the matrix lacks", p.Release, ev)
			} else if v.Less(f.Version()) {
				t.Errorf("%s accepts event %s, which the matrix dates %s", p.Release, ev, f.Since)
			}
		}
		for _, f := range Features(KindEvent, v) {
			if !p.has(KindEvent, f.Name) {
				t.Errorf("%s rejects event %s, which the matrix dates %s", p.Release, f.Name, f.Since)
			}
		}
		for _, f := range Matrix {
			if f.Source == SourceProbe && f.Kind != KindEvent && p.has(f.Kind, f.Name) != !v.Less(f.Version()) {
				t.Errorf("%s: %s %s present = %v, but the matrix dates it %s", p.Release, f.Kind, f.Name, p.has(f.Kind, f.Name), f.Since)
			}
		}
	}
}

// TestProbeWitnesses checks each row whose first release was bisected: the
// fixture of Since accepts it, the fixture of Before does not, and Before
// is the published release just before Since.
func TestProbeWitnesses(t *testing.T) {
	ps, published := probes(t)
	byRelease := map[string]probe{}
	for _, p := range ps {
		byRelease[p.Release] = p
	}
	floor := hooks.MustRelease(PluginFloor)
	for _, f := range Matrix {
		if f.Source != SourceProbe && !(f.Kind == KindEvent && !f.Version().Less(floor)) {
			continue
		}
		if f.Witness == "" {
			t.Errorf("%s %s has no witness", f.Kind, f.Name)
		}
		first, ok := byRelease[f.Since]
		if !ok || !first.has(f.Kind, f.Name) {
			t.Errorf("%s %s: no fixture of %s accepting it (fixture present: %v)", f.Kind, f.Name, f.Since, ok)
		}
		before, ok := byRelease[f.Before]
		if !ok || before.has(f.Kind, f.Name) {
			t.Errorf("%s %s: no fixture of %s (Before) rejecting it (fixture present: %v)", f.Kind, f.Name, f.Before, ok)
		}
		i := slices.Index(published, f.Since)
		if i < 1 || published[i-1] != f.Before {
			t.Errorf("%s %s: Before %s is not the published release just before %s", f.Kind, f.Name, f.Before, f.Since)
		}
	}
}

// TestEveryRowHasAWitness checks that every row, and above all every rule
// claiming a release rejects a file or refuses a plugin, names the releases
// and the probe or run that showed it.
func TestEveryRowHasAWitness(t *testing.T) {
	for _, f := range Matrix {
		if f.Witness == "" || !semverIn(f.Witness) {
			t.Errorf("%s %s (since %s): witness %q names no release", f.Kind, f.Name, f.Since, f.Witness)
		}
	}
}

// semverIn reports whether s names a release x.y.z.
func semverIn(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !(r == '.' || (r >= '0' && r <= '9')) }) {
		if _, err := semver.StrictNewVersion(strings.Trim(w, ".")); err == nil && strings.Count(w, ".") >= 2 {
			return true
		}
	}
	return false
}

// TestEveryProbedHandlerKeyIsInTheMatrix: each key a probed release's
// validator accepts for a handler type has a matrix row for that type, so
// hookgen never calls a key Claude Code knows "unknown" (and a typo), and
// the schemas give it its value's type.
func TestEveryProbedHandlerKeyIsInTheMatrix(t *testing.T) {
	ps, _ := probes(t)
	missing := map[string]string{}
	for _, p := range ps {
		for typ, keys := range p.Handlers {
			for _, k := range keys {
				covered := false
				for _, f := range Matrix {
					if f.Kind == KindField && f.Scope == ScopeHandler && f.Name == k && (len(f.Types) == 0 || slices.Contains(f.Types, typ)) {
						covered = true
						break
					}
				}
				if !covered {
					if _, seen := missing[typ+"."+k]; !seen {
						missing[typ+"."+k] = p.Release
					}
				}
			}
		}
	}
	for k, r := range missing {
		t.Errorf("%s accepts the %s handler key %q, which the matrix lacks", r, strings.Split(k, ".")[0], strings.Split(k, ".")[1])
	}
}
