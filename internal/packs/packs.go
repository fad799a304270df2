// Package packs holds the guard's rule packs: named sets of rules for the
// programs that manage shared state (databases, clusters, clouds,
// containers, hosted platforms, package registries, git history, the
// machine), kept as data, one JSON table per pack in this folder, and
// embedded in the binary.
//
// A rule names its programs and how a command of theirs is destructive:
//
//   - path: the leading subcommand words it needs, in order ("s3", "rm");
//     "*" stands for any one word;
//   - verbs: destructive words looked for in the subcommand path after
//     them ("delete", "delete-*", "*-delete"); the search stops at a
//     read-only verb (get, list, describe, show, status, plan, diff, …) and
//     after depth words;
//   - flags: at least one of these flags must be given ("-f" also matches
//     a cluster such as "-rf", "--force" also "--force=true");
//   - unless: flags that make the command harmless (besides --dry-run and
//     --help, which always do);
//   - spare: "verb word" pairs let through unless a spare_unless flag is
//     given (kubectl delete pod NAME, without --all or a selector);
//   - match: a check the guard does in code, for what a table cannot say
//     (SQL statements, HTTP methods, remote shells); words are its
//     arguments;
//   - severity: ask or block.
//
// The tables are compiled into packs_gen.go (go test -run TestGenerated
// -update rewrites it from the JSON, and the test fails when the two
// differ), so that a hook process pays nothing to read them: [All]
// indexes the compiled tables on first use, and [Known], the prefilter's
// word test, is a generated switch. Package guard reads the tables
// through [All]; the config package validates guard.packs through
// [Validate]. Severities in a config are
// "off", "ask" or "block", for a whole pack ("database") or one rule
// ("database.drop"); a rule's own entry wins over its pack's.
package packs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
)

// Pack is one named set of rules.
type Pack struct {
	Name string `json:"pack"`
	Doc  string `json:"doc"`
	// ValueFlags are options of the pack's programs that take a value as
	// the next word (--region us-east-1): that word is not a subcommand.
	ValueFlags []string `json:"value_flags,omitempty"`
	// Clients says, for the database pack, where each client reads its
	// statements.
	Clients map[string]Client `json:"clients,omitempty"`
	Rules   []Rule            `json:"rules"`
}

// Client is how a database client takes statements.
type Client struct {
	// Dialect is sql, mongo or redis.
	Dialect string `json:"dialect"`
	// Code are the options whose value is statements (-c, --command).
	Code []string `json:"code,omitempty"`
	// Files are the options whose value is a file of statements (-f).
	Files []string `json:"files,omitempty"`
	// Positional: the operands after the first (sqlite3 db.sqlite "SQL")
	// or all operands (redis-cli FLUSHALL, with Words) are statements.
	Positional string `json:"positional,omitempty"`
	// Stdin: the client reads statements on standard input.
	Stdin bool `json:"stdin,omitempty"`
}

// Rule is one rule of a pack.
type Rule struct {
	Name     string   `json:"name"`
	Programs []string `json:"programs"`
	Path     []string `json:"path,omitempty"`
	Verbs    []string `json:"verbs,omitempty"`
	// Except are verbs that look destructive and are not
	// (publishToMavenLocal).
	Except []string `json:"except,omitempty"`
	Flags  []string `json:"flags,omitempty"`
	Unless []string `json:"unless,omitempty"`
	// Spare are "verb word" pairs (patterns) the rule lets through when
	// none of SpareUnless is given: kubectl delete pod NAME.
	Spare       []string `json:"spare,omitempty"`
	SpareUnless []string `json:"spare_unless,omitempty"`
	Depth       int      `json:"depth,omitempty"`
	Match       string   `json:"match,omitempty"`
	Words       []string `json:"words,omitempty"`
	Severity    string   `json:"severity"`
	Doc         string   `json:"doc"`
	// Pass says what would let the command through without a stop: the
	// end of the reason the user reads (the model's rules; other rules
	// get a general one).
	Pass string `json:"pass,omitempty"`
	// Pack is the name of the pack the rule is in (set on load).
	Pack string `json:"-"`
}

// ID returns "pack.rule".
func (r *Rule) ID() string { return r.Pack + "." + r.Name }

// Matches the guard implements in code; a table naming another is an
// error.
var matches = map[string]bool{"": true, "sql": true, "http-delete": true, "git-history": true, "kill-all": true,
	"power": true, "history-wipe": true, "env-exfil": true, "unknown-prod": true, "host-root": true,
	"harm-verb": true, "harm-http": true, "harm-sync-delete": true, "harm-remote": true, "harm-exposure": true,
	"harm-capacity": true, "harm-later": true, "harm-unseen": true, "harm-sdk": true}

