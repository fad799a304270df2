package schemas

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hookwright/hookwright/compat"
)

// TestValidateAgreesWithEveryProbedRelease: for every release whose
// validator was probed (compat/testdata/probes), a hooks.json naming one
// event passes exactly when that release accepts the event; where it does
// not, it is an error up to 2.1.252 (the release rejects the whole file)
// and a warning from 2.1.257 (the release ignores the entry).
func TestValidateAgreesWithEveryProbedRelease(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "compat", "testdata", "probes", "[0-9]*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no probe fixtures: %v", err)
	}
	tolerated, _ := compat.Lookup(compat.KindLoader, compat.UnknownEventsTolerated)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Release string   `json:"release"`
			Events  []string `json:"events"`
		}
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		v := mustVersion(t, p.Release)
		for _, ev := range compat.All(compat.KindEvent) {
			doc := fmt.Sprintf(`{"hooks":{%q:[{"matcher":"","hooks":[{"type":"command","command":"true"}]}]}}`, ev.Name)
			vs, err := Validate(v, []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			accepts := slices.Contains(p.Events, ev.Name)
			switch {
			case accepts && len(vs) > 0:
				t.Errorf("%s accepts %s, but validate says %v", p.Release, ev.Name, vs)
			case !accepts && len(vs) == 0:
				t.Errorf("%s rejects %s, but validate passes it", p.Release, ev.Name)
			case !accepts:
				want := Error
				if !v.Less(tolerated.Version()) {
					want = Warning
				}
				if vs[0].Severity != want {
					t.Errorf("%s lacks %s: validate gives %s, want %s", p.Release, ev.Name, vs[0].Severity, want)
				}
			}
		}
	}
}
