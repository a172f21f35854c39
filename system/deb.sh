#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: the kernel as Debian packages (make bindeb-pkg).
#
#   system/deb.sh [main|upstream|main-xz]
#
# main is the series' tree ($SRC), upstream the unpatched one
# ($UPSTREAM_SRC, as make compare builds it), both with the test
# configuration plus configs/deb.config. The build tree is
# $CACHE/build/deb-NAME (scripts/build.sh); dpkg-buildpackage writes the
# packages beside it, and they are copied to out/deb/NAME/. Prints the
# linux-image package's path last.
#
# Packages: linux-image-6.12.118-loadpin (or -upstream), with its modules;
# linux-libc-dev comes along. No linux-headers package (profile
# nokernelheaders): nothing here builds external modules against it.
# main-xz packages main's build with its modules xz-compressed, as
# Debian's own 6.12 does (no recompile); see configs/deb.config for why
# that is not the default for Debian 12.
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"

name=${1:-main}
c=$TOP/configs
tree=$name extra=() suffix=
case "$name" in
main) src=$SRC frags=("$c/base.config" "$c/loadpin.config" "$c/deb.config") ;;
main-xz) src=$SRC frags=("$c/base.config" "$c/loadpin.config" "$c/deb.config")
	tree=main extra=(CONFIG_MODULE_COMPRESS_ALL=y) suffix=xz ;;
upstream)
	"$TOP/scripts/tree.sh" --upstream >&2
	src=$UPSTREAM_SRC frags=("$c/base.config" "$c/upstream.config" "$c/deb.config") ;;
*) die "deb.sh: main, upstream or main-xz, not '$name'" ;;
esac
obj=$CACHE/build/deb-$tree
release=$(make -s -C "$src" kernelversion)-$( [ "$tree" = main ] && echo loadpin || echo upstream)
# Fixed, so that a rebuild replaces the same file names; main-xz has the
# same version (its packages go to a directory of their own).
pkgver=$release-1
t=$(date +%s)
dst=$OUT/deb/$name
mkdir -p "$dst"
# The package build links with KBUILD_BUILD_VERSION=1 (the revision):
# the same here, or every run relinks and repackages.
lv=(LOCALVERSION="-${release#*-}" KBUILD_BUILD_VERSION=1)
# The kernel and modules first (incremental, ccache), with the same
# LOCALVERSION as the package build so that nothing relinks in between.
# LOCALVERSION set (even to a suffix) also keeps setlocalversion from
# adding "+" for a git tree.
"$TOP/scripts/build.sh" -s "$src" -n "deb-$tree" "${frags[@]}" -- "${lv[@]}" bzImage modules >/dev/null
# Packaging again takes a minute and changes the .deb's bytes: skip it
# when the kernel, the modules and the packaging inputs are the ones the
# package in out/deb was made from.
stamp=$( { echo "$pkgver ${extra[*]}"; cat "$obj/.config" "$0";
	(cd "$obj" && find . -name '*.ko' | LC_ALL=C sort | xargs sha256sum;
	 sha256sum arch/x86/boot/bzImage); } | sha256sum | cut -c1-16)
img=$dst/linux-image-${release}_${pkgver}_amd64.deb
if [ -f "$img" ] && [ "$(cat "$obj/.deb-stamp$suffix" 2>/dev/null)" = "$stamp" ]; then
	log "deb $name: $(basename "$img") is up to date"
	echo "$img"
	exit 0
fi
rm -f "$obj/.deb-stamp$suffix" "$CACHE/build/"linux-*_"$pkgver"_*.deb "$CACHE/build/"linux-upstream_"$pkgver"*
# DPKG_FLAGS: no headers package, no dbg package.
"$TOP/scripts/build.sh" -s "$src" -n "deb-$tree" "${frags[@]}" -- "${lv[@]}" \
	KDEB_PKGVERSION="$pkgver" \
	DPKG_FLAGS="-Ppkg.linux-upstream.nokernelheaders,pkg.linux-upstream.nokerneldbg" \
	"${extra[@]}" bindeb-pkg >/dev/null
rm -f "$dst"/linux-image-*_"$pkgver"_*.deb "$dst"/linux-libc-dev_"$pkgver"_*.deb
cp "$CACHE/build/$(basename "$img")" "$CACHE/build/"linux-libc-dev_"$pkgver"_*.deb "$dst/"
echo "$stamp" > "$obj/.deb-stamp$suffix"
log "deb $name: $(basename "$img") in $(( $(date +%s) - t ))s"
echo "$img"
