package compat

import "github.com/hookwright/hookwright/hooks"

// NewestKnown is the newest Claude Code release the matrix was checked
// against: the last one in compat/testdata/probes/published.json, which
// the bisection writes (TestNewestKnownIsTheLastPublished keeps the two
// equal). A newer release may accept events and keys the matrix does not
// name yet, or have dropped one it names.
const NewestKnown = "2.1.330"

// newestKnown is [NewestKnown] parsed once.
var newestKnown = hooks.MustRelease(NewestKnown)

// NewerThanKnown reports whether v is newer than [NewestKnown].
func NewerThanKnown(v hooks.Release) bool { return newestKnown.Less(v) }
