#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Export the kernel tree's commits (pristine..HEAD) back into patches/:
# one git format-patch file per commit, a cover letter whose text is kept
# from the previous one, and the quilt-style series file.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ -d "$SRC/.git" ] || die "no kernel tree in $SRC (run scripts/tree.sh)"
[ -z "$(git -C "$SRC" status --porcelain --untracked-files=no)" ] ||
	die "$SRC has uncommitted changes: commit them first"
n=$(git -C "$SRC" rev-list --count pristine..HEAD)

# The cover letter's subject and blurb live in the old cover letter.
desc=$(mktemp)
cover=$TOP/patches/0000-cover-letter.patch
if [ -f "$cover" ]; then
	awk '
	/^Subject: / { sub(/^Subject: \[[^]]*\] /, ""); subj = $0; hdr = 1; next }
	# A long subject is folded over several header lines.
	hdr && /^[ \t]/ { sub(/^[ \t]+/, " "); subj = subj $0; next }
	{ hdr = 0 }
	subj != "" && !body && /^$/ { body = 1; next }
	body && /^[^ ].*\([0-9]+\):$/ { exit }
	body { text = text $0 "\n" }
	END { printf "%s\n\n%s", subj, text }' "$cover" > "$desc"
else
	printf 'LoadPin: *** SUBJECT HERE ***\n\n*** BLURB HERE ***\n' > "$desc"
fi
git -C "$SRC" config branch.series.description "$(cat "$desc")"
rm -f "$desc"

rm -f "$TOP"/patches/*.patch
if [ "$n" -gt 0 ]; then
	git -C "$SRC" format-patch -q --zero-commit --no-signature \
		--cover-letter --cover-from-description=subject \
		-o "$TOP/patches" pristine..HEAD
fi
ls "$TOP/patches" | grep -E '^[0-9]{4}-.*\.patch$' | grep -v '^0000-cover-letter' \
	> "$TOP/patches/series" || true
# Mark the tree as matching patches/ so tree.sh leaves it alone.
git -C "$SRC" rev-parse HEAD > "$SRC/.git/loadpin-head"
series_hash > "$SRC/.git/loadpin-series"
log "exported $n patches"
