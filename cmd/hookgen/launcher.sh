#!/bin/sh
# hookwright launcher: hooks.json runs "${CLAUDE_PLUGIN_ROOT}/bin/hookwright" <Event> ...
# This script picks the binary built for this platform (bin/hookwright-<os>-<arch>,
# .exe on Windows, where Claude Code runs hooks through Git Bash) and execs it,
# so the only cost over the bare binary is one sh start (and at most one uname fork).
# When no binary fits, it says so on stdout (a systemMessage) and stderr, and
# exits 0: a missing binary must be visible but must never block work.
# A release also ships it as bin/hookgen and bin/hwctl: the name it is called
# by picks the binary (bin/<name>-<os>-<arch>).
case $0 in
*/*) dir=${0%/*} ;;
*) dir=$(dirname "$(command -v "$0")") ;;
esac
name=${0##*/}
# Pick the binary without forking when the shell can tell: bash knows its
# platform ($OSTYPE, $HOSTTYPE; /bin/sh on macOS, Git Bash on Windows), and
# Linux 6.1+ names its arch in /proc (dash as /bin/sh). Else one uname fork.
exe=
if [ -n "${HOSTTYPE:-}" ]; then
	case ${OSTYPE:-}-$HOSTTYPE in
	linux*-x86_64) exe=linux-amd64 ;;
	linux*-aarch64) exe=linux-arm64 ;;
	darwin*-x86_64) exe=darwin-amd64 ;;
	darwin*-arm64 | darwin*-aarch64) exe=darwin-arm64 ;;
	msys-x86_64 | cygwin-x86_64) exe=windows-amd64.exe ;;
	msys-aarch64 | cygwin-aarch64) exe=windows-arm64.exe ;;
	esac
elif [ -r /proc/sys/kernel/arch ] && read -r arch </proc/sys/kernel/arch; then
	case $arch in
	x86_64) exe=linux-amd64 ;;
	aarch64) exe=linux-arm64 ;;
	esac
fi
[ -n "$exe" ] || case $(uname -sm) in
"Linux x86_64" | "Linux amd64") exe=linux-amd64 ;;
"Linux aarch64" | "Linux arm64") exe=linux-arm64 ;;
"Darwin x86_64") exe=darwin-amd64 ;;
"Darwin arm64") exe=darwin-arm64 ;;
MINGW*" x86_64" | MSYS*" x86_64" | CYGWIN*" x86_64") exe=windows-amd64.exe ;;
MINGW*" aarch64" | MSYS*" aarch64" | CYGWIN*" aarch64" | MINGW*" arm64" | MSYS*" arm64") exe=windows-arm64.exe ;;
*) exe=unsupported ;;
esac
bin=$dir/$name-$exe
if [ -x "$bin" ]; then
	exec "$bin" "$@"
fi
# A release ships each runtime gzip-compressed under its version
# (bin/<name>-<version>-<platform>.gz), so that the plugin stays small and
# an update never runs a binary an older release left behind: the first
# call unpacks this platform's next to the .gz, under the same name without
# .gz, after checking it against the SHA-256 that bin/SHA256SUMS pins for
# that name (else, when the plugin folder cannot be written, it keeps it in
# the user's cache under that SHA-256). Nothing unverified runs, and only a
# binary whose .gz is in the folder runs at all.
for f in "$dir/$name"-*-"$exe".gz; do
	[ -f "$f" ] || continue
	bin=${f%.gz}
	if [ -x "$bin" ]; then
		exec "$bin" "$@"
	fi
done
sum256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -c1-64
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -c1-64
	else
		return 1
	fi
}
prune() { # removes what older releases unpacked here: their .gz is gone
	for old in "$dir/$name"-*-"$exe"; do
		if [ -f "$old" ] && [ ! -e "$old.gz" ]; then
			rm -f "$old" 2>/dev/null
		fi
	done
	return 0
}
unpack() { # prints the verified binary's path, or why there is none
	want=$(sed -n "s/^\([0-9a-f]\{64\}\) [ *]${bin##*/}\$/\1/p" "$dir/SHA256SUMS" 2>/dev/null)
	if [ -z "$want" ]; then
		echo "$dir/SHA256SUMS pins no SHA-256 for ${bin##*/}"
		return 1
	fi
	command -v gzip >/dev/null 2>&1 || { echo "gzip is not on PATH to unpack $bin.gz"; return 1; }
	sum256 /dev/null >/dev/null || { echo "neither sha256sum nor shasum is on PATH to check $bin"; return 1; }
	for out in "$bin" "${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/hookwright/runtime-$want/${bin##*/}"; do
		if [ "$out" != "$bin" ] && [ -x "$out" ] && [ "$(sum256 "$out")" = "$want" ]; then
			echo "$out"
			return 0
		fi
		mkdir -p "${out%/*}" 2>/dev/null || continue
		tmp=$out.unpack.$$
		: >"$tmp" 2>/dev/null || continue
		if ! gzip -dc "$bin.gz" >"$tmp" 2>/dev/null; then
			rm -f "$tmp"
			echo "$bin.gz does not unpack: damaged; reinstall the plugin"
			return 1
		fi
		got=$(sum256 "$tmp")
		if [ "$got" != "$want" ]; then
			rm -f "$tmp"
			echo "$bin.gz unpacks to SHA-256 $got, but $dir/SHA256SUMS pins $want: not the file the release shipped; reinstall the plugin"
			return 1
		fi
		if chmod 755 "$tmp" && mv -f "$tmp" "$out"; then
			[ "$out" = "$bin" ] && prune
			echo "$out"
			return 0
		fi
		rm -f "$tmp" 2>/dev/null
	done
	echo "cannot unpack $bin.gz next to the launcher or in the user's cache"
	return 1
}
why=
if [ -f "$bin.gz" ]; then
	if unpacked=$(unpack); then
		exec "$unpacked" "$@"
	fi
	why=$unpacked
fi
# Not found: the slow path may fork freely.
case $exe in
unsupported) platform="$(uname -s)/$(uname -m)" ;;
*)
	platform=${exe%.exe}
	platform="${platform%-*}/${platform#*-}"
	;;
esac
if [ -n "$why" ]; then
	msg=$(printf '%s: no binary for %s: %s' "$name" "$platform" "$why" | sed 's/\\/\\\\/g; s/"/\\"/g')
else
	msg=$(printf '%s: no binary for %s at %s; run make plugin or reinstall' "$name" "$platform" "$bin" | sed 's/\\/\\\\/g; s/"/\\"/g')
fi
printf '{"systemMessage":"%s"}\n' "$msg"
printf '%s\n' "$msg" >&2
exit 0