// Set is the loaded packs.
type Set struct {
	Packs []*Pack
	// byProgram indexes rules by program name.
	byProgram map[string][]*Rule
	ids       map[string]*Rule
	names     map[string]*Pack
	// compiled: the generated tables; flat lists their rules in order,
	// and programRules (generated) indexes it.
	compiled bool
	flat     []*Rule
	once     sync.Once
	// clients: the compiled database pack's clients (see Client).
	clientsOnce sync.Once
	clients     map[string]Client
}

// All returns the compiled packs. Looking up a program's rules costs a
// generated switch; the other lookups are indexed on first use.
var All = sync.OnceValue(func() *Set {
	// Nothing is written into the static tables: a write would copy
	// their pages into the process first.
	n := 0
	for k := range builtinPacks {
		n += len(builtinPacks[k].Rules)
	}
	s := &Set{Packs: make([]*Pack, len(builtinPacks)), compiled: true, flat: make([]*Rule, 0, n)}
	for k := range builtinPacks {
		p := &builtinPacks[k]
		s.Packs[k] = p
		for i := range p.Rules {
			s.flat = append(s.flat, &p.Rules[i])
		}
	}
	return s
})

// lookups builds the maps of a compiled Set once.
func (s *Set) lookups() {
	s.once.Do(func() {
		if s.ids == nil {
			x := index(s.Packs)
			s.ids, s.names = x.ids, x.names
		}
	})
}

// index builds a Set's lookups over packs read and checked by parse.
func index(list []*Pack) *Set {
	s := &Set{Packs: list, byProgram: map[string][]*Rule{}, ids: map[string]*Rule{}, names: map[string]*Pack{}}
	for _, p := range list {
		s.names[p.Name] = p
		for i := range p.Rules {
			r := &p.Rules[i]
			s.ids[r.ID()] = r
			for _, prog := range r.Programs {
				s.byProgram[prog] = append(s.byProgram[prog], r)
			}
		}
	}
	return s
}

// parse reads and checks the JSON tables of fsys (what packs_gen.go is
// generated from).
func parse(fsys fs.FS) (*Set, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	s := &Set{byProgram: map[string][]*Rule{}, ids: map[string]*Rule{}, names: map[string]*Pack{}}
	for _, e := range entries {
		if path.Ext(e.Name()) != ".json" {
			continue
		}
		data, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		p := &Pack{}
		if err := dec.Decode(p); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		if p.Name+".json" != e.Name() {
			return nil, fmt.Errorf("%s: pack %q must be in %s.json", e.Name(), p.Name, p.Name)
		}
		if s.names[p.Name] != nil || strings.Contains(p.Name, ".") {
			return nil, fmt.Errorf("%s: pack name %q is taken or has a dot", e.Name(), p.Name)
		}
		s.names[p.Name] = p
		for i := range p.Rules {
			r := &p.Rules[i]
			r.Pack = p.Name
			if r.Name == "" || strings.Contains(r.Name, ".") || s.ids[r.ID()] != nil {
				return nil, fmt.Errorf("%s: rule %q: empty, has a dot, or given twice", e.Name(), r.Name)
			}
			if r.Severity != "ask" && r.Severity != "block" {
				return nil, fmt.Errorf("%s: rule %s: severity %q is not ask or block", e.Name(), r.Name, r.Severity)
			}
			if !matches[r.Match] {
				return nil, fmt.Errorf("%s: rule %s: no match called %q", e.Name(), r.Name, r.Match)
			}
			if len(r.Programs) == 0 || r.Doc == "" {
				return nil, fmt.Errorf("%s: rule %s: needs programs and doc", e.Name(), r.Name)
			}
			if r.Match == "" && len(r.Path)+len(r.Verbs)+len(r.Flags) == 0 {
				return nil, fmt.Errorf("%s: rule %s: needs a path, verbs, flags or a match", e.Name(), r.Name)
			}
			if r.Depth == 0 {
				r.Depth = 4
			}
			s.ids[r.ID()] = r
			for _, prog := range r.Programs {
				s.byProgram[prog] = append(s.byProgram[prog], r)
			}
		}
		s.Packs = append(s.Packs, p)
	}
	sort.Slice(s.Packs, func(i, j int) bool { return s.Packs[i].Name < s.Packs[j].Name })
	return s, nil
}

