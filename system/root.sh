#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian root the system scenarios boot, before our kernel is in it:
# Debian 12 (bookworm, the default) or Debian 13 (trixie), mmdebstrap
# from Debian's archive, cached as a tarball under $CACHE/system/ keyed
# by the release, the package list and this script. Prints the
# tarball's path last.
#
#   system/root.sh [bookworm|trixie]
#
# No mount and no chroot here: mmdebstrap in its default mode runs the
# maintainer scripts itself (unshare or root), and the result is a plain
# tarball that system/image.sh unpacks per kernel.
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"

release=${1:-bookworm}
case "$release" in
bookworm|trixie) ;;
*) die "root.sh: bookworm or trixie, not '$release'" ;;
esac
MIRROR=${LOADPIN_MIRROR:-http://deb.debian.org}
sources=("deb $MIRROR/debian $release main"
	 "deb $MIRROR/debian $release-updates main"
	 "deb $MIRROR/debian-security $release-security main")
# What the issue asks for (systemd, udev, kmod, initramfs-tools, the audit
# daemon, kexec-tools, cryptsetup-bin for veritysetup) and what the
# checks and Debian's initramfs need: zstd (initramfs-tools' default
# compression), e2fsprogs (fsck of /var), procps, xz-utils (to make an
# xz module in the guest), busybox for the initramfs' shell tools,
# libcap2-bin (capsh, which the kmod selftests run).
pkgs=(systemd systemd-sysv udev kmod initramfs-tools auditd kexec-tools
      cryptsetup-bin e2fsprogs zstd procps xz-utils busybox util-linux
      libcap2-bin)

dir=$CACHE/system
mkdir -p "$dir"
key=$( { printf '%s\n' "${pkgs[@]}" "${sources[@]}"; cat "$0"; } | sha256sum | cut -c1-16)
tarball=$dir/$release-root-$key.tar
if [ ! -f "$tarball" ]; then
	command -v mmdebstrap >/dev/null || die "mmdebstrap missing (scripts/deps.sh installs it)"
	log "mmdebstrap $release (${pkgs[*]})"
	rm -f "$dir"/$release-root-*.tar "$dir"/$release-root-*.tar.tmp
	t=$(date +%s)
	# debconf's defaults: kexec-tools does not take over reboots.
	mmdebstrap --variant=minbase --format=tar \
		--include="$(IFS=,; echo "${pkgs[*]}")" \
		--customize-hook='echo loadpin-debian > "$1/etc/hostname"' \
		"$release" "$tarball.tmp" "${sources[@]}" > "$dir/mmdebstrap-$release.log" 2>&1 ||
		{ tail -20 "$dir/mmdebstrap-$release.log" >&2
		  die "mmdebstrap failed, log: $dir/mmdebstrap-$release.log"; }
	mv "$tarball.tmp" "$tarball"
	log "root built in $(( $(date +%s) - t ))s: $(du -h "$tarball" | cut -f1)"
fi
echo "$tarball"
