package toolrule

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// netURLHost is what the rule matched before urlHost: url.Parse and
// URL.Hostname, false on an error or an empty host.
func netURLHost(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return "", false
	}
	return u.Hostname(), true
}

// hostileURLs are spellings a model may write to slip past a deny rule or
// into an allow rule, and the corners of net/url's grammar.
var hostileURLs = []string{
	"", "*", ":", "::", "#", "?", "/", "//", "///", "////", "http:", "http:/", "http://", "http:///", "http:////x",
	"https://example.com", "https://example.com/", "https://EXAMPLE.COM./x", "HTTPS://Example.Com:443/a?b#c",
	"https://example.com:8443/a", "https://example.com:/a", "https://example.com:x/a", "https://example.com:-1/",
	"https://example.com:80:80/", "ftp://a:b:80/", "mongodb://h1:1,h2:2/db", "mongodb://h1:1:2/db", "http://a:b:c",
	"example.com", "example.com/path", "example.com:443", "//example.com/x", "///example.com/x", "//user@example.com:1/",
	"https:example.com", "https:/example.com", "https:\\\\example.com", "https://example.com\\@evil.org/",
	"https://evil.org\\.example.com/", "https://evil.org/\\@example.com", "https://example.com\\",
	"https://user@example.com", "https://user:pass@example.com", "https://u:p@ss@example.com/",
	"https://example.com@evil.org/", "https://evil.org@example.com/", "https://example.com%40evil.org/",
	"https://a@b@c@example.com/", "https://@example.com", "https://example.com@", "https://@", "https://:@:/",
	"https://us%zzer@example.com/", "https://us%2@example.com/", "https://user%40x@example.com/", "https://us er@example.com/",
	"https://usér@example.com/", "https://[user]@example.com/", "https://u/ser@example.com/",
	"https://example.com?@evil.org", "https://example.com#@evil.org", "https://example.com/#%zz", "https://example.com/#%41",
	"https://example.com/%zz", "https://example.com/%", "https://example.com/%4", "https://example.com/a%2Fb",
	"https://example.com?%zz", "https://example.com?", "https://example.com??", "http://x?y?",
	"https://ex%61mple.com/", "https://%65vil.com", "https://ex%C3%A4mple.com/", "https://%C3%A4", "https://%25/", "https://a%25b/",
	"https://%80%81", "https://%7f", "https://%7F.com", "https://ex%2Eample.com", "https://%2e", "https://%3A80",
	"https://exämple.com/", "https://ｅｘａｍｐｌｅ.com/", "https://example。com/", "https://xn--exmple-cua.com/",
	"https://ex ample.com/", "https://example.com /", " https://example.com", "https://exa\tmple.com/", "https://example.com\n",
	"https://example.com\x00.evil.org/", "https://example.com\x7f/", "https://example.com/#\x01", "https://example.com/#\t",
	"https://ex<ample>.com", "https://ex\"ample.com", "https://ex{ample}.com", "https://ex|ample.com", "https://ex^ample.com",
	"https://ex`ample.com", "https://!$&'()*+,;=.com", "https://ex_ample~.com", "https://-.", "https://.", "https://..",
	"https://[::1]/", "https://[::1]:443/", "https://[::1]x/", "https://[::1]:x/", "https://[::1", "https://::1]/", "https://a[::1]/",
	"https://[::1][::2]/", "https://[]/", "https://[:]/", "https://[::]/", "https://[:::]/", "https://[1::2::3]/",
	"https://[fe80::1%25en0]/", "https://[fe80::1%25]/", "https://[fe80::1%en0]/", "https://[fe80::1%25%65n0]/",
	"https://[fe80::1%25%20x]/", "https://[fe80::1%25%00]/", "https://[fe80::1%25%5D%3A80]/", "https://[fe80::1%25]]/",
	"https://[fe80::1%25%3A]:80/", "https://[fe80::1%25%25]/", "https://[fe80::1%25%C3%A4]/", "https://[fe80::1%25ä]/",
	"https://[%66e80::1]/", "https://[fe80::%C3%A4]/", "https://[1.2.3.4]/", "https://[::ffff:1.2.3.4]/",
	"https://[::ffff:1.2.3.04]/", "https://[::ffff:1.2.3.256]/", "https://[::1.2.3.4]/", "https://[1:2:3:4:5:6:1.2.3.4]/",
	"https://[1:2:3:4:5:6:7:1.2.3.4]/", "https://[1:2:3:4:5:1.2.3.4]/", "https://[1:2:3:4:5:6:7:8]/", "https://[1:2:3:4:5:6:7:8:9]/",
	"https://[1:2:3:4:5:6:7::]/", "https://[::1:2:3:4:5:6:7]/", "https://[::1:2:3:4:5:6:7:8]/", "https://[1::]/",
	"https://[12345::1]/", "https://[1:]/", "https://[:1]/", "https://[::1:]/", "https://[g::1]/", "https://[::1.2.3]/",
	"https://[::1.2.3.4.5]/", "https://[::1..2.3]/", "https://[::.1.2.3]/", "https://[::1.2.3.]/", "https://[.::1]/",
	"https://[%]/", "https://[%25]/", "https://[a.b]/", "https://[v1.x]/", "https://[::1]@example.com/",
	"https://example.com@[::1]/", "https://[::1]%3A80/", "https://1.2.3.4/", "https://0x7f.1/", "https://2130706433/",
	"https://127.1/", "https://[0:0:0:0:0:ffff:7f00:1]/", "file:///etc/passwd", "file://host/x", "mailto:a@example.com",
	"javascript:alert(1)", "data:text/html,<x>", "1http://example.com", "+x://example.com", "h+t.t-p://example.com/",
	"ht_tp://example.com", "a:b/c", "a/b:c", "./a:b", "%zz", "*?", "**",
}

