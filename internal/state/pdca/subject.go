package pdca

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// The phases, in the order of one PDCA round.
const (
	Plan   = "Plan"
	Design = "Design"
	Do     = "Do"
	Check  = "Check"
	Act    = "Act"
	Report = "Report"
)

// MaxFeature caps a feature name, in characters: a longer one is cut.
const MaxFeature = 100

// Tag is a parsed task subject.
type Tag struct {
	// Phase is one of the phase constants, spelled canonically.
	Phase string
	// Round is N for "Act-N", 1 for a plain "Act", 0 for other phases.
	Round int
	// Feature is the feature name, lower-cased, its spaces collapsed.
	Feature string
}

// Label is the tag as written in the state: "Do", "Act", "Act-2".
func (t Tag) Label() string {
	if t.Phase == Act && t.Round > 1 {
		return fmt.Sprintf("Act-%d", t.Round)
	}
	return t.Phase
}

// Parse reads a task subject as bkit's PDCA patterns do
// (/\[Plan\]\s+(.+)/ and the like): the first phase tag anywhere in the
// subject ("[Do] parser", "Fix: [Do] parser"), white space, and the
// feature, the rest of the subject in any script ("[Report] 로그인 기능",
// "[Plan] My Feature"), up to a colon, which starts what the task does
// ("[Do] login-flow: write the handler"; a full-width ： too). The name is
// lower-cased with its spaces collapsed, so "[Plan] My Feature" and "[Do]
// my feature" are one feature, and cut to [MaxFeature] characters.
//
// ok is false when the subject carries no phase tag (such tasks are not
// PDCA tasks); err is set when it carries one but no feature name follows,
// or the name holds control or bidirectional characters, or no letter or
// digit. A feature name is a label, never a path.
func Parse(subject string) (tag Tag, ok bool, err error) {
	rest, found := "", false
	for i := 0; i < len(subject); i++ {
		if subject[i] != '[' {
			continue
		}
		end := strings.IndexByte(subject[i:], ']')
		if end < 0 {
			break
		}
		if parsePhase(subject[i+1:i+end], &tag) {
			rest, found = subject[i+end+1:], true
			break
		}
	}
	if !found {
		return Tag{}, false, nil
	}
	trimmed := strings.TrimLeftFunc(rest, unicode.IsSpace)
	if len(trimmed) == len(rest) {
		return tag, false, fmt.Errorf("pdca: %q: a space must follow [%s]", subject, tag.Label())
	}
	if i := strings.IndexAny(trimmed, ":："); i >= 0 {
		trimmed = trimmed[:i]
	}
	name := strings.Join(strings.Fields(strings.ToLower(trimmed)), " ")
	if r := []rune(name); len(r) > MaxFeature {
		name = strings.TrimSpace(string(r[:MaxFeature]))
	}
	letters := false
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' {
			return tag, false, fmt.Errorf("pdca: %q: a feature name may not hold control or bidirectional characters", subject)
		}
		letters = letters || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	if name == "" || !letters {
		return tag, false, fmt.Errorf("pdca: %q: no feature name after [%s] (want e.g. \"[%s] login-flow: ...\")", subject, tag.Label(), tag.Label())
	}
	tag.Feature = name
	return tag, true, nil
}

func parsePhase(s string, tag *Tag) bool {
	for _, p := range []string{Plan, Design, Do, Check, Act, Report} {
		if strings.EqualFold(s, p) {
			tag.Phase = p
			if p == Act {
				tag.Round = 1
			}
			return true
		}
	}
	if len(s) > 4 && strings.EqualFold(s[:4], "act-") {
		n, err := strconv.Atoi(s[4:])
		if err != nil || n < 1 || n > 999 || s[4] == '+' || s[4] == '0' {
			return false
		}
		tag.Phase, tag.Round = Act, n
		return true
	}
	return false
}

// Next names the phase that usually follows label: Plan → Design → Do →
// Check → Act → Do (the next round) or Report.
func Next(label string) string {
	switch {
	case label == Plan:
		return Design
	case label == Design:
		return Do
	case label == Do:
		return Check
	case label == Check:
		return "Act (or Report when the check passed)"
	case strings.HasPrefix(label, Act):
		return "Do (next round) or Report"
	}
	return ""
}
