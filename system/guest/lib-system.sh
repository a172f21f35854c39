# SPDX-License-Identifier: GPL-2.0
# Helpers for system scenarios (bash, sourced after tests/guest/lib.sh).
PATH=/usr/local/sbin:$PATH
KVER=$(uname -r)
MODDIR=/lib/modules/$KVER
STATUS=/sys/kernel/security/loadpin/status

# sys_time: boot time to multi-user.target (monotonic, kernel start
# included) as "# time-to-multi-user-us N" for the host to compare.
sys_time() {
	echo "# time-to-multi-user-us $(systemctl show -P ActiveEnterTimestampMonotonic multi-user.target)"
}

# sys_failed_units: systemctl --failed is empty.
sys_failed_units() {
	local failed
	failed=$(systemctl --failed --plain --no-legend | awk '{ print $1 }' | paste -sd ' ')
	if [ -z "$failed" ]; then
		t_ok "systemctl --failed is empty"
	else
		t_fail "systemctl --failed is empty" "failed units: $failed"
		for u in $failed; do
			systemctl status --no-pager -l "$u" 2>&1 | tail -n 8 | sed 's/^/# /'
		done
	fi
}

# udev_wanted: the modules the devices present ask for (their modalias,
# resolved as udev's kmod builtin does), built-in ones left out.
udev_wanted() {
	find /sys/devices -name modalias -type f -exec cat {} + 2>/dev/null |
		sort -u | while read -r alias; do
			modprobe -R "$alias" 2>/dev/null
		done | sort -u | while read -r m; do
			[ "$(modinfo -F filename "$m" 2>/dev/null)" = "(builtin)" ] || echo "$m"
		done
}

# sys_udev_modules [MIN]: every module a device asks for is loaded (at
# least MIN of them, default 1, so that the check is not empty).
sys_udev_modules() {
	local min=${1:-1} n=0 m
	for m in $(udev_wanted); do
		n=$((n + 1))
		if [ -d "/sys/module/$m" ]; then
			t_ok "udev loaded $m"
		elif err=$(modprobe "$m" 2>&1); then
			t_fail "udev loaded $m" "not loaded by udev, modprobe loads it"
		elif echo "$err" | grep -q 'No such device'; then
			# A CPU or platform driver whose hardware QEMU does not have.
			t_skip "udev loaded $m" "the driver finds no device"
		else
			t_fail "udev loaded $m" "not loaded: $err; $(dmesg | grep -F "/$m.ko" | tail -n 2 | tr '\n' ' ')"
		fi
	done
	if [ $n -ge "$min" ]; then
		t_ok "devices ask for $n modules (at least $min)"
	else
		t_fail "devices ask for $n modules (at least $min)"
	fi
}

# denial_lines: LoadPin's refusals in the kernel log.
denial_lines() {
	dmesg | grep -E 'LoadPin: [a-z0-9-]+ (denied|old-api-denied|pin-refused) '
}

# sys_denials REGEX...: every refusal in the kernel log matches one of the
# REGEXes (the expected ones, by name), and each REGEX matched one. The
# status file's counters catch what the log's rate limit dropped.
sys_denials() {
	local lines re bad=0 n total
	lines=$(denial_lines)
	n=$(printf '%s' "$lines" | grep -c .)
	for re in "$@"; do
		if printf '%s\n' "$lines" | grep -Eq -- "$re"; then
			t_ok "expected denial: $re"
		else
			t_fail "expected denial: $re" "no kernel log line matches"
		fi
	done
	while IFS= read -r l; do
		[ -n "$l" ] || continue
		local hit=0
		for re in "$@"; do
			printf '%s\n' "$l" | grep -Eq -- "$re" && hit=1
		done
		if [ $hit = 0 ]; then
			bad=$((bad + 1))
			echo "# unexpected: ${l#*LoadPin: }"
		fi
	done <<< "$lines"
	if [ $bad = 0 ]; then
		t_ok "no unexpected denial ($n in the log)"
	else
		t_fail "no unexpected denial ($n in the log)" "$bad unexpected"
	fi
	if [ -r $STATUS ]; then
		total=$(sed -n 's/^denied\.[a-z0-9-]*: //p' $STATUS | awk '{ s += $1 } END { print s + 0 }')
		if [ "$total" = "$n" ]; then
			t_ok "the status file counts the same $n denials"
		else
			t_fail "the status file counts the same $n denials" "status: $total"
		fi
	fi
}

# sys_verdicts: the numbers the host tabulates, one "# verdict KEY N" line
# each: modules loaded (lsmod), module and firmware loads allowed and
# denied (the status file; the kernel log on upstream LoadPin).
sys_verdicts() {
	local k
	echo "# verdict modules-loaded $(($(lsmod | wc -l) - 1))"
	if [ -r $STATUS ]; then
		for k in allowed.kernel-module denied.kernel-module allowed.firmware denied.firmware; do
			echo "# verdict $k $(sed -n "s/^$k: //p" $STATUS)"
		done
	else
		echo "# verdict allowed.kernel-module -"
		echo "# verdict denied.kernel-module $(dmesg | grep -Ec 'LoadPin: kernel-module (old-api-)?denied ')"
		echo "# verdict allowed.firmware -"
		echo "# verdict denied.firmware $(dmesg | grep -Ec 'LoadPin: firmware (old-api-)?denied ')"
	fi
	sed 's/^/# status: /' $STATUS 2>/dev/null | grep -Ev ': 0$' | head -n 30
}

# dev_of BLOCKNAME: its major:minor.
dev_of() { cat "/sys/class/block/$1/dev"; }
