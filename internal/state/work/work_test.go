package work

import (
	"testing"
	"time"
)

func TestManualUnits(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if err := Start(dir, "parser", t0); err != nil {
		t.Fatal(err)
	}
	st, err := Load(dir)
	if err != nil || len(st.Active("any-session")) != 1 || st.Active("s")[0].Name != "parser" {
		t.Fatalf("after start: %+v, %v", st, err)
	}
	if ok, err := Stop(dir, "parser"); !ok || err != nil {
		t.Fatalf("stop: %v, %v", ok, err)
	}
	if ok, _ := Stop(dir, "parser"); ok {
		t.Error("a stopped unit stopped again")
	}
	if st, _ := Load(dir); len(st.Active("s")) != 0 {
		t.Errorf("after stop: %+v", st)
	}
}
