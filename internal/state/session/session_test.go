package session

import (
	"testing"
	"time"
)

func TestChangeAndList(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"older", "newer"} {
		if err := Change(dir, id, func(fp *Fingerprint) { fp.Started = t0.Add(time.Duration(i) * time.Hour) }); err != nil {
			t.Fatal(err)
		}
	}
	list, err := List(dir, 0)
	if err != nil || len(list) != 2 || list[0].SessionID != "newer" || list[1].SessionID != "older" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if list, _ := List(dir, 1); len(list) != 1 {
		t.Errorf("List(limit 1) = %d sessions", len(list))
	}
	if _, err := File(dir, "../x"); err == nil {
		t.Error("an unsafe session id became a file name")
	}
	tot := &Totals{Tools: map[string]int{"Bash": 3, "Read": 5, "Edit": 3}}
	if got := tot.TopTools(2); len(got) != 2 || got[0] != "Read×5" || got[1] != "Bash×3" {
		t.Errorf("TopTools = %v", got)
	}
	if tot.ToolCalls() != 11 {
		t.Errorf("ToolCalls = %d", tot.ToolCalls())
	}
}
