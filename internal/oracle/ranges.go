package oracle

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
)

// Range is the releases a verdict is for: the releases a plugin supports.
type Range struct {
	// Expr is the range as written (">=2.1.100", "^2.1.0"); "" means every
	// release from the plugin floor.
	Expr string
	// From says where the range comes from: "--since", "--releases",
	// "plugin.json engines", or "" for the default.
	From string
	c    *semver.Constraints
}

// ErrRange is wrapped by every error [ParseRange] returns.
var ErrRange = errors.New("not a release range")

// ParseRange parses a semver range as npm and plugin.json's
// engines["claude-code"] write it: ">=2.1.100", ">=2.1.0 <2.2.0",
// "^2.1.0", "~2.1.100", "2.1.100 - 2.1.200", "2.1.x", joined with "||".
// "" is every release from the plugin floor.
func ParseRange(expr, from string) (Range, error) {
	expr = strings.TrimSpace(expr)
	r := Range{Expr: expr, From: from}
	if expr == "" || expr == "*" {
		r.Expr = ""
		return r, nil
	}
	if len(expr) > 200 {
		return r, fmt.Errorf("%w: %q is longer than 200 characters", ErrRange, clip(expr, 40))
	}
	c, err := semver.NewConstraint(expr)
	if err != nil {
		return r, fmt.Errorf("%w: %q: %v", ErrRange, clip(expr, 60), err)
	}
	r.c = c
	return r, nil
}

// Since is the range of release v and every later one.
func Since(v hooks.Release, from string) Range {
	r, _ := ParseRange(">="+v.String(), from)
	return r
}

// Contains reports whether release v is in the range.
func (r Range) Contains(v hooks.Release) bool {
	if v.Less(hooks.MustRelease(compat.PluginFloor)) {
		return false
	}
	return r.c == nil || r.c.Check(semverOf(v))
}

// semverOf is release v as the semver library's ranges check it.
func semverOf(v hooks.Release) *semver.Version {
	return semver.New(uint64(v[0]), uint64(v[1]), uint64(v[2]), "", "")
}

// String renders the range as a summary says it: "2.0.12 and later",
// "2.1.100 and later", or the expression.
func (r Range) String() string {
	if r.c == nil {
		return compat.PluginFloor + " and later"
	}
	if m := sinceForm.FindStringSubmatch(r.Expr); m != nil {
		return m[1] + " and later"
	}
	return r.Expr
}

// Describe says the range and where it comes from, for a summary:
// "2.1.100 and later (plugin.json engines)".
func (r Range) Describe() string {
	switch {
	case r.From != "":
		return r.String() + " (" + r.From + ")"
	case r.c == nil:
		return r.String() + " (every release that loads plugins)"
	}
	return r.String()
}

// sinceForm is a range of one lower bound.
var sinceForm = regexp.MustCompile(`^>=\s*v?(\d+\.\d+\.\d+)$`)

// literal finds the versions written in a range.
var literal = regexp.MustCompile(`\d+(?:\.(?:\d+|[xX*]))?(?:\.(?:\d+|[xX*]))?`)

// Releases returns one release per span of releases with the same
// verdicts that the range touches, oldest first: every release where a
// verdict can change ([Edges]) inside the range, and the range's own lower
// bounds (the first release of a span the range starts in).
func (r Range) Releases() []hooks.Release {
	cands := Edges()
	for _, s := range literal.FindAllString(r.Expr, -1) {
		s = strings.NewReplacer("x", "0", "X", "0", "*", "0").Replace(s)
		for strings.Count(s, ".") < 2 {
			s += ".0"
		}
		v, err := hooks.ParseRelease(s)
		if err != nil {
			continue
		}
		next := hooks.Release{v[0], v[1], v[2] + 1}
		cands = append(cands, v, next)
	}
	seen := map[string]bool{}
	var out []hooks.Release
	for _, v := range cands {
		if !r.Contains(v) || seen[v.String()] {
			continue
		}
		seen[v.String()] = true
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	// Keep a lower bound only where no edge already starts its span.
	var kept []hooks.Release
	for _, v := range out {
		if len(kept) > 0 && sameSpan(kept[len(kept)-1], v) {
			continue
		}
		kept = append(kept, v)
	}
	return kept
}

// sameSpan reports whether a and b (a before b) fall between the same two
// edges, so every verdict is the same on both.
func sameSpan(a, b hooks.Release) bool {
	for _, e := range compat.Edges() {
		if a.Less(e) && !b.Less(e) {
			return false
		}
	}
	return true
}

// Engines returns plugin.json's engines["claude-code"], and whether it is
// there as a string.
func Engines(manifest []byte) (string, bool) {
	m, ok := decodeObject(manifest)
	if !ok {
		return "", false
	}
	eng, _ := m["engines"].(map[string]any)
	s, ok := eng["claude-code"].(string)
	return s, ok
}
