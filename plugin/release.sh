#!/bin/sh
# release.sh: commit the plugin, with its runtime for every platform, onto
# the release branch (default "release") and tag it v<version>; write the
# release's download files (hookgen and hwctl for every platform, the
# runtimes again, SHA256SUMS and an SBOM per binary) to
# dist/release/v<version>/. Run it from the repository root (make release
# does).
#
# It never touches the work tree, the index or the current branch: the
# binaries are built in a clone of RELEASE_FROM (default HEAD) in a
# temporary folder, and the commit is assembled with a temporary index and
# git commit-tree. The clone is tagged v<version> (in the clone only), so
# the Go toolchain records the module's version, commit and commit time in
# every binary (go version -m shows them), and the build is reproducible:
# -trimpath, an empty build id, no time stamp but the commit's, no local
# path (.ci/repro checks it).
#
# The release tree holds only what a marketplace install needs:
# .claude-plugin/marketplace.json and plugin/ with plugin/bin/*: the
# runtime for every platform (gzip-compressed under its version: the
# launcher unpacks and checks it on first use), its launcher, the hookgen and hwctl launchers
# (which fetch their binary from the download location on first use, see
# plugin/README.md), SHA256SUMS over every binary the release ships or
# points to, and plugin/sbom/ with the SBOM of every runtime. It prints
# every binary's size and the plugin's, and fails when the plugin passes
# RELEASE_MAX_BYTES (25 MB).
#
# Each release commit's parent is the previous release, so a clone of the
# branch always fast-forwards. Claude Code keeps a plugin's cached files
# until plugin.json's version changes, so a release whose files differ from
# the previous one but whose version does not is refused.
#
# Environment: RELEASE_BRANCH (release), RELEASE_FROM (HEAD),
# RELEASE_TAG=0 skips the tag, RELEASE_DIST (dist/release) the folder of
# the download files, TOOLS_PLATFORMS (default: the six) limits the
# platforms hookgen and hwctl are built for (the live tests build the
# host's only), RELEASE_MAX_BYTES (25000000).
set -eu
branch=${RELEASE_BRANCH:-release}
max=${RELEASE_MAX_BYTES:-25000000}
cyclonedx=github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@v1.10.0
from=$(git rev-parse --verify "${RELEASE_FROM:-HEAD}^{commit}")
short=$(git rev-parse --short "$from")
top=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookwright-release.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# A clone sharing this repository's objects, so any commit can be checked
# out, clean, with its .git for the Go toolchain's VCS stamp.
git clone -q --shared --no-checkout "$top" "$tmp/src"
git -C "$tmp/src" -c advice.detachedHead=false checkout -q --detach "$from"
version=$(sed -n 's/^  "version": *"\([^"]*\)".*/\1/p' "$tmp/src/plugin/.claude-plugin/plugin.json")
[ -n "$version" ] || { echo "release: no version in plugin/.claude-plugin/plugin.json at $short" >&2; exit 1; }
git -C "$tmp/src" tag -f "v$version" >/dev/null
make -s -C "$tmp/src" plugin BUILDVCS=true >&2
make -s -C "$tmp/src" plugin-tools BUILDVCS=true ${TOOLS_PLATFORMS:+TOOLS_PLATFORMS="$TOOLS_PLATFORMS"} >&2
bins=$tmp/src/plugin/bin

dist=${RELEASE_DIST:-$top/dist/release}/v$version
rm -rf "$dist"
mkdir -p "$dist" "$tmp/sbom"
for f in "$bins"/hookwright-* "$bins"/hookgen-* "$bins"/hwctl-*; do
	cp "$f" "$dist/"
	go run "$cyclonedx" bin -json -noserial -notimestamp -output "$dist/${f##*/}.cdx.json" "$f"
