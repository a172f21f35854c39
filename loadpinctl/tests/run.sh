#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: the unit tests, the exit-status tests and the bounded fuzz
# test, as one TAP stream; the last line is "N passed, N failed".
# LOADPINCTL_FUZZ_ROUNDS and LOADPINCTL_FUZZ_SECONDS bound the fuzzer.
set -u
cd "$(dirname "$0")"
n=0 pass=0 fail=0
run() {	# run NAME CMD...: renumber CMD's TAP lines into ours
	local line rc
	while IFS= read -r line; do
		case "$line" in
		"ok "*|"not ok "*)
			n=$((n + 1))
			case "$line" in
			ok*) pass=$((pass + 1)); echo "ok $n $1: ${line#ok [0-9]* }" ;;
			*) fail=$((fail + 1)); echo "not ok $n $1: ${line#not ok [0-9]* }" ;;
			esac ;;
		1..*) ;;
		*) echo "$line" ;;
		esac
	done < <("${@:2}" 2>&1; echo "# exit $?")
}
run unit ./unit
run exit ./exit.sh
run fuzz ./fuzz "${LOADPINCTL_FUZZ_ROUNDS:-500000}" "${LOADPINCTL_FUZZ_SECONDS:-30}"
echo "1..$n"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
