package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// hundredPlugins builds a marketplace of 100 plugins from the fixtures.
func hundredPlugins(tb testing.TB) string {
	tb.Helper()
	root := tb.TempDir()
	src := filepath.Join(fixtures, "plugins")
	entries, err := os.ReadDir(src)
	if err != nil {
		tb.Fatal(err)
	}
	var list string
	for i := 0; i < 100; i++ {
		e := entries[i%len(entries)]
		name := fmt.Sprintf("p%03d-%s", i, e.Name())
		if err := copyDir(filepath.Join(src, e.Name()), filepath.Join(root, "plugins", name)); err != nil {
			tb.Fatal(err)
		}
		if i > 0 {
			list += ","
		}
		list += fmt.Sprintf(`{"name": %q, "source": "./plugins/%s"}`, name, name)
	}
	if err := os.MkdirAll(filepath.Join(root, ".claude-plugin"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude-plugin", "marketplace.json"), []byte(`{"name": "hundred", "owner": {"name": "t"}, "plugins": [`+list+`]}`), 0o644); err != nil {
		tb.Fatal(err)
	}
	return root
}

// BenchmarkAudit100 is hookgen audit on a marketplace of 100 plugins at
// the default release set.
func BenchmarkAudit100(b *testing.B) {
	root := hundredPlugins(b)
	for b.Loop() {
		e, _, _ := fakeEnv(b)
		hookgen(b, e, "audit", root)
	}
}
