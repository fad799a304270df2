package live

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
)

// The maintainer's flags; see the README's maintainer section.
var (
	releaseFlag = flag.String("release", "", "TestProbe: comma-separated releases to probe (x.y.z); default: the fixtures of releases the live tier installs")
	probeEdge   = flag.String("edge", "", "TestEdge: bisect the first release that accepts this event, handler type or handler field (e.g. statusMessage)")
	probeBisect = flag.Bool("bisect", false, "TestBisect: probe every published release between the change points and rewrite compat/testdata/probes")
	probeUpdate = flag.Bool("update-probes", false, "TestProbe: write each probed release's fixture to compat/testdata/probes")
)

// probeDir holds the committed fixtures, one JSON file per probed release.
var probeDir = filepath.Join("..", "..", "compat", "testdata", "probes")

// liveTierReleases are the releases other live tests install anyway, so
// probing them in the full run costs no download.
var liveTierReleases = []string{"2.0.30", "2.1.33", "2.1.330"}

// TestProbe reads what each release's validator accepts and prints how it
// differs from the matrix. It fails when a release disagrees with its
// committed fixture (the release changed? the reader broke?) or with the
// matrix.
func TestProbe(t *testing.T) {
	if testing.Short() {
		t.Skip("live tier: reads real Claude Code releases")
	}
	Available(t)
	releases := liveTierReleases
	if *releaseFlag != "" {
		releases = strings.Split(*releaseFlag, ",")
	} else {
		for _, v := range releases {
			installT(t, v) // the live tier installs them anyway; the probe reads the install
		}
	}
	for _, v := range releases {
		t.Run(v, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			p, err := probeRelease(ctx, strings.TrimSpace(v), false) // fresh: the reader itself is under test
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s (%s): %d events, handler types %v", p.Release, p.Source, len(p.Events), p.HandlerTypes())
			if *probeUpdate {
				writeProbe(t, p)
			} else if want, ok := readProbe(t, p.Release); ok && !want.Same(p) {
				t.Errorf("%s differs from its fixture %s:\n got %+v\nwant %+v", p.Release, probePath(p.Release), p, want)
			}
			diffs, unknown := matrixDiff(p)
			for _, d := range diffs {
				t.Errorf("matrix disagrees with %s: %s", p.Release, d)
			}
			if len(unknown) > 0 {
				t.Logf("%s declares handler keys the matrix does not name: %v", p.Release, unknown)
			}
		})
	}
}

