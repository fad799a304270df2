package pdca

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
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

// maxFeature caps a feature name.
const maxFeature = 64

// Tag is a parsed task subject.
type Tag struct {
	// Phase is one of the phase constants, spelled canonically.
	Phase string
	// Round is N for "Act-N", 1 for a plain "Act", 0 for other phases.
	Round int
	// Feature is the lower-cased feature name.
	Feature string
}

// Label is the tag as written in the state: "Do", "Act", "Act-2".
func (t Tag) Label() string {
	if t.Phase == Act && t.Round > 1 {
		return fmt.Sprintf("Act-%d", t.Round)
	}
	return t.Phase
}

// Parse reads a task subject. ok is false when the subject carries no
// phase tag (such tasks are not PDCA tasks); err is set when it carries a
// tag but the feature name is missing or unsafe.
func Parse(subject string) (tag Tag, ok bool, err error) {
	s := strings.TrimLeft(subject, " \t")
	if !strings.HasPrefix(s, "[") {
		return tag, false, nil
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return tag, false, nil
	}
	if !parsePhase(s[1:end], &tag) {
		return tag, false, nil
	}
	rest := s[end+1:]
	trimmed := strings.TrimLeft(rest, " \t")
	if len(trimmed) == len(rest) {
		return tag, false, fmt.Errorf("pdca: %q: a space must follow [%s]", subject, tag.Label())
	}
	rest = trimmed
	n := 0
	for n < len(rest) && featureByte(rest[n], n == 0) {
		n++
	}
	if n == 0 {
		return tag, false, fmt.Errorf("pdca: %q: no feature name after [%s] (want e.g. \"[%s] login-flow: ...\")", subject, tag.Label(), tag.Label())
	}
	if n < len(rest) && rest[n] != ':' && rest[n] != ' ' && rest[n] != '\t' {
		return tag, false, fmt.Errorf("pdca: %q: feature names use letters, digits, '-', '_' and '.' only", subject)
	}
	name := strings.ToLower(rest[:n])
	if len(name) > maxFeature {
		return tag, false, fmt.Errorf("pdca: %q: feature name longer than %d bytes", subject, maxFeature)
	}
	if err := safepath.Name("feature name", name); err != nil {
		return tag, false, fmt.Errorf("pdca: %w", err)
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

func featureByte(c byte, first bool) bool {
	alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	return alnum || !first && (c == '-' || c == '_' || c == '.')
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
