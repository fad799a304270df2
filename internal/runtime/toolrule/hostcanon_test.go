package toolrule

import (
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// nodeSpellings are URLs whose host Claude Code (Node, WHATWG new URL:
// UTS-46 mapping, IPv4 number forms) reads as another host than the one
// written; node is the URL's hostname as Node 20 printed it ("" for a URL
// it rejects), and want is what a rule for domain:<rule> answers. A
// definite No is right only where Node's host is not the rule's.
var nodeSpellings = []struct {
	url, node, rule string
	want            Match
}{
	{"https://example.com/", "example.com", "example.com", Yes},
	{"https://EXAMPLE.COM/", "example.com", "example.com", Yes},
	{"https://Example.Com:443/", "example.com", "example.com", Yes},
	// Node keeps one trailing dot; DNS resolves example.com. as example.com
	{"https://example.com./", "example.com.", "example.com", Yes},
	{"https://example.com../", "example.com..", "example.com", Unsure},
	{"https://.example.com/", ".example.com", "example.com", Unsure},
	{"https://a..b/", "a..b", "example.com", Unsure},
	{"https://ｅｘａｍｐｌｅ.com/", "example.com", "example.com", Unsure},
	{"https://ＥＸＡＭＰＬＥ.ＣＯＭ/", "example.com", "example.com", Unsure},
	{"https://example.ｃｏｍ/", "example.com", "example.com", Unsure},
	{"https://example。com/", "example.com", "example.com", Unsure},
	{"https://example\uFF0Ecom/", "example.com", "example.com", Unsure},
	{"https://example\uFF61com/", "example.com", "example.com", Unsure},
	{"https://exa\u00ADmple.com/", "example.com", "example.com", Unsure},
	{"https://ex\u200Bample.com/", "example.com", "example.com", Unsure},
	{"https://exa\u2060mple.com/", "example.com", "example.com", Unsure},
	{"https://exämple.com/", "xn--exmple-cua.com", "example.com", Unsure},
	{"https://ex%C3%A4mple.com/", "xn--exmple-cua.com", "example.com", Unsure},
	{"https://example.com%E3%80%82/", "example.com.", "example.com", Unsure},
	{"https://ex%61mple.com/", "example.com", "example.com", Unsure}, // net/url rejects it
	{"https://XN--EXMPLE-CUA.COM/", "xn--exmple-cua.com", "xn--exmple-cua.com", Yes},
	{"https://09.example.com/", "09.example.com", "example.com", No},
	{"https://example.org/", "example.org", "example.com", No},
	// IPv4 number forms
	{"https://127.0.0.1/", "127.0.0.1", "127.0.0.1", Yes},
	{"https://127.0.0.1./", "127.0.0.1", "127.0.0.1", Yes},
	{"https://0x7f.1/", "127.0.0.1", "127.0.0.1", Unsure},
	{"https://2130706433/", "127.0.0.1", "127.0.0.1", Unsure},
	{"https://0177.0.0.1/", "127.0.0.1", "127.0.0.1", Unsure},
	{"https://127.000.0.1/", "127.0.0.1", "127.0.0.1", Unsure},
	{"https://127.1/", "127.0.0.1", "127.0.0.1", Unsure},
	{"https://0x7f000001/", "127.0.0.1", "127.0.0.1", Unsure},
	{"https://0X7F.0.0.1/", "127.0.0.1", "127.0.0.1", Unsure},
	{"https://1.2.3.0x4/", "1.2.3.4", "1.2.3.4", Unsure},
	{"https://1.0x2.3.4/", "1.2.3.4", "1.2.3.4", Unsure},
	{"https://0/", "0.0.0.0", "0.0.0.0", Unsure},
	{"https://0x/", "0.0.0.0", "0.0.0.0", Unsure},
	{"https://1.2.3.4/", "1.2.3.4", "127.0.0.1", No},
	{"https://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]", "127.0.0.1", Unsure},
	{"https://[::1]/", "[::1]", "example.com", No},
}

func TestWebFetchNodeSpellings(t *testing.T) {
	for _, tc := range nodeSpellings {
		r, err := Parse("WebFetch(domain:" + tc.rule + ")")
		if err != nil {
			t.Fatal(err)
		}
		c := &Call{Tool: "WebFetch", Fields: fields(t, "url", tc.url)}
		if got := r.Match(c); got != tc.want {
			t.Errorf("%q against domain:%s: %v, want %v (Node reads host %q)", tc.url, tc.rule, got, tc.want, tc.node)
		}
		// whatever the answer, a definite No never stands for Node's host
		if got := r.Match(c); got == No && strings.TrimSuffix(tc.node, ".") == tc.rule {
			t.Errorf("%q: No against domain:%s, but Node fetches %q", tc.url, tc.rule, tc.node)
		}
	}
}

// TestNodeSpellingsAgree checks the hosts in nodeSpellings against the
// node on this machine, when there is one.
func TestNodeSpellingsAgree(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node: the expectations stand as written")
	}
	urls := make([]string, len(nodeSpellings))
	for i, tc := range nodeSpellings {
		urls[i] = tc.url
	}
	in, _ := json.Marshal(urls)
	const script = `const u = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(u.map(x => { try { return new URL(x).hostname } catch (e) { return "" } })))`
	cmd := exec.Command(node, "-e", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var hosts []string
	if err := json.Unmarshal(out, &hosts); err != nil || len(hosts) != len(urls) {
		t.Fatalf("node printed %q: %v", out, err)
	}
	for i, tc := range nodeSpellings {
		if hosts[i] != tc.node {
			t.Errorf("%q: node reads %q, the table says %q", tc.url, hosts[i], tc.node)
		}
	}
}

// whatwgLite is a node-free stand-in for the part of WHATWG's host
// parser a spelling can hide behind: the UTS-46 mappings of full-width
// ASCII and of the ideographic and full-width full stops, the code points
// it drops (soft hyphen, zero-width joiners and spaces, word joiner, BOM),
// ASCII lower case, one trailing dot (as DNS reads it), and the IPv4
// number forms. It reports false for a host WHATWG rejects.
func whatwgLite(h string) (string, bool) {
	var b strings.Builder
	for _, r := range h {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E:
			r -= 0xFF01 - '!'
		case r == 0x3002 || r == 0xFF61:
			r = '.'
		case r == 0xAD || r >= 0x200B && r <= 0x200D || r == 0x2060 || r == 0xFEFF:
			continue
		}
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	s := b.String()
	labels := strings.Split(s, ".")
	if len(labels) > 1 && labels[len(labels)-1] == "" {
		labels = labels[:len(labels)-1]
	}
	last := labels[len(labels)-1]
	if _, ok := ipv4Number(last); !ok && strings.Trim(last, "0123456789") != "" || last == "" {
		return strings.TrimSuffix(s, "."), true
	}
	// ends in a number: an IPv4 address or nothing
	if len(labels) > 4 {
		return "", false
	}
	var v uint64
	for i, l := range labels {
		n, ok := ipv4Number(l)
		if !ok {
			return "", false
		}
		if i < len(labels)-1 {
			if n > 255 {
				return "", false
			}
			v = v<<8 | n
			continue
		}
		if n >= 1<<(8*(5-len(labels))) {
			return "", false
		}
		v = v<<(8*(5-len(labels))) | n
	}
	return strconv.Itoa(int(v>>24)) + "." + strconv.Itoa(int(v>>16&255)) + "." + strconv.Itoa(int(v>>8&255)) + "." + strconv.Itoa(int(v&255)), true
}

// ipv4Number reads one IPv4 part as WHATWG does: 0x hex, leading-0
// octal, or decimal.
func ipv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	if s == "" {
		return 0, true
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 1 << 40, true // a number, too big for any part
		}
		return 0, false
	}
	return min(n, 1<<40), true
}

