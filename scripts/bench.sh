#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: what pinning costs, measured side by side in one run.
#
#   bench.sh [ROUNDS]      (default 3; LOADPIN_BENCH_ROUNDS too)
#
# Three guests boot in turn, ROUNDS times, one vCPU each and one at a time:
#   none      the series' kernel with LoadPin left out of lsm=
#   upstream  the unpatched tree's kernel, its LoadPin enforcing
#   series    the series' kernel, LoadPin enforcing
# Each runs bench/guest.sh (bench/README.md says what it measures); the
# table holds the median of the rounds, then the ratios. Absolute times
# under TCG are not real-hardware figures: only the ratios within one run
# count. Nothing here fails on speed; the exit status only says whether
# every measurement was made.
set -uo pipefail
. "$(dirname "$0")/common.sh"

rounds=${1:-${LOADPIN_BENCH_ROUNDS:-3}}
build_main_and_upstream || exit 1

res=$OUT/bench
rm -rf "$res"
mkdir -p "$res"
ok=1
# bench_boot BUILD SCENARIO OUT: boot SCENARIO once on BUILD, its TAP into
# OUT.tap, its "# bench: KEY VALUE" figures into OUT.txt.
bench_boot() {
	if ! python3 "$TOP/tests/run.py" --bench --jobs 1 --build "$1" "$2" > "$3.tap"; then
		cat "$3.tap" >&2
		ok=0
	fi
	sed -n 's/^# bench: //p' "$OUT/logs/$1/$2/results.log" > "$3.txt"
}

for r in $(seq 1 "$rounds"); do
	for cfg in none:main:bench-none upstream:upstream:bench-loadpin series:main:bench-loadpin; do
		IFS=: read -r name build scn <<< "$cfg"
		log "round $r/$rounds: $name"
		bench_boot "$build" "$scn" "$res/$name.$r"
	done
done

# dm-verity lookups with 1, 100 and 4000 trusted digests (the list is set
# once per boot: one boot per size). No LoadPin, no trusted verity device:
# only upstream and the series.
for r in $(seq 1 "$rounds"); do
	for n in 1 100 4000; do
		for cfg in upstream:upstream series:main; do
			IFS=: read -r name build <<< "$cfg"
			log "round $r/$rounds: $name, $n digest(s)"
			bench_boot "$build" "bench-verity-$n" "$res/$name.verity-$n.$r"
		done
	done
done

# Instruction counts: with QEMU's -icount the guest's clock counts the
# instructions it runs (shift=0: one per nanosecond), so one boot per
# column gives exact, repeatable figures where the timed rounds above
# spread with the host's load. They weigh every instruction alike: an
# atomic or a TCG-costly call counts as one.
for cfg in none:main:bench-none upstream:upstream:bench-loadpin series:main:bench-loadpin \
	upstream:upstream:bench-verity-1 series:main:bench-verity-1 \
	upstream:upstream:bench-verity-4000 series:main:bench-verity-4000; do
	IFS=: read -r name build scn <<< "$cfg"
	stem=$name
	[ "$scn" = "${scn#bench-verity-}" ] || stem=$name.verity-${scn#bench-verity-}
	log "instruction counts: $name, $scn"
	LOADPIN_QEMU_ICOUNT=0 bench_boot "$build" "$scn" "$res/$stem.icount"
done

# Static footprint: the objects each LoadPin is made of (not the KUnit
# tests), and the dm-verity glue both have.
# Berkeley text, data, bss; then the .text sections alone; then the
# read-only bytes that reach vmlinux: Berkeley text without .modinfo
# (the linker script discards it) and the per-object .note.gnu.property
# (the link keeps one for the whole kernel).
footprint() {	# footprint BUILD OBJECTS...
	local b=$CACHE/build/$1
	shift
	(cd "$b" && size "$@" 2>/dev/null) |
		awk 'NR > 1 { t += $1; d += $2; s += $3 } END { printf "%d %d %d", t, d, s }'
	(cd "$b" && size -A "$@" 2>/dev/null) |
		awk '$1 == ".text" { x += $2 }
		     $1 == ".modinfo" || $1 == ".note.gnu.property" { n += $2 }
		     END { printf " %d %d\n", x, n }'
}
series_objs="$(cd "$CACHE/build/main" && ls security/loadpin/*.o |
	grep -v -e _test.o -e loadpin.o -e built-in) drivers/md/dm-verity-loadpin.o"
