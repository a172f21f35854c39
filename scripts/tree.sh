#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare the kernel tree: extract Debian's linux-source-6.12 once into the
# cache, import it as the "pristine" commit, then (re)apply patches/series
# with git am. Only files that the series changes get new mtimes, so
# incremental builds stay incremental.
#
#   tree.sh            make $SRC match patches/ (no-op when it already does)
#   tree.sh --upstream also provide the unpatched tree in $UPSTREAM_SRC
#   tree.sh --path     print the tree path
set -euo pipefail
. "$(dirname "$0")/common.sh"

import_pristine() {
	[ -f "$TARBALL" ] || die "$TARBALL missing (apt-get install linux-source-6.12)"
	log "extracting $TARBALL into $SRC"
	rm -rf "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	tar -xf "$TARBALL" -C "$SRC.tmp" --strip-components=1
	git -C "$SRC.tmp" init -q -b series
	git -C "$SRC.tmp" config core.autocrlf false
	git -C "$SRC.tmp" config gc.auto 0
	git -C "$SRC.tmp" config am.threeWay false
	log "importing the pristine tree into git"
	# -f: the tarball ships files that its own .gitignore names.
	git -C "$SRC.tmp" add -A -f .
	GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' \
	GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' \
		git -C "$SRC.tmp" commit -q -m "Debian linux-source-6.12 $(basename "$TARBALL") (pristine)"
	git -C "$SRC.tmp" tag pristine
	mv "$SRC.tmp" "$SRC"
}

apply_series() {
	local want have
	want=$(series_hash)
	have=$(cat "$SRC/.git/loadpin-series" 2>/dev/null || true)
	if [ "$want" = "$have" ] && git -C "$SRC" diff --quiet HEAD; then
		return 0
	fi
	if [ -n "$(git -C "$SRC" status --porcelain)" ] || \
	   [ "$(git -C "$SRC" rev-list pristine..HEAD | wc -l)" != "0" -a "$have" = "" ]; then
		# Unexported work in the tree would be lost: refuse.
		if [ -z "${LOADPIN_FORCE:-}" ]; then
			git -C "$SRC" status --short | head -20 >&2
			die "$SRC has changes not in patches/ (run 'make refresh' or LOADPIN_FORCE=1)"
		fi
	fi
	if [ -n "$have" ] && [ -z "${LOADPIN_FORCE:-}" ]; then
		# Commits made in the tree after the last apply and not exported.
		local exported
		exported=$(cat "$SRC/.git/loadpin-head" 2>/dev/null || true)
		if [ -n "$exported" ] && [ "$(git -C "$SRC" rev-parse HEAD)" != "$exported" ]; then
			die "$SRC has commits not in patches/ (run 'make refresh' or LOADPIN_FORCE=1)"
		fi
	fi
	log "applying patches/series ($(series_files | wc -l) patches)"
	git -C "$SRC" am --abort >/dev/null 2>&1 || true
	git -C "$SRC" checkout -q -f -B series pristine
	if [ -n "$(series_files)" ]; then
		# Fixed committer dates make the commit ids reproducible.
		series_files | xargs -r git -C "$SRC" -c core.whitespace=-blank-at-eof \
			am -q --committer-date-is-author-date ||
			die "git am failed; see 'git -C $SRC am --show-current-patch'"
	fi
	git -C "$SRC" rev-parse HEAD > "$SRC/.git/loadpin-head"
	echo "$want" > "$SRC/.git/loadpin-series"
}

case "${1:-}" in
--path) echo "$SRC"; exit 0 ;;
esac

mkdir -p "$CACHE"
[ -d "$SRC/.git" ] || import_pristine
apply_series
if [ "${1:-}" = "--upstream" ] && [ ! -d "$UPSTREAM_SRC" ]; then
	git -C "$SRC" worktree add -q --detach "$UPSTREAM_SRC" pristine
fi
exit 0
