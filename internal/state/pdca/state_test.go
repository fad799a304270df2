package pdca

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestAdvance(t *testing.T) {
	var st State
	st.Features = map[string]*Feature{}
	steps := []struct {
		subject string
		key     string
		changed bool
		phase   string
		iter    int
	}{
		{"[Plan] f: p", "s/1", true, "Plan", 0},
		{"[Do] f: d", "s/2", true, "Do", 0},
		{"[Do] f: d", "s/2", false, "Do", 0}, // same task again: no change
		{"[Check] f: c", "s/3", true, "Check", 0},
		{"[Act] f: a", "s/4", true, "Act", 1},
		{"[Do] f: d2", "s/5", true, "Do", 1},
		{"[Act-2] f: a2", "s/6", true, "Act-2", 2},
		{"[Report] f: r", "s/7", true, "Report", 2},
	}
	for i, s := range steps {
		tag, ok, err := Parse(s.subject)
		if !ok || err != nil {
			t.Fatal(s.subject, err)
		}
		if got := st.Advance(tag, s.key, s.subject, t0.Add(time.Duration(i)*time.Minute)); got != s.changed {
			t.Errorf("step %d: changed = %v, want %v", i, got, s.changed)
		}
		f := st.Features["f"]
		if f.Phase != s.phase || f.Iteration != s.iter {
			t.Errorf("step %d: phase %q iter %d, want %q %d", i, f.Phase, f.Iteration, s.phase, s.iter)
		}
	}
	if f := st.Features["f"]; f.Done["Do"] != 2 || len(f.History) != 7 {
		t.Errorf("done=%v history=%d", f.Done, len(f.History))
	}
}

func TestHistoryBounded(t *testing.T) {
	st := State{Features: map[string]*Feature{}}
	tag := Tag{Phase: Do, Feature: "f"}
	for i := range MaxHistory + 50 {
		st.Advance(tag, fmt.Sprint("s/", i), "[Do] f", t0)
	}
	f := st.Features["f"]
	if len(f.History) != MaxHistory || f.Done["Do"] != MaxHistory+50 {
		t.Fatalf("history %d done %d", len(f.History), f.Done["Do"])
	}
	if f.History[0].Task != "s/50" {
		t.Fatalf("oldest kept %q", f.History[0].Task)
	}
}

func TestRecordMissingAndBroken(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".hookwright", "pdca.json")
	st, err := Load(path)
	if err != nil || len(st.Features) != 0 {
		t.Fatalf("missing file: %v %v", st, err)
	}
	tag := Tag{Phase: Plan, Feature: "x"}
	if changed, err := Record(path, tag, "s/1", "[Plan] x", t0); !changed || err != nil {
		t.Fatalf("Record = %v, %v", changed, err)
	}
	if changed, err := Record(path, tag, "s/1", "[Plan] x", t0); changed || err != nil {
		t.Fatalf("second Record = %v, %v", changed, err)
	}
	os.WriteFile(path, []byte("{not json"), 0o644)
	if _, err := Record(path, tag, "s/2", "[Plan] x", t0); err == nil {
		t.Fatal("broken state file accepted")
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Fatal("lock left behind")
	}
}

// TestConcurrentGoroutines advances one feature from many goroutines; no
// step may be lost.
func TestConcurrentGoroutines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pdca.json")
	const workers, each = 12, 15
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				feature := []string{"a", "b", "c"}[i%3]
				if _, err := Record(path, Tag{Phase: Do, Feature: feature}, fmt.Sprintf("w%d/%d", w, i), "[Do] x", t0); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	checkTotal(t, path, workers*each)
}

// TestConcurrentProcesses runs the same race across real processes (this
// test binary, re-executed), which is how hook calls actually collide.
func TestConcurrentProcesses(t *testing.T) {
	if p := os.Getenv("PDCA_CHILD_STATE"); p != "" {
		id := os.Getenv("PDCA_CHILD_ID")
		for i := range 20 {
			if _, err := Record(p, Tag{Phase: Check, Feature: "shared"}, id+"/"+strconv.Itoa(i), "[Check] shared", time.Now()); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
		return
	}
	path := filepath.Join(t.TempDir(), "pdca.json")
	const procs = 6
	var cmds []*exec.Cmd
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentProcesses$")
		cmd.Env = append(os.Environ(), "PDCA_CHILD_STATE="+path, "PDCA_CHILD_ID=p"+strconv.Itoa(p))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	checkTotal(t, path, procs*20)
}

func checkTotal(t *testing.T, path string, want int) {
	t.Helper()
	st, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	total, keys := 0, map[string]bool{}
	for _, f := range st.Features {
		for _, n := range f.Done {
			total += n
		}
		for _, s := range f.History {
			keys[s.Task] = true
		}
	}
	if total != want || len(keys) != want {
		t.Fatalf("recorded %d steps (%d distinct), want %d", total, len(keys), want)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*")); len(m) != 1 {
		t.Fatalf("left-over files: %v", m)
	}
}