echo "upstream $(footprint upstream security/loadpin/loadpin.o drivers/md/dm-verity-loadpin.o)" > "$res/size.txt"
echo "series $(footprint main $series_objs)" >> "$res/size.txt"
# What each of the series' files (one concern each) costs, for a reader
# weighing a feature against its bytes.
(cd "$CACHE/build/main" && size $series_objs) |
	awk 'NR > 1 { print $6, $1 }' > "$res/size-by-file.txt"

python3 - "$res" "$rounds" <<'EOF' | tee "$res/table.txt"
import os, statistics, sys

res, rounds = sys.argv[1], int(sys.argv[2])
names = ("none", "upstream", "series")


def read_rounds(stem, into, runs=None):
    """Add each round's "KEY VALUE" figures of STEM.ROUND.txt to INTO."""
    for r in runs or range(1, rounds + 1):
        try:
            with open(os.path.join(res, f"{stem}.{r}.txt")) as f:
                for line in f:
                    k, _, v = line.strip().partition(" ")
                    try:
                        into.setdefault(k, []).append(float(v))
                    except ValueError:
                        into.setdefault(k, []).append(v)
        except OSError:
            pass
    return into


vals = {n: read_rounds(n, {}) for n in names}


def floats(figs, k):
    """The numbers among FIGS' values of K."""
    return [x for x in figs.get(k, []) if isinstance(x, float)]


def med(n, k):
    v = floats(vals[n], k)
    return statistics.median(v) if v else None


def fmt(x, digits=1):
    return "-" if x is None else f"{x:,.{digits}f}"


size = {}
with open(os.path.join(res, "size.txt")) as f:
    for line in f:
        n, *tds = line.split()
        size[n] = [int(x) for x in tds] if len(tds) == 5 else None

rows = [
    ("allow: ns per security_kernel_read_file()", "allow_ns", 1),
    ("deny: ns per denial (10000 in a row)", "deny_ns", 1),
    ("deny: denials counted by the module", "denied", 0),
    ("deny: log records emitted", "deny_log_lines", 0),
    ("deny: peak slab growth, KiB", "deny_slab_peak_kib", 0),
    ("firmware loads per second", "fw_per_sec", 1),
    ("finit_module + delete_module per second", "module_per_sec", 1),
]
w = max(len(r[0]) for r in rows) + 2
print(f"LoadPin benchmark, median of {rounds} rounds (TCG: compare ratios, not times)")
print()
print(f"{'':{w}}{'none':>12}{'upstream':>12}{'series':>12}")
for label, key, d in rows:
    cells = []
    for n in names:
        x = med(n, key)
        if n == "none" and key.startswith("deny"):
            x = None
        cells.append(fmt(x, d))
    print(f"{label:{w}}" + "".join(f"{c:>12}" for c in cells))
for n in ("upstream", "series"):
    if size.get(n):
        t, d, b, x, gone = size[n]
        size[n] = [t, d, b, x, t - gone]
for i, part in enumerate(("text", "data", "bss", ".text section", "text in vmlinux")):
    cells = ["-"] + [str(size[n][i]) if size.get(n) else "-" for n in ("upstream", "series")]
    print(f"{'static ' + part + ', bytes':{w}}" + "".join(f"{c:>12}" for c in cells))
if size.get("upstream") and size.get("series"):
    print("static size, series over upstream: " + ", ".join(
        f"{part} {size['series'][i] / size['upstream'][i]:.2f}x"
        for i, part in ((0, "text"), (3, ".text section"), (4, "text in vmlinux"))))
with open(os.path.join(res, "size-by-file.txt")) as f:
    by_file = [(n, int(t)) for n, t in (line.split() for line in f)]
if by_file:
    total = sum(t for _, t in by_file)
    print("series static text by file, bytes (share of the series' text):")
    for n, t in sorted(by_file, key=lambda x: -x[1]):
        print(f"  {n:{w - 2}}{t:>12}{100 * t / total:>11.1f}%")
print()


def allow_path(get, unit, digits):
    """What upstream and the series add per call over none, in GET's UNIT."""
    a, b, c = get("none", "allow_ns"), get("upstream", "allow_ns"), get("series", "allow_ns")
    if None in (a, b, c):
        return
    up, ours = b - a, c - a
    print(f"allow path: upstream adds {up:.{digits}f} {unit} per call, "
          f"the series {ours:.{digits}f} {unit}", end="")
    print(f" ({ours / up:.2f} of upstream's)" if up > 0 else "")


