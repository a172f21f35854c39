#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The set-up proven on a clean root, so that nothing this machine has
# installed by hand can hide a package scripts/deps.sh forgets. In a
# minimal Debian 12 root (mmdebstrap --variant=minbase bookworm) holding a
# fresh copy of this working tree, chrooted:
#   1. scripts/deps.sh: apt-get installs everything (linux-source-6.12
#      from bookworm-security included);
#   2. make demo: the tree extracted and patched, the main kernel, the
#      guest programs and initramfs, the demo boot;
#   3. every command any target runs is there (make demo does not run
#      lint's, compare's or bench's), and no command was "not found" on
#      the way. A failure names the missing command when it can.
#
#   cleanroot.sh [--force]
#
# Skipped when the same inputs passed the last run (the stamp below);
# --force runs it anyway. Output goes to out/logs/cleanroot.log, its last
# lines to stderr on a failure.
#
# The root is cached as $CACHE/cleanroot/bookworm-minbase-HASH.tar, HASH
# of deps.sh and the apt sources: rebuilt when deps.sh changes. Each run
# extracts it into $CACHE/cleanroot/root, on a tmpfs that goes with the
# run (the log stays). The chroot's LOADPIN_CACHE is its own directory at
# the same path as ours ($CACHE, inside the root): the kernel build uses
# absolute source paths, so the same paths let the compiles hit the one
# shared ccache, which is the only directory of ours bind-mounted into the
# root.
# All mounts are made in a mount namespace of our own (unshare), unmounted
# by a trap on exit and gone with the namespace whatever happens.
set -uo pipefail
. "$(dirname "$0")/common.sh"

