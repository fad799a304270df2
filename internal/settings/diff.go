package settings

import udiff "github.com/aymanbagabas/go-udiff"

// Diff returns a unified diff from a to b ("" when equal), with nameA and
// nameB in the --- and +++ header lines and three lines of context. It uses
// go-udiff, a maintained export of the Go team's own diff package; settings
// installs are tooling, never the hook path.
func Diff(a, b, nameA, nameB string) string {
	if a == b {
		return ""
	}
	return udiff.Unified(nameA, nameB, a, b)
}
