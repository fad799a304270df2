package statefile

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

type counter struct {
	N int `json:"n"`
	// Pad makes each write large enough to be caught in the middle.
	Pad string `json:"pad"`
}

// increment adds one to the counter file at p.
func increment(p safepath.Path) error {
	return Update(p, func(old []byte) ([]byte, error) {
		var c counter
		if len(old) > 0 {
			if err := json.Unmarshal(old, &c); err != nil {
				return nil, fmt.Errorf("corrupt state %q: %w", old, err)
			}
		}
		c.N++
		c.Pad = strings.Repeat("x", 64<<10)
		return json.Marshal(c)
	})
}

func read(t *testing.T, p safepath.Path) counter {
	t.Helper()
	data, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	var c counter
	if len(data) > 0 {
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatalf("corrupt state file (%d bytes): %v", len(data), err)
		}
	}
	return c
}

// The child process of TestKilledWriters: it increments the counter in a
// loop until it is killed.
func init() {
	dir := os.Getenv("STATEFILE_TEST_CHILD")
	if dir == "" {
		return
	}
	p := safepath.Path{Root: dir, Rel: filepath.Join(".hookwright", "state.json")}
	fmt.Println("ready")
	for {
		if err := increment(p); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
	}
}

func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	dir := t.TempDir()
	p := safepath.Path{Root: dir, Rel: filepath.Join(".hookwright", "state.json")}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				if err := increment(p); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if c := read(t, p); c.N != 80 {
		t.Fatalf("n = %d, want 80", c.N)
	}
	assertClean(t, filepath.Join(dir, ".hookwright"))
}

// 200 writers killed with SIGKILL in the middle of their updates leave no
// corrupt file, and no lock that drops the next update: each time, the
// next writer gets the lock at once and its increment lands.
func TestKilledWritersLeaveNoCorruptFileAndNoLock(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills 200 processes")
	}
	dir := t.TempDir()
	p := safepath.Path{Root: dir, Rel: filepath.Join(".hookwright", "state.json")}
	defer func(old time.Duration) { LockWait = old }(LockWait)
	LockWait = 5 * time.Second // a lock that outlived its holder would show as a wait this long
	kills := 0
	for kills < 200 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "STATEFILE_TEST_CHILD="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child did not start: %q %s", line, stderr.String())
		}
		time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
		cmd.Process.Kill() // SIGKILL: no deferred unlock, no cleanup
		err = cmd.Wait()
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) || exitErr.ExitCode() == 3 {
			t.Fatalf("child: %v %s", err, stderr.String())
		}
		kills++
		before := read(t, p)
		start := time.Now()
		if err := increment(p); err != nil {
			t.Fatalf("after kill %d: %v", kills, err)
		}
		if waited := time.Since(start); waited > LockWait/2 {
			t.Fatalf("after kill %d the next update waited %s for a dead writer's lock", kills, waited)
		}
		if after := read(t, p); after.N != before.N+1 {
			t.Fatalf("after kill %d: n went from %d to %d, want +1", kills, before.N, after.N)
		}
	}
	if c := read(t, p); c.N < 200 {
		t.Fatalf("n = %d after 200 kills and 200 updates", c.N)
	}
	assertClean(t, filepath.Join(dir, ".hookwright"))
}

// assertClean fails when the folder holds anything but the state file: a
// temporary file or a lock file left behind.
func assertClean(t *testing.T, folder string) {
	t.Helper()
	entries, err := os.ReadDir(folder)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "state.json" && e.Name() != ".gitignore" { // the state folder's own (safepath.StateIgnore)
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestLeftoverTempFilesAreRemoved(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, ".hookwright")
	os.MkdirAll(folder, 0o755)
	for _, n := range []string{".state.json.tmp", ".state.json.123456.tmp", ".other.json.tmp"} {
		os.WriteFile(filepath.Join(folder, n), []byte("partial"), 0o644)
	}
	p := safepath.Path{Root: dir, Rel: filepath.Join(".hookwright", "state.json")}
	if err := increment(p); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(folder)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != ".other.json.tmp state.json" {
		t.Fatalf("folder holds %v; want only another file's temp file and the state", names)
	}
}

func TestRefusesWhatIsNotARegularFileInside(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".hookwright"), 0o755)
	victim := filepath.Join(outside, "victim.json")
	os.WriteFile(victim, []byte(`{"n":41}`), 0o644)
	os.Symlink(victim, filepath.Join(dir, ".hookwright", "link.json"))
	os.Symlink(outside, filepath.Join(dir, "out"))
	for rel, want := range map[string]error{
		".hookwright/link.json": safepath.ErrUnsafe,
		"out/state.json":        safepath.ErrUnsafe,
	} {
		err := increment(safepath.Path{Root: dir, Rel: filepath.FromSlash(rel)})
		if !errors.Is(err, want) {
			t.Errorf("%s: err = %v, want %v", rel, err, want)
		}
	}
	if data, _ := os.ReadFile(victim); string(data) != `{"n":41}` {
		t.Fatalf("wrote outside: %s", data)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Fatalf("created files outside: %v", entries)
	}
}

func TestDecode(t *testing.T) {
	v := map[string]int{"kept": 1}
	if err := Decode("loop state", "/p/loop.json", nil, &v); err != nil || v["kept"] != 1 {
		t.Fatalf("empty data: %v, %v", v, err)
	}
	if err := Decode("loop state", "/p/loop.json", []byte(`{"a":2}`), &v); err != nil || v["a"] != 2 {
		t.Fatalf("decode: %v, %v", v, err)
	}
	err := Decode("loop state", "/p/loop.json", []byte(`{`), &v)
	if err == nil || !strings.HasPrefix(err.Error(), "loop state /p/loop.json: ") {
		t.Fatalf("broken data: %v", err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := safepath.Path{Root: dir, Rel: "s.json"}
	decode := func(path string, data []byte) (map[string]int, error) {
		v := map[string]int{}
		err := Decode("test state", path, data, &v)
		return v, err
	}
	if v, err := Load(p, decode); err != nil || len(v) != 0 {
		t.Fatalf("missing file: %v, %v", v, err)
	}
	os.WriteFile(filepath.Join(dir, "s.json"), []byte(`{"a":1}`), 0o644)
	if v, err := Load(p, decode); err != nil || v["a"] != 1 {
		t.Fatalf("a file: %v, %v", v, err)
	}
	os.WriteFile(filepath.Join(dir, "s.json"), []byte(`{`), 0o644)
	if _, err := Load(p, decode); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "s.json")) {
		t.Fatalf("broken file: %v", err)
	}
}
