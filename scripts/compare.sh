#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make compare: boot the same scenarios on the unpatched tree's upstream
# LoadPin and on the series, and print which pass where.
#
#   compare.sh [SCENARIO-GLOB...]
#
# Every scenario except the KUnit one (its suites only exist in the
# series) runs on both kernels, with the series' guest programs and
# selftests. For each kernel the table gives the load verdicts that came
# out wrong (a load allowed that should be denied, or the reverse: the
# checks made with expect) and the other failed checks (log lines, the
# status file, selftests, the boot), each out of its total. Upstream
# failing some is the point: the table shows what the series changes. The
# exit status is non-zero only when a check fails on the series.
set -uo pipefail
. "$(dirname "$0")/common.sh"

build_main_and_upstream || exit 1

globs=("$@")
if [ ${#globs[@]} = 0 ]; then
	globs=($(python3 "$TOP/tests/run.py" --list | awk '$1 != "kunit" { print $1 }'))
fi
res=$OUT/compare
mkdir -p "$res"
for b in upstream main; do
	log "booting ${#globs[@]} scenarios on $b"
	python3 "$TOP/tests/run.py" --build "$b" --no-summary --cmdline lpcompare \
		"${globs[@]}" > "$res/$b.txt"
done
python3 - "$res" "$TOP/tests/scenarios" <<'EOF'
import collections, os, re, sys

res, scn_dir = sys.argv[1:3]
line_re = re.compile(r"^(PASS|FAIL|SKIP) (\w+):([\w-]+): (.*?)(?:  -- (.*))?$")
table = collections.defaultdict(lambda: {})
for build in ("upstream", "main"):
    with open(os.path.join(res, build + ".txt")) as f:
        for line in f:
            m = line_re.match(line.rstrip("\n"))
            if not m:
                continue
            status, _, scn, name, why = m.groups()
            row = table[scn].setdefault(build, {"load": [0, []], "other": [0, []]})
            kind = "load" if name.endswith(" [load]") else "other"
            row[kind][0] += 1
            if status == "FAIL":
                row[kind][1].append(name.replace(" [load]", "") +
                                    (f" ({why})" if why and name == "boot" else ""))


def desc(scn):
    with open(os.path.join(scn_dir, scn + ".scn")) as f:
        for line in f:
            if line.startswith("desc:"):
                return line[5:].strip()
    return ""


def cells(row):
    if not row:
        return ["not run", ""]
    return [f"{len(row[k][1])}/{row[k][0]}" if row[k][0] else "-" for k in ("load", "other")]


order = sorted(table, key=lambda s: (not s.startswith("attack-"), s))
w = max(len(s) for s in order)
print("Failed checks per scenario: wrong load verdicts / other checks (logs,")
print("status file, selftests, boot), each out of its total.")
print()
print(f"{'':{w}}  {'upstream LoadPin':^21}  {'the series':^21}")
print(f"{'scenario':{w}}  {'loads':>10} {'other':>10}  {'loads':>10} {'other':>10}")
ours_failed = 0
totals = {b: [0, 0, 0] for b in ("upstream", "main")}
for scn in order:
    up, ours = table[scn].get("upstream"), table[scn].get("main")
    print(f"{scn:{w}}  " + " ".join(f"{c:>10}" for c in cells(up)) + "  " +
          " ".join(f"{c:>10}" for c in cells(ours)))
    if ours is None or ours["load"][1] or ours["other"][1]:
        ours_failed += 1
    for b, row in (("upstream", up), ("main", ours)):
        if row:
            totals[b][0] += len(row["load"][1])
            totals[b][1] += row["load"][0]
            totals[b][2] += not (row["load"][1] or row["other"][1])
n = len(order)
print()
print("Wrong load verdicts on upstream LoadPin:")
for scn in order:
    up = table[scn].get("upstream")
    if up and up["load"][1]:
        print(f"  {scn}: {desc(scn)}")
        for name in up["load"][1]:
            print(f"      {name}")
print()
for b, what in (("upstream", "upstream LoadPin"), ("main", "the series")):
    t = totals[b]
    print(f"{what}: {t[0]} of {t[1]} load verdicts wrong; "
          f"{t[2]} of {n} scenarios pass whole")
sys.exit(1 if ours_failed else 0)
EOF
