#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The bootable Debian system of one kernel build, as disk images:
#
#   system/image.sh main|upstream|main-xz [bookworm|trixie]
#
# 1. the root of system/root.sh (Debian 12 bookworm by default, or
#    Debian 13 trixie) unpacked, our linux-image .deb (out/deb/
#    NAME, system/deb.sh) installed with dpkg -i in a chroot, so that its
#    postinst runs the kernel hooks (update-initramfs writes
#    /boot/initrd.img-*);
# 2. the scenario runner, its systemd units and test files added
#    (system/guest/, the scenarios' scripts, lpctl);
# 3. images made from directories, never mounted: root.ext4 and its
#    dm-verity hash tree root.verity-hash (the no-initramfs layout, table
#    in root.table with DATA/HASH placeholders), root.gpt (the same
#    filesystem in a GPT partition with PARTUUID $PARTUUID, for the
#    initramfs layout), var.ext4 (the writable /var, copied per boot),
#    data.ext4 and data.verity-hash (a second verity image holding a
#    module; the root trusts its digest in /etc/loadpin/verity-digests).
#
# Everything lands in $CACHE/system/NAME/ (NAME-trixie/ for trixie) with
# vmlinuz and initrd.img
# copied out of /boot; rebuilt when the root, the .deb or our files
# change. Prints the directory last. The chroot's mounts live in a mount
# namespace of our own (unshare), as in scripts/cleanroot.sh.
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"

