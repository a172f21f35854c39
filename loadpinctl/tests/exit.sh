#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Exit statuses and messages of loadpinctl against fake /sys and /proc
# trees ($LOADPINCTL_SYSFS_ROOT), and its file commands; TAP on stdout.
# Nothing here reaches the kernel: no ioctl is issued (feed and seal are
# only run where they stop before one).
set -u
cd "$(dirname "$0")/.."
bin=$PWD/loadpinctl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; [ -n "${2:-}" ] && echo "# $2"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }

# t DESC WANT_STATUS [GREP] -- CMD...: CMD exits WANT_STATUS and, when
# GREP is not empty, its stdout+stderr match GREP (grep -E).
t() {
	local desc=$1 want=$2 pat=$3 out rc
	shift 4
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ]; then
		nok "$desc" "exit $rc, expected $want: $(echo "$out" | head -3 | tr '\n' '|')"
	elif [ -n "$pat" ] && ! echo "$out" | grep -Eq -- "$pat"; then
		nok "$desc" "output does not match '$pat': $(echo "$out" | head -3 | tr '\n' '|')"
	else
		ok "$desc"
	fi
}
lp() { "$bin" "$@"; }
in_root() { local r=$1; shift; LOADPINCTL_SYSFS_ROOT=$r "$bin" "$@"; }

counters() {
	for ty in unknown firmware kernel-module kexec-image kexec-initramfs security-policy x509-certificate; do
		echo "allowed.$ty: 0"
		echo "denied.$ty: 0"
	done
}
# status_file DIR KEY=VALUE...: a status file with the kernel's keys, in
# order, the given ones changed.
status_file() {
	local d=$1 kv k
	shift
	mkdir -p "$d/sys/kernel/security/loadpin" "$d/proc/sys/kernel/loadpin"
	echo 1 > "$d/proc/sys/kernel/loadpin/enforce"
	echo "capability,yama,loadpin" > "$d/sys/kernel/security/lsm"
	{
		printf 'enforce: 1\nstate: unpinned\npinned_dev: -\npinned_fstype: -\npinned_writable: -\n'
		printf 'root: any\ninitramfs: pin\ninitramfs_trusted: 0\nrequire_ro: 0\nexcluded: none\n'
		printf 'verity_digests: 0\nverity_final: 0\nparam_errors: 0\n'
		counters
		echo "root_dev: -"
	} > "$d/status.tmp"
	for kv in "$@"; do
		k=${kv%%=*}
		if grep -q "^$k: " "$d/status.tmp"; then
			sed -i "s|^$k: .*|$k: ${kv#*=}|" "$d/status.tmp"
		else
			echo "$k: ${kv#*=}" >> "$d/status.tmp"
		fi
	done
	mv "$d/status.tmp" "$d/sys/kernel/security/loadpin/status"
}

# ---- usage ----
t "no command: usage (2)" 2 "usage:" -- lp
t "unknown command: usage (2)" 2 "unknown command" -- lp frobnicate
t "--help: 0" 0 "exit: 0 ok" -- lp --help
t "status --bogus: usage (2)" 2 "" -- lp status --bogus
t "check without FILE: usage (2)" 2 "no FILE" -- lp check
t "check --type bogus: usage (2)" 2 "unknown type" -- lp check --type bogus /etc/passwd
t "digests without subcommand: usage (2)" 2 "" -- lp digests
t "digests verify without LIST: usage (2)" 2 "" -- lp digests verify
t "feed without LIST: usage (2)" 2 "" -- lp feed
t "seal with an argument: usage (2)" 2 "" -- lp seal now
t "log with a stray argument: usage (2)" 2 "" -- lp log foo

