package releasetable

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestTableIsCurrent regenerates the table and fails on any difference from
// the committed file: a matrix change must be followed by go generate.
func TestTableIsCurrent(t *testing.T) {
	got, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", File))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: the matrix changed; run go generate ./hooks", File)
	}
}
