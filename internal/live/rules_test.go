package live

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
)

// bandEdgeReleases are the releases the loader rules were read from and
// the oracle's live test loads plugins into.
var bandEdgeReleases = []string{"2.0.30", "2.1.33", "2.1.100", "2.1.252", "2.1.330"}

// TestLoaderRules re-derives compat.Rules' and compat.PluginKeys' facts
// from each release's code and fails where the table disagrees; it logs
// what it read. For a new release:
//
//	go test ./internal/live -run TestLoaderRules -v -release 2.1.331
//
// What it reads (LoaderRules): the URL check, a bound on timeout,
// per-entry tolerance, guards outside "hooks", command-only plugin hooks,
// dropped display keys, the duplicate hooks file skipped and, from 2.1.280,
// the standard one loaded once quietly, hooks modules, plugin.json's inline
// hooks checked entry by entry, a marketplace entry's hooks path ignored
// (2.1.198), named hooks files loaded on their own, the strict: false
// conflict, and plugin.json's keys and strictness. Where a mark moves, the
// release's loader must be run too: TestLoaderShapes -release X loads
// every fixture into it and says where the oracle disagrees.
func TestLoaderRules(t *testing.T) {
	Available(t)
	releases := bandEdgeReleases
	if *releaseFlag != "" {
		releases = strings.Split(*releaseFlag, ",")
	} else {
		for _, v := range releases {
			installT(t, v)
		}
	}
	for _, v := range releases {
		v = strings.TrimSpace(v)
		t.Run(v, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			r, source, err := ProbeLoaderRules(ctx, v)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(r)
			t.Logf("%s (%s): %s", v, source, b)
			for _, d := range rulesDiff(r) {
				t.Errorf("compat.Rules disagrees with %s's code: %s", v, d)
			}
		})
	}
}

// rulesDiff lists how the table contradicts what release r's code does.
func rulesDiff(r LoaderRules) []string {
	v := hooks.MustRelease(r.Release)
	var out []string
	check := func(what string, code, table bool) {
		if code != table {
			out = append(out, fmt.Sprintf("%s: code %v, table %v", what, code, table))
		}
	}
	atLeast := func(s string) bool { return !v.Less(hooks.MustRelease(s)) }
	check("invalid entries dropped, not fatal ("+compat.EntriesTolerated+")", r.EntriesTolerated, atLeast(compat.EntriesTolerated))
	check("guards outside \"hooks\" refuse the plugin", r.GuardsOutsideFatal, mustRule(compat.RuleTopLevelGuard, v) == compat.Rejected)
	check("hooks.json \"modules\" ("+compat.HooksModulesSince+")", r.HooksModules, atLeast(compat.HooksModulesSince))
	check("http url checked as a URL", r.URLChecked, atLeast(compat.HandlerValidatorSince["http"]))
	check("plugins' non-command handlers dropped", r.PluginCommandOnly, mustRule(compat.RuleTypeNotRun, v) == compat.Dropped)
	check("bad plugin.json display keys dropped", r.DisplayKeysDropped, mustRule(compat.RuleDisplayKey, v) == compat.Ignored)
	if _, twice := compat.RuleAt(compat.RuleStandardTwice, v); twice || atLeast("2.1.33") {
		check("a repeated hooks/hooks.json is skipped", r.DuplicateHooksSkipped, !twice)
	}
	check("timeout has an upper bound (the oracle says lint)", r.TimeoutMax, false)
	if std, ok := compat.RuleAt(compat.RuleStandardHooks, v); ok {
		check("plugin.json naming hooks/hooks.json loads it once, quietly", r.StandardHooksNamedOnce, std.Last == "")
	}
	check("plugin.json's inline hooks checked entry by entry ("+compat.EntriesTolerated+")", r.ManifestHooksPerEntry, atLeast(compat.EntriesTolerated))
	check("a marketplace entry's hooks path or list ignored with an error", r.EntryHooksPathIgnored, mustRule(compat.RuleEntryHooksForm, v) == compat.Dropped && func() bool {
		row, _ := compat.RuleAt(compat.RuleEntryHooksForm, v)
		return row.Last == ""
	}())
	check("a hooks file plugin.json names loads on its own", r.NamedFileAlone, true)
	check("strict: false beside a plugin.json refuses the plugin", r.EntryConflict, mustRule(compat.RuleEntryConflict, v) == compat.Rejected)
	if r.PluginStrict != nil {
		check("plugin.json refuses unknown keys", *r.PluginStrict, mustRule(compat.RulePluginKeyStrict, v) == compat.Rejected)
	}
	if len(r.PluginKeys) > 0 {
		var table []string
		for _, k := range compat.PluginKeys {
			if compat.PluginKeyKnown(k.Name, v) {
				table = append(table, k.Name)
			}
		}
		slices.Sort(table)
		if !slices.Equal(table, r.PluginKeys) {
			out = append(out, fmt.Sprintf("plugin.json keys: code %v, table %v", r.PluginKeys, table))
		}
	}
	return out
}

// mustRule is the consequence of rule id on v, "" when no row holds.
func mustRule(id string, v hooks.Release) compat.Consequence {
	r, _ := compat.RuleAt(id, v)
	return r.Consequence
}

// TestParseLoaderRules reads the marks out of code shaped as the releases
// bundle it.
func TestParseLoaderRules(t *testing.T) {
	code := []byte(`x;Ab=k.object({name:k.string().min(1,"Plugin name cannot be empty"),version:k.string().optional()}),Hk=k.object({hooks:k.string()}),` +
		`Mf=k.object({...Ab.shape,...Hk.partial().shape}).strict(),` +
		`_=L.object({type:L.literal("http").describe("HTTP hook type"),url:L.string().url().describe("URL to POST the hook input JSON to"),timeout:L.number().positive().optional()});` +
		"a=`hooks.${m}: unknown hook event; entry ignored`;for(let J of Z.hooks)if(J.type===\"command\")Y.push(J);b=\"hooks.json must have `hooks` (the hook matchers)\"")
	r := ParseLoaderRules(code)
	want := LoaderRules{URLChecked: true, EntriesTolerated: true, HooksModules: true, PluginCommandOnly: true, PluginKeys: []string{"hooks", "name", "version"}}
	if r.PluginStrict == nil || !*r.PluginStrict {
		t.Errorf("PluginStrict = %v, want true", r.PluginStrict)
	}
	r.PluginStrict = nil
	if a, b := fmt.Sprint(r), fmt.Sprint(want); a != b {
		t.Errorf("ParseLoaderRules = %s, want %s", a, b)
	}
	if r := ParseLoaderRules([]byte(`timeout:L.number().positive().max(3600)`)); !r.TimeoutMax || r.URLChecked {
		t.Errorf("bounded timeout: %+v", r)
	}
}
