# SPDX-License-Identifier: GPL-2.0
# The benchmark, run inside the guest by every bench/scenarios/*.scn (see
# scripts/bench.sh). Figures are "# bench: KEY VALUE" lines; checks that
# the measurements are valid are TAP lines like any scenario's.
b() { echo "# bench: $*"; }
mkdir -p /mnt/t
mount -o ro /dev/vda /mnt/t
cp /mnt/t/firmware/lp-test.bin /tmp/deny.bin

# The module's first load pins /mnt/t; it times the hook and then refuses
# to stay loaded (ECANCELED). Each figure is read right after its run:
# upstream's flood of reports pushes older records out of the log buffer.
expect ECANCELED "the benchmark module timed allowed calls" lpctl finit \
	/mnt/t/modules/lp_bench.ko "allow=/mnt/t/firmware/lp-test.bin calls=100000 rounds=7"
allow=$(dmesg | sed -n 's/.*lp_bench: allow ns_per_call=\([0-9.]*\).*/\1/p' | tail -1)
before=$(lptime kmsg-seq)
expect ECANCELED "the benchmark module timed denied calls" lpctl finit \
	/mnt/t/modules/lp_bench.ko "deny=/tmp/deny.bin denials=10000"
result=$(dmesg | grep 'lp_bench: deny ns_per_call' | tail -1)
deny=$(echo "$result" | sed -n 's/.*ns_per_call=\([0-9.]*\).*/\1/p')
denied=$(echo "$result" | sed -n 's/.*denied=\([0-9]*\).*/\1/p')
slab=$(echo "$result" | sed -n 's/.*slab_peak_kib=\([0-9]*\).*/\1/p')
# Records between the last one before the load and the result, less the
# module's "deny start".
after=$(lptime kmsg-seq "lp_bench: deny ns_per_call")
lines=$(( ${after:-0} - ${before:-0} - 2 ))
b allow_ns $allow
b deny_ns $deny
b denied $denied
b deny_log_lines $lines
b deny_slab_peak_kib $slab
check "the hook was timed" test -n "$allow" -a -n "$deny" -a -n "$before" -a -n "$after"

# End to end: firmware through test_firmware, and a module loaded and
# removed again, all from the pinned filesystem.
fw=$(lptime fw /mnt/t/firmware/lp-test.bin 2000)
mod=$(lptime module /mnt/t/modules/lp_a.ko 200)
b fw_per_sec $(echo "$fw" | sed -n 's/.*per_sec=\([0-9.]*\).*/\1/p')
b module_per_sec $(echo "$mod" | sed -n 's/.*per_sec=\([0-9.]*\).*/\1/p')
check "firmware loads were timed" sh -c "echo '$fw' | grep -q per_sec="
check "module loads were timed" sh -c "echo '$mod' | grep -q per_sec="
b lsm "$(cat /sys/kernel/security/lsm)"