# ---- the kernel's side, faked ----
t "no securityfs: 3" 3 "securityfs is not mounted" -- in_root "$tmp/none" status
mkdir -p "$tmp/nolp/sys/kernel/security" && echo "capability,yama" > "$tmp/nolp/sys/kernel/security/lsm"
t "securityfs without LoadPin: 4, naming the active LSMs" 4 "not active.*capability,yama" -- in_root "$tmp/nolp" status
t "check there: 4 too" 4 "" -- in_root "$tmp/nolp" check /etc/passwd
mkdir -p "$tmp/up/sys/kernel/security/loadpin" && : > "$tmp/up/sys/kernel/security/loadpin/dm-verity"
echo "capability,loadpin" > "$tmp/up/sys/kernel/security/lsm"
t "upstream LoadPin (no status file): 5" 5 "upstream" -- in_root "$tmp/up" status --json
status_file "$tmp/bad" enforce=2
t "a malformed status file: 6, with its line" 6 "line 1: unexpected value for enforce" -- in_root "$tmp/bad" status
status_file "$tmp/ok" state=pinned pinned_dev=254:0 pinned_fstype=ext4 pinned_writable=0 excluded=firmware,kexec-image verity_digests=2 future_key="some value"
mkdir -p "$tmp/ok/sys/dev/block/254:0" && echo 1 > "$tmp/ok/sys/dev/block/254:0/ro" &&
	printf 'MAJOR=254\nMINOR=0\nDEVNAME=vda\nDEVTYPE=disk\n' > "$tmp/ok/sys/dev/block/254:0/uevent"
t "status: 0, in words" 0 "pinned: +ext4 on vda \(254:0\), read-only; device read-only now" -- in_root "$tmp/ok" status
t "status: the switch-off answer" 0 "switch off: +no: the pinned filesystem was read-only" -- in_root "$tmp/ok" status
status_file "$tmp/nosysctl" state=pinned pinned_dev=254:0 pinned_fstype=ext4 pinned_writable=1
t "status: a writable pin may be switched off" 0 "switch off: +yes, with sysctl" -- in_root "$tmp/nosysctl" status
rm "$tmp/nosysctl/proc/sys/kernel/loadpin/enforce"
t "status: no sysctl, no switching off" 0 "switch off: +no: the kernel has no kernel.loadpin.enforce sysctl" -- in_root "$tmp/nosysctl" status
in_root "$tmp/ok" status --json > "$tmp/ok.json" 2>&1
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["state"]=="pinned" and d["pins"][0]["devname"]=="vda" and d["excluded"]==["firmware","kexec-image"] and d["verity"]["digests"]==2 and d["raw"]["future_key"]=="some value" and d["counters"]["kernel-module"]["allowed"]==0' "$tmp/ok.json"; then
	ok "status --json: valid JSON with the pin, exclusions, verity and unknown keys"
else
	nok "status --json: valid JSON" "$(head -c 300 "$tmp/ok.json")"
fi
status_file "$tmp/multi" state=pinned pinned_dev=254:0 pinned_fstype=ext4 pinned_writable=0 root=/dev/vda,/dev/vdb,/dev/vdc root_dev=254:0,254:16,- pins=3 \
	pin0="254:0 ext4 ro pinned vda" pin1="254:16 squashfs ro gone vdb" pin2="- - - unpinned -"
t "status of the multi-pin format: both pins" 0 "\[1\] squashfs on vdb \(254:16\), gone" -- in_root "$tmp/multi" status
in_root "$tmp/multi" status --json > "$tmp/multi.json" 2>&1
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["pins"])==3 and d["pins"][1]["state"]=="gone" and d["pins"][2]["state"]=="unpinned" and d["root_dev"]==["254:0","254:16","-"]' "$tmp/multi.json"; then
	ok "status --json of the multi-pin format"
else
	nok "status --json of the multi-pin format" "$(head -c 300 "$tmp/multi.json")"
fi

# ---- check against fake trees: the file is real, its mount faked ----
f=$tmp/file.ko
echo x > "$f"
devt=$(stat -c '%Hd:%Ld' "$f")
maj=${devt%%:*}
# fake_mount DIR FSTYPE RO: mountinfo and sysfs for $f's device
fake_mount() {
	mkdir -p "$1/proc/self" "$1/sys/dev/block/$devt"
	echo "27 1 $devt / / ro,relatime - $2 /dev/fake ro" > "$1/proc/self/mountinfo"
	echo "$3" > "$1/sys/dev/block/$devt/ro"
	printf 'DEVNAME=fake0\n' > "$1/sys/dev/block/$devt/uevent"
}
# ck DESC WANT PATTERN KEY=VALUE...: check $f in a fake tree with a
# squashfs (read-only unless ro=0 is given) on its device.
ck() {
	local desc=$1 want=$2 pat=$3 ro=1 d kv keys=()
	shift 3
	d=$tmp/ck$n
	for kv in "$@"; do
		if [ "$kv" = ro=0 ]; then ro=0; else keys+=("$kv"); fi
	done
	status_file "$d" "${keys[@]}"
	fake_mount "$d" squashfs $ro
	t "check: $desc" "$want" "$pat" -- in_root "$d" check "$f"
}
if [ "$maj" = 0 ]; then
	skip "check verdicts against fake trees" "$f is on a filesystem without a block device"
