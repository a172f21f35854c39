#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Static checks, one result line each:
#   checkpatch.pl --strict on every patch of the series (FILE_PATH_CHANGES,
#     "does MAINTAINERS need updating?", is ignored: every new file is under
#     a path the LOADPIN entry lists, which the last check verifies),
#   make W=1 and sparse (C=2) on security/loadpin/,
#   no call cycle between the objects of security/loadpin/ and no file
#     there over 400 lines (tests aside),
#   scripts/kernel-doc -Wall -none on security/loadpin/*.[ch],
#   make coccicheck MODE=report M=security/loadpin (every semantic patch
#     the tree ships; any report fails),
#   every patch of the series builds on its own (bisectable).
# Prints "# counts: P F S" for check.sh, or a summary when run alone.
set -uo pipefail
. "$(dirname "$0")/common.sh"
pass=0 fail=0
RESULT_OF=lint
# checkpatch runs spdxcheck.py with "env python3": use Debian's, which has ply.
export PATH=/usr/bin:$PATH
cd "$SRC" || exit 1
# A patch that passed is not checked again while it and checkpatch (with
# the files it reads) stay the same, byte for byte.
passed=$CACHE/lint-passed
mkdir -p "$passed"
tools=$(cat scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch \
	scripts/spdxcheck.py LICENSES/*/* | sha256sum | cut -c1-16)
for p in $(series_files); do
	stamp=$passed/checkpatch-$(sha256sum < "$p" | cut -c1-16)-$tools
	if [ -f "$stamp" ]; then
		result "checkpatch --strict $(basename "$p") (passed before, unchanged)" 0
		continue
	fi
	# The tree is a release tarball without history: checkpatch cannot
	# look up the commits a Fixes: tag or a backport names.
	out=$(scripts/checkpatch.pl --strict --quiet \
		--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$p" 2>&1)
	result "checkpatch --strict $(basename "$p")" "$([ -z "$out" ]; echo $?)" "$out"
	[ -n "$out" ] || : > "$stamp"
done
# The series applies to the pristine tree from patches/ alone and makes
# the tree we build, in the per-patch build's worktree (kept: adding a
# worktree of the whole kernel costs a minute).
wt=$CACHE/bisect-src
worktree() {	# the kept worktree, added again when its repository was made anew
	if [ -d "$wt" ] && ! git -C "$wt" rev-parse -q --verify pristine >/dev/null 2>&1; then
		rm -rf "$wt"
		git worktree prune
	fi
	[ -d "$wt" ] || git worktree add -q --detach "$wt" pristine
}
applies() {
	worktree || return 1
	git -C "$wt" am --abort >/dev/null 2>&1
	git -C "$wt" checkout -q -f --detach pristine &&
		series_files | xargs -r git -C "$wt" am -q || return 1
	[ "$(git -C "$wt" rev-parse 'HEAD^{tree}')" = "$(git rev-parse 'HEAD^{tree}')" ] ||
		{ echo "patches/ does not make the tree at $SRC (make refresh)"; return 1; }
}
out=$(applies 2>&1)
result "series applies with git am to the pristine tree" $? "$out"

# New files must have a maintainer (what FILE_PATH_CHANGES asks about).
orphans=$(git diff --name-only --diff-filter=A pristine HEAD |
	while read -r f; do
		scripts/get_maintainer.pl --no-git --no-rolestats --no-email \
			--subsystem -f "$f" 2>/dev/null | grep -qiE 'loadpin|string|kunit|documentation' ||
			echo "$f"
	done)
result "every new file is covered by MAINTAINERS" "$([ -z "$orphans" ]; echo $?)" "$orphans"

obj=$CACHE/build/main
out=$(make -s -C "$SRC" O="$obj" CC="ccache gcc" W=1 C=2 security/loadpin/ 2>&1)
result "make W=1 C=2 (sparse) security/loadpin/" "$([ -z "$out" ]; echo $?)" "$out"
# The objects of security/loadpin/ (tests aside) call each other without a
# cycle: an edge "a b" for every symbol a.o uses and b.o defines, which
# tsort refuses when they loop. And no source file (tests aside) is over
# 400 lines.
layering_check() {
	local a b o objs=() edges
	for o in "$obj"/security/loadpin/*.o; do
		case $o in *_test.o | */loadpin.o) continue ;; esac
		objs+=("$o")
	done
	[ ${#objs[@]} -gt 5 ] || { echo "no objects in $obj/security/loadpin"; return 1; }
	edges=$(for a in "${objs[@]}"; do
		for b in "${objs[@]}"; do
			[ "$a" = "$b" ] && continue
			comm -12 <(nm -u "$a" | awk '{print $NF}' | sort -u) \
				<(nm -g --defined-only "$b" | awk '{print $NF}' | sort -u) |
				grep -q . && echo "$(basename "$a" .o) $(basename "$b" .o)"
		done
	done)
	echo "$edges" | tsort >/dev/null 2>&1 ||
		{ echo "the objects call in a loop; a uses b:"; echo "$edges"; return 1; }
	o=$(wc -l security/loadpin/*.[ch] |
		grep -v -e '_test\.c$' -e '_cases\.h$' -e ' total$' | awk '$1 > 400')
	[ -z "$o" ] || { echo "over 400 lines: $o"; return 1; }
}
out=$(layering_check 2>&1)
result "security/loadpin/: no call cycle between objects, no file over 400 lines" $? "$out"
out=$(scripts/kernel-doc -Wall -none security/loadpin/*.[ch] 2>&1)
result "kernel-doc -Wall security/loadpin/" "$([ -z "$out" ]; echo $?)" "$out"
# Coccinelle reports are "FILE:LINE:COL-COL: WARNING|ERROR|INFO: ..."; the
# rest of its output is the commands it ran and notes about the scripts.
# It runs in the source tree: with O=, spatch's --dir is taken relative to
# the output directory, which holds no sources, and it silently checks
# nothing.
# Skipped when the same sources passed before (it takes most of a minute).
cocci_check() {
	local out rc stamp
	stamp=$(cat security/loadpin/* | sha256sum | cut -c1-16)
	[ "$(cat "$obj/.cocci-passed" 2>/dev/null)" = "$stamp" ] && return 0
	out=$(make -s -C "$SRC" coccicheck MODE=report M=security/loadpin \
		J="$JOBS" 2>&1)
	rc=$?
	[ $rc = 0 ] || { echo "$out" | tail -5; return 1; }
	echo "$out" | grep -E '^security/loadpin/[^ ]+:[0-9]+' && return 1
	echo "$stamp" > "$obj/.cocci-passed"
}
out=$(cocci_check)
result "coccicheck MODE=report M=security/loadpin" $? "$out"

# Every patch builds on its own (bisectable): the objects of the files
# the series touches (and dm-verity-target.o, which includes the verity
# header it changes), at each commit, in a worktree of their own with W=1.
# Skipped when this very series passed before.
bisect_check() {
	local obj=$CACHE/build/bisect c n=0 out
	[ "$(cat "$obj/.passed" 2>/dev/null)" = "$(series_hash)" ] && return 0
	worktree || return 1
	mkdir -p "$obj"
	cp "$CACHE/build/main/.config" "$obj/.config"
	for c in $(git rev-list --reverse pristine..HEAD); do
		n=$((n + 1))
		git -C "$wt" checkout -q --detach "$c" || return 1
		out=$(make -s -C "$wt" O="$obj" CC="ccache gcc" olddefconfig prepare 2>&1 &&
		      make -s -C "$wt" O="$obj" CC="ccache gcc" -j"$JOBS" W=1 \
			security/loadpin/ security/lsm_audit.o lib/string_helpers.o \
			lib/string_helpers_kunit.o drivers/md/dm.o \
			drivers/md/dm-verity-loadpin.o drivers/md/dm-verity-target.o 2>&1)
		if [ $? != 0 ] || [ -n "$out" ]; then
			echo "patch $n ($(git log -1 --format=%s "$c")):"
			echo "$out" | head -20
			return 1
		fi
	done
	series_hash > "$obj/.passed"
}
out=$(bisect_check 2>&1)
result "every patch builds on its own (W=1, touched objects)" $? "$out"

if [ "${1:-}" = --counts ]; then
	echo "# counts: $pass $fail 0"
else
	echo "$pass passed, $fail failed"
	[ $fail = 0 ]
fi
