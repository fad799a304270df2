// Package ccversion learns which Claude Code release runs a hook. It
// forwards to the public [hooks.RunningRelease], where the code lives, for
// the runtime packages that speak of the release as a string.
package ccversion

import "github.com/hookwright/hookwright/hooks"

// Release is a Claude Code release, major.minor.patch: the public
// [hooks.Release].
type Release = hooks.Release

// Parse reads "2.1.33"; see [hooks.ParseRelease].
func Parse(s string) (Release, error) { return hooks.ParseRelease(s) }

// TranscriptPrefix bounds how much of the transcript is read.
const TranscriptPrefix = hooks.TranscriptPrefix

// Running returns the release as "2.1.33", or "" when neither AI_AGENT
// (aiAgent) nor the transcript says; see [hooks.RunningRelease].
func Running(aiAgent, transcript string) string {
	r, ok := hooks.RunningRelease(&hooks.Common{TranscriptPath: transcript}, func(k string) string {
		if k == "AI_AGENT" {
			return aiAgent
		}
		return ""
	})
	if !ok {
		return ""
	}
	return r.String()
}
