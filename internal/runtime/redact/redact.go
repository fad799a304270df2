// Package redact hides secret-looking values in the text hookwright
// records of a tool call (the command, path or URL) before it is journaled,
// stored, served by hwctl's API or exported over OTLP. Every one of those
// goes through [String], so the redaction is the same everywhere.
//
// Hidden, each replaced by "…" with its name kept: the value of a
// secret-looking KEY=value or key: value (names with TOKEN, SECRET,
// PASSWORD, PASSWD, API_KEY, ACCESS_KEY, PRIVATE_KEY, AUTH, CREDENTIAL,
// COOKIE, or ending in KEY), of a --token/--password style flag, of an
// "Authorization: Bearer" or "Basic" credential, the password of a URL's
// user info, and whole tokens of common shapes (sk-..., ghp_..., github_pat_...,
// xox?-..., AKIA..., AIza..., glpat-..., npm_..., JSON web tokens, PEM
// private keys). The package uses the standard library only.
package redact

import (
	"regexp"
	"strings"
	"sync"
)

// Mark replaces a hidden value.
const Mark = "…"

// rules are applied in order, each to what the one before left. Each has a
// necessary condition, may: a cheap look for the words or marks its
// pattern cannot match without, on a string of ASCII only (lower is it in
// lower case). The runtime records a subject on every tool call; most
// carry nothing secret-looking, and then no pattern is compiled or run:
// compiling them cost each call about a tenth of a millisecond.
// TestMayIsNecessary and FuzzString keep the shortcut equal to running
// every pattern.
var rules = [...]struct {
	expr, repl string
	may        func(s, lower string) bool
}{
	// PEM private keys, whole.
	{`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`, Mark, mayPEM},
	// URL user info: keep the user, hide the password.
	{`(://[^/\s:@]+:)[^@\s/]+@`, "${1}" + Mark + "@", mayUserInfo},
	// Authorization credentials.
	{`(?i)\b(bearer|basic|token)(\s+)[A-Za-z0-9._~+/=:-]{6,}`, "${1}${2}" + Mark, mayAuthorization},
	// Flags: --token X, --password=X, -p=... is too vague to touch.
	{`(?i)(--?(?:[a-z0-9]+-)*(?:token|password|passwd|secret|api-?key|access-?key|auth|credentials?))([= ]+)("[^"]*"|'[^']*'|[^\s"']+)`, "${1}${2}" + Mark, mayFlag},
	// KEY=value and key: value with a secret-looking name.
	{`(?i)\b([a-z0-9_.-]*(?:token|secret|password|passwd|api_?key|access_?key|private_?key|auth|credential|cookie|key)s?)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s&;,"']+)`, "${1}${2}" + Mark, mayAssignment},
	// Token shapes, wherever they stand: glued to what comes before
	// them too (x=ghp_…, an AKIA key right after another token), but
	// for sk-, which ends ordinary words (disk-, task-), only at a
	// word's start.
	{`(?:\bsk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{30,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})`, Mark, mayTokenShape},
}

// The patterns, each compiled on its first use.
var (
	compileOnce [len(rules)]sync.Once
	compiled    [len(rules)]*regexp.Regexp
)

func pattern(i int) *regexp.Regexp {
	compileOnce[i].Do(func() { compiled[i] = regexp.MustCompile(rules[i].expr) })
	return compiled[i]
}

func mayPEM(s, _ string) bool { return strings.Contains(s, "-----BEGIN ") }

func mayUserInfo(s, _ string) bool { return strings.Contains(s, "://") && strings.Contains(s, "@") }

func mayAuthorization(_, lower string) bool {
	return containsAny(lower, "bearer", "basic", "token")
}

func mayFlag(_, lower string) bool {
	return strings.Contains(lower, "-") && containsAny(lower, "token", "passw", "secret", "api", "access", "auth", "credential")
}

func mayAssignment(_, lower string) bool {
	return strings.ContainsAny(lower, "=:") && containsAny(lower, "token", "secret", "passw", "key", "auth", "credential", "cookie")
}

func mayTokenShape(s, _ string) bool {
	return containsAny(s, "sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "AKIA", "AIza", "glpat-", "npm_", "eyJ")
}

func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// isASCII reports whether s is ASCII only: the case-insensitive patterns
// fold some other letters onto ASCII ones (the Kelvin sign K onto k), so
// the shortcut is taken only without them.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// String returns s with its secret-looking values replaced by Mark.
func String(s string) string { return apply(s, true) }

// apply runs the rules on s, skipping those whose may says no when
// shortcut is set.
func apply(s string, shortcut bool) string {
	if s == "" {
		return s
	}
	lower, ascii := "", false
	for i, r := range rules {
		if shortcut {
			if lower == "" {
				ascii = isASCII(s)
				lower = strings.ToLower(s)
			}
			if ascii && !r.may(s, lower) {
				continue
			}
		}
		if out := pattern(i).ReplaceAllString(s, r.repl); out != s {
			s, lower = out, ""
		}
	}
	return s
}

// Subject is what a journal line records of a call: s redacted, on one
// line (line breaks as spaces), at most limit bytes cut on a rune boundary
// with "…" at the cut.
func Subject(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	s = String(s)
	if len(s) <= limit {
		return s
	}
	cut := limit - len(Mark)
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:max(cut, 0)] + Mark
}