// For returns the rules for a program (its base name, lower case).
func (s *Set) For(program string) []*Rule {
	if !s.compiled {
		return s.byProgram[program]
	}
	refs := programRules(program)
	if len(refs) == 0 {
		return nil
	}
	out := make([]*Rule, len(refs))
	for i, k := range refs {
		out[i] = s.flat[k]
	}
	return out
}

// Names reports whether a program has rules.
func (s *Set) Names(program string) bool {
	if s.compiled {
		return len(programRules(program)) > 0
	}
	return len(s.byProgram[program]) > 0
}

// Known reports whether a word (lower case) is a program or word some
// rule names: the guard's prefilter, a compiled switch that costs no
// set-up.
func Known(word string) bool { return known(word) }

// Pack returns the pack called name, or nil.
func (s *Set) Pack(name string) *Pack {
	for _, p := range s.Packs {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Rule returns the rule "pack.rule", or nil.
func (s *Set) Rule(id string) *Rule {
	pack, name, _ := strings.Cut(id, ".")
	if p := s.Pack(pack); p != nil {
		for i := range p.Rules {
			if p.Rules[i].Name == name {
				return &p.Rules[i]
			}
		}
	}
	return nil
}

// Client returns how the database pack's program name takes statements.
// The compiled packs' clients are a map, built on first use.
func (s *Set) Client(name string) (Client, bool) {
	clients := map[string]Client(nil)
	if s.compiled {
		s.clientsOnce.Do(func() { s.clients = builtinClients("database") })
		clients = s.clients
	} else if p := s.Pack("database"); p != nil {
		clients = p.Clients
	}
	c, ok := clients[name]
	return c, ok
}

// The severities a config may give, weakest first.
const (
	Off   = "off"
	Ask   = "ask"
	Block = "block"
)

func rank(s string) int {
	switch s {
	case Ask:
		return 1
	case Block:
		return 2
	}
	return 0
}

// Validate reports the first entry of a guard.packs map that names no
// pack or rule, or whose value is not off, ask or block.
func (s *Set) Validate(cfg map[string]string) error {
	s.lookups()
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := cfg[k]
		if v != Off && v != Ask && v != Block {
			return fmt.Errorf("guard.packs.%s: %q is not \"off\", \"ask\" or \"block\"", k, v)
		}
		if strings.Contains(k, ".") {
			if s.ids[k] == nil {
				return fmt.Errorf("guard.packs.%s: no such rule (hwctl guard packs lists them)", k)
			}
		} else if s.names[k] == nil {
			return fmt.Errorf("guard.packs.%s: no such pack (packs: %s)", k, strings.Join(s.packNames(), ", "))
		}
	}
	return nil
}

func (s *Set) packNames() []string {
	var out []string
	for _, p := range s.Packs {
		out = append(out, p.Name)
	}
	return out
}

// Validate checks cfg against the embedded packs (see [Set.Validate]).
func Validate(cfg map[string]string) error { return All().Validate(cfg) }

// Severity returns what rule r does under cfg: the rule's own entry, else
// its pack's, else the rule's default.
func Severity(r *Rule, cfg map[string]string) string {
	if len(cfg) == 0 {
		return r.Severity // the usual case: no config names a pack
	}
	if v, ok := cfg[r.ID()]; ok {
		return v
	}
	if v, ok := cfg[r.Pack]; ok {
		return v
	}
	return r.Severity
}

// Loosenings lists, sorted, the rules ("pack.rule") to which next gives a
// weaker severity than base: what a project config that next describes
// would loosen compared with base.
func (s *Set) Loosenings(base, next map[string]string) []string {
	var out []string
	for _, p := range s.Packs {
		for i := range p.Rules {
			r := &p.Rules[i]
			if rank(Severity(r, next)) < rank(Severity(r, base)) {
				out = append(out, r.ID())
			}
		}
	}
	return out
}

// AtLeastAsStrict reports whether every rule is at least as severe under
// a as under b (each a guard.packs map; nil is the defaults).
func AtLeastAsStrict(a, b map[string]string) bool {
	return len(All().Loosenings(b, a)) == 0
}

// MatchWord reports whether word matches a verb pattern: exact, "pre*",
// "*suf" or "*mid*" (both in lower case); * matches any run of
// characters, / included.
func MatchWord(pattern, word string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == word
	}
	if !strings.HasPrefix(word, parts[0]) {
		return false
	}
	word = word[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(word, mid)
		if i < 0 {
			return false
		}
		word = word[i+len(mid):]
	}
	return len(word) >= len(last) && strings.HasSuffix(word, last)
}