allow_path(med, "ns", 1)
b, c = med("upstream", "deny_ns"), med("series", "deny_ns")
if b and c:
    print(f"deny path: the series is {b / c:.1f} times cheaper per denial than upstream")
for key, what in (("fw_per_sec", "firmware loads/s"), ("module_per_sec", "module loads/s")):
    a, b, c = med("none", key), med("upstream", key), med("series", key)
    if None not in (a, b, c):
        print(f"{what}: upstream {b / a:.3f} and the series {c / a:.3f} of no LoadPin")

# dm-verity lookups: ns per call from a trusted device (the trusted digest
# last in the list) and per denial from an untrusted one.
vvals = {(n, d): read_rounds(f"{n}.verity-{d}", {})
         for n in ("upstream", "series") for d in (1, 100, 4000)}


def vmed(n, d, k):
    v = floats(vvals[(n, d)], k)
    return statistics.median(v) if v else None


print()
print("dm-verity lookups, ns per call, by digests in the trusted list "
      "(- : the list was refused)")
print(f"{'':{w}}" + "".join(f"{h:>12}" for h in
      ("up 1", "up 100", "up 4000", "ours 1", "ours 100", "ours 4000")))
for label, key in (("trusted verity device: allowed", "verity_allow_ns"),
                   ("untrusted verity device: denied", "verity_deny_ns")):
    cells = []
    for n in ("upstream", "series"):
        for d in (1, 100, 4000):
            refused = vmed(n, d, "list_refused")
            cells.append("-" if refused else fmt(vmed(n, d, key)))
    print(f"{label:{w}}" + "".join(f"{c:>12}" for c in cells))
a, c = vmed("series", 1, "verity_allow_ns"), vmed("series", 4000, "verity_allow_ns")
if a and c:
    print(f"the series: a trusted load with 4000 digests costs {c / a:.2f} of one with 1")
a, c = vmed("series", 1, "verity_deny_ns"), vmed("series", 4000, "verity_deny_ns")
if a and c:
    print(f"the series: an untrusted load with 4000 digests costs {c / a:.2f} of one with 1")
a, c = vmed("upstream", 1, "verity_allow_ns"), vmed("series", 1, "verity_allow_ns")
if a and c:
    print(f"with 1 digest, a trusted load costs the series {c / a:.2f} of upstream's")
# Instruction counts (-icount): one boot each, so no median to take.
ivals = {stem: read_rounds(stem, {}, ["icount"]) for stem in
         ("none", "upstream", "series", "upstream.verity-1", "series.verity-1",
          "upstream.verity-4000", "series.verity-4000")}


def icount(stem, k):
    v = floats(ivals[stem], k)
    return v[0] if v else None


print()
print("instructions per call (QEMU -icount, one boot each: exact and repeatable;")
print("every instruction counts alike, an atomic as one)")
print(f"{'':{w}}{'none':>12}{'upstream':>12}{'series':>12}")
for label, key in (("allow: security_kernel_read_file()", "allow_ns"),
                   ("deny: one of 10000 denials", "deny_ns")):
    cells = [fmt(None if key == "deny_ns" else icount("none", key), 0)]
    cells += [fmt(icount(n, key), 0) for n in ("upstream", "series")]
    print(f"{label:{w}}" + "".join(f"{c:>12}" for c in cells))
for d in (1, 4000):
    for label, key in ((f"dm-verity, {d} digest(s): trusted", "verity_allow_ns"),
                       (f"dm-verity, {d} digest(s): untrusted", "verity_deny_ns")):
        cells = ["-"]
        for n in ("upstream", "series"):
            refused = icount(f"{n}.verity-{d}", "list_refused")
            cells.append("-" if refused else fmt(icount(f"{n}.verity-{d}", key), 0))
        print(f"{label:{w}}" + "".join(f"{c:>12}" for c in cells))
allow_path(icount, "instructions", 0)
b, c = icount("upstream", "deny_ns"), icount("series", "deny_ns")
if b and c:
    print(f"deny path: the series runs {b / c:.1f} times fewer instructions per denial")
print("(with 4000 digests the count depends on where vgood's root digest falls in the")
print(" sorted list: a binary search stops at a match; the image is reproducible, so that")
print(" place only moves with the payload, the kernel and its test modules)")

lsm = {n: vals[n].get("lsm", ["?"])[0] for n in names}
print()
for n in names:
    print(f"{n}: lsm={lsm[n]}")
EOF
[ $ok = 1 ]