done
# The plugin carries each runtime gzip-compressed (no name, no time stamp:
# the same bytes every build) under its version,
# bin/hookwright-<version>-<os>-<arch>[.exe].gz: the launcher and the
# hooks' direct form run only a binary whose .gz is there, so a binary an
# older release unpacked never runs after an update. The launcher unpacks
# this platform's on the first call next to the .gz and checks it against
# the SHA-256 that SHA256SUMS pins for that name.
mkdir "$tmp/rt"
for f in "$bins"/hookwright-*; do
	rt=hookwright-$version-${f##*/hookwright-}
	cp "$f" "$tmp/rt/$rt"
	gzip -9 -n -c "$f" >"$tmp/rt/$rt.gz"
done
# SHA256SUMS pins every binary the release ships or points to, the
# launchers, and the plugin's manifests (../hooks/*.json,
# ../.claude-plugin/plugin.json), so that hookgen doctor, or sha256sum -c
# in plugin/bin, finds any installed file that is not the release's.
{
	(cd "$dist" && sha256sum hookwright-* hookgen-* hwctl-* | grep -v '\.cdx\.json$')
	(cd "$tmp/rt" && sha256sum hookwright-*)
	(cd "$bins" && sha256sum hookwright hookgen hwctl) # the launchers
	(cd "$bins" && sha256sum ../hooks/*.json ../.claude-plugin/plugin.json)
} | LC_ALL=C sort -u -k2 >"$tmp/SHA256SUMS"
cp "$tmp/SHA256SUMS" "$dist/SHA256SUMS"
# What a session writes into the plugin folder, the runtime unpacked for
# the machine, is never a file git tracks: a clone of the release branch
# stays clean and a git pull of the next release never stops on it.
printf '%s\n' '# the runtime the launcher unpacks for this machine, and its temporary file' '/hookwright-*' '!/hookwright-*.gz' >"$tmp/bin.gitignore"

GIT_INDEX_FILE=$tmp/.index
export GIT_INDEX_FILE
git read-tree --empty
git ls-tree -r "$from" -- .claude-plugin/marketplace.json plugin |
	grep -v -e '	plugin/plugin_test\.go$' -e '	plugin/release\.sh$' |
	git update-index --index-info
for f in "$bins"/hookwright-*; do
	rt=hookwright-$version-${f##*/hookwright-}
	printf '100644 %s\tplugin/bin/%s.gz\n' "$(git hash-object -w "$tmp/rt/$rt.gz")" "$rt"
	printf '100644 %s\tplugin/sbom/%s.cdx.json\n' "$(git hash-object -w "$dist/${f##*/}.cdx.json")" "${f##*/}"
done | git update-index --index-info
printf '100644 %s\tplugin/bin/SHA256SUMS\n' "$(git hash-object -w "$tmp/SHA256SUMS")" | git update-index --index-info
printf '100644 %s\tplugin/bin/.gitignore\n' "$(git hash-object -w "$tmp/bin.gitignore")" | git update-index --index-info
tree=$(git write-tree)

# Sizes: every binary, and the plugin folder as a user's install holds it.
mkdir "$tmp/tree"
git archive --format=tar "$tree" plugin | tar -x -C "$tmp/tree"
for f in "$dist"/hookwright-* "$dist"/hookgen-* "$dist"/hwctl-*; do
	case $f in *.cdx.json) continue ;; esac
	where=download
	[ -e "$tmp/tree/plugin/bin/${f##*/}" ] && where=plugin
	rt=hookwright-$version-${f##*/hookwright-}
	[ -e "$tmp/tree/plugin/bin/$rt.gz" ] && where="plugin as $rt.gz, $(wc -c <"$tmp/rt/$rt.gz") bytes; unpacked on first use"
	case $f in *.gz) continue ;; esac
	printf 'release: %-34s %9d bytes (%s)\n' "${f##*/}" "$(wc -c <"$f")" "$where"
done
size=$(find "$tmp/tree/plugin" -type f -exec cat {} + | wc -c)
printf 'release: plugin folder %d bytes (%d.%d MB; limit %d)\n' "$size" $((size / 1000000)) $((size % 1000000 / 100000)) "$max"
if [ "$size" -gt "$max" ]; then
	echo "release: the plugin is $size bytes, over the limit of $max: make the runtime smaller or ship less" >&2
	exit 1
fi

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
# A machine with no git identity (a fresh CI box) commits the release as
# the author of the commit it is built from, instead of failing.
if [ -z "$(git config user.email || true)" ]; then
	GIT_AUTHOR_NAME=$(git log -1 --format=%an "$from") GIT_AUTHOR_EMAIL=$(git log -1 --format=%ae "$from")
	GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
	export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
fi
commit=$(git commit-tree "$tree" ${parent:+-p "$parent"} -m "hookwright $version

Built from $from by make release: the plugin and its runtime for linux,
darwin and windows on amd64 and arm64. hookgen and hwctl are download
files of the release, pinned by plugin/bin/SHA256SUMS.")
git update-ref "refs/heads/$branch" "$commit" ${parent:-}
if [ "${RELEASE_TAG:-1}" != 0 ]; then
	git tag "v$version" "$commit"
fi
echo "release: $branch is now $(git rev-parse --short "$commit") (hookwright $version from $short); download files in ${dist#"$top"/}"
