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

type rule struct {
	re   *regexp.Regexp
	repl string
}

var rules = sync.OnceValue(func() []rule {
	return []rule{
		// PEM private keys, whole.
		{regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`), Mark},
		// URL user info: keep the user, hide the password.
		{regexp.MustCompile(`(://[^/\s:@]+:)[^@\s/]+@`), "${1}" + Mark + "@"},
		// Authorization credentials.
		{regexp.MustCompile(`(?i)\b(bearer|basic|token)(\s+)[A-Za-z0-9._~+/=:-]{6,}`), "${1}${2}" + Mark},
		// Flags: --token X, --password=X, -p=... is too vague to touch.
		{regexp.MustCompile(`(?i)(--?(?:[a-z0-9]+-)*(?:token|password|passwd|secret|api-?key|access-?key|auth|credentials?))([= ]+)("[^"]*"|'[^']*'|[^\s"']+)`), "${1}${2}" + Mark},
		// KEY=value and key: value with a secret-looking name.
		{regexp.MustCompile(`(?i)\b([a-z0-9_.-]*(?:token|secret|password|passwd|api_?key|access_?key|private_?key|auth|credential|cookie|key)s?)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s&;,"']+)`), "${1}${2}" + Mark},
		// Token shapes, wherever they stand: glued to what comes before
		// them too (x=ghp_…, an AKIA key right after another token), but
		// for sk-, which ends ordinary words (disk-, task-), only at a
		// word's start.
		{regexp.MustCompile(`(?:\bsk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{30,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})`), Mark},
	}
})

// String returns s with its secret-looking values replaced by Mark.
func String(s string) string {
	if s == "" {
		return s
	}
	for _, r := range rules() {
		s = r.re.ReplaceAllString(s, r.repl)
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