else
	ck "unpinned, read-only: would pin (0)" 0 "would pin: nothing pinned yet and this is a read-only squashfs on fake0"
	ck "unpinned, writable: would pin (0)" 0 "would pin: .*writable squashfs" ro=0
	ck "require_ro, writable: pin-refused (1)" 1 "denied \(pin-refused\)" ro=0 require_ro=1
	ck "require_ro, not enforcing: allowed (0)" 0 "not enforcing" ro=0 require_ro=1 enforce=0
	ck "pinned here: allowed (0)" 0 "allowed: squashfs on .* is the pinned filesystem" state=pinned pinned_dev=$devt pinned_fstype=squashfs pinned_writable=0
	ck "pinned here, writable now, require_ro: denied (1)" 1 "writable now and loadpin.require_ro=1" ro=0 require_ro=1 state=pinned pinned_dev=$devt pinned_fstype=squashfs pinned_writable=0
	ck "pinned elsewhere: denied (1)" 1 "denied: / is squashfs on fake0 .*, the pin is ext4" state=pinned pinned_dev=254:99 pinned_fstype=ext4 pinned_writable=0
	ck "pinned elsewhere, not enforcing: allowed (0)" 0 "pinning-ignored" state=pinned pinned_dev=254:99 pinned_fstype=ext4 pinned_writable=0 enforce=0
	ck "excluded type: allowed (0)" 0 "excluded" state=pinned pinned_dev=254:99 pinned_fstype=ext4 pinned_writable=0 excluded=kernel-module
	ck "gone: denied (1)" 1 "gone" state=gone
	ck "loadpin.root= names another device: denied (1)" 1 "only loadpin.root=/dev/vdq \(254:99\)" root=/dev/vdq root_dev=254:99
	ck "loadpin.root= unresolved, naming this one: would pin (0)" 0 "would pin" root=/dev/fake0 root_dev=-
	ck "loadpin.root=PARTUUID= unresolved: cannot tell (8)" 8 "not sure: loadpin.root=PARTUUID=" root=PARTUUID=1234 root_dev=-
	ck "the same, not enforcing: allowed either way (0)" 0 "allowed either way" root=PARTUUID=1234 root_dev=- enforce=0
	ck "loadpin.root= names this one: would pin (0)" 0 "would pin" root=$devt root_dev=$devt
	ck "loadpin.root=invalid: denied (1)" 1 "only loadpin.root=invalid" root=invalid
	m="state=pinned pinned_dev=254:99 pinned_fstype=ext4 pinned_writable=0 root=/dev/vdq,/dev/fake0 pins=2"
	ck "multi-pin: the second pin holds it: allowed (0)" 0 "is the pinned filesystem" $m root_dev=254:99,$devt pin0="254:99 ext4 ro pinned vdq" pin1="$devt squashfs ro pinned fake0"
	ck "multi-pin: its pin is gone, the other pinned: denied (1)" 1 "the pin of squashfs on fake0 .* is gone" $m root_dev=254:99,$devt pin0="254:99 ext4 ro pinned vdq" pin1="$devt squashfs ro gone fake0"
	ck "multi-pin: its pin not taken yet, the other pinned: would pin (0)" 0 "would pin: the pin of loadpin.root= entry 1 is not taken yet and this is a read-only squashfs" $m root_dev=254:99,$devt pin0="254:99 ext4 ro pinned vdq" pin1="- - - unpinned -"
	ck "multi-pin: an unresolved /dev/NAME entry naming it: would pin (0)" 0 "would pin" $m root_dev=254:99,- pin0="254:99 ext4 ro pinned vdq" pin1="- - - unpinned -"
	ck "multi-pin: not a loadpin.root= device, another pinned: denied (1)" 1 "the pin is ext4 on vdq \(254:99\)" $m root=/dev/vdq,/dev/vdr root_dev=254:99,254:98 pin0="254:99 ext4 ro pinned vdq" pin1="- - - unpinned -"
	ck "multi-pin: not a loadpin.root= device, none pinned: denied (1)" 1 "nothing pinned yet and only loadpin.root=/dev/vdq,/dev/vdr \(254:99,254:98\)" state=unpinned root=/dev/vdq,/dev/vdr root_dev=254:99,254:98 pins=2 pin0="- - - unpinned -" pin1="- - - unpinned -"
	d=$tmp/cktwo
	status_file "$d" state=pinned pinned_dev=$devt pinned_fstype=squashfs pinned_writable=0
	fake_mount "$d" squashfs 1
	t "check: a missing FILE is an error (9)" 9 "No such file" -- in_root "$d" check "$tmp/nope"
	status_file "$d" state=pinned pinned_dev=254:99 pinned_fstype=ext4 pinned_writable=0
	t "check: a denied FILE among others: 1" 1 "" -- in_root "$d" check /proc/self/status "$f"
