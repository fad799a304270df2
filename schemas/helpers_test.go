package schemas

import (
	"testing"

	"github.com/Masterminds/semver/v3"
	"github.com/hookwright/hookwright/compat"
)

func mustVersion(t *testing.T, s string) *semver.Version {
	t.Helper()
	v, err := compat.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
