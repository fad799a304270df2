package packs

import (
	"os"
	"strings"
	"testing"
)

func TestPacksLoad(t *testing.T) {
	s, err := parse(tables)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"cloud", "containers", "database", "exfiltration", "general", "git", "http", "infrastructure", "machine", "messaging", "model", "payment", "platforms", "publish", "storage"}
	var got []string
	for _, p := range s.Packs {
		got = append(got, p.Name)
		if p.Doc == "" || len(p.Rules) == 0 {
			t.Errorf("pack %s: no doc or no rules", p.Name)
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("packs %v, want %v", got, want)
	}
	for _, prog := range []string{"psql", "kubectl", "terraform", "aws", "docker", "gh", "curl", "npm", "git", "kill"} {
		if !s.Names(prog) {
			t.Errorf("no rule names %s", prog)
		}
	}
	if s.Names("echo") || s.Names("ls") {
		t.Error("echo or ls has pack rules: the prefilter would parse every command")
	}
	if r := s.Rule("database.drop"); r == nil || r.Severity != Ask || r.ID() != "database.drop" {
		t.Errorf("database.drop: %+v", r)
	}
	if c, ok := s.Client("psql"); !ok || c.Dialect != "sql" {
		t.Errorf("psql client: %+v %v", c, ok)
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		cfg  map[string]string
		want string // "" or a part of the error
	}{
		{nil, ""},
		{map[string]string{"database": "ask", "cloud": "block", "payment": "off"}, ""},
		{map[string]string{"database.drop": "off", "machine.kill-all": "block"}, ""},
		{map[string]string{"databse": "ask"}, "guard.packs.databse: no such pack"},
		{map[string]string{"database.dorp": "off"}, "guard.packs.database.dorp: no such rule"},
		{map[string]string{"database": "allow"}, `guard.packs.database: "allow" is not "off", "ask" or "block"`},
		{map[string]string{"cloud": "Block"}, `"Block" is not`},
	} {
		err := Validate(c.cfg)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.cfg, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: error %v, want %q", c.cfg, err, c.want)
		}
	}
}

func TestSeverity(t *testing.T) {
	s := All()
	drop, trunc := s.Rule("database.drop"), s.Rule("database.truncate")
	cfg := map[string]string{"database": "block", "database.drop": "off"}
	if got := Severity(drop, cfg); got != Off {
		t.Errorf("the rule's own entry: %s, want off", got)
	}
	if got := Severity(trunc, cfg); got != Block {
		t.Errorf("the pack's entry: %s, want block", got)
	}
	if got := Severity(trunc, nil); got != Ask {
		t.Errorf("the default: %s, want ask", got)
	}
}

func TestAtLeastAsStrict(t *testing.T) {
	for _, c := range []struct {
		a, b map[string]string
		want bool
	}{
		{nil, nil, true},
		{map[string]string{"cloud": "block"}, nil, true},
		{nil, map[string]string{"cloud": "block"}, false},
		{map[string]string{"payment": "off"}, nil, false},
		{map[string]string{"database.drop": "off"}, nil, false},
		{map[string]string{"database": "block", "database.drop": "ask"}, map[string]string{"database": "ask"}, true},
		{map[string]string{"database": "block", "database.drop": "off"}, map[string]string{"database": "ask"}, false},
		{map[string]string{"machine": "ask"}, nil, false}, // machine's rules block by default
		{map[string]string{"database": "ask"}, map[string]string{"database.drop": "off"}, true},
	} {
		if got := AtLeastAsStrict(c.a, c.b); got != c.want {
			t.Errorf("AtLeastAsStrict(%v, %v) = %v, want %v (loosened: %v)", c.a, c.b, got, c.want, All().Loosenings(c.b, c.a))
		}
	}
	if got := All().Loosenings(nil, map[string]string{"payment": "off"}); strings.Join(got, " ") != "payment.delete payment.refund" {
		t.Errorf("Loosenings: %v", got)
	}
}

func TestMatchWord(t *testing.T) {
	for _, c := range []struct {
		p, w string
		want bool
	}{
		{"delete", "delete", true}, {"delete", "deleted", false}, {"delete-*", "delete-table", true},
		{"*:delete", "sites:delete", true}, {"*:delete", "delete", false}, {"publish*", "publishtomavencentral", true},
		{"*", "vg0/data", true}, {"schedule-*-deletion", "schedule-key-deletion", true}, {"schedule-*-deletion", "schedule-deletion", false},
		{"a*b*c", "axxbyyc", true}, {"a*b*c", "ac", false}, {"/v1/refunds/*", "/v1/refunds/re_1", true},
	} {
		if got := MatchWord(c.p, c.w); got != c.want {
			t.Errorf("MatchWord(%q, %q) = %v", c.p, c.w, got)
		}
	}
}

// The table of packs in the guard's docs page (docs/guard.md) names
// every pack.
func TestReadmeListsPacks(t *testing.T) {
	data, err := os.ReadFile("../../docs/guard.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range All().Packs {
		if !strings.Contains(string(data), "| `"+p.Name+"` |") {
			t.Errorf("docs/guard.md's table of packs lacks %s", p.Name)
		}
	}
}
