package guard

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/hookwright/hookwright/internal/runtime/config"
)

// A project config can only tighten guard.packs: turning a pack or a rule
// off, or setting a pack below one of its rules, is ignored without the
// user's trust; raising one applies. With trust, everything applies.
func TestProjectPacksOnlyTighten(t *testing.T) {
	root := t.TempDir()
	project, xdg := filepath.Join(root, "proj"), filepath.Join(root, "xdg")
	for _, d := range []string{filepath.Join(project, config.Dir), filepath.Join(xdg, "hookwright")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	proj := `{"guard": {"packs": {"database": "off", "cloud": "block", "git": "ask", "database.drop": "off", "payment": "block"}}}`
	if err := os.WriteFile(filepath.Join(project, config.File), []byte(proj), 0o644); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return xdg
		}
		return ""
	}
	l, err := config.LoadLayers(project, getenv)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"cloud": "block", "payment": "block"}
	if !reflect.DeepEqual(l.Config.Guard.Packs, want) {
		t.Errorf("untrusted: packs = %v, want %v", l.Config.Guard.Packs, want)
	}
	var ignored []string
	for _, c := range l.Ignored() {
		ignored = append(ignored, c.Field)
	}
	sort.Strings(ignored)
	if w := []string{"guard.packs.database", "guard.packs.database.drop", "guard.packs.git"}; !reflect.DeepEqual(ignored, w) {
		t.Errorf("ignored %v, want %v", ignored, w)
	}
	if err := os.WriteFile(filepath.Join(xdg, "hookwright", config.UserFileName), []byte(`{"trust": ["`+project+`"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err = config.LoadLayers(project, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Config.Guard.Packs) != 5 || len(l.Ignored()) != 0 {
		t.Errorf("trusted: packs = %v, ignored %v", l.Config.Guard.Packs, l.Ignored())
	}
}
