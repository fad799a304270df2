package main

import (
	"fmt"
	"strings"

	"github.com/hookwright/hookwright/hooks"
	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/internal/oracle"
)

// releaseFlags are the flags that say which releases validate and audit
// judge: exact releases, a lower bound, or a range; by default the range
// plugin.json declares (engines["claude-code"]), else every release from
// the plugin floor.
type releaseFlags struct {
	exact     []string
	since     string
	rangeExpr string
}

// releasesHelp documents the release flags, shared by validate and audit.
const releasesHelp = `RELEASES
   By default a plugin is judged on the releases its plugin.json declares,
   engines["claude-code"] (">=2.1.100", "^2.1.0", ...), else on every release
   from 2.0.12, the first that loads plugins. --since 2.1.100 judges that
   release and every later one; --releases takes a semver range
   (">=2.1.100 <2.1.300", "~2.1.200", "2.1.100 - 2.1.252", joined by "||");
   --cc-version names exact releases (repeat it). Inside a range, one release
   stands for each span where no rule of the loader changes, so every verdict
   the range can get is judged. The summary names the range judged.`

// flags returns the release flags.
func (f *releaseFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "cc-version", Usage: "an exact Claude Code `RELEASE` to judge; repeat it"},
		&cli.StringFlag{Name: "since", Usage: "judge `RELEASE` and every later one", Destination: &f.since},
		&cli.StringFlag{Name: "releases", Usage: "judge the releases in semver `RANGE`, e.g. \">=2.1.100 <2.1.300\"", Destination: &f.rangeExpr},
	}
}

// read takes the flags' values from c and checks they do not conflict.
func (f *releaseFlags) read(c *cli.Context) error {
	f.exact = c.StringSlice("cc-version")
	n := 0
	for _, set := range []bool{len(f.exact) > 0, f.since != "", f.rangeExpr != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return usageErr("--cc-version, --since and --releases exclude each other")
	}
	if f.since != "" {
		if _, err := parseVersion(f.since); err != nil {
			return err
		}
	}
	if f.rangeExpr != "" {
		if _, err := oracle.ParseRange(f.rangeExpr, "--releases"); err != nil {
			return usageErr("--releases: %v", err)
		}
	}
	_, err := f.exactReleases()
	return err
}

// exactReleases parses --cc-version.
func (f *releaseFlags) exactReleases() ([]hooks.Release, error) {
	var out []hooks.Release
	for _, s := range f.exact {
		v, err := parseVersion(s)
		if err != nil {
			return nil, err
		}
		if v.Less(hooks.MustRelease(compat.PluginFloor)) {
			return nil, usageErr("Claude Code %s is older than %s, the first release that loads plugins", v, compat.PluginFloor)
		}
		out = append(out, v)
	}
	return out, nil
}

// judged is the releases one plugin is judged on and what they stand for.
type judged struct {
	// Label names the range: "2.1.100 and later (plugin.json engines)".
	Label string
	// Releases are judged, oldest first (in the order given for
	// --cc-version).
	Releases []hooks.Release
	// Exact is true for --cc-version: each release stands for itself.
	Exact bool
	// Range is the range judged (unless Exact).
	Range oracle.Range
	// Open is true when the range has no upper bound.
	Open bool
	// Note says why the declared range was not used ("" when it was, or
	// when there is none).
	Note string
}

// choose returns the releases to judge a plugin with plugin.json manifest
// (nil when none) on.
func (f *releaseFlags) choose(manifest []byte) (judged, error) {
	if len(f.exact) > 0 {
		vs, err := f.exactReleases()
		if err != nil {
			return judged{}, err
		}
		var names []string
		for _, v := range vs {
			names = append(names, v.String())
		}
		return judged{Label: strings.Join(names, ", ") + " (--cc-version)", Releases: vs, Exact: true}, nil
	}
	var r oracle.Range
	var note string
	switch {
	case f.since != "":
		v, _ := parseVersion(f.since)
		r = oracle.Since(v, "--since")
	case f.rangeExpr != "":
		r, _ = oracle.ParseRange(f.rangeExpr, "--releases")
	default:
		if expr, ok := oracle.Engines(manifest); ok {
			var err error
			if r, err = oracle.ParseRange(expr, `plugin.json engines["claude-code"]`); err != nil {
				note = fmt.Sprintf("plugin.json's engines[\"claude-code\"] %q is not a range hookgen reads (%v), so every release is judged", expr, err)
				r, _ = oracle.ParseRange("", "")
			}
		} else {
			r, _ = oracle.ParseRange("", "")
		}
	}
	vs := r.Releases()
	if len(vs) == 0 {
		return judged{}, usageErr("the range %s holds no release that loads plugins (%s and later)", r.Describe(), compat.PluginFloor)
	}
	return judged{Label: r.Describe(), Releases: vs, Range: r, Open: openRange(r, vs[len(vs)-1]), Note: note}, nil
}

// openRange reports whether r takes every release after last.
func openRange(r oracle.Range, last hooks.Release) bool {
	return r.Contains(hooks.Release{last[0] + 100, 0, 0})
}

// span is a run of judged releases with the same outcome.
type span struct {
	From, To int // indexes into the judged releases, To inclusive
	Text     string
}

// spans folds the outcomes of the judged releases into runs.
func spans(j judged, outcome func(i int) string) []span {
	var out []span
	for i := range j.Releases {
		o := outcome(i)
		if !j.Exact && len(out) > 0 && out[len(out)-1].Text == o {
			out[len(out)-1].To = i
			continue
		}
		out = append(out, span{From: i, To: i, Text: o})
	}
	return out
}

// label names the releases of span s: "2.0.12–2.1.32", "2.1.257 and
// later", or one release.
func (j judged) label(s span) string {
	first := j.Releases[s.From].String()
	if j.Exact {
		return first
	}
	if s.To == len(j.Releases)-1 {
		if j.Open {
			return first + " and later"
		}
		return first + " and later in the range"
	}
	last := before(j.Releases[s.To+1])
	if v, err := hooks.ParseRelease(last); err != nil || !j.Range.Contains(v) {
		// The range has a gap before the next span: name the releases
		// judged, which the range bounds.
		if s.From == s.To {
			return first + " (the range's releases from it)"
		}
		return first + "–" + j.Releases[s.To].String() + " (and the range's releases after)"
	}
	if last != first {
		return first + "–" + last
	}
	return first
}

// before names the release before v: the previous patch, or "before v".
func before(v hooks.Release) string {
	if v[2] > 0 {
		return hooks.Release{v[0], v[1], v[2] - 1}.String()
	}
	return "<" + v.String()
}

// spanLine renders spans as one line: "2.0.12–2.1.32 hooks file refused ·
// 2.1.33 and later loads"; one span over everything says "on every
// release judged".
func (j judged) spanLine(ss []span) string {
	if len(ss) == 1 && !j.Exact {
		return ss[0].Text + " on every release judged"
	}
	if len(ss) == 1 && len(j.Releases) == 1 {
		return ss[0].Text
	}
	var parts []string
	for _, s := range ss {
		parts = append(parts, j.label(s)+": "+s.Text)
	}
	return strings.Join(parts, " · ")
}