dir=$CACHE/cleanroot
root=$dir/root
log=$OUT/logs/cleanroot.log
MIRROR=${LOADPIN_MIRROR:-http://deb.debian.org}
# As /etc/apt/sources.list.d/debian.sources has them on a Debian 12
# machine: linux-source-6.12 is in bookworm-security only.
sources=("deb $MIRROR/debian bookworm main"
	 "deb $MIRROR/debian bookworm-updates main"
	 "deb $MIRROR/debian-security bookworm-security main")
PATH_IN_ROOT=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# Every command the targets run: scripts/*.sh, tests/run.py, bench/, the
# kernel's build (headers_install runs rsync), lint (checkpatch, sparse,
# coccicheck's spatch and the OCaml it compiles scripts with), and this
# script's own.
commands=(make gcc ld ar nm size readelf ccache bc bison flex perl python3 git tar xz
	  gzip cpio rsync cmp awk sha256sum flock mkfs.ext4 mke2fs debugfs
	  e2fsck veritysetup mksquashfs sfdisk dd qemu-system-x86_64 sparse
	  spatch ocamlfind ocamlopt mmdebstrap unshare chroot mount
	  dpkg-buildpackage dh_listpackages)	# make deb
# What the stamp covers: everything the set-up and the demo read.
inputs=(scripts Makefile tests/run.py tests/guest tests/module
	tests/scenarios/demo.scn bench/lp_bench.c bench/guest.sh configs patches)

force=0
[ "${1:-}" = --force ] && force=1
[ "$(id -u)" = 0 ] || die "cleanroot.sh needs root (mmdebstrap, chroot, mount)"

inputs_hash() {
	(cd "$TOP" && git ls-files -co --exclude-standard -- "${inputs[@]}" |
		LC_ALL=C sort -u | while IFS= read -r f; do
			[ -f "$f" ] && sha256sum "$f"
		done) | sha256sum | cut -c1-16
}
want=$(inputs_hash)
if [ $force = 0 ] && [ "$(cat "$dir/passed" 2>/dev/null)" = "$want" ]; then
	echo "# clean root: skipped: the same scripts, Makefile, tests/run.py," \
		"guest programs, configs and patches passed it on" \
		"$(date -r "$dir/passed" '+%F %T') (scripts/cleanroot.sh --force reruns it)"
	exit 0
fi

# Everything below runs in a mount namespace of its own: the mounts made
# for the chroot never reach this machine's and vanish with the process.
if [ -z "${LOADPIN_CLEANROOT_NS:-}" ]; then
	command -v unshare >/dev/null || die "unshare missing (util-linux)"
	LOADPIN_CLEANROOT_NS=1 exec unshare --mount --propagation private -- "$0" "$@"
fi

mkdir -p "$dir" "$OUT/logs" "$CCACHE_DIR"
exec 9> "$dir/lock"
flock -n 9 || die "another cleanroot.sh holds $dir/lock"
: > "$log"
rm -f "$dir/passed"	# only the last run's pass counts
start=$(date +%s)

mounts_under() {	# mount points under $root, deepest first
	awk -v r="$root" '$5 == r || index($5, r "/") == 1 { print $5 }' \
		/proc/self/mountinfo | LC_ALL=C sort -r
}
unmount_all() {
	local m
	for m in $(mounts_under); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
}
trap unmount_all EXIT
trap 'echo "# clean root: interrupted" >&2; exit 130' INT TERM HUP

fail() {	# fail MESSAGE: the reason, the log's last lines, exit 1
	echo "# clean root: $*" >&2
	echo "# clean root: last lines of $log:" >&2
	tail -n 25 "$log" | sed 's/^/#   /' >&2
	exit 1
}
elapsed() { echo $(( $(date +%s) - $1 )); }

# 1. The root, from the cache or built.
command -v mmdebstrap >/dev/null || die "mmdebstrap missing (scripts/deps.sh installs it)"
key=$( { cat "$TOP/scripts/deps.sh"; printf '%s\n' "${sources[@]}"; } | sha256sum | cut -c1-16)
tarball=$dir/bookworm-minbase-$key.tar
t=$(date +%s)
if [ -f "$tarball" ]; then
	root_how="cached"
else
	echo "==> mmdebstrap --variant=minbase bookworm" >> "$log"
	rm -f "$dir"/bookworm-minbase-*.tar "$dir"/*.tar.tmp
	mmdebstrap --variant=minbase --format=tar bookworm "$tarball.tmp" \
		"${sources[@]}" >> "$log" 2>&1 || fail "mmdebstrap failed"
	mv "$tarball.tmp" "$tarball"
	root_how="built in $(elapsed "$t")s"
fi

# 2. A fresh copy of the root, with a fresh copy of the working tree
# (tracked and untracked files, not ignored ones) at the same path.
[ -z "$(mounts_under)" ] || unmount_all
[ -z "$(mounts_under)" ] || die "mounts left under $root: $(mounts_under | tr '\n' ' ')"
t=$(date +%s)
rm -rf "$root"
mkdir -p "$root"
# On a tmpfs of this namespace: the extraction and the kernel build write
# to memory, and removing the root is an unmount (rm -rf of a root with a
# built kernel took over 2 minutes). It goes with the namespace, also
# after a failure; $log keeps what happened.
mount -t tmpfs -o size=12g,mode=0755 loadpin-cleanroot "$root" ||
	fail "cannot mount a tmpfs on $root"
tar -xf "$tarball" -C "$root" || fail "cannot extract $tarball"
mkdir -p "$root$TOP" "$root$CACHE/ccache"
want=$(inputs_hash)
(cd "$TOP" && git ls-files -co --exclude-standard -z |
	while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	tar --null -T - -cf -) | tar -xf - -C "$root$TOP" ||
	fail "cannot copy the working tree into the root"
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
times=("root $root_how" "extracted with the tree in $(elapsed "$t")s")

mount -t proc proc "$root/proc" &&
mount -t sysfs -o ro sysfs "$root/sys" &&
mount --rbind /dev "$root/dev" &&
mount --make-rslave "$root/dev" &&
mount --bind "$CCACHE_DIR" "$root$CACHE/ccache" || fail "cannot mount into $root"

inroot() {	# inroot CMD...: CMD in the root, a new user's environment
	chroot "$root" /usr/bin/env -i HOME=/root PATH=$PATH_IN_ROOT TERM=dumb \
		LOADPIN_CACHE="$CACHE" CCACHE_STATSLOG=/tmp/ccache-stats.log "$@"
}
# Commands that a script tried to run and did not find, from the log
# after line $1.
not_found() {
	tail -n +$(($1 + 1)) "$log" | sed -nE -e "s/.*: ([^ :/]+): (command )?not found$/\1/p" \
		-e "s/.*\[Errno 2\] No such file or directory: '([^'/]+)'.*/\1/p" \
		-e "s/^env: '([^'/]+)': No such file or directory$/\1/p" \
		-e "s/^make(\[[0-9]+\])?: ([^ :/]+): No such file or directory$/\2/p" |
		LC_ALL=C sort -u | paste -sd ' ' -
}
phase() {	# phase NAME CMD...: run CMD in the root, logged and timed
	local name=$1 t rc missing from
	shift
	echo "==> $name" >> "$log"
	from=$(wc -l < "$log")
	t=$(date +%s)
	inroot "$@" >> "$log" 2>&1
	rc=$?
	echo "==> $name: exit $rc after $(elapsed "$t")s" >> "$log"
	times+=("$name $(elapsed "$t")s")
	missing=$(not_found "$from")
	[ -z "$missing" ] || fail "$name: command not found: $missing"
	[ $rc = 0 ] || fail "$name failed (exit $rc) after $(elapsed "$t")s"
}
phase "scripts/deps.sh" "$TOP/scripts/deps.sh"
phase "make demo" make -C "$TOP" demo
echo "==> commands the targets run" >> "$log"
missing=$(inroot /bin/bash -c 'for c; do command -v "$c" >/dev/null || echo "$c"; done' \
	_ "${commands[@]}" | paste -sd ' ' -)
inroot python3 -c 'import ply, git' >> "$log" 2>&1 || missing+=" python3-ply/python3-git"
[ -x "$root/bin/busybox" ] || missing+=" /bin/busybox"
[ -z "$missing" ] || fail "missing after scripts/deps.sh: ${missing# }"
hits=$(inroot ccache --show-log-stats 2>/dev/null | awk '/^ *Hits:/ { print $2, "of", $4; exit }')

unmount_all
[ -z "$(mounts_under)" ] || die "mounts left under $root: $(mounts_under | tr '\n' ' ')"
t=$(date +%s)
rm -rf "$root"
echo "$want" > "$dir/passed"
times+=("kernel compiles: ${hits:-?} ccache hits" "removed in $(elapsed "$t")s")
echo "# clean root: passed in $(elapsed "$start")s: $(printf '%s, ' "${times[@]}" | sed 's/, $//')" |
	tee -a "$log"
