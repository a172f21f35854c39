#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what the build and the tests need (Debian 12, as root). Fast and
# silent when everything is there already. Every command a target runs must
# come from here or from a minbase root: scripts/cleanroot.sh proves it.
set -euo pipefail
pkgs=(linux-source-6.12 build-essential bc bison flex libelf-dev libssl-dev
      cpio xz-utils gzip kmod git perl python3 ccache e2fsprogs squashfs-tools
      erofs-utils	# the multi-device (erofs --blobdev) scenario
      cryptsetup-bin qemu-system-x86 busybox-static sparse coccinelle
      binutils python3-ply python3-git fdisk rsync
      ocaml-nox	# coccicheck runs semantic patches with OCaml scripts
      mmdebstrap	# scripts/cleanroot.sh, system/root.sh: Debian 12 roots
      debhelper)	# make deb: the kernel's bindeb-pkg rules run dh_* tools
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "error: missing packages (${missing[*]}); run as root or install them" >&2
	exit 1
fi
echo "==> apt-get install ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
