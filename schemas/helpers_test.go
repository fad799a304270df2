package schemas

import (
	"testing"

	"github.com/hookwright/hookwright/hooks"
)

func mustVersion(t *testing.T, s string) hooks.Release {
	t.Helper()
	v, err := hooks.ParseRelease(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