name=${1:-main}
release=${2:-bookworm}
PARTUUID=5f1e3b1a-7c2d-4e8f-9a6b-3c4d5e6f7a8b
dir=$CACHE/system/$name
[ "$release" = bookworm ] || dir=$dir-$release
deb=$(ls -t "$OUT/deb/$name"/linux-image-*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || die "no linux-image package in out/deb/$name: run system/deb.sh $name"

if [ -z "${LOADPIN_SYSTEM_NS:-}" ]; then
	tarball=$("$TOP/system/root.sh" "$release")
	key=$( { echo "$tarball"; sha256sum "$deb" "$0" "$TOP"/system/guest/* \
		"$TOP"/system/scenarios/*.scn "$TOP"/tests/guest/lib.sh \
		"$TOP"/tests/guest/lpctl.c "$TOP"/tests/guest/*.h \
		$(ls "$TOP"/loadpinctl/*.[ch] "$TOP"/loadpinctl/Makefile \
		     "$TOP"/loadpinctl/systemd/* 2>/dev/null) | cut -c1-64; } |
		sha256sum | cut -c1-16)
	if [ "$(cat "$dir/stamp" 2>/dev/null)" = "$key" ]; then
		echo "$dir"
		exit 0
	fi
	[ "$(id -u)" = 0 ] || die "image.sh needs root (chroot for dpkg -i)"
	LOADPIN_SYSTEM_NS=1 TARBALL_PATH=$tarball KEY=$key \
		exec unshare --mount --propagation private -- "$0" "$@"
fi

t0=$(date +%s)
root=$dir/root
mkdir -p "$dir"
rm -f "$dir/stamp"
log "system $name ($release): unpacking the root"
rm -rf "$root"
mkdir -p "$root"
tar -xf "$TARBALL_PATH" -C "$root"

# 1. dpkg -i in the root, its maintainer scripts included.
cp "$deb" "$root/tmp/"
mount -t proc proc "$root/proc"
mount -t sysfs -o ro sysfs "$root/sys"
mount --rbind /dev "$root/dev"
mount --make-rslave "$root/dev"
log "system $name: dpkg -i $(basename "$deb")"
t=$(date +%s)
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	DEBIAN_FRONTEND=noninteractive dpkg -i "/tmp/$(basename "$deb")" \
	> "$dir/dpkg.log" 2>&1 || { tail -20 "$dir/dpkg.log" >&2; die "dpkg -i failed, log: $dir/dpkg.log"; }
dpkg_s=$(( $(date +%s) - t ))
umount -R "$root/dev" "$root/sys" "$root/proc"
rm -f "$root/tmp/$(basename "$deb")"
kver=$(ls "$root/lib/modules")
[ -f "$root/boot/initrd.img-$kver" ] ||
	die "the package's postinst made no /boot/initrd.img-$kver (log: $dir/dpkg.log)"
cp "$root/boot/vmlinuz-$kver" "$dir/vmlinuz"
cp "$root/boot/initrd.img-$kver" "$dir/initrd.img"

# 2. Our files.
lib=$root/usr/local/lib/loadpin-system
mkdir -p "$lib/scenarios" "$root/usr/local/sbin" "$root/etc/loadpin" "$root/usr/lib/loadpin-system"
cp "$TOP/tests/guest/lib.sh" "$TOP/system/guest/lib-system.sh" "$TOP/system/guest/run" "$lib/"
for s in "$TOP"/system/scenarios/*.scn; do
	sed -e '1,/^---$/d' -e "s/@PARTUUID@/$PARTUUID/g" "$s" > "$lib/scenarios/$(basename "$s" .scn).sh"
done
cflags=(-static -O2 -Wall -I"$TOP/tests/guest")
gcc "${cflags[@]}" -o "$root/usr/local/sbin/lpctl" "$TOP/tests/guest/lpctl.c"
gcc "${cflags[@]}" -o "$root/usr/local/sbin/lpfinitz" "$TOP/system/guest/lpfinitz.c"
# The digest list is fed and sealed by loadpinctl's unit when loadpinctl
# builds (loadpinctl/, the operator's tool), else by our own unit with
# lpctl. The scenarios read the unit's name from /etc/loadpin/feed-unit.
feed=lp-verity-feed.service
if [ -f "$TOP/loadpinctl/Makefile" ] && [ -f "$TOP/loadpinctl/systemd/loadpin-digests.service" ]; then
	tmp=$(mktemp -d)
	cp -r "$TOP/loadpinctl/." "$tmp/"
	rm -f "$tmp/loadpinctl"
	# The host is Debian 12: a binary linked here runs in a Debian 12
	# or 13 root (glibc is backward compatible).
	if make -s -C "$tmp" loadpinctl > "$dir/loadpinctl.log" 2>&1; then
		install -m 0755 "$tmp/loadpinctl" "$root/usr/sbin/loadpinctl"
		cp "$tmp/systemd/loadpin-digests.service" "$root/etc/systemd/system/"
		feed=loadpin-digests.service
	else
		log "system $name: loadpinctl does not build (log: $dir/loadpinctl.log): feeding with lpctl"
	fi
	rm -rf "$tmp"
fi
cp "$TOP/system/guest/lp-system.service" "$TOP/system/guest/lp-verity-feed.service" \
	"$root/etc/systemd/system/"
mkdir -p "$root/etc/systemd/system/multi-user.target.wants" "$root/etc/systemd/system/sysinit.target.wants"
ln -sf ../lp-system.service "$root/etc/systemd/system/multi-user.target.wants/"
ln -sf "../$feed" "$root/etc/systemd/system/sysinit.target.wants/"
echo "$feed" > "$root/etc/loadpin/feed-unit"
# The root is read-only: /var on a disk of its own, /tmp in memory, a
# fixed machine id. No fsck: the root disk is attached read-only.
cat > "$root/etc/fstab" <<EOT
LABEL=lpvar	/var	ext4	defaults	0	0
tmpfs		/tmp	tmpfs	mode=1777	0	0
EOT
echo 4c6f616450696e2d44656269616e3132 > "$root/etc/machine-id"
# The kernel's own firmware selftests, unchanged (sys-selftests), from
# the series' tree: its scripts and fw_namespace, built static.
st=$SRC/tools/testing/selftests/firmware
if [ -d "$st" ]; then
	mkdir -p "$root/usr/lib/loadpin-system/selftests/firmware"
	cp "$st"/*.sh "$st/config" "$st/settings" "$root/usr/lib/loadpin-system/selftests/firmware/"
	gcc -static -O2 -o "$root/usr/lib/loadpin-system/selftests/firmware/fw_namespace" "$st/fw_namespace.c"
fi
# And the kmod selftests (sys-kmod): one script, unchanged.
st=$SRC/tools/testing/selftests/kmod
if [ -d "$st" ]; then
	mkdir -p "$root/usr/lib/loadpin-system/selftests/kmod"
	cp "$st/kmod.sh" "$st/config" "$root/usr/lib/loadpin-system/selftests/kmod/"
fi
mkdir -p "$root/lib/firmware"
printf 'loadpin system test firmware\n' > "$root/lib/firmware/loadpin-test.bin"
dummy=$(find "$root/lib/modules/$kver" -name 'dummy.ko*' | head -n 1)
[ -n "$dummy" ] || die "no dummy.ko in the package (CONFIG_DUMMY=m)"
case "$dummy" in
*.xz) cp "$dummy" "$root/usr/lib/loadpin-system/dummy.ko.xz" ;;
*) xz --check=crc32 --lzma2=dict=1MiB -c "$dummy" > "$root/usr/lib/loadpin-system/dummy.ko.xz" ;;
esac

# verity_format DATA HASH OUT: veritysetup format on plain files; writes
# OUT.table (dm table line, DATA/HASH placeholders) and OUT.roothash.
verity_format() {
	local out info
	out=$(veritysetup format "$1" "$2")
	info() { echo "$out" | sed -n "s/^$1:[[:space:]]*//p"; }
	local blocks bsize hsize alg salt rh
	blocks=$(info 'Data blocks') bsize=$(info 'Data block size')
	hsize=$(info 'Hash block size') alg=$(info 'Hash algorithm')
	salt=$(info 'Salt') rh=$(info 'Root hash')
	[ -n "$rh" ] || die "cannot parse veritysetup format output: $out"
	echo "0 $((blocks * bsize / 512)) verity 1 DATA HASH $bsize $hsize $blocks 1 $alg $rh $salt" > "$3.table"
	echo "$rh" > "$3.roothash"
}

# 3. Images. The data disk first: the root lists its digest.
data=$dir/data.d
rm -rf "$data" && mkdir -p "$data"
cp "$dummy" "$data/" && echo data > "$data/IDENTITY"
mkfs.ext4 -q -F -b 4096 -L lpdata -d "$data" -E root_owner=0:0 "$dir/data.ext4" 8M >/dev/null
verity_format "$dir/data.ext4" "$dir/data.verity-hash" "$dir/data"
printf '# LOADPIN_TRUSTED_VERITY_ROOT_DIGESTS\n%s\n' "$(cat "$dir/data.roothash")" \
	> "$root/etc/loadpin/verity-digests"
cp "$dir/data.roothash" "$root/etc/loadpin/data.roothash"

mkfs.ext4 -q -F -L lpvar -d "$root/var" -E root_owner=0:0 "$dir/var.ext4" 256M >/dev/null
mb=$(du -sm "$root" | cut -f1)
mb=$((mb + mb / 4 + 64))
t=$(date +%s)
mkfs.ext4 -q -F -b 4096 -L lproot -d "$root" -E root_owner=0:0 "$dir/root.ext4" "${mb}M" >/dev/null
verity_format "$dir/root.ext4" "$dir/root.verity-hash" "$dir/root"
# The GPT disk: the same filesystem in partition 1 at 1 MiB.
sectors=$((mb * 2048))
rm -f "$dir/root.gpt"
truncate -s $(( (2048 + sectors + 2048) * 512 )) "$dir/root.gpt"
printf 'label: gpt\nstart=2048, size=%d, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, uuid=%s, name="lproot"\n' \
	"$sectors" "$PARTUUID" | sfdisk --quiet --no-reread --no-tell-kernel "$dir/root.gpt" >/dev/null
dd if="$dir/root.ext4" of="$dir/root.gpt" bs=1M seek=1 conv=notrunc,sparse status=none
echo "$PARTUUID" > "$dir/partuuid"
echo "$kver" > "$dir/kver"
img_s=$(( $(date +%s) - t ))
echo "$KEY" > "$dir/stamp"
log "system $name: $kver, dpkg -i ${dpkg_s}s, images ${img_s}s (root ${mb} MB), all $(( $(date +%s) - t0 ))s"
echo "$dir"
