package toolrule

import "strings"

// The host a WebFetch rule is matched against is the one net/url's Parse
// and URL.Hostname give. net/url is not imported: its package init (and
// net/netip's, unique's, weak's) would run on every hook call. urlHost
// follows net/url (Go 1.26) step by step instead, for the part that
// decides the host and whether Parse fails; urlhost_test.go checks the
// two against each other (TestURLHostMatchesNetURL, FuzzHostMatchesNetURL).
// Where net/url fails, urlHost reports no host, so a rule is Unsure.
//
// One deliberate difference: for http and https, Go 1.26 rejects a host
// with more than one colon outside brackets unless GODEBUG sets
// urlstrictcolons=0; urlHost always rejects it.

// urlHost returns raw's host name as url.Parse(raw) and URL.Hostname
// give it (brackets and port removed, percent escapes decoded, case
// kept), and false when Parse fails or the host is empty.
func urlHost(raw string) (string, bool) {
	// Parse: the fragment is cut off first and must be well escaped.
	u, frag, _ := strings.Cut(raw, "#")
	if !validEscapes(frag) {
		return "", false
	}
	for i := 0; i < len(u); i++ {
		if u[i] < ' ' || u[i] == 0x7f {
			return "", false // invalid control character in URL
		}
	}
	if u == "*" {
		return "", false
	}
	scheme, rest, ok := urlScheme(u)
	if !ok {
		return "", false // missing protocol scheme
	}
	// The query is not checked; "x?" and "x?q" both leave x.
	rest, _, _ = strings.Cut(rest, "?")
	// Only "//authority" holds a host, and "///" without a scheme does not.
	// Every other form (opaque, a path, an error) has no host.
	if !strings.HasPrefix(rest, "//") || scheme == "" && strings.HasPrefix(rest, "///") {
		return "", false
	}
	authority, path := rest[2:], ""
	if i := strings.IndexByte(authority, '/'); i >= 0 {
		authority, path = authority[:i], authority[i:]
	}
	at := strings.LastIndexByte(authority, '@')
	host, ok := urlParseHost(scheme, authority[at+1:])
	if !ok {
		return "", false
	}
	if at >= 0 && (!validUserinfo(authority[:at]) || !validEscapes(authority[:at])) {
		return "", false
	}
	if !validEscapes(path) {
		return "", false
	}
	// URL.Hostname: a valid :port is dropped, then the brackets.
	if c := strings.LastIndexByte(host, ':'); c >= 0 && validOptionalPort(host[c:]) {
		host = host[:c]
	}
	if len(host) >= 2 && host[0] == '[' && host[len(host)-1] == ']' {
		host = host[1 : len(host)-1]
	}
	if host == "" {
		return "", false
	}
	return host, true
}

// urlScheme splits a leading scheme ([a-zA-Z][a-zA-Z0-9+.-]*:), lower
// case, off s; false when s starts with ':'.
func urlScheme(s string) (scheme, rest string, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.':
			if i == 0 {
				return "", s, true
			}
		case c == ':':
			if i == 0 {
				return "", "", false
			}
			return strings.ToLower(s[:i]), s[i+1:], true
		default:
			return "", s, true
		}
	}
	return "", s, true
}

// urlParseHost reads host[:port] as net/url's parseHost does, returning
// the host with its escapes decoded (and the port kept).
func urlParseHost(scheme, host string) (string, bool) {
	if open := strings.LastIndexByte(host, '['); open > 0 {
		return "", false
	} else if open == 0 {
		closing := strings.LastIndexByte(host, ']')
		if closing < 0 {
			return "", false
		}
		colonPort := host[closing+1:]
		if !validOptionalPort(colonPort) {
			return "", false
		}
		name := host[1:closing]
		var lit string
		if z := strings.Index(name, "%25"); z >= 0 {
			h, ok1 := unescapeHost(name[:z], false)
			zone, ok2 := unescapeHost(name[z:], true)
			if !ok1 || !ok2 {
				return "", false
			}
			lit = h + zone
		} else {
			var ok bool
			if lit, ok = unescapeHost(name, false); !ok {
				return "", false
			}
		}
		if !isIPv6(lit) {
			return "", false // only an IPv6 address may be bracketed
		}
		return "[" + lit + "]" + colonPort, true
	} else if i := strings.IndexByte(host, ':'); i >= 0 {
		if last := strings.LastIndexByte(host, ':'); last != i && scheme != "http" && scheme != "https" {
			i = last
		}
		if !validOptionalPort(host[i:]) {
			return "", false
		}
	}
	return unescapeHost(host, false)
}

