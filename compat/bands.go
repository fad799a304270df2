package compat

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/hookwright/hookwright/hooks"
)

// ErrBelowFloor is wrapped when a release predates [PluginFloor]: no plugin
// hooks.json loads there, so no manifest can be right for it.
var ErrBelowFloor = errors.New("release predates plugin hooks")

// Bands returns every band edge from [PluginFloor] up, oldest first. Each
// first version in [Matrix] is an edge; edges below the floor fold into it.
// The result is a fresh slice the caller may keep.
func Bands() []hooks.Release {
	return slices.Clone(bands())
}

// bands computes [Bands] once.
var bands = sync.OnceValue(func() []hooks.Release {
	floor := hooks.MustRelease(PluginFloor)
	seen := map[string]bool{floor.String(): true}
	out := []hooks.Release{floor}
	for _, f := range Matrix {
		v := f.Version()
		if v.Less(floor) || seen[v.String()] {
			continue
		}
		seen[v.String()] = true
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
})

// BandOf returns the band edge of release v: the greatest edge at or below
// it. Releases older than [PluginFloor] are an error wrapping [ErrBelowFloor].
func BandOf(v hooks.Release) (hooks.Release, error) {
	bands := bands()
	if v.Less(bands[0]) {
		return hooks.Release{}, fmt.Errorf("%w: Claude Code %s is older than %s, the first release that loads plugins", ErrBelowFloor, v, PluginFloor)
	}
	i := sort.Search(len(bands), func(i int) bool { return v.Less(bands[i]) })
	return bands[i-1], nil
}

// Arrivals returns the rows whose first version is exactly edge: what a
// band adds over the one before it. For the floor band it returns every row
// at or below the floor.
func Arrivals(edge hooks.Release) []Feature {
	floor := hooks.MustRelease(PluginFloor)
	var out []Feature
	for _, f := range Matrix {
		v := f.Version()
		if v == edge || (edge == floor && v.Less(floor)) {
			out = append(out, f)
		}
	}
	return out
}
