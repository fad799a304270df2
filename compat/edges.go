package compat

import (
	"slices"
	"sort"
	"sync"

	"github.com/hookwright/hookwright/hooks"
)

// Edges returns the releases where anything these tables say changes:
// every band's first release ([Bands]), the first and last release of
// every rule row ([Rules]), each handler type's validator, each plugin.json
// key, and the other edges this package names. Between two edges every
// verdict of the oracle, and every JSON Schema of package schemas, is the
// same; judging the edges covers them all. The result is a fresh slice.
func Edges() []hooks.Release { return slices.Clone(edges()) }

// edges computes [Edges] once: the tables do not change.
var edges = sync.OnceValue(func() []hooks.Release {
	seen := map[string]bool{}
	floor := hooks.MustRelease(PluginFloor)
	var out []hooks.Release
	add := func(s string) {
		if s == "" || seen[s] {
			return
		}
		v, err := hooks.ParseRelease(s)
		if err != nil || v.Less(floor) {
			return
		}
		seen[s] = true
		out = append(out, v)
	}
	for _, b := range bands() {
		add(b.String())
	}
	for _, r := range Rules {
		add(r.First)
		add(r.Last)
	}
	for _, s := range HandlerValidatorSince {
		add(s)
	}
	for _, k := range PluginKeys {
		add(k.Since)
	}
	for _, s := range []string{SkillsDotSince, HooksModulesSince, SurfaceReadPastUntil, StandardNamedErrorUntil} {
		add(s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
})

// EdgeOf returns the greatest edge at or below release v: the release
// whose verdicts v shares. Releases older than [PluginFloor] are an error
// wrapping [ErrBelowFloor].
func EdgeOf(v hooks.Release) (hooks.Release, error) {
	es := edges()
	if v.Less(es[0]) {
		_, err := BandOf(v)
		return hooks.Release{}, err
	}
	i := sort.Search(len(es), func(i int) bool { return v.Less(es[i]) })
	return es[i-1], nil
}
