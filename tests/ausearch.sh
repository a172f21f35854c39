#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# ausearch.sh [--counts] [BUILD]: parse the audit records the audit
# scenario left on BUILD's console (default main) with audit's own user
# space, as an administrator would after auditd wrote them:
#   - auditd writes a record type it has no name for as
#     "type=UNKNOWN[1499] msg=audit(...): ...", so the kernel's lines are
#     rewritten into that form;
#   - ausearch -m 1499 must find every record, none skipped as malformed;
#   - ausearch -i must interpret res= as yes/no and keep our fields;
#   - ausearch --format csv (auparse's normaliser) must give each event
#     the result res= says.
# ausearch comes from Debian's auditd package, unpacked into the cache
# rather than installed: installing auditd would start an audit daemon on
# this machine's kernel.
# ausearch.sh --unpack only unpacks it, for the tests that run before
# the audit scenario (loadpinctl's log --audit).
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

counts=0 unpack_only=0
[ "${1:-}" = --counts ] && { counts=1; shift; }
[ "${1:-}" = --unpack ] && { unpack_only=1; shift; }
build=${1:-main}
log=$OUT/logs/$build/audit/console.log
pass=0 fail=0
RESULT_OF=ausearch
finish() {
	if [ $counts = 1 ]; then
		echo "# counts: $pass $fail 0"
	else
		echo "$pass passed, $fail failed"
	fi
	[ $fail = 0 ]
	exit
}

dir=$CACHE/ausearch
aus=$dir/root/sbin/ausearch
if [ ! -x "$aus" ]; then
	rm -rf "$dir" && mkdir -p "$dir/debs" &&
	(cd "$dir/debs" && apt-get download -qq auditd libauparse0 2>/dev/null) &&
	for d in "$dir"/debs/*.deb; do dpkg-deb -x "$d" "$dir/root" || exit 1; done
fi
[ $unpack_only = 0 ] || exec test -x "$aus"
[ -x "$aus" ]
result "ausearch unpacked from Debian's auditd package" $? || finish
export LD_LIBRARY_PATH=$dir/root/lib/x86_64-linux-gnu:$dir/root/usr/lib/x86_64-linux-gnu
ausearch() { "$aus" --input "$work/audit.log" "$@" 2>&1 | grep -v '^Config file'; }

[ -f "$log" ]
result "the audit scenario's console log is there ($log)" $? || finish
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -n 's/^.*audit: type=1499 \(audit(.*\)$/type=UNKNOWN[1499] msg=\1/p' "$log" |
	tr -d '\r' > "$work/audit.log"
n=$(wc -l < "$work/audit.log")
[ "$n" -ge 3 ]
result "the scenario logged at least 3 records ($n)" $? || finish

out=$(ausearch --debug -m 1499)
found=$(grep -c '^type=UNKNOWN\[1499\]' <<< "$out")
[ "$found" = "$n" ] && ! grep -q Malformed <<< "$out"
result "ausearch -m 1499 finds all $n records, none malformed ($found)" $? "$out"

out=$(ausearch -m 1499 -i)
grep -q 'lsm=loadpin op=kernel-module decision=pinned res=yes pid=[0-9]* comm=lpctl path=/mnt/a/modules/lp_a.ko ' <<< "$out"
result "ausearch -i: the pin reads res=yes with comm and path interpreted" $? "$out"
grep -q 'decision=denied res=no .* path=/tmp/lp_c.ko .*state=pinned pinned_dev=254:0' <<< "$out"
result "ausearch -i: the denial reads res=no and keeps our fields" $? "$out"

out=$(ausearch -m 1499 --format csv)
ok=$(grep -c ',success,' <<< "$out") bad=$(grep -c ',failed,' <<< "$out")
want_ok=$(grep -c ' res=1 ' "$work/audit.log") want_bad=$(grep -c ' res=0 ' "$work/audit.log")
[ "$ok" = "$want_ok" ] && [ "$bad" = "$want_bad" ] && [ $((ok + bad)) = "$n" ]
result "auparse's normaliser: $ok success, $bad failed, as res= says" $? "$out"
finish
