#!/bin/sh
# build.sh OUT VERSION: writes hookgen's npm packages into OUT, then packs
# each into OUT/<name>-<VERSION>.tgz (make npm runs it).
#
#   OUT/hookgen/                  the main package: the hookgen command
#                                 (bin/hookgen.js), the JS API (index.js,
#                                 index.d.ts); every platform package as an
#                                 optionalDependency pinned to VERSION
#   OUT/hookgen-<os>-<cpu>/       one per platform, os/cpu set, bin/hookgen
#
# VERSION is the Go module's release (plugin.json's version). No package
# has an install script. Run from the repository root. PLATFORMS overrides
# the Go platforms built (default: the six of the release).
set -eu
out=$1
version=$2
platforms=${PLATFORMS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}
src=$(dirname "$0")/hookgen
rm -rf "$out"
mkdir -p "$out/hookgen"
cp -R "$src/bin" "$src/lib" "$src/index.js" "$src/index.d.ts" "$src/README.md" "$out/hookgen/"
cp LICENSE "$out/hookgen/"

npm_os() { case $1 in windows) echo win32 ;; *) echo "$1" ;; esac; }
npm_cpu() { case $1 in amd64) echo x64 ;; *) echo "$1" ;; esac; }

deps=
for p in $platforms; do
	goos=${p%/*} goarch=${p#*/}
	os=$(npm_os "$goos") cpu=$(npm_cpu "$goarch")
	name=hookgen-$os-$cpu
	exe=hookgen
	[ "$goos" = windows ] && exe=hookgen.exe
	dir=$out/$name
	mkdir -p "$dir/bin"
	CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$dir/bin/$exe" ./cmd/hookgen
	cp LICENSE "$dir/"
	printf 'The hookgen binary for %s-%s. Install `hookgen`, which depends on it.\n' "$os" "$cpu" >"$dir/README.md"
	cat >"$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "$version",
  "description": "The hookgen binary for $os-$cpu; install hookgen instead",
  "license": "MIT",
  "repository": "https://github.com/hookwright/hookwright",
  "os": ["$os"],
  "cpu": ["$cpu"],
  "files": ["bin"],
  "preferUnplugged": true
}
JSON
	deps="$deps${deps:+,
}    \"$name\": \"$version\""
done

cat >"$out/hookgen/package.json" <<JSON
{
  "name": "hookgen",
  "version": "$version",
  "description": "Write and check the hooks.json each Claude Code release loads, for any plugin",
  "license": "MIT",
  "repository": "https://github.com/hookwright/hookwright",
  "keywords": ["claude-code", "hooks", "plugin", "hooks.json"],
  "bin": {"hookgen": "bin/hookgen.js"},
  "main": "index.js",
  "types": "index.d.ts",
  "files": ["bin", "lib", "index.js", "index.d.ts"],
  "engines": {"node": ">=16"},
  "optionalDependencies": {
$deps
  }
}
JSON

for d in "$out"/*/; do
	(cd "$out" && npm pack --silent "./$(basename "$d")" >/dev/null)
done
ls "$out"/*.tgz
