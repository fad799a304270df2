#!/bin/sh
# release.sh: commit the plugin, with its binaries for every platform, onto
# the release branch (default "release") and tag it v<version>. Run it from
# the repository root (make release does).
#
# It never touches the work tree, the index or the current branch: the
# binaries are built from a clean export of RELEASE_FROM (default HEAD) in a
# temporary folder, and the commit is assembled with a temporary index and
# git commit-tree. The release tree holds only what a marketplace install
# needs: .claude-plugin/marketplace.json and plugin/ with plugin/bin/*: the
# runtime for every platform, and hookgen and hwctl for every platform with
# the launcher under their names (plugin/bin/hookgen, plugin/bin/hwctl), so
# a user needs neither Go nor Node.
#
# Each release commit's parent is the previous release, so a clone of the
# branch always fast-forwards. Claude Code keeps a plugin's cached files
# until plugin.json's version changes, so a release whose files differ from
# the previous one but whose version does not is refused.
#
# Environment: RELEASE_BRANCH (release), RELEASE_FROM (HEAD),
# RELEASE_TAG=0 skips the tag, TOOLS_PLATFORMS (default: the six) limits
# the platforms hookgen and hwctl are built for (the live tests build the
# host's only).
set -eu
branch=${RELEASE_BRANCH:-release}
from=$(git rev-parse --verify "${RELEASE_FROM:-HEAD}^{commit}")
short=$(git rev-parse --short "$from")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookwright-release.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

git archive --format=tar "$from" | tar -x -C "$tmp"
version=$(sed -n 's/^  "version": *"\([^"]*\)".*/\1/p' "$tmp/plugin/.claude-plugin/plugin.json")
[ -n "$version" ] || { echo "release: no version in plugin/.claude-plugin/plugin.json at $short" >&2; exit 1; }
make -s -C "$tmp" plugin >&2
make -s -C "$tmp" plugin-tools ${TOOLS_PLATFORMS:+TOOLS_PLATFORMS="$TOOLS_PLATFORMS"} >&2

GIT_INDEX_FILE=$tmp/.index
export GIT_INDEX_FILE
git read-tree --empty
git ls-tree -r "$from" -- .claude-plugin/marketplace.json plugin |
	grep -v -e '	plugin/plugin_test\.go$' -e '	plugin/release\.sh$' |
	git update-index --index-info
launcher=$(git hash-object -w "$tmp/plugin/bin/hookwright")
for f in "$tmp"/plugin/bin/hookwright-* "$tmp"/plugin/bin/hookgen-* "$tmp"/plugin/bin/hwctl-*; do
	printf '100755 %s\tplugin/bin/%s\n' "$(git hash-object -w "$f")" "${f##*/}"
done | git update-index --index-info
printf '100755 %s\tplugin/bin/%s\n' "$launcher" hookgen "$launcher" hwctl | git update-index --index-info
tree=$(git write-tree)

parent=$(git rev-parse -q --verify "refs/heads/$branch^{commit}" || true)
if [ -n "$parent" ]; then
	if [ "$(git rev-parse "$parent^{tree}")" = "$tree" ]; then
		echo "release: $branch already holds this tree ($(git rev-parse --short "$parent")); nothing to do"
		exit 0
	fi
	old=$(git show "$parent:plugin/.claude-plugin/plugin.json" | sed -n 's/^  "version": *"\([^"]*\)".*/\1/p')
	if [ "$old" = "$version" ]; then
		echo "release: $branch already has version $version with other files; bump the version in plugin/.claude-plugin/plugin.json (Claude Code's plugin cache only refreshes on a new version)" >&2
		exit 1
	fi
fi
commit=$(git commit-tree "$tree" ${parent:+-p "$parent"} -m "hookwright $version

Built from $from by make release: the plugin, its runtime for linux,
darwin and windows on amd64 and arm64, and hookgen and hwctl.")
git update-ref "refs/heads/$branch" "$commit" ${parent:-}
if [ "${RELEASE_TAG:-1}" != 0 ]; then
	git tag "v$version" "$commit"
fi
echo "release: $branch is now $(git rev-parse --short "$commit") (hookwright $version from $short)"
