# SPDX-License-Identifier: GPL-2.0
# The dm-verity lookup benchmark, run inside the guest by the
# bench/scenarios/bench-verity-*.scn (see scripts/bench.sh): the cost of
# a load from a trusted verity device, and of one from an untrusted verity
# device, with lpdigests=N digests in the trusted list (the trusted one
# last). Figures are "# bench: KEY VALUE" lines.
b() { echo "# bench: $*"; }
n=$(sed -n 's/.*lpdigests=\([0-9]*\).*/\1/p' /proc/cmdline)
mkdir -p /mnt/t
mount -o ro /dev/vda /mnt/t
expect ok "firmware from the trusted disk pins it" lpctl fw /mnt/t/firmware/lp-test.bin
expect ok "vgood is set up and mounted" vmount good vgood /dev/vdb /dev/vdc /mnt/good
expect ok "vbad is set up and mounted" vmount bad vbad /dev/vdd /dev/vde /mnt/bad
res=$(lpctl verity /mnt/t/verity/digests-$n)
echo "# feeding $n digests: $res"
b digests $n
if [ "$res" != ok ]; then
	# Upstream reads at most 4095 bytes of list: about 60 digests.
	b list_refused 1
	check "the list was refused, not lost" [ -n "$res" ]
else
	b list_refused 0
	check "the status counts the list" sh -c "[ \"\$(status_field verity_digests)\" = $n ] || [ -z \"\$(status_field verity_digests)\" ]"
	# Two loads, each figure read right after its run: upstream's report
	# of every denial pushes older records out of the log buffer.
	expect ECANCELED "the benchmark module timed loads from vgood" lpctl finit \
		/mnt/t/modules/lp_bench.ko "allow=/mnt/good/firmware/lp-test.bin calls=20000 rounds=5"
	allow=$(dmesg | sed -n 's/.*lp_bench: allow ns_per_call=\([0-9.]*\).*/\1/p' | tail -1)
	expect ECANCELED "the benchmark module timed denials from vbad" lpctl finit \
		/mnt/t/modules/lp_bench.ko "deny=/mnt/bad/firmware/lp-test.bin denials=5000"
	dmesg | grep "lp_bench: " | grep -v "LoadPin:" | sed 's/^/# /'
	deny=$(dmesg | sed -n 's/.*lp_bench: deny ns_per_call=\([0-9.]*\).*/\1/p' | tail -1)
	denied=$(dmesg | sed -n 's/.*lp_bench: deny ns_per_call.* denied=\([0-9]*\).*/\1/p' | tail -1)
	b verity_allow_ns $allow
	b verity_deny_ns $deny
	check "the trusted loads were timed" test -n "$allow"
	check "every untrusted call was denied" [ "$denied" = 5000 ]
fi
