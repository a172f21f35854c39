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
"$TOP/scripts/guest.sh" -n main >/dev/null
log "booting it in QEMU"
status=0
python3 "$TOP/tests/run.py" demo >/dev/null || status=$?
echo
echo "What happened inside the guest:"
sed -n 's/^# //p' "$OUT/logs/main/demo/results.log"
echo
echo "LoadPin's own words (kernel log):"
grep 'LoadPin:' "$OUT/logs/main/demo/console.log" | sed 's/^/  /'
echo
if [ $status = 0 ]; then
	echo "Every step went as expected: the read-only disk is the only place the"
	echo "kernel loads files from now."
else
	echo "Something did not go as expected; see $OUT/logs/main/demo/."
fi
exit $status
