#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot the Debian system of a kernel build (system/image.sh) once per
system scenario and collect the TAP lines its checks print on ttyS1.

A system scenario is a file system/scenarios/NAME.scn: "key: value" header
lines, a line "---", then a bash script that the guest's
lp-system.service runs once the boot reached multi-user.target (with
tests/guest/lib.sh and system/guest/lib-system.sh sourced). The script is
baked into the root image, so editing it rebuilds the images. Keys:

  desc:     one line saying what the scenario shows
  layout:   verity     root on dm-verity from dm-mod.create=, no initramfs
                       (vda/vdb the root's data and hash, vdc /var,
                       vdd/vde the trusted verity data disk)
            initramfs  Debian's initramfs, the root in partition 1
                       (PARTUUID @PARTUUID@) of an NVMe disk attached
                       read-only, vda /var
  build:    main (the series), main-xz (the same with its modules
            xz-compressed, as Debian ships them) or upstream (the
            unpatched tree)
  release:  bookworm (Debian 12, the default) or trixie (Debian 13)
  cmdline:  extra kernel command line (@PARTUUID@ is replaced)
  baseline: yes -> boot the same system once more with lsm=yama (no
            LoadPin) and print the ratio of the two boot times to
            multi-user.target (a figure, never a failing test)
  console:  a line the console must show (a test)
  compare:  NAME of another scenario: print both boots' "# verdict" lines
            side by side
  timeout:  seconds (default 600; TCG)