func TestWhatwgLiteMatchesTable(t *testing.T) {
	for _, tc := range nodeSpellings {
		h, ok := netURLHost(tc.url)
		if !ok || strings.HasPrefix(h, "xn--") || strings.Contains(h, ":") || strings.ContainsAny(h, "äÄ") || strings.Contains(tc.url, "%") {
			continue // net/url rejects it, or IDNA proper / IPv6 beyond the stand-in
		}
		got, ok := whatwgLite(h)
		if !ok || got != strings.TrimSuffix(tc.node, ".") {
			t.Errorf("whatwgLite(%q) = %q, %v; node %q", h, got, ok, tc.node)
		}
	}
}

// FuzzNoDefiniteMissOnOtherSpelling: for any URL, a definite No from a
// rule for example.com or for 127.0.0.1 means the host, put in canonical
// form by whatwgLite, is another host.
func FuzzNoDefiniteMissOnOtherSpelling(f *testing.F) {
	for _, tc := range nodeSpellings {
		f.Add(tc.url)
	}
	for _, s := range hostileURLs {
		f.Add(s)
	}
	rules := []Rule{}
	for _, s := range []string{"WebFetch(domain:example.com)", "WebFetch(domain:127.0.0.1)", "WebFetch(domain:*.example.com)"} {
		r, err := Parse(s)
		if err != nil {
			f.Fatal(err)
		}
		rules = append(rules, r)
	}
	f.Fuzz(func(t *testing.T, u string) {
		b, _ := json.Marshal(u)
		c := &Call{Tool: "WebFetch", Fields: map[string]json.RawMessage{"url": b}}
		h, ok := netURLHost(strings.TrimSpace(u))
		for _, r := range rules {
			m := r.Match(c)
			if m != No {
				continue
			}
			if !ok {
				t.Fatalf("%q: No against %s for a URL net/url cannot read", u, r.Raw)
			}
			canon, ok := whatwgLite(h)
			if ok && domainMatches(r.Spec, canon) {
				t.Fatalf("%q: No against %s, but the host %q is %q", u, r.Raw, h, canon)
			}
		}
	})
}
