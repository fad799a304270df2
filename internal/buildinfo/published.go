package buildinfo

// Published reports whether a release of hookwright has been published:
// the release branch pushed, its download files (hookgen, hwctl) and the
// npm packages up. Until one is, every install path says so in one line
// that holds [Unpublished]: the README, the hookgen and hwctl launchers
// (plugin/bin, whose published=no mirrors this) and the plugin's
// /hookwright:* commands; plugin's TestInstallPathsSayUnpublished keeps
// them to it. Flip it, and the launchers' published=, in the release that
// publishes.
const Published = false

// Unpublished is the words every install path shows while nothing is
// published.
const Unpublished = "hookwright has no published release yet"
