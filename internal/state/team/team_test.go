package team

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestBounded(t *testing.T) {
	dir := t.TempDir()
	for i := range MaxTeammates + 5 {
		mate := Teammate{State: Idle, LastSeen: t0.Add(time.Duration(i) * time.Second), OpenTask: strings.Repeat("x", 500)}
		if err := Set(dir, hooks.Team{TeamName: "big", TeammateName: fmt.Sprint("m", i)}, mate); err != nil {
			t.Fatal(err)
		}
	}
	st, err := Load(dir, "big")
	if err != nil || len(st.Teammates) != MaxTeammates {
		t.Fatalf("%d teammates kept, want %d (%v)", len(st.Teammates), MaxTeammates, err)
	}
	if _, ok := st.Teammates["m0"]; ok {
		t.Error("the longest unseen teammate was kept")
	}
	// A broken file is replaced, not fatal.
	path, _ := File(dir, "broken")
	os.MkdirAll(path.Dir().String(), 0o755)
	os.WriteFile(path.String(), []byte("{nope"), 0o644)
	if err := Set(dir, hooks.Team{TeamName: "broken", TeammateName: "a"}, Teammate{State: Idle}); err != nil {
		t.Fatal(err)
	}
	if st, _ := Load(dir, "broken"); st.Teammates["a"] == nil {
		t.Error("broken file not replaced")
	}
}

func TestTakenBy(t *testing.T) {
	st := Status{Teammates: map[string]*Teammate{
		"alice": {State: Active, TaskID: "1"}, "bob": {State: Idle, TaskID: "1"}, "carol": {State: Active, TaskID: "2"},
	}}
	if got := st.TakenBy("1", "dave"); strings.Join(got, ",") != "alice" {
		t.Errorf("TakenBy(1) = %v", got)
	}
	if got := st.TakenBy("1", "alice"); len(got) != 0 {
		t.Errorf("TakenBy(1, except alice) = %v", got)
	}
}