Each "ok"/"not ok" line is a test; the boot is one more, failing on a
timeout, a missing end marker or a kernel report on the console. Lines
and logs name the system: system-BUILD for bookworm, system-BUILD-trixie
for trixie; logs are in out/logs/SYSTEM/NAME/ (console.log, results.log,
qemu.cmd).
"""
import argparse
import concurrent.futures
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import time
import importlib.util

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The busybox runner, tests/run.py: TAP parsing, kernel reports, paths.
# Loaded by path: this file has the same module name.
_spec = importlib.util.spec_from_file_location("lprun", os.path.join(TOP, "tests", "run.py"))
R = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(R)

SCN_DIR = os.path.join(TOP, "system", "scenarios")
CACHE = R.CACHE
OUT = R.OUT
BASELINE_LSM = "yama"   # the build's LSMs without LoadPin


class Scenario:
    def __init__(self, path):
        self.name = os.path.basename(path)[:-4]
        self.desc = self.layout = ""
        self.build = "main"
        self.release = "bookworm"
        self.cmdline = ""
        self.baseline = False
        self.console = []
        self.compare = None
        self.timeout = 600
        with open(path) as f:
            head = f.read().split("\n---\n", 1)[0]
        for n, line in enumerate(head.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, sep, val = line.partition(":")
            key, val = key.strip(), val.strip()
            if not sep:
                raise ValueError(f"{path}:{n}: expected 'key: value'")
            if key == "desc":
                self.desc = val
            elif key == "layout":
                if val not in ("verity", "initramfs"):
                    raise ValueError(f"{path}:{n}: layout: verity|initramfs")
                self.layout = val
            elif key == "build":
                self.build = val
            elif key == "release":
                if val not in ("bookworm", "trixie"):
                    raise ValueError(f"{path}:{n}: release: bookworm|trixie")
                self.release = val
            elif key == "cmdline":
                self.cmdline = (self.cmdline + " " + val).strip()
            elif key == "baseline":
                self.baseline = val == "yes"
            elif key == "console":
                self.console.append(val)
            elif key == "compare":
                self.compare = val
            elif key == "timeout":
                self.timeout = int(val)
            else:
                raise ValueError(f"{path}:{n}: unknown key '{key}'")
        if not self.layout:
            raise ValueError(f"{path}: no layout")

    @property
    def system(self):
        """The system it boots: its build, and its release unless bookworm."""
        return self.build + ("" if self.release == "bookworm" else "-" + self.release)


def load(patterns):
    scns = [Scenario(os.path.join(SCN_DIR, f)) for f in sorted(os.listdir(SCN_DIR))
            if f.endswith(".scn")]
    if patterns:
        scns = [s for s in scns if any(fnmatch.fnmatch(s.name, p) for p in patterns)]
    return scns


def images(build, release):
    """The image directory of BUILD on RELEASE, (re)built by system/image.sh."""
    r = subprocess.run([os.path.join(TOP, "system", "image.sh"), build, release],
                       stdout=subprocess.PIPE, text=True)
    if r.returncode:
        raise RuntimeError(f"system/image.sh {build} {release} failed")
    return r.stdout.strip().splitlines()[-1]


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def qemu_cmd(scn, imgdir, rundir, baseline):
    partuuid = read(os.path.join(imgdir, "partuuid")).strip()
    accel = os.environ.get("LOADPIN_QEMU_ACCEL", "tcg")
    cmdline = f"console=ttyS0 panic=-1 lpsys={scn.name}"
    if baseline:
        # The same boot without LoadPin: its parameters would only be
        # reported as unknown.
        cmdline += f" lsm={BASELINE_LSM} lpbaseline " + " ".join(
            w for w in scn.cmdline.split() if not w.startswith("loadpin."))
    else:
        cmdline += " " + scn.cmdline
    cmdline = cmdline.replace("@PARTUUID@", partuuid)
    cmd = [os.environ.get("LOADPIN_QEMU", "qemu-system-x86_64"),
           "-accel", accel, "-m", os.environ.get("LOADPIN_SYSTEM_MEM", "1024"),
           "-smp", os.environ.get("LOADPIN_SYSTEM_SMP", "1"),
           "-nodefaults", "-display", "none", "-no-reboot",
           "-kernel", os.path.join(imgdir, "vmlinuz"),
           "-serial", "file:" + os.path.join(rundir, "console.log"),
           "-serial", "file:" + os.path.join(rundir, "results.log"),
           # Devices whose drivers are modules, for udev to load: a NIC
           # on a user-mode network restricted to the guest itself.
           "-netdev", "user,id=n0,restrict=on",
           "-device", "virtio-net-pci,netdev=n0",
           "-device", "virtio-rng-pci", "-device", "virtio-balloon-pci"]
    if accel == "tcg":
        cmd[1:1] = ["-cpu", "max,la57=off"]
    var = os.path.join(rundir, "var.img")
    subprocess.run(["cp", "--sparse=always", os.path.join(imgdir, "var.ext4"), var],
                   check=True)

    def disk(path, ro):
        return ["-drive", f"file={path},format=raw,if=virtio" + (",readonly=on" if ro else "")]
    if scn.layout == "verity":
        table = read(os.path.join(imgdir, "root.table")).strip()
        table = table.replace("DATA", "/dev/vda").replace("HASH", "/dev/vdb")
        cmdline = (f'{cmdline} root=/dev/dm-0 ro rootfstype=ext4 '
                   f'dm-mod.create="lproot,,,ro,{table}"')
        cmd += disk(os.path.join(imgdir, "root.ext4"), True)
        cmd += disk(os.path.join(imgdir, "root.verity-hash"), True)
        cmd += disk(var, False)
        cmd += disk(os.path.join(imgdir, "data.ext4"), True)
        cmd += disk(os.path.join(imgdir, "data.verity-hash"), True)
    else:
        cmdline = f"{cmdline} root=PARTUUID={partuuid} ro"
        cmd += ["-initrd", os.path.join(imgdir, "initrd.img")]
        cmd += ["-drive", f"file={os.path.join(imgdir, 'root.gpt')},format=raw,"
                "if=none,id=nv0,readonly=on", "-device", "nvme,serial=lproot,drive=nv0"]
        cmd += disk(var, False)
    return cmd + ["-append", cmdline]


def boot(scn, imgdir, baseline=False):
    """One boot: (results, extras, elapsed). extras: the "# time..." and
    "# verdict ..." values the guest printed."""
    rundir = os.path.join(OUT, "logs", "system-" + scn.system,
                          scn.name + ("-baseline" if baseline else ""))
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    cmd = qemu_cmd(scn, imgdir, rundir, baseline)
    with open(os.path.join(rundir, "qemu.cmd"), "w") as f:
        f.write(" ".join(f"'{c}'" if " " in c else c for c in cmd) + "\n")
    start = time.monotonic()
    timed_out = False
    try:
        subprocess.run(cmd, timeout=scn.timeout, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except subprocess.TimeoutExpired:
        timed_out = True
    elapsed = time.monotonic() - start
    os.unlink(os.path.join(rundir, "var.img"))
    console = read(os.path.join(rundir, "console.log"))
    out = read(os.path.join(rundir, "results.log"))
    results, extras = [], {}
    for line in out.splitlines():
        line = line.rstrip("\r")
        m = R.TAP_LINE.match(line)
        if m:
            status = "SKIP" if m.group(3) else ("FAIL" if m.group(1) else "PASS")
            results.append([status, m.group(2).strip(), m.group(4) or ""])
        elif line.startswith("# ") and results and results[-1][0] == "FAIL":
            results[-1][2] = (results[-1][2] + " " + line[2:]).strip()
        if line.startswith("# time-to-multi-user-us "):
            extras["time"] = line.split()[-1]
        elif line.startswith("# verdict "):
            _, _, key, val = line.split(None, 3)
            extras[key] = val
    for want in ([] if baseline else scn.console):
        ok = want in console
        results.append(["PASS" if ok else "FAIL", f"console shows: {want}",
                        "" if ok else "not on the console"])
    reports = [l for l in console.splitlines() if R.KERNEL_REPORTS.search(l)]
    why = ""
    if timed_out:
        why = f"timed out after {scn.timeout}s"
    elif f"LPTEST-END {scn.name}" not in out:
        why = "the guest's checks did not finish"
    elif reports:
        why = "kernel report: " + reports[0].strip()
    results.append(["FAIL" if why else "PASS", "boot" + (" without LoadPin" if baseline else ""), why])
    if baseline:
        # Only the boot itself counts; its failed units are a figure.
        results = [r for r in results if r[1].startswith("boot")]
    return results, extras, elapsed


def run_scenario(scn, imgdir):
    results, extras, elapsed = boot(scn, imgdir)
    base = None
    if scn.baseline:
        bres, base, belapsed = boot(scn, imgdir, baseline=True)
        results += bres
        elapsed += belapsed
    return results, extras, base, elapsed


def seconds(us):
    try:
        return int(us) / 1e6
    except (TypeError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("patterns", nargs="*", help="scenario name globs")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("LOADPIN_JOBS", "2")))
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--build", help="boot every scenario on this build's images")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the boots without LoadPin (no boot-time ratio)")
    ap.add_argument("--no-summary", action="store_true",
                    help="print the counts as '# counts: P F S' for a caller to add up")
    args = ap.parse_args()
    scns = load(args.patterns)
    if args.list:
        for s in scns:
            print(f"{s.name:28} {s.build:8} {s.release:8} {s.layout:9} {s.desc}")
        return 0
    if not scns:
        print("no system scenario matches", file=sys.stderr)
        return 1
    if args.build:
        for s in scns:
            s.build = args.build
    if args.no_baseline:
        for s in scns:
            s.baseline = False
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    imgdirs = {}
    systems = {s.system: (s.build, s.release) for s in scns}
    for sysname, (b, rel) in sorted(systems.items()):
        t = time.monotonic()
        try:
            imgdirs[sysname] = images(b, rel)
        except RuntimeError as e:
            print(f"FAIL system-{sysname}: images  -- {e}", flush=True)
            counts["FAIL"] += 1
            continue
        print(f"# system-{sysname}: images ready in {time.monotonic() - t:.0f}s", flush=True)
    done = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = [(s, pool.submit(run_scenario, s, imgdirs[s.system]))
                for s in scns if s.system in imgdirs]
        for s, fut in futs:
            results, extras, base, elapsed = fut.result()
            done[s.name] = extras
            for status, name, why in results:
                counts[status] += 1
                line = f"{status:4} system-{s.system}:{s.name}: {name}"
                if why and status != "PASS":
                    line += f"  -- {why}"
                print(line, flush=True)
            t = seconds(extras.get("time"))
            msg = f"# {s.name}: {elapsed:.0f}s of QEMU"
            if t:
                msg += f"; multi-user.target after {t:.1f}s"
            if base is not None:
                bt = seconds(base.get("time"))
                if t and bt:
                    msg += f", {bt:.1f}s without LoadPin (lsm={BASELINE_LSM}): ratio {t / bt:.2f}"
                else:
                    msg += ", no time from the boot without LoadPin"
            print(msg, flush=True)
    for s in scns:
        if s.compare and s.name in done and s.compare in done:
            a, b = done[s.compare], done[s.name]
            keys = [k for k in a if k != "time"] + [k for k in b if k != "time" and k not in a]
            print(f"# {'verdicts':28} {s.compare:>22} {s.name:>24}")
            for k in keys:
                print(f"# {k:28} {a.get(k, '-'):>22} {b.get(k, '-'):>24}")
    return R.print_counts(counts, args.no_summary)


if __name__ == "__main__":
    sys.exit(main())
