package buildinfo

// Release is the release of hookwright this tree is (or will be, while
// unpublished): the version plugin/.claude-plugin/plugin.json names, and
// the Go module's tag without its v. plugin's TestVersionIsDefinedOnce
// holds the two equal.
const Release = "0.1.0"