// hostByte reports whether the ASCII byte c may stand unescaped in a host
// (or an IPv6 zone), as net/url's encoding table says.
func hostByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return c < 0x80 && strings.IndexByte("!$&'()*+,;=:[]<>\"-_.~", c) >= 0
}

func ishex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// validEscapes reports whether every '%' in s starts a %XX escape.
func validEscapes(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			if i+2 >= len(s) || !ishex(s[i+1]) || !ishex(s[i+2]) {
				return false
			}
			i += 2
		}
	}
	return true
}

// unescapeHost decodes a host (or, zone true, an IPv6 zone starting at
// its "%25") as net/url does: a host escapes only non-ASCII bytes and
// "%25"; a zone escapes bytes a host may hold, ' ' and '%'; an ASCII byte
// a host may not hold is an error.
func unescapeHost(s string, zone bool) (string, bool) {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c != '%' {
			if c < 0x80 && !hostByte(c) {
				return "", false
			}
			i++
			continue
		}
		n++
		if i+2 >= len(s) || !ishex(s[i+1]) || !ishex(s[i+2]) {
			return "", false
		}
		if !zone && unhex(s[i+1]) < 8 && s[i:i+3] != "%25" {
			return "", false
		}
		if v := unhex(s[i+1])<<4 | unhex(s[i+2]); zone && s[i:i+3] != "%25" && v != ' ' && !hostByte(v) {
			return "", false
		}
		i += 3
	}
	if n == 0 {
		return s, true
	}
	var b strings.Builder
	b.Grow(len(s) - 2*n)
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), true
}

// validOptionalPort reports whether port is "" or ':' and digits.
func validOptionalPort(port string) bool {
	if port == "" {
		return true
	}
	if port[0] != ':' {
		return false
	}
	for i := 1; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return false
		}
	}
	return true
}

// validUserinfo reports whether s holds only the bytes net/url allows in
// userinfo (unreserved, sub-delims, ':', '%' and '@'; no non-ASCII).
func validUserinfo(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c < 0x80 && strings.IndexByte("-._:~!$&'()*+,;=%@", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// isIPv6 reports whether net/netip's ParseAddr reads s as an address that
// is not IPv4: an IPv6 address (with an embedded dotted quad, or a
// non-empty zone after '%', or neither).
func isIPv6(s string) bool {
	// ParseAddr picks the form by the first of '.', ':' and '%'.
	if i := strings.IndexAny(s, ".:%"); i < 0 || s[i] != ':' {
		return false // IPv4 (rejected in brackets) or no address
	}
	if i := strings.IndexByte(s, '%'); i >= 0 {
		if i == len(s)-1 {
			return false // empty zone
		}
		s = s[:i]
	}
	fields := 0 // 16-bit groups read
	ellipsis := false
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		ellipsis = true
		s = s[2:]
		if s == "" {
			return true
		}
	}
	for fields < 8 {
		off := 0
		for off < len(s) && ishex(s[off]) {
			off++
			if off > 4 {
				return false
			}
		}
		if off == 0 {
			return false
		}
		if off < len(s) && s[off] == '.' {
			if !ellipsis && fields != 6 || fields+2 > 8 {
				return false
			}
			if !isDottedQuad(s) {
				return false
			}
			s = ""
			fields += 2
			break
		}
		fields++
		s = s[off:]
		if s == "" {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return false
		}
		s = s[1:]
		if s[0] == ':' {
			if ellipsis {
				return false
			}
			ellipsis = true
			s = s[1:]
			if s == "" {
				break
			}
		}
	}
	if s != "" {
		return false
	}
	if fields < 8 {
		return ellipsis
	}
	return !ellipsis // :: must stand for at least one group
}

// isDottedQuad reports whether s is a.b.c.d as netip reads it: four
// decimal fields up to 255, no leading zeros.
func isDottedQuad(s string) bool {
	val, digits, dots := 0, 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			if digits == 1 && val == 0 {
				return false
			}
			val = val*10 + int(c-'0')
			digits++
			if val > 255 {
				return false
			}
		case c == '.':
			if i == 0 || i == len(s)-1 || s[i-1] == '.' || dots == 3 {
				return false
			}
			dots++
			val, digits = 0, 0
		default:
			return false
		}
	}
	return dots == 3
}
