package manifests

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/handlers/builtin"
	"github.com/hookwright/hookwright/internal/runtime/config"
)

// TestSpecMatchesRuntime proves the single source of truth: every (event,
// matcher) pair our plugin spec asks Claude Code to call has a handler
// registered in the runtime, and every runtime registration is reachable
// from the spec: by a group with its matcher, or by the event's group that
// matches every tool (no matcher), whose call the runtime's mux routes by
// tool. A handler nobody calls, or a hook that runs nothing, fails here.
func TestSpecMatchesRuntime(t *testing.T) {
	data, err := os.ReadFile("hookwright.spec.json")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := ParseSpec(data)
	if err != nil {
		t.Fatal(err)
	}
	inSpec := map[string]bool{}
	for _, h := range spec.Handlers {
		inSpec[h.Event+" "+h.Matcher] = true
	}
	inMux := map[string]bool{}
	for _, r := range builtin.Mux(config.Default()).Routes() {
		inMux[string(r.Event)+" "+r.Matcher] = true
	}
	for _, k := range keys(inSpec) {
		if !inMux[k] {
			t.Errorf("spec calls %q but the runtime registers no handler for it", k)
		}
	}
	for _, k := range keys(inMux) {
		event, _, _ := strings.Cut(k, " ")
		if !inSpec[k] && !inSpec[event+" "] {
			t.Errorf("runtime registers %q but the spec never calls it", k)
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