fi

# ---- digests ----
D32=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
H=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
printf '# LOADPIN_TRUSTED_VERITY_ROOT_DIGESTS\n%s\n' $D32 > "$tmp/good"
printf '# LOADPIN_TRUSTED_VERITY_ROOT_DIGESTS\n%s\nabc\n' $D32 > "$tmp/odd"
t "digests verify: a good list (0)" 0 "1 digest, accepted" -- lp digests verify "$tmp/good"
t "digests verify: malformed at line 3 (6)" 6 "line 3: a digest is 2 to 128 hex digits, an even number" -- lp digests verify "$tmp/odd"
t "digests verify: a missing list (9)" 9 "No such file" -- lp digests verify "$tmp/nope"
head -c 262145 /dev/zero | tr '\0' 'a' > "$tmp/big"
t "digests verify: more than 256 KiB (6)" 6 "more than 262144 bytes" -- lp digests verify "$tmp/big"
t "digests make from arguments, deduplicated" 0 "" -- lp digests make -o "$tmp/made" $D32 ${D32^^} $H
if [ "$(cat "$tmp/made")" = "$(printf '# LOADPIN_TRUSTED_VERITY_ROOT_DIGESTS\n%s\n%s' $D32 $H)" ]; then
	ok "digests make: header, lower case, each digest once, in order"
else
	nok "digests make: header, lower case, each digest once" "$(cat "$tmp/made" | tr '\n' '|')"
fi
t "digests make's list verifies" 0 "2 digests" -- lp digests verify "$tmp/made"
t "digests make -o without its LIST: a usage error (2)" 2 "-o LIST comes first" -- lp digests make -o
t "digests make with -o after a source: a usage error (2)" 2 "-o LIST comes first" -- lp digests make $D32 -o "$tmp/x"
cat > "$tmp/vs.txt" <<EOV
VERITY header information for /tmp/hash
UUID:            	0e1b1a0c-7a8b-4b7a-8f9e-1a2b3c4d5e6f
Hash type:       	1
Data blocks:     	4096
Data block size: 	4096
Hash block size: 	4096
Hash algorithm:  	sha256
Salt:            	$D32
Root hash:      	$H
EOV
printf '0 32768 verity 1 /dev/vdb /dev/vdc 4096 4096 4096 1 sha256 %s %s\nvbad: 0 8 verity 1 8:1 8:2 4096 4096 1 1 sha256 %s - 1 ignore_corruption\nroot: 0 2048 linear 8:1 0\n' $D32 $H $H > "$tmp/tables"
t "digests make from veritysetup output and dm tables (stdin)" 0 "warning: this verity device ignores corruption" -- \
	sh -c "cat '$tmp/vs.txt' '$tmp/tables' | '$bin' digests make > '$tmp/made2'"
if [ "$(tail -n +2 "$tmp/made2" | tr '\n' ' ')" = "$H $D32 " ]; then
	ok "digests make: the root hashes of both, once each"
else
	nok "digests make: the root hashes of both" "$(cat "$tmp/made2" | tr '\n' '|')"
