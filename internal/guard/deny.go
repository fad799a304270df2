package guard

import (
	"sort"
	"strings"

	"github.com/hookwright/hookwright/internal/packs"
)

// matcher finds any of many substrings in one pass (Aho-Corasick), so the
// deny list costs the same per byte of command whatever its length. It is
// built once per Guard.
type matcher struct {
	nodes []acNode
	pats  []string
}

// acNode is one trie node; its children are nodes[first:first+n], sorted
// by label.
type acNode struct {
	label byte
	first int32
	n     int32
	fail  int32
	// out is the index of a pattern that ends here (or at a node on its
	// fail chain), or -1.
	out int32
}

// newMatcher builds the automaton for pats (empty patterns are dropped).
func newMatcher(pats []string) *matcher {
	var ps []string
	for _, p := range pats {
		if p != "" {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return nil
	}
	sort.Strings(ps)
	ps = compactStrings(ps)
	m := &matcher{pats: ps}
	// Breadth-first: a node stands for the patterns ps[lo:hi] that share
	// its depth-long prefix; its children are the runs of equal bytes at
	// that depth, so they come out sorted and contiguous.
	type span struct{ lo, hi, depth int }
	m.nodes = append(m.nodes, acNode{out: -1})
	spans := []span{{0, len(ps), 0}}
	for q := 0; q < len(spans); q++ {
		s := spans[q]
		nd := &m.nodes[q]
		lo := s.lo
		if lo < s.hi && len(ps[lo]) == s.depth {
			nd.out = int32(lo)
			lo++
		}
		nd.first = int32(len(m.nodes))
		for i := lo; i < s.hi; {
			b := ps[i][s.depth]
			j := i + 1
			for j < s.hi && ps[j][s.depth] == b {
				j++
			}
			m.nodes = append(m.nodes, acNode{label: b, out: -1})
			spans = append(spans, span{i, j, s.depth + 1})
			i = j
		}
		m.nodes[q].n = int32(len(m.nodes)) - m.nodes[q].first
	}
	// fail links, breadth-first (node order is breadth-first already)
	for v := 0; v < len(m.nodes); v++ {
		nd := m.nodes[v]
		for c := nd.first; c < nd.first+nd.n; c++ {
			child := &m.nodes[c]
			if v == 0 {
				child.fail = 0
			} else {
				f := nd.fail
				for {
					if t, ok := m.child(f, child.label); ok {
						child.fail = t
						break
					}
					if f == 0 {
						child.fail = 0
						break
					}
					f = m.nodes[f].fail
				}
			}
			if child.out < 0 {
				child.out = m.nodes[child.fail].out
			}
		}
	}
	return m
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// child returns v's child labelled b.
func (m *matcher) child(v int32, b byte) (int32, bool) {
	nd := &m.nodes[v]
	lo, hi := nd.first, nd.first+nd.n
	for lo < hi {
		mid := (lo + hi) / 2
		switch l := m.nodes[mid].label; {
		case l == b:
			return mid, true
		case l < b:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// find returns the first pattern that occurs in s.
func (m *matcher) find(s string) (string, bool) {
	if m == nil {
		return "", false
	}
	var v int32
	for i := 0; i < len(s); i++ {
		b := s[i]
		for {
			if t, ok := m.child(v, b); ok {
				v = t
				break
			}
			if v == 0 {
				break
			}
			v = m.nodes[v].fail
		}
		if o := m.nodes[v].out; o >= 0 {
			return m.pats[o], true
		}
	}
	return "", false
}

// denyMatch reports the first deny-list entry the command contains.
func (g *Guard) denyMatch(cmd string) (string, bool) {
	if len(g.Config.Deny) == 0 {
		return "", false
	}
	g.once.Do(func() { g.deny = newMatcher(g.Config.Deny) })
	return g.deny.find(cmd)
}

// guardedWord reports whether t is a prefilter word: a program or path
// name that makes the guard parse a command. A command with none of them
// (after quotes and backslashes are dropped, in lower case) cannot match a
// rule. A switch, not a map: the compiler builds the lookup, so a call
// pays no table construction at run time.
func guardedWord(t string) bool {
	switch t {
	case "rm", "rmdir", "unlink", "rimraf", "git", "find", "chmod", "chown", "chgrp", "dd", "shred", "wipefs", "mke2fs", "newfs",
		"curl", "wget", "fetch", "http", "xh", "aria2c", "nc", "ncat", "socat", "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "rbash", "yash", "posh", "eval", "exec",
		"source", "xargs", "su", "sudo", "doas", "env", "watch", "command", "builtin", "nohup", "timeout", "nice", "time", "stdbuf", "ionice", "setsid",
		"tee", "cp", "mv", "install", "ln", "rsync", "scp", "sftp", "tar", "zip", "gzip", "7z", "sed", "awk", "gawk", "perl", "ruby", "irb", "php", "node", "nodejs", "bun", "deno",
		"crontab", "gpg", "gpg2", "openssl", "security", "cat", "less", "more", "head", "tail", "base64", "base32", "xxd", "od", "hexdump", "strings", "nl", "tac",
		"bat", "batcat", "grep", "egrep", "fgrep", "rg", "ag", "ack", "sort", "uniq", "cut", "diff", "cmp", "vim", "vi", "nano", "emacs", "code", "jq", "yq",
		"ls", "stat", "test", "file", "du", "tree", ".ssh", ".aws", "gcloud", ".azure", ".gnupg", ".kube", ".docker", ".claude", ".netrc", "_netrc",
		".git-credentials", ".npmrc", ".pypirc", ".vault-token", "authorized_keys", "authorized_keys2", ".profile", ".git", "hooks",
		"cron", "systemd", "launchagents", "launchdaemons", "autostart", "environ", "shadow", "gshadow", "sudoers", ".pgpass", ".my.cnf",
		".htpasswd", "keychains", ".password-store", "keyrings", "hosts.yml", ".gitconfig", "profile.d", "dev":
		return true
	}
	return false
}

// needsParse is the keyword prefilter.
func (g *Guard) needsParse(cmd string) bool {
	if strings.ContainsAny(cmd, "$`") {
		return true // the program or a path may be hidden in an expansion
	}
	if writesFile(cmd) {
		return true // a redirect into a file: the path decides
	}
	start := -1
	for i := 0; i <= len(cmd); i++ {
		var c byte
		if i < len(cmd) {
			c = cmd[i]
		}
		if c == '"' || c == '\'' || c == '\\' {
			continue // r''m, \rm and "rm" are rm
		}
		tok := i < len(cmd) && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' || c == '+' || c >= 0x80)
		if tok {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if g.guardedToken(cmd[start:i]) {
				return true
			}
			start = -1
		}
	}
	return false
}

// guardedToken reports whether one prefilter token names a guarded program
// or path.
func (g *Guard) guardedToken(raw string) bool {
	var buf [64]byte
	b := buf[:0]
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '"' || c == '\'' || c == '\\':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	t := string(b)
	if guardedWord(t) || groundWord(t) || packs.Known(t) || harmToken(t) || strings.Contains(t, "prod") || t == "lua" || t == "rscript" || len(g.Config.Commands)+len(g.Config.Secrets) > 0 && g.names(t) {
		return true
	}
	for _, p := range guardedPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	for _, s := range guardedSuffixes {
		if strings.HasSuffix(t, s) && (s != "rc" || strings.HasPrefix(t, ".")) {
			return true
		}
	}
	return false
}

var (
	guardedPrefixes = []string{"python", "pypy", "perl", "node", "mkfs", ".env", "id_", "credential", "cron", ".bash", ".zsh", ".ksh", ".tcsh", ".csh", ".x", ".login", "secring", "application_default", "kubeconfig"}
	guardedSuffixes = []string{".sh", ".pem", ".key", ".p12", ".pfx", ".ppk", ".jks", ".keystore", "rc", ".gpg"}
)

// names reports whether a program or path word is one the project's
// config added (a command rule's program, a word of a secret glob).
func (g *Guard) names(t string) bool {
	if guardedWord(t) {
		return true
	}
	for _, r := range g.Config.Commands {
		if f := strings.Fields(r.Match); len(f) > 0 && strings.ToLower(f[0]) == t {
			return true
		}
	}
	for _, s := range g.Config.Secrets {
		for _, part := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '/' || r == '~' || r == '*' || r == '?' || r == '[' || r == ']' }) {
			if part == t {
				return true
			}
		}
	}
	return false
}
