// Package plugin is hookwright's installable plugin folder. Its Go side
// holds the files other code builds from, so that they have one truth:
// the launcher that bin/hookwright is (and that `hookgen new go` writes
// into a new plugin as bin/<name>), and the version plugin.json names.
package plugin

import (
	_ "embed"
	"encoding/json"
)

// Launcher is bin/hookwright, the launcher of a Go plugin: a POSIX shell
// script that runs bin/<name>-<os>-<arch> beside it, or unpacks and checks
// a release's bin/<name>-<version>-<os>-<arch>.gz, where <name> is the
// name it is called by. It is not specific to hookwright.
//
//go:embed bin/hookwright
var Launcher []byte

//go:embed .claude-plugin/plugin.json
var manifest []byte

// Version is the version in plugin.json: the release of hookwright this
// tree is (or will be, while unpublished) and of its Go module,
// github.com/hookwright/hookwright, tagged v<Version>.
func Version() string {
	var m struct{ Version string }
	_ = json.Unmarshal(manifest, &m)
	return m.Version
}
