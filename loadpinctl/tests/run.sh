#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: the unit tests, the exit-status tests and the bounded fuzz
# test, as one TAP stream; the last line is "N passed, N failed".
# LOADPINCTL_FUZZ_ROUNDS and LOADPINCTL_FUZZ_SECONDS bound the fuzzer.
# With --counts (scripts/check.sh): "PASS/FAIL/SKIP loadpinctl: ..." lines
# and "# counts: P F S" last.
set -u
counts=${1:-}
cd "$(dirname "$0")"
n=0 pass=0 fail=0 skip=0
run() {	# run NAME CMD...: renumber CMD's TAP lines into ours
	local line rc
	while IFS= read -r line; do
		case "$line" in
		"ok "*|"not ok "*)
			n=$((n + 1))
			case "$line" in
			"ok "*" # SKIP "*) skip=$((skip + 1)); line="${line#ok [0-9]* }"
				if [ -n "$counts" ]; then echo "SKIP loadpinctl: $1: ${line% \# SKIP *}  -- ${line#* \# SKIP }"
				else echo "ok $n $1: $line"; fi ;;
			ok*) pass=$((pass + 1)); line="${line#ok [0-9]* }"
				if [ -n "$counts" ]; then echo "PASS loadpinctl: $1: $line"
				else echo "ok $n $1: $line"; fi ;;
			*) fail=$((fail + 1)); line="${line#not ok [0-9]* }"
				if [ -n "$counts" ]; then echo "FAIL loadpinctl: $1: $line"
				else echo "not ok $n $1: $line"; fi ;;
			esac ;;
		1..*) ;;
		*) [ -z "$counts" ] && echo "$line" ;;
		esac
	done < <("${@:2}" 2>&1; echo "# exit $?")
}
run unit ./unit
run exit ./exit.sh
run fuzz ./fuzz "${LOADPINCTL_FUZZ_ROUNDS:-500000}" "${LOADPINCTL_FUZZ_SECONDS:-30}"
if [ -n "$counts" ]; then
	echo "# counts: $pass $fail $skip"
	exit 0
fi
echo "1..$n"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
