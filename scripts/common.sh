# SPDX-License-Identifier: GPL-2.0
# Shared settings for the build scripts. Sourced, not run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The kernel tree and build outputs live outside the clone so that a fresh
# clone (CI) reuses them: extraction, git import and ccache are the slow
# parts of a cold run.
CACHE=${LOADPIN_CACHE:-$HOME/.cache/loadpin}
TARBALL=${LOADPIN_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
SRC=$CACHE/linux		# git tree: pristine commit + our series
UPSTREAM_SRC=$CACHE/linux-upstream	# worktree at the pristine commit
OUT=$TOP/out			# per-clone artifacts (images, logs)
JOBS=${JOBS:-$(nproc)}

export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
# Kernel builds embed timestamps and build hosts; make them fixed so that
# ccache hits across trees and runs.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=loadpin
export KBUILD_BUILD_HOST=qemu
# No configuration here uses Rust, but a rustc on PATH still lands in the
# configuration (CONFIG_RUSTC_VERSION, in autoconf.h) and so in every
# object's ccache key: a machine with rustc and one without (the clean
# root) would miss each other's cache. Every kernel make sees a rustc that
# does not exist (a variable in MAKEFLAGS counts as a command-line one).
export MAKEFLAGS="${MAKEFLAGS:+$MAKEFLAGS }RUSTC=loadpin-no-rustc"
# ccache hashes the locale variables too (compiler messages depend on
# them): without this, the clean root's bare environment and a login
# shell's LANG missed each other's cache on every object.
export LANG=C.UTF-8
unset LC_ALL LC_CTYPE LC_MESSAGES

IDENT_NAME="LoadPin Project"
IDENT_EMAIL="loadpin-dev@example.org"
export GIT_AUTHOR_NAME="$IDENT_NAME" GIT_AUTHOR_EMAIL="$IDENT_EMAIL"
export GIT_COMMITTER_NAME="$IDENT_NAME" GIT_COMMITTER_EMAIL="$IDENT_EMAIL"

die() { echo "error: $*" >&2; exit 1; }

# result NAME STATUS [DETAILS]: one test of a script's own: "PASS <what>:
# NAME" or "FAIL <what>: NAME" with DETAILS indented below, <what> being
# $RESULT_OF; counted in $pass or $fail. Returns STATUS == 0.
result() {
	if [ "$2" = 0 ]; then
		echo "PASS $RESULT_OF: $1"
		pass=$((pass + 1))
	else
		echo "FAIL $RESULT_OF: $1"
		fail=$((fail + 1))
		[ -z "${3:-}" ] || echo "$3" | head -20 | sed 's/^/    /'
	fi
	[ "$2" = 0 ]
}
log() { echo "==> $*" >&2; }

# The series, in order, as paths.
series_files() {
	local p
	while read -r p; do
		p=${p%%#*}
		p=$(echo "$p" | tr -d '[:space:]')
		[ -n "$p" ] && echo "$TOP/patches/$p"
	done < "$TOP/patches/series"
}

series_hash() {
	{ cat "$TOP/patches/series"; series_files | xargs -r cat; } |
		sha256sum | cut -c1-16
}

# The series' kernel and the unpatched tree's, each with its guest (the
# series' test programs on both): what make compare and make bench boot.
build_main_and_upstream() {
	"$TOP/scripts/tree.sh" --upstream &&
	"$TOP/scripts/kernel.sh" main >/dev/null &&
	"$TOP/scripts/kernel.sh" upstream >/dev/null &&
	"$TOP/scripts/guest.sh" -n main >/dev/null &&
	"$TOP/scripts/guest.sh" -n upstream -s "$UPSTREAM_SRC" -t "$SRC" >/dev/null
}
