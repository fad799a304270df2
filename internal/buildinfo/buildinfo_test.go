package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFrom(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "2e5c137abcdef0123456789"}, {Key: "vcs.modified", Value: "true"}}
	for _, tt := range []struct {
		name    string
		bi      *debug.BuildInfo
		stamped string
		want    string
	}{
		{"go install of a release", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "dev", "0.1.0"},
		{"make release", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "0.1.0", "0.1.0"},
		{"make release in a checkout", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125132400-2e5c137abcde+dirty"}}, "0.1.0", "0.1.0"},
		{"make release, prerelease base", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.1-0.20261125132400-2e5c137abcde"}}, "0.1.0", "0.1.0"},
		{"a tagged prerelease", &debug.BuildInfo{Main: debug.Module{Version: "v0.2.0-rc.1"}}, "0.1.0", "0.2.0-rc.1"},
		{"go build in a checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "dev", "devel 2e5c137abcde+dirty"},
		{"go build, clean tree", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs[:1]}, "", "devel 2e5c137abcde"},
		{"no commit recorded", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev", "devel"},
		{"no build info", nil, "dev", "devel"},
	} {
		if got := From(tt.bi, tt.stamped); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
