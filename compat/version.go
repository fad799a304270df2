package compat

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/Masterminds/semver/v3"
)

// ErrVersion is wrapped by every error [ParseVersion] returns.
var ErrVersion = errors.New("not a Claude Code version")

// versionForm is the only shape accepted: an optional "v", three numeric
// parts, and optionally the " (Claude Code)" suffix that `claude --version`
// prints. Pre-release and build suffixes are refused: Claude Code releases
// have none, and a loose form would hide typos such as "2.1".
var versionForm = regexp.MustCompile(`^v?(\d+\.\d+\.\d+)(?: \(Claude Code\))?$`)

const acceptedForms = `want 2.1.33, v2.1.33 or "2.1.33 (Claude Code)"`

// ParseVersion parses a Claude Code release as people and tools write it:
// "2.1.33", "v2.1.33" or "2.1.33 (Claude Code)". Surrounding white space is
// ignored. Any other input is an error wrapping [ErrVersion].
func ParseVersion(s string) (*semver.Version, error) {
	m := versionForm.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return nil, fmt.Errorf("%w: %q (%s)", ErrVersion, s, acceptedForms)
	}
	v, err := semver.StrictNewVersion(m[1])
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %w (%s)", ErrVersion, s, err, acceptedForms)
	}
	return v, nil
}

// NewestKnown is the newest Claude Code release the matrix was checked
// against: the last one in compat/testdata/probes/published.json, which
// the bisection writes (TestNewestKnownIsTheLastPublished keeps the two
// equal). A newer release may accept events and keys the matrix does not
// name yet, or have dropped one it names.
const NewestKnown = "2.1.330"

// NewerThanKnown reports whether v is newer than [NewestKnown].
func NewerThanKnown(v *semver.Version) bool { return v.GreaterThan(mustVersion(NewestKnown)) }

// parsed caches the versions of this package's own tables: they are read
// for every rule and event of every file an audit judges.
var parsed sync.Map

// mustVersion parses a version written in this package's own tables. The
// result is shared: callers must not change it (semver.Version has no
// setters, so they cannot).
func mustVersion(s string) *semver.Version {
	if v, ok := parsed.Load(s); ok {
		return v.(*semver.Version)
	}
	v, err := ParseVersion(s)
	if err != nil {
		panic(err)
	}
	parsed.Store(s, v)
	return v
}
