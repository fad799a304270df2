package pdca

import (
	"errors"
	"testing"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

func TestParse(t *testing.T) {
	tests := []struct {
		subject string
		want    Tag
		ok      bool
		err     bool
	}{
		{"[Do] login-flow: implement handler", Tag{Do, 0, "login-flow"}, true, false},
		{"[Plan] login-flow", Tag{Plan, 0, "login-flow"}, true, false},
		{"  [design]   Login_Flow.v2 sketch", Tag{Design, 0, "login_flow.v2"}, true, false},
		{"[Check] api:review", Tag{Check, 0, "api"}, true, false},
		{"[Act] api: fix", Tag{Act, 1, "api"}, true, false},
		{"[Act-3] api: fix again", Tag{Act, 3, "api"}, true, false},
		{"[ACT-12] api", Tag{Act, 12, "api"}, true, false},
		{"[Report] billing", Tag{Report, 0, "billing"}, true, false},
		// not PDCA tasks
		{"implement handler", Tag{}, false, false},
		{"[WIP] login-flow", Tag{}, false, false},
		{"[Act-0] api", Tag{}, false, false},
		{"[Act-01] api", Tag{}, false, false},
		{"[Act-x] api", Tag{}, false, false},
		{"[Act-1000] api", Tag{}, false, false},
		{"[Do login-flow", Tag{}, false, false},
		{"", Tag{}, false, false},
		// tagged, but broken
		{"[Do]login-flow", Tag{}, false, true},
		{"[Do] ", Tag{}, false, true},
		{"[Do] : nothing", Tag{}, false, true},
		{"[Do] ../etc: escape", Tag{}, false, true},
		{"[Do] a/b: slash", Tag{}, false, true},
		{"[Do] .hidden", Tag{}, false, true},
		{"[Do] aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", Tag{}, false, true},
	}
	for _, tt := range tests {
		got, ok, err := Parse(tt.subject)
		if (err != nil) != tt.err || ok != tt.ok || ok && got != tt.want {
			t.Errorf("Parse(%q) = %+v, %v, %v; want %+v, %v, err=%v", tt.subject, got, ok, err, tt.want, tt.ok, tt.err)
		}
	}
}

func TestParseFeatureNUL(t *testing.T) {
	// NUL stops the feature name and is not a separator: rejected.
	if _, ok, err := Parse("[Do] a\x00b"); ok || err == nil {
		t.Fatalf("NUL accepted: ok=%v err=%v", ok, err)
	}
}

func TestParseSafepath(t *testing.T) {
	// Every accepted name passes safepath.Name; "." and ".." cannot even start one.
	for _, s := range []string{"[Do] ..", "[Do] .", "[Do] ~root"} {
		_, ok, err := Parse(s)
		if ok || err == nil {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
	if _, _, err := Parse("[Do] aux\x00"); err == nil || errors.Is(err, safepath.ErrUnsafe) == false && err == nil {
		t.Errorf("NUL after the name accepted")
	}
}

func TestLabelNext(t *testing.T) {
	for _, tt := range []struct {
		tag        Tag
		label, nxt string
	}{
		{Tag{Phase: Plan}, "Plan", "Design"},
		{Tag{Phase: Act, Round: 1}, "Act", "Do (next round) or Report"},
		{Tag{Phase: Act, Round: 2}, "Act-2", "Do (next round) or Report"},
		{Tag{Phase: Report}, "Report", ""},
	} {
		if got := tt.tag.Label(); got != tt.label {
			t.Errorf("Label(%+v) = %q, want %q", tt.tag, got, tt.label)
		}
		if got := Next(tt.label); got != tt.nxt {
			t.Errorf("Next(%q) = %q, want %q", tt.label, got, tt.nxt)
		}
	}
}
