#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make demo: build the patched kernel, boot it in QEMU, pin a read-only
# disk and show a load from elsewhere being denied, in plain words.
set -euo pipefail
. "$(dirname "$0")/common.sh"
"$TOP/scripts/deps.sh"
"$TOP/scripts/tree.sh"
log "building the patched kernel (the first build takes several minutes)"
"$TOP/scripts/kernel.sh" main >/dev/null
log "building the guest programs and the initramfs"
"$TOP/scripts/guest.sh" -n main >/dev/null
log "booting it in QEMU"
status=0
results=$(python3 "$TOP/tests/run.py" demo) || status=$?
logs=$OUT/logs/main/demo
echo
echo "What happened inside the guest:"
sed -n 's/^# //p' "$logs/results.log" 2>/dev/null || echo "  (nothing: no $logs/results.log)"
echo
echo "LoadPin's own words (kernel log):"
grep 'LoadPin:' "$logs/console.log" 2>/dev/null | sed 's/^/  /' || echo "  (none)"
echo
if [ $status = 0 ]; then
	echo "Every step went as expected: the read-only disk is the only place the"
	echo "kernel loads files from now."
else
	echo "Something did not go as expected; see $logs/:"
	echo "$results" | grep '^FAIL' | sed 's/^/  /' || true
fi
exit $status