fi
t "digests make @FILE merges an existing list" 0 "" -- sh -c "'$bin' digests make @'$tmp/made' @'$tmp/tables' > '$tmp/made3'"
[ "$(wc -l < "$tmp/made3")" = 3 ] && ok "digests make: merged list has 2 digests" || nok "digests make: merged list" "$(cat "$tmp/made3")"
t "digests make: a bad line names it (6)" 6 "stdin:2: not a root hash" -- sh -c "printf '%s\nhello\n' $H | '$bin' digests make"
t "digests make: nothing given on stdin (6)" 6 "no root hash" -- sh -c "'$bin' digests make < /dev/null"
t "digests make: a bad argument (6)" 6 "'xyz'" -- lp digests make xyz

awk 'BEGIN { srand(1); for (i = 0; i < 3000; i++) { s = ""; for (j = 0; j < 64; j++) s = s sprintf("%x", int(rand() * 16)); print s; if (i % 10 == 0) print s } }' > "$tmp/many"
t "digests make: 3300 lines, 3000 distinct digests" 0 "" -- lp digests make -o "$tmp/many.list" @"$tmp/many"
[ "$(wc -l < "$tmp/many.list")" = 3001 ] && ok "digests make: each of 3000 digests once" || nok "digests make: 3000 digests once" "$(wc -l < "$tmp/many.list") lines"
awk 'BEGIN { srand(2); for (i = 0; i < 2100; i++) { s = ""; for (j = 0; j < 128; j++) s = s sprintf("%x", int(rand() * 16)); print s } }' > "$tmp/huge"
t "digests make: a list over 256 KiB is refused (6)" 6 "larger than the kernel reads" -- lp digests make @"$tmp/huge"

# ---- feed: stops before the ioctl here ----
t "feed: a malformed list is not fed (6), with its line" 6 "not fed: the kernel would refuse this list" -- in_root "$tmp/ok" feed "$tmp/odd"
status_file "$tmp/nover" verity_digests=disabled verity_final=1
t "feed without CONFIG_SECURITY_LOADPIN_VERITY (4)" 4 "CONFIG_SECURITY_LOADPIN_VERITY is off" -- in_root "$tmp/nover" feed "$tmp/good"
t "seal without it (4)" 4 "does not exist" -- in_root "$tmp/nover" seal
t "feed without securityfs (3)" 3 "not mounted" -- in_root "$tmp/none" feed "$tmp/good"
t "seal without LoadPin (4)" 4 "not active" -- in_root "$tmp/nolp" seal