// matrixDiff lists how the matrix contradicts what release p accepts:
// events the release has that the matrix lacks or dates later, events and
// handler types the matrix dates at or before p that the release lacks,
// handler types it lacks altogether, and probed handler keys (Source probe)
// dated on the wrong side of p. unknown lists the handler keys the release
// declares that the matrix does not name (not a contradiction: the schemas
// warn about them; absorb them when hookwright needs them).
func matrixDiff(p Probe) (diffs, unknown []string) {
	v := hooks.MustRelease(p.Release)
	for _, name := range p.Events {
		f, ok := compat.Lookup(compat.KindEvent, name)
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("event %s is accepted but not in the matrix", name))
		case v.Less(f.Version()):
			diffs = append(diffs, fmt.Sprintf("event %s is accepted, but the matrix dates it %s", name, f.Since))
		}
	}
	for _, f := range compat.Features(compat.KindEvent, v) {
		if !slices.Contains(p.Events, f.Name) {
			diffs = append(diffs, fmt.Sprintf("event %s is dated %s by the matrix, but %s does not accept it", f.Name, f.Since, p.Release))
		}
	}
	for _, typ := range p.HandlerTypes() {
		if _, ok := compat.Lookup(compat.KindHandlerType, typ); !ok {
			diffs = append(diffs, fmt.Sprintf("handler type %s is accepted but not in the matrix", typ))
		}
	}
	for _, f := range compat.Features(compat.KindHandlerType, v) {
		if _, ok := p.Handlers[f.Name]; !ok {
			diffs = append(diffs, fmt.Sprintf("handler type %s is dated %s by the matrix, but %s does not accept it", f.Name, f.Since, p.Release))
		}
	}
	declared := map[string]bool{}
	for _, keys := range p.Handlers {
		for _, k := range keys {
			declared[k] = true
		}
	}
	for _, f := range compat.All(compat.KindField) {
		if f.Scope == compat.ScopeHandler && f.Source == compat.SourceProbe && declared[f.Name] == v.Less(f.Version()) {
			diffs = append(diffs, fmt.Sprintf("handler key %s: declared = %v on %s, but the matrix dates it %s", f.Name, declared[f.Name], p.Release, f.Since))
		}
	}
	for k := range declared {
		if _, ok := compat.LookupField(compat.ScopeHandler, k); !ok && k != "..." {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	return diffs, unknown
}

// TestEdge bisects, over the published releases, the first release whose
// validator accepts -edge: an event, a handler type or a handler field.
func TestEdge(t *testing.T) {
	if testing.Short() || *probeEdge == "" {
		t.Skip("maintainer command: go test ./internal/live -run TestEdge -edge statusMessage")
	}
	Available(t)
	versions := published(t)
	has := func(v string) bool {
		p := probeT(t, v)
		if slices.Contains(p.Events, *probeEdge) {
			return true
		}
		for typ, keys := range p.Handlers {
			if typ == *probeEdge || slices.Contains(keys, *probeEdge) {
				return true
			}
		}
		return false
	}
	lo, hi := 0, len(versions)-1
	if !has(versions[hi]) {
		t.Fatalf("%s is not accepted by the latest release %s", *probeEdge, versions[hi])
	}
	if has(versions[lo]) {
		t.Logf("%s: accepted from the first probed release %s on", *probeEdge, versions[lo])
		return
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if has(versions[mid]) {
			hi = mid
		} else {
			lo = mid
		}
	}
	t.Logf("%s: first accepted by %s; %s, the release before it, does not accept it", *probeEdge, versions[hi], versions[lo])
}

// TestBisect probes the published releases from the first one with hooks to
// the latest, bisecting between releases that accept different things, and
// writes every probed release's fixture, and the list of published releases
// it walked (published.json), which the witness test reads. It needs the network and time
// (minutes per changed edge); it is a maintainer command, not part of CI.
func TestBisect(t *testing.T) {
	if testing.Short() || !*probeBisect {
		t.Skip("maintainer command: go test ./internal/live -run TestBisect -bisect -timeout 3h")
	}
	Available(t)
	versions := published(t)
	probes := bisect(len(versions), func(i int) Probe { return probeT(t, versions[i]) })
	for _, p := range probes {
		writeProbe(t, p)
	}
	b, err := json.MarshalIndent(versions, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(probeDir, "published.json"), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("probed %d of %d releases", len(probes), len(versions))
}

// bisect probes releases 0 and n-1 and, between any two probed releases
// whose lists differ, the one halfway, until every change lies between
// two adjacent releases. It returns the probes by index.
func bisect(n int, probe func(i int) Probe) map[int]Probe {
	probes := map[int]Probe{}
	get := func(i int) Probe {
		p, ok := probes[i]
		if !ok {
			p = probe(i)
			probes[i] = p
		}
		return p
	}
	type span struct{ lo, hi int }
	todo := []span{{0, n - 1}}
	for len(todo) > 0 {
		s := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if s.hi-s.lo <= 1 || get(s.lo).Same(get(s.hi)) {
			continue
		}
		mid := (s.lo + s.hi) / 2
		get(mid) // a span of two releases returns before probing its ends
		todo = append(todo, span{mid, s.hi}, span{s.lo, mid})
	}
	return probes
}

// TestBisectFindsEveryChange runs the bisection over made-up releases
// whose lists change at 3 and 7 (of 0..11): it must probe both sides of
// each change.
func TestBisectFindsEveryChange(t *testing.T) {
	fake := func(i int) Probe {
		p := Probe{Events: []string{"PreToolUse"}}
		if i >= 3 {
			p.Events = append(p.Events, "Three")
		}
		if i >= 7 {
			p.Events = append(p.Events, "Seven")
		}
		return p
	}
	got := bisect(12, fake)
	for _, i := range []int{2, 3, 6, 7} {
		if _, ok := got[i]; !ok {
			t.Errorf("release %d not probed; probed %v", i, got)
		}
	}
}

// published returns every release from the plugin floor (2.0.12, the first
// that loads a plugin's hooks.json) to the latest, oldest first.
func published(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("npm", "view", Package, "versions", "--json")
	cmd.Env = npmEnv()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("npm view %s versions: %v", Package, err)
	}
	var all []string
	if err := json.Unmarshal(out, &all); err != nil {
		t.Fatal(err)
	}
	first := hooks.MustRelease(compat.PluginFloor)
	var vs []hooks.Release
	for _, s := range all {
		if v, err := hooks.ParseRelease(s); err == nil && !v.Less(first) {
			vs = append(vs, v)
		}
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].Less(vs[j]) })
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.String()
	}
	return names
}

