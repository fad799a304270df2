// Command gen writes hooks/zz_release_table.go from package compat's matrix.
// `go generate ./hooks` runs it from the hooks folder.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/hookwright/hookwright/internal/releasetable"
)

func main() {
	out := flag.String("o", "zz_release_table.go", "file to write")
	flag.Parse()
	src, err := releasetable.Generate()
	if err == nil {
		err = os.WriteFile(*out, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "releasetable:", err)
		os.Exit(1)
	}
}
