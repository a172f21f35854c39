#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build a kernel from config fragments.
#
#   build.sh [-s SRC] [-n NAME] FRAGMENT... [-- MAKE-ARGS...]
#
# The output directory is $CACHE/build/NAME (default: "main"). Prints the
# bzImage path as its last line.
set -euo pipefail
. "$(dirname "$0")/common.sh"

src=$SRC
name=main
frags=()
while [ $# -gt 0 ]; do
	case "$1" in
	-s) src=$2; shift 2 ;;
	-n) name=$2; shift 2 ;;
	--) shift; break ;;
	*) frags+=("$1"); shift ;;
	esac
done
obj=$CACHE/build/$name
mkdir -p "$obj"

CC="ccache gcc"
command -v ccache >/dev/null || CC=gcc
kmake() { make -s -C "$src" O="$obj" CC="$CC" HOSTCC="$CC" -j"$JOBS" "$@"; }

# Regenerate .config only when the fragments or the tree's Kconfig files
# changed: a symbol that a series does not define yet (a bisect step, a
# re-cut) would otherwise stay unset in a kept .config.
want=$({ cat "${frags[@]}"; find "$src" -name 'Kconfig*' -not -path '*/.git/*' |
	LC_ALL=C sort | xargs cat; } | sha256sum | cut -c1-16)
if [ "$(cat "$obj/.frags" 2>/dev/null)" != "$want" ] || [ ! -f "$obj/.config" ]; then
	log "configuring $name from ${frags[*]##*/}"
	kmake tinyconfig >/dev/null
	KCONFIG_CONFIG="$obj/.config" "$src/scripts/kconfig/merge_config.sh" \
		-m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null
	kmake olddefconfig >/dev/null
	# merge_config only warns; a fragment line that did not stick is an
	# error here (a missing dependency would silently drop a feature).
	# Later fragments override earlier ones, as in merge_config.
	declare -A final=()
	order=()
	for f in "${frags[@]}"; do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*) sym=${line%%=*} ;;
			"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *}
				line="$sym=n" ;;
			*) continue ;;
			esac
			[ -n "${final[$sym]+x}" ] || order+=("$sym")
			final[$sym]=$line
		done < "$f"
	done
	bad=0
	for sym in "${order[@]}"; do
		line=${final[$sym]}
		case "$line" in
		*=n) grep -q "^$sym=" "$obj/.config" && { echo "not unset: $sym" >&2; bad=1; } ;;
		*) grep -qxF "$line" "$obj/.config" || { echo "not set: $line" >&2; bad=1; } ;;
		esac
	done
	[ $bad = 0 ] || die "config fragments did not apply cleanly for $name"
	echo "$want" > "$obj/.frags"
fi
log "building $name"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(bzImage modules)
if ! kmake "${targets[@]}" > "$obj/build.log" 2>&1; then
	tail -40 "$obj/build.log" >&2
	die "kernel build failed ($name), log: $obj/build.log"
fi
grep -E 'warning:|error:' "$obj/build.log" >&2 || true
echo "$obj/arch/x86/boot/bzImage"
