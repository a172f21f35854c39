# SPDX-License-Identifier: GPL-2.0
# Helpers for guest scenario scripts. Results are TAP lines on stdout; the
# host runner names each "scenario/description".
_t=0
t_ok()   { _t=$((_t + 1)); echo "ok $_t $1"; }
t_fail() { _t=$((_t + 1)); echo "not ok $_t $1"; [ -n "$2" ] && echo "# $2"; return 0; }
t_skip() { _t=$((_t + 1)); echo "ok $_t $1 # SKIP $2"; }

# expect RESULT DESC CMD...: CMD (usually lpctl) prints "ok" or an errno
# name as its last line; pass when that is RESULT. Under make compare
# (lpcompare on the command line) these load verdicts are marked " [load]"
# to be told apart from checks of logs and the status file.
_load_tag=
grep -qw lpcompare /proc/cmdline 2>/dev/null && _load_tag=" [load]"
expect() {
	want=$1 desc=$2$_load_tag
	shift 2
	got=$("$@" 2>&1 | tail -n 1)
	if [ "$got" = "$want" ]; then
		t_ok "$desc"
	else
		t_fail "$desc" "expected $want, got '$got' from: $*"
	fi
}

# check DESC CMD...: pass when CMD exits 0.
check() {
	desc=$1
	shift
	if out=$("$@" 2>&1); then
		t_ok "$desc"
	else
		t_fail "$desc" "failed: $* :: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi
}

# check_not DESC CMD...: pass when CMD exits non-zero.
check_not() {
	desc=$1
	shift
	if "$@" >/dev/null 2>&1; then
		t_fail "$desc" "unexpectedly succeeded: $*"
	else
		t_ok "$desc"
	fi
}

# kmsg_has DESC PATTERN: pass when the kernel log matches PATTERN (grep -E)
# within 5 seconds: some reports come from deferred work (unmounts).
kmsg_has() {
	i=0
	while ! dmesg | grep -Eq -- "$2"; do
		i=$((i + 1))
		if [ $i -gt 50 ]; then
			t_fail "$1" "no kernel log line matches: $2"
			return 0
		fi
		sleep 0.1
	done
	t_ok "$1"
}

kmsg_count() { dmesg | grep -Ec -- "$1"; }

# status_field KEY: the value of "KEY: value" in LoadPin's status file.
status_field() {
	sed -n "s/^$1: //p" /sys/kernel/security/loadpin/status 2>/dev/null
}

# status_is DESC KEY=VALUE...: pass when every KEY of the status file has
# exactly VALUE.
status_is() {
	desc=$1
	shift
	for kv in "$@"; do
		k=${kv%%=*} v=${kv#*=}
		got=$(status_field "$k")
		if [ "$got" != "$v" ]; then
			t_fail "$desc" "status $k: expected '$v', got '$got'"
			return 0
		fi
	done
	t_ok "$desc"
}

# leak_check: on a kmemleak kernel, scan and fail when a suspected leak
# was allocated by LoadPin or the string helpers it reports with. Leaks
# elsewhere (early boot, other subsystems) are only counted.
leak_check() {
	k=/sys/kernel/debug/kmemleak
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	[ -e $k ] || return 0
	echo scan > $k
	n=$(grep -c '^unreferenced object' $k)
	if grep -Eq 'loadpin|kstrdup_quotable|string_helpers' $k; then
		t_fail "kmemleak: no leak from LoadPin" "$(grep -E -B12 'loadpin|kstrdup_quotable' $k | head -40 | tr '\n' '|')"
	else
		t_ok "kmemleak: no leak from LoadPin ($n unrelated suspected leaks)"
	fi
}

# The kselftest runner logs to /dev/stdout, which devtmpfs does not make:
# link /dev/stdin, /dev/stdout and /dev/stderr to this shell's descriptors.
stdio_links() {
	for i in 0:stdin 1:stdout 2:stderr; do
		[ -e /dev/${i#*:} ] || ln -s /proc/self/fd/${i%%:*} /dev/${i#*:}
	done
}

# Run a kselftest-harness program; its TAP lines count as our tests.
selftest() {
	"$@" 2>&1 | sed -n 's/^\(not \)\{0,1\}ok [0-9]* /&/p; /^# /p'
}

# vmount NAME TABLE DATA HASH DIR: create the dm device NAME from
# TABLE.table in $VERITY_DIR (default /mnt/t/verity) with lpdm, mount it
# read-only on DIR; prints lpdm's output, then ok or an errno name.
vmount() {
	out=$(lpdm create "$1" "$(sed "s|DATA|$3|; s|HASH|$4|" "${VERITY_DIR:-/mnt/t/verity}/$2.table")" 2>&1)
	echo "$out"
	res=$(echo "$out" | tail -n 1)
	[ "$res" = ok ] || return 0
	dev=$(echo "$out" | grep '^/dev/dm-')
	i=0
	while [ ! -b "$dev" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	mkdir -p "$5"
	mount -t ext4 -o ro "$dev" "$5" 2>&1 && echo ok || echo EIO
}
