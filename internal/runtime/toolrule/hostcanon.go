package toolrule

import "strings"

// Claude Code is a Node program: the host it fetches is the one WHATWG's
// URL parser (new URL) gives, not net/url's. WHATWG maps the host through
// IDNA (UTS-46: full-width letters become ASCII, the ideographic full
// stop a dot, a soft hyphen or zero-width space vanishes, case folds)
// and reads IPv4 number forms (0x7f.1, 2130706433, 0177.0.0.1, 127.1 are
// all 127.0.0.1). Neither is done here: the runtime carries no IDNA
// table. Instead canonicalHost keeps the hosts whose WHATWG form it can
// tell without one, and the rule is Unsure for every other, so a deny
// rule is never escaped by a spelling (hostcanon_test.go checks the
// spellings against node, FuzzNoDefiniteMissOnOtherSpelling the rule).

// canonicalHost returns the host net/url read (urlHost) in the form a
// WHATWG parser gives it, with one trailing dot removed (DNS reads
// "example.com." as "example.com"; Node keeps the dot), and false when
// it cannot tell that form:
//
//   - non-ASCII bytes (raw or percent-decoded): IDNA maps them;
//   - '%' (a decoded "%25"): WHATWG decodes escapes before IDNA;
//   - an empty label (".a", "a..b", "a.."), which no resolver reads as
//     the name without it;
//   - a host that ends in a number (its last label all digits, or 0x and
//     hex digits) but is not a plain dotted quad: WHATWG reads it as an
//     IPv4 address in another spelling, or rejects it.
//
// ASCII letters are lower-cased (all UTS-46 does to ASCII). An IPv6
// address (holding ':') is returned as it is: no rule can name one, as a
// domain holds no ':'.
func canonicalHost(h string) (string, bool) {
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 || h[i] == '%' {
			return "", false
		}
	}
	if strings.Contains(h, ":") {
		return strings.ToLower(h), true
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if h == "" || h[0] == '.' || h[len(h)-1] == '.' || strings.Contains(h, "..") {
		return "", false
	}
	if endsInNumber(h) && !isDottedQuad(h) {
		return "", false
	}
	return h, true
}

// endsInNumber reports whether WHATWG's host parser reads the ASCII,
// lower-case host h (without a trailing dot) as an IPv4 address: its last
// label is all decimal digits, or "0x" and hex digits.
func endsInNumber(h string) bool {
	last := h[strings.LastIndexByte(h, '.')+1:]
	if last == "" {
		return false
	}
	if hex, ok := strings.CutPrefix(last, "0x"); ok {
		for i := 0; i < len(hex); i++ {
			if !ishex(hex[i]) {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(last); i++ {
		if last[i] < '0' || last[i] > '9' {
			return false
		}
	}
	return true
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
