package redact

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"ls -la /tmp":                "ls -la /tmp",
		"API_KEY=abc123 make deploy": "API_KEY=… make deploy",
		"export GITHUB_TOKEN=ghp_0123456789abcdefghij0123":                            "export GITHUB_TOKEN=…",
		"DB_PASSWORD='hunter2 x' ./run":                                               "DB_PASSWORD=… ./run",
		`curl -H "Authorization: Bearer abcdef123456" https://api.example.com/v1`:     `curl -H "Authorization: Bearer …" https://api.example.com/v1`,
		"curl https://user:pa55w0rd@example.com/x":                                    "curl https://user:…@example.com/x",
		"https://example.com/cb?access_token=xyz987&page=2":                           "https://example.com/cb?access_token=…&page=2",
		"tool --token s3cr3tv4lue --verbose":                                          "tool --token … --verbose",
		"mytool --api-key=abcd1234":                                                   "mytool --api-key=…",
		"echo sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA done":                             "echo … done",
		"aws AKIAABCDEFGHIJKLMNOP":                                                    "aws …",
		"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N": "jwt …",
		"cat /home/u/project/README.md":                                               "cat /home/u/project/README.md",
		"git push --force origin main":                                                "git push --force origin main",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSubject(t *testing.T) {
	if got := Subject("a\nb\tTOKEN=x", 100); got != "a b TOKEN=…" {
		t.Fatalf("%q", got)
	}
	long := strings.Repeat("é", 100)
	got := Subject(long, 21)
	if len(got) > 21 || !strings.HasSuffix(got, Mark) || !strings.HasPrefix(long, strings.TrimSuffix(got, Mark)) {
		t.Fatalf("%q", got)
	}
}

// FuzzString: redaction never grows a value without bound and never leaves
// a known token shape behind.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "TOKEN=x", "Bearer abcdefgh", "https://a:b@c", "ghp_0123456789abcdefghij0123", "-----BEGIN RSA PRIVATE KEY-----\nabc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if slow := apply(s, false); out != slow {
			t.Fatalf("String(%q) = %q with the shortcut, %q without", s, out, slow)
		}
		if len(out) > len(s)+len(Mark)*len(s)+8 {
			t.Fatalf("%q grew to %q", s, out)
		}
		if strings.Contains(out, "ghp_0123456789abcdefghij0123") {
			t.Fatalf("%q kept a token: %q", s, out)
		}
		if got := Subject(s, 64); len(got) > 64 {
			t.Fatalf("Subject(%q) = %q, longer than 64", s, got)
		}
	})
}

// A token glued to what comes before it is still hidden; sk- inside an
// ordinary word is not taken for one.
func TestTokensGluedToAWord(t *testing.T) {
	for in, want := range map[string]string{
		"0ghp_0123456789abcdefghij0123":                        "0…",
		"AKIA0123456789ABCDEFghp_0123456789abcdefghij0123":     "……",
		"id=xoxb-0123456789-abcdef":                            "id=…",
		"du -sh /var/lib/disk-usage-report-2026-11-25 && echo": "du -sh /var/lib/disk-usage-report-2026-11-25 && echo",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMayIsNecessary: the shortcut changes nothing, on strings made to
// come close to each pattern.
func TestMayIsNecessary(t *testing.T) {
	for _, s := range []string{"ls -la", "TOKEN=x", "toKen=x", "x --Pass-Word y", "Basic  abcdefg", "a://b:c@d", "a://b:c", "--api key", "cookie: 1",
		"-----BEGIN X PRIVATE KEY-----", "-----begin rsa private key-----", "GHP_0123456789abcdefghij0123", "ghp_0123456789abcdefghij0123",
		"tok\u212an=x", "pa\u017f\u017fword=1", "npm_" + strings.Repeat("a", 30), "eyJaaaaaaaaa.eyJbbbbbbbbb.cccccccccc", "private_key: x", "auth=1"} {
		if got, want := apply(s, true), apply(s, false); got != want {
			t.Errorf("String(%q) = %q with the shortcut, %q without", s, got, want)
		}
	}
}
