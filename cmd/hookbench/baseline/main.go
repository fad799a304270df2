// Command baseline is the yardstick of `make bench`: a trivial static Go
// binary that decodes the same hook JSON from stdin and exits 0. The
// benchmark reports hookwright's time as a ratio to this one, measured in
// the same run, so machine noise cancels out.
package main

import (
	"encoding/json"
	"os"
)

func main() {
	var v map[string]any
	if err := json.NewDecoder(os.Stdin).Decode(&v); err != nil {
		os.Exit(1)
	}
}