// probeT probes v or fails t.
func probeT(t *testing.T, v string) Probe {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	p, err := ProbeRelease(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func probePath(release string) string { return filepath.Join(probeDir, release+".json") }

// writeProbe writes p's fixture.
func writeProbe(t *testing.T, p Probe) {
	t.Helper()
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(probeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(probePath(p.Release), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readProbe reads release's fixture; ok is false when there is none.
func readProbe(t *testing.T, release string) (Probe, bool) {
	t.Helper()
	b, err := os.ReadFile(probePath(release))
	if os.IsNotExist(err) {
		return Probe{}, false
	}
	if err != nil {
		t.Fatal(err)
	}
	var p Probe
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("%s: %v", probePath(release), err)
	}
	return p, true
}

// TestProbeMatchesTheLoader checks the static reading against what the
// real loader printed: the committed debug logs of 2.0.30 and 2.1.33
// loading a hooks.json with an unknown event list the validator's enum, and
// it must equal the fixture read from the same release's code.
func TestProbeMatchesTheLoader(t *testing.T) {
	for _, v := range []string{"2.0.30", "2.1.33"} {
		logEvents, ok := LoaderEnum(readLog(t, "debug-"+v+"-unknown-event.txt"))
		if !ok {
			t.Fatalf("%s: no enum in the loader's error", v)
		}
		p, ok := readProbe(t, v)
		if !ok {
			t.Fatalf("no fixture %s", probePath(v))
		}
		if !slices.Equal(logEvents, p.Events) {
			t.Errorf("%s: loader listed %v, the code reading gave %v", v, logEvents, p.Events)
		}
	}
}

// TestParseProbe reads a hand-made bundle in the shape the releases use.
func TestParseProbe(t *testing.T) {
	code := []byte(`var a=["PreToolUse","Stop"];var b=["PreToolUse","PostToolUse","Stop"];` +
		`x=k.object({type:k.literal("command").describe("Bash command hook type"),command:k.string().describe("a, b: {c}"),` +
		"timeout:k.number().optional(),\"if\":k.string().describe(`x ${a({b:1})} y`),...z}),k.object({type:k.literal(\"prompt\").describe(\"LLM prompt hook type\"),prompt:k.string()})")
	p, err := ParseProbe(code)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"PreToolUse", "PostToolUse", "Stop"}; !slices.Equal(p.Events, want) {
		t.Errorf("events = %v, want %v", p.Events, want)
	}
	if got, want := p.Handlers["command"], []string{"...", "command", "if", "timeout", "type"}; !slices.Equal(got, want) {
		t.Errorf("command keys = %v, want %v", got, want)
	}
	if got, want := p.Handlers["prompt"], []string{"prompt", "type"}; !slices.Equal(got, want) {
		t.Errorf("prompt keys = %v, want %v", got, want)
	}
	if _, err := ParseProbe([]byte(`nothing here`)); err == nil {
		t.Error("ParseProbe accepted code without a schema")
	}
}
