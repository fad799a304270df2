// Package ccversion learns which Claude Code release runs a hook, cheaply
// enough for the hook hot path.
//
// Two sources, in order:
//
//   - the AI_AGENT environment variable, set from 2.1.120
//     (claude-code_2-1-330_harness; undocumented, best effort, no I/O);
//   - the session transcript, every line of which carries
//     "version":"2.1.33" on every release seen; at most [TranscriptPrefix]
//     bytes of it are read. The transcript may not exist yet at
//     SessionStart.
//
// `claude --version` would cost about 300 ms and is never run here.
package ccversion

import (
	"io"
	"regexp"
	"sync"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// Release is a Claude Code release, major.minor.patch: the public
// [hooks.Release], so that a band and a learned release compare.
type Release = hooks.Release

// Parse reads "2.1.33"; a leading "v" is allowed.
func Parse(s string) (Release, error) { return hooks.ParseRelease(s) }

// TranscriptPrefix bounds how much of the transcript is read: the first
// line that carries "version" is near the top.
const TranscriptPrefix = 64 << 10

// The patterns are compiled on first use: the runtime starts on every hook
// call, and few events ever ask for the version.
var (
	agentRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^claude-code_(\d+)-(\d+)-(\d+)(?:_|$)`) })
	versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"version"\s*:\s*"(\d+\.\d+\.\d+)"`) })
)

// Running returns the release as "2.1.33", or "" when neither source says.
func Running(aiAgent, transcript string) string {
	if m := agentRE().FindStringSubmatch(aiAgent); m != nil {
		return m[1] + "." + m[2] + "." + m[3]
	}
	return FromTranscript(transcript)
}

// FromTranscript returns the first "version" in the transcript's first
// [TranscriptPrefix] bytes, or "".
func FromTranscript(path string) string {
	if path == "" {
		return ""
	}
	f, _, err := safepath.Open(safepath.At(path))
	if err != nil {
		return ""
	}
	defer f.Close()
	buf, err := io.ReadAll(io.LimitReader(f, TranscriptPrefix))
	if err != nil {
		return ""
	}
	if m := versionRE().FindSubmatch(buf); m != nil {
		return string(m[1])
	}
	return ""
}
