package hooks

import (
	"errors"
	"strings"
	"testing"
)

// ParseRelease is the one parser of a Claude Code release in this module
// (package compat uses it too): the forms people and tools write, and
// nothing looser, so a typo such as "2.1" is an error and not a guess.
func TestParseRelease(t *testing.T) {
	good := map[string]Release{
		"2.1.33":                    {2, 1, 33},
		"v2.1.33":                   {2, 1, 33},
		"2.1.33 (Claude Code)":      {2, 1, 33},
		"  2.1.330 (Claude Code)\n": {2, 1, 330},
		"1.0.38":                    {1, 0, 38},
		"0.0.0":                     {0, 0, 0},
	}
	for in, want := range good {
		r, err := ParseRelease(in)
		if err != nil || r != want {
			t.Errorf("ParseRelease(%q) = %v, %v; want %v", in, r, err, want)
		}
	}
	for _, in := range []string{"", "2.1", "2", "latest", "2.1.33-beta", "2.1.33+x", "V2.1.33", "2.1.33 (Claude)",
		"vv2.1.33", "2.01.3", "claude 2.1.33", "2.+1.33", "+2.1.33", "2.1.-1", "2.1.x", "2.1.33.4", "2..33",
		"2.1.99999999999999999999", "2.1.３３", " v 2.1.33"} {
		_, err := ParseRelease(in)
		if !errors.Is(err, ErrRelease) {
			t.Errorf("ParseRelease(%q) error = %v, want ErrRelease", in, err)
			continue
		}
		if !strings.Contains(err.Error(), "2.1.33 (Claude Code)") {
			t.Errorf("ParseRelease(%q) error %q does not show the accepted forms", in, err)
		}
	}
}

func TestReleaseCompare(t *testing.T) {
	a, b := Release{2, 1, 9}, Release{2, 1, 10}
	if !a.Less(b) || b.Less(a) || a.Less(a) || a.Compare(b) != -1 || b.Compare(a) != 1 || a.Compare(a) != 0 {
		t.Fatalf("2.1.9 against 2.1.10: Less %v/%v, Compare %d/%d", a.Less(b), b.Less(a), a.Compare(b), b.Compare(a))
	}
	if MustRelease("2.1.33") != (Release{2, 1, 33}) || (Release{}).IsZero() != true || MustRelease("2.1.33").IsZero() {
		t.Fatal("MustRelease or IsZero")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("MustRelease of a bad release did not panic")
		}
	}()
	MustRelease("2.1")
}

func FuzzParseRelease(f *testing.F) {
	for _, s := range []string{"2.1.33", "v2.1.33", "2.1.33 (Claude Code)", "2.+1.3", "01.2.3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRelease(s)
		if err != nil {
			return
		}
		// What parses prints back as the canonical form, which parses to the same release.
		back, err := ParseRelease(r.String())
		if err != nil || back != r {
			t.Fatalf("%q parsed as %v, whose String %q parses as %v, %v", s, r, r.String(), back, err)
		}
	})
}