# ---- log ----
cat > "$tmp/dmesg" <<'EOL'
[    1.000000] LoadPin: ready to pin (currently enforcing)
[    2.000000] LoadPin: vda (254:0): read-only
[    2.000001] LoadPin: kernel-module pinned obj="/mnt/a/lp_a.ko" pid=100 cmdline="lpctl finit /mnt/a/lp_a.ko"
[    3.000000] LoadPin: kernel-module denied obj="/tmp/lp_b.ko" pid=101 cmdline="lpctl finit /tmp/lp_b.ko"
[    3.500000] LoadPin: kernel-module old-api-denied obj=<unknown> pid=102 cmdline="lpctl init x"
[    8.000000] LoadPin: 9990 reports suppressed (counters: /sys/kernel/security/loadpin/status)
[   14.000000] LoadPin: 7 reports suppressed (counters: /sys/kernel/security/loadpin/status)
[   15.000000] audit: type=1499 audit(1764770000.123:45): op=denied type=firmware allowed=0 path="/tmp/fw" dev=0:22 ino=3 pid=310 comm="lpctl" pinned=254:0
EOL
t "log --input: one line per decision" 0 "old-api-denied +kernel-module +<unknown> pid=102" -- lp log --input "$tmp/dmesg"
t "log: suppressed summaries summed up" 0 "3 decisions logged, 1 pinned, 1 denied, 1 old-api-denied; 9997 suppressed by the rate limit \(2 summaries\); 1 audit record" -- lp log --input "$tmp/dmesg"
t "log --all shows LoadPin's other lines" 0 "# vda \(254:0\): read-only" -- lp log --all --input "$tmp/dmesg"
printf 'type=UNKNOWN[1499] msg=audit(1764770000.123:46): lsm=loadpin op=firmware decision=pin-refused res=0 pid=9 comm="udevd" path="/mnt/w/fw" dev="ext4" ino=12 state=unpinned\n' > "$tmp/audit.log"
t "log --audit FILE reads audit.log records" 0 "audit pin-refused +firmware +allowed=0 path=\"/mnt/w/fw\"" -- lp log --audit "$tmp/audit.log"
t "log: a missing input (9)" 9 "" -- lp log --input "$tmp/nope"
# audit's own ausearch, when tests/ausearch.sh unpacked it into the cache.
aus=${LOADPIN_CACHE:-$HOME/.cache/loadpin}/ausearch/root
if [ -x "$aus/sbin/ausearch" ]; then
	printf 'type=UNKNOWN[1499] msg=audit(1764770000.123:%d): lsm=loadpin op=kernel-module decision=%s res=%d pid=31%d comm="lpctl" path="/tmp/x%d.ko" dev="tmpfs" ino=3 state=pinned pinned_dev=254:0\n' \
		50 denied 0 1 1  51 pinned 1 2 2  52 denied 0 3 3 > "$tmp/audit2.log"
	LD_LIBRARY_PATH=$aus/lib/x86_64-linux-gnu:$aus/usr/lib/x86_64-linux-gnu \
		"$aus/sbin/ausearch" --input "$tmp/audit2.log" -m 1499 -i 2>/dev/null > "$tmp/ausearch.out"
	t "log --audit reads ausearch -i output" 0 "audit pinned +kernel-module +allowed=1 path=\"/tmp/x2.ko\"" -- lp log --audit "$tmp/ausearch.out"
	t "log --audit: ausearch's three records" 0 "; 3 audit records;" -- lp log --audit "$tmp/ausearch.out"
else
	skip "log --audit reads ausearch -i output" "no ausearch in the cache (tests/ausearch.sh unpacks it)"
fi

# ---- the Debian package ----
if command -v dpkg-deb >/dev/null; then
	t "make deb builds a package" 0 "" -- make -s -C "$PWD" deb DEBOUT="$tmp" VERSION=0.0test
	deb=$(ls "$tmp"/loadpinctl_0.0test_*.deb 2>/dev/null)
	dpkg-deb -c "$deb" > "$tmp/deb.list" 2>&1
	if grep -q '\./usr/sbin/loadpinctl$' "$tmp/deb.list" &&
	   grep -q '\./lib/systemd/system/loadpin-digests.service$' "$tmp/deb.list" &&
	   grep -q '\./usr/share/initramfs-tools/hooks/loadpinctl$' "$tmp/deb.list" &&
	   grep -q '\./usr/share/initramfs-tools/scripts/init-top/loadpin$' "$tmp/deb.list" &&
	   grep -q '\./usr/share/man/man8/loadpinctl.8.gz$' "$tmp/deb.list"; then
		ok "the package holds the tool, the unit, the hook, the script, the man page"
	else
		nok "the package's files" "$(tr '\n' '|' < "$tmp/deb.list")"
	fi
	t "its control file" 0 "Package: loadpinctl" -- dpkg-deb -f "$deb"
else
	skip "make deb" "no dpkg-deb"
fi
if command -v systemd-analyze >/dev/null; then
	mkdir -p "$tmp/unit" && cp systemd/loadpin-digests.service "$tmp/unit/"
	t "systemd-analyze verify finds nothing in the unit" 0 "" -- \
		sh -c "cd '$tmp/unit' && out=\$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no loadpin-digests.service 2>&1) && [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }"
else
	skip "systemd-analyze verify" "no systemd-analyze"
fi
for s in initramfs-tools/hooks/loadpinctl initramfs-tools/scripts/init-top/loadpin debian/postinst debian/prerm; do
	t "$s is valid sh" 0 "" -- sh -n "$s"
done
if command -v groff >/dev/null; then
	t "the man page renders without warnings" 0 "" -- sh -c "! groff -t -man -ww -z loadpinctl.8 2>&1 | grep -q ."
else
	skip "the man page renders" "no groff"
fi

echo "1..$n"
[ $failed = 0 ]
