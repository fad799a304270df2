package journal

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestAppendConcurrentAndReadAll(t *testing.T) {
	dir := t.TempDir()
	ts := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if err := Append(dir, Entry{Time: ts, Event: "PreToolUse", Target: "Bash", Micros: int64(i)}); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	// A torn line, as after a crash, is skipped and counted.
	f, err := os.OpenFile(filepath.Join(dir, Dir, "2026-11-22.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"ts":"2026-11-22T10:00:00Z","ev` + "\n")
	f.Close()
	entries, bad, err := ReadAll(dir)
	if err != nil || bad != 1 || len(entries) != 50 {
		t.Fatalf("ReadAll = %d entries, %d bad, %v", len(entries), bad, err)
	}
	seen := map[int64]bool{}
	for _, e := range entries {
		seen[e.Micros] = true
	}
	if len(seen) != 50 {
		t.Fatalf("lines were lost or merged: %d distinct", len(seen))
	}
}
