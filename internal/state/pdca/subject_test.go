package pdca

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
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
		{"[Check] api:review", Tag{Check, 0, "api"}, true, false},
		{"[Act] api: fix", Tag{Act, 1, "api"}, true, false},
		{"[Act-3] api: fix again", Tag{Act, 3, "api"}, true, false},
		{"[ACT-12] api", Tag{Act, 12, "api"}, true, false},
		{"[Report] billing", Tag{Report, 0, "billing"}, true, false},
		// The design's pattern (bkit, /\[Plan\]\s+(.+)/): the tag anywhere,
		// the feature the rest of the subject, in any script, with spaces;
		// a colon still ends it ("feature: what this task does").
		{"  [design]   Login_Flow.v2 sketch", Tag{Design, 0, "login_flow.v2 sketch"}, true, false},
		{"[Report] 로그인 기능", Tag{Report, 0, "로그인 기능"}, true, false},
		{"[Plan] My Feature", Tag{Plan, 0, "my feature"}, true, false},
		{"Fix: [Do] parser", Tag{Do, 0, "parser"}, true, false},
		{"[WIP] [Check] login flow: review", Tag{Check, 0, "login flow"}, true, false},
		{"[Do]  My   Feature  ", Tag{Do, 0, "my feature"}, true, false},
		{"[Plan] ログイン機能：設計", Tag{Plan, 0, "ログイン機能"}, true, false},
		{"[Do] Ünïcode Straße", Tag{Do, 0, "ünïcode straße"}, true, false},
		{"[Do] API v1/v2 migration", Tag{Do, 0, "api v1/v2 migration"}, true, false},
		{"[Do] " + strings.Repeat("기", 150), Tag{Do, 0, strings.Repeat("기", 100)}, true, false},
		// not PDCA tasks
		{"implement handler", Tag{}, false, false},
		{"[WIP] login-flow", Tag{}, false, false},
		{"[Act-0] api", Tag{}, false, false},
		{"[Act-01] api", Tag{}, false, false},
		{"[Act-x] api", Tag{}, false, false},
		{"[Act-1000] api", Tag{}, false, false},
		{"[Do login-flow", Tag{}, false, false},
		{"", Tag{}, false, false},
		{"Plan the work", Tag{}, false, false},
		// tagged, but broken
		{"[Do]login-flow", Tag{}, false, true},
		{"[Do] ", Tag{}, false, true},
		{"[Do] : nothing", Tag{}, false, true},
		{"[Do] ...", Tag{}, false, true},
		{"[Do] a\x1b[2Jb", Tag{}, false, true},
		{"[Do] x\u202ey", Tag{}, false, true},
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

// A feature name is a label in the state file, never a path: any script,
// but no control or bidirectional characters, and at least one letter or
// digit.
func TestParseFeatureIsALabel(t *testing.T) {
	for _, s := range []string{"[Do] ..", "[Do] .", "[Do] --", "[Do] x\u200ey"} {
		if _, ok, err := Parse(s); ok || err == nil {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
	for _, s := range []string{"[Do] ../etc: escape", "[Do] a/b: slash", "[Do] .hidden", "[Do] ~root"} {
		if _, ok, err := Parse(s); !ok || err != nil {
			t.Errorf("Parse(%q) = %v, %v: a label with slashes and dots is still a label", s, ok, err)
		}
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

// FuzzParse holds Parse to its promises on any subject: a feature is
// named whenever ok, one line of at most MaxFeature characters with no
// control or bidirectional character, lower-cased, valid UTF-8, and
// parsing is the same after the subject round-trips through the name.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"[Do] login-flow: x", "[Report] 로그인 기능", "Fix: [Do] parser", "[Act-2] a", "[Plan]x", "[Do] a\x00b", "[", "]]][[[Do] ] x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, subject string) {
		tag, ok, err := Parse(subject)
		if ok != (err == nil && tag.Feature != "") && ok {
			t.Fatalf("ok %v with err %v and feature %q", ok, err, tag.Feature)
		}
		if !ok {
			return
		}
		if n := len([]rune(tag.Feature)); n == 0 || n > MaxFeature {
			t.Fatalf("feature %q: %d characters", tag.Feature, n)
		}
		if !utf8.ValidString(tag.Feature) || strings.ToLower(tag.Feature) != tag.Feature || strings.TrimSpace(tag.Feature) != tag.Feature {
			t.Fatalf("feature %q is not a clean lower-cased name", tag.Feature)
		}
		for _, r := range tag.Feature {
			if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\n' {
				t.Fatalf("feature %q holds %U", tag.Feature, r)
			}
		}
		again, ok2, err2 := Parse("[" + tag.Label() + "] " + tag.Feature)
		if !ok2 || err2 != nil || again.Phase != tag.Phase || again.Round != tag.Round {
			t.Fatalf("re-parse of %q: %+v %v %v", tag.Feature, again, ok2, err2)
		}
	})
}
