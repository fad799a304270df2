package builtin

import (
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
)

// For(event) must route exactly like the full mux, for every event.
func TestForMatchesMux(t *testing.T) {
	all := Mux(config.Default())
	total := 0
	for _, ev := range hooks.Events() {
		var want, got []string
		for _, r := range all.Routes() {
			if r.Event == ev {
				want = append(want, r.Matcher+" "+r.Name)
			}
		}
		for _, r := range For(config.Default(), ev, project.Env{}).Routes() {
			if r.Event != ev {
				t.Errorf("For(%s) registered %s", ev, r.Event)
			}
			got = append(got, r.Matcher+" "+r.Name)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: For has %q, Mux has %q", ev, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: route %d is %q in For, %q in Mux", ev, i, got[i], want[i])
			}
		}
		total += len(got)
	}
	if total != len(all.Routes()) || total == 0 {
		t.Fatalf("For covered %d routes of %d", total, len(all.Routes()))
	}
}