func TestURLHostMatchesNetURL(t *testing.T) {
	for _, s := range hostileURLs {
		checkHost(t, s)
		checkHost(t, strings.ToUpper(s))
	}
	// every byte in the host, the userinfo, the path and the zone
	for c := 0; c < 256; c++ {
		b := string(rune(c))
		if c >= 0x80 {
			b = string([]byte{byte(c)})
		}
		for _, f := range []string{"https://a%sb.com/", "https://u%s@a.com/", "https://a.com/%s", "https://a.com/#%s", "https://[fe80::1%%25%s]/", "x%s//a.com", "https://a.com:8%s/", "https://[::1]%s/"} {
			checkHost(t, strings.Replace(f, "%s", b, 1))
		}
		for _, f := range []string{"https://a%%%02xb.com/", "https://[fe80::1%%25%%%02x]/", "https://[fe80::%%%02x]/", "https://u%%%02x@a.com/"} {
			checkHost(t, fmt.Sprintf(f, c))
		}
	}
}

func checkHost(t *testing.T, s string) {
	t.Helper()
	want, wantOK := netURLHost(s)
	got, gotOK := urlHost(s)
	if got != want || gotOK != wantOK {
		t.Errorf("urlHost(%q) = %q, %v; net/url: %q, %v", s, got, gotOK, want, wantOK)
	}
}

// FuzzHostMatchesNetURL checks urlHost against net/url on any input: the
// same host where net/url reads one, no host where it fails.
func FuzzHostMatchesNetURL(f *testing.F) {
	for _, s := range hostileURLs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, wantOK := netURLHost(s)
		got, gotOK := urlHost(s)
		if got != want || gotOK != wantOK {
			t.Fatalf("urlHost(%q) = %q, %v; net/url: %q, %v", s, got, gotOK, want, wantOK)
		}
	})
}

// TestWebFetchHostileSpellings: a deny rule for a domain is never
// escaped by a spelling net/url reads as that domain, and an unreadable
// URL is Unsure (a deny or ask rule counts it, an allow rule does not).
func TestWebFetchHostileSpellings(t *testing.T) {
	r, err := Parse("WebFetch(domain:example.com)")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		url  string
		want Match
	}{
		{"https://u:p@ss@example.com/", Yes},
		{"https://example.com@evil.org/", No},
		{"https://evil.org@EXAMPLE.com./x", Yes},
		{"https://example.com\\@evil.org/", Unsure},
		{"https://ex%61mple.com/", Unsure},
		{"https://example.com\x00.evil.org/", Unsure},
		{"https://example.com:80:80/", Unsure},
		{"https:example.com", Unsure},
		{"//example.com/x", Yes},
		{"https://[::1]/", No},
		{"https://[fe80::1%25]/", Unsure},
		{"https://example.com/#%zz", Unsure},
	} {
		c := &Call{Tool: "WebFetch", Fields: fields(t, "url", tc.url)}
		if got := r.Match(c); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.url, got, tc.want)
		}
	}
}
