#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot one QEMU guest per scenario and collect TAP/KTAP results.

A scenario is a file tests/scenarios/NAME.scn: "key: value" header lines,
a line "---", then the guest shell script (run by the initramfs /init with
tests/guest/lib.sh sourced). Header keys:

  desc:     one line saying what the scenario shows
  cmdline:  extra kernel command line
  disk:     IMAGE [ro|rw] [nvme] (repeatable: vda, vdb, ...; with
            "nvme" an NVMe namespace instead, nvme0n1, nvme1n1, ..., whose
            partitions take numbers from the shared 259 pool); IMAGE is
            PAYLOAD.FS with FS one of ext4, squashfs, erofs, gpt (a GPT disk
            whose partition 1, PARTLABEL "loadpin-root", PARTUUID
            6c0a7b3e-1d2f-4e5a-9b8c-7d6e5f4a3b2c, holds the payload as
            ext4), or "scratch.ext4", or an ext4 disk pair with an external
            journal, an erofs pair with an extra device, or a dm-verity
            disk (see below)
  smp:      vCPUs (default 1)
  timeout:  seconds (default 120)
  kunit:    yes [SUITE...] -> count the KUnit KTAP results printed at
            boot; each SUITE named must be among them
  builds:   kernels it runs on (default: all)
  kind:     "bench" for bench/scenarios/*.scn, which only run with --bench

dm-verity disks: VNAME.verity-data is an ext4 image of the payload (with
IDENTITY "VNAME"), VNAME.verity-hash its hash tree made by `veritysetup
format` (superblock in the first 4096-byte block), for VNAME in
VERITY_IMAGES (vgood, vbad); both are reproducible, so one payload gives
one root digest. Attach both read-only. The trusted payload
(trusted.ext4, trusted.squashfs) then holds in verity/:

  digests            the digest list, trusting vgood's root hash only
  digests-malformed  the same with an odd-length digest
  digests-N          N digests ending with vgood's (N in 1, 100, 4000)
  VNAME.table        the dm table line of VNAME, with the placeholders DATA
                     and HASH for the data and hash devices, e.g.
                     sed 's|DATA|/dev/vdb|; s|HASH|/dev/vdc|' vgood.table
  vgood-ic.table     vgood with "1 ignore_corruption"

erofs with an extra device: PAYLOAD.erofs-meta is an erofs image of the
payload whose files' data (4096-byte chunks) are on the extra device
PAYLOAD.erofs-blob (mkfs.erofs --blobdev); mount both with
mount -t erofs -o device=/dev/vdb /dev/vda /mnt/x.

External journals: PAYLOAD.ext4-extj is an ext4 image of the payload
(4096-byte blocks) whose journal is not an inode but the external journal
device PAYLOAD.ext4-journal (made by `mke2fs -O journal_dev`). They are
built and rebuilt together, on files as a user: the data image without a
journal, then linked as `mke2fs -J device=` would link them (it wants a
block device): the data superblock gets has_journal and the journal's UUID
(journal_inum 0, journal_dev 0), the journal's jbd2 superblock one user,
the data filesystem's UUID. Attach both, the journal after the data disk,
and name the journal device when mounting, e.g. for vda and vdb:
mount -o ro,journal_path=/dev/vdb /dev/vda /mnt/x (journal_dev 0 in the
superblock: the kernel logs "external journal device major/minor numbers
have changed").

Each "ok"/"not ok" line the guest prints on ttyS1 is one test; the boot
itself is one more ("boot"), failing on a timeout, a missing end marker or
a kernel report (BUG, WARNING, Oops, KASAN, lockdep, ...) on the console.
KCSAN data-race reports are attributed first: one with a frame in LoadPin
(security/loadpin, dm-verity-loadpin, the string helpers we changed) fails
the boot as "kcsan"; others are races elsewhere in the kernel, counted and
listed in the log directory's kcsan-foreign.txt but not failed.
"""
import argparse
import concurrent.futures
import fnmatch
import functools
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import threading
import time
import uuid

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCN_DIR = os.path.join(TOP, "tests", "scenarios")
BENCH_DIR = os.path.join(TOP, "bench", "scenarios")
OUT = os.path.join(TOP, "out")
CACHE = os.environ.get("LOADPIN_CACHE",
                       os.path.join(os.path.expanduser("~"), ".cache", "loadpin"))

# Kernel reports that fail a boot whatever the guest printed.
KERNEL_REPORTS = re.compile(
    r"BUG:|WARNING:|Oops|Kernel panic|KASAN|UBSAN|KCSAN|"
    r"possible circular locking|possible recursive locking|"
    r"inconsistent lock state|INFO: task .* blocked|"
    r"suspicious RCU usage|general protection fault|Call Trace:")
KCSAN_BLOCK = re.compile(r"^BUG: KCSAN: .*?(?=^={20,}$)", re.M | re.S)
KCSAN_FRAME = re.compile(r"^\s*([A-Za-z0-9_.]+)\+0x[0-9a-f]+/0x[0-9a-f]+", re.M)
TAP_LINE = re.compile(r"^(not )?ok \d+ (.*?)(?: # (SKIP|skip)\b ?(.*))?$")
KTAP_RESULT = re.compile(r"^((?:    )+)(not )?ok \d+ (.*?)(?: # (SKIP)\b ?(.*))?$")
KTAP_SUBTEST = re.compile(r"^((?:    )+)# Subtest: (\S+)")


class Scenario:
    def __init__(self, path):
        self.name = os.path.basename(path)[:-4]
        self.path = path
        self.desc = ""
        self.cmdline = ""
        self.disks = []
        self.smp = 1
        self.timeout = 120
        self.kunit = False
        self.kunit_suites = []
        self.builds = None
        self.kind = "test"
        with open(path) as f:
            text = f.read()
        if "\n---\n" not in text:
            raise ValueError(f"{path}: no '---' line before the guest script")
        head, self.script = text.split("\n---\n", 1)
        for n, line in enumerate(head.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, sep, val = line.partition(":")
            if not sep:
                raise ValueError(f"{path}:{n}: expected 'key: value'")
            key, val = key.strip(), val.strip()
            if key == "desc":
                self.desc = val
            elif key == "cmdline":
                self.cmdline = (self.cmdline + " " + val).strip()
            elif key == "disk":
                parts = val.split()
                nvme = parts[-1:] == ["nvme"] and len(parts) > 1
                if nvme:
                    parts = parts[:-1]
                if len(parts) not in (1, 2) or parts[1:] not in ([], ["ro"], ["rw"]):
                    raise ValueError(f"{path}:{n}: disk: IMAGE [ro|rw] [nvme]")
                self.disks.append((parts[0], parts[1:] == ["ro"], nvme))
            elif key == "smp":
                self.smp = int(val)
            elif key == "timeout":
                self.timeout = int(val)
            elif key == "kunit":
                words = val.split()
                self.kunit = words[:1] == ["yes"]
                self.kunit_suites = words[1:]
            elif key == "builds":
                self.builds = val.split()
            elif key == "kind":
                if val not in ("test", "bench"):
                    raise ValueError(f"{path}:{n}: kind: test|bench")
                self.kind = val
            else:
                raise ValueError(f"{path}:{n}: unknown key '{key}'")


def load_scenarios(patterns, kind="test"):
    scns = []
    for d in (SCN_DIR, BENCH_DIR):
        if os.path.isdir(d):
            scns += [Scenario(os.path.join(d, f)) for f in sorted(os.listdir(d))
                     if f.endswith(".scn")]
    if kind:
        scns = [s for s in scns if s.kind == kind]
    if patterns:
        scns = [s for s in scns if any(fnmatch.fnmatch(s.name, p) for p in patterns)]
    return scns


# ---------------------------------------------------------------- images

IMAGE_LOCK = threading.Lock()

# dm-verity disk pairs; the trusted payload lists the first one's digest.
VERITY_IMAGES = ("vgood", "vbad")
VERITY_TRUSTED = ("vgood",)
# The sizes of the digest lists make bench feeds (bench/verity.sh).
BENCH_DIGEST_COUNTS = (1, 100, 4000)
VERITY_DATA_SIZE = "16M"


def build_image(build, image):
    """Return the path of IMAGE, building it from the payload if stale."""
    with IMAGE_LOCK:
        return _build_image(build, image)


def _fresh(path, deps):
    """PATH exists and is no older than any of DEPS."""
    if not os.path.exists(path):
        return False
    mtime = os.path.getmtime(path)
    return all(mtime >= os.path.getmtime(d) for d in deps)


def _fill_payload(build, tree, payload):
    guest = os.path.join(OUT, "guest", build)
    subprocess.run([os.path.join(TOP, "scripts", "payload.sh"), guest, tree],
                   check=True)
    kexec = os.path.join(tree, "kexec")
    os.makedirs(kexec)
    shutil.copy(os.path.join(CACHE, "build", build, "arch/x86/boot/bzImage"), kexec)
    with open(os.path.join(tree, "IDENTITY"), "w") as f:
        f.write(payload + "\n")


def _new_tree(imgdir, payload):
    tree = os.path.join(imgdir, payload + ".d")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    return tree


# Fixed inode and superblock times for the images made reproducible.
FIXED_TIME = 1700000000


def _image_id(name, what):
    """A UUID of image NAME for WHAT, the same on every build."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"loadpin-test:{name}:{what}"))


def _mkfs_ext4(tree, label, out, size, extra=(), reproducible=False):
    """With REPRODUCIBLE, the same TREE gives the same bytes: the UUID and
    the directory hash seed come from LABEL, every time from FIXED_TIME."""
    if os.path.exists(out):
        os.unlink(out)
    eopts, env = "root_owner=0:0", None
    if reproducible:
        extra = ["-U", _image_id(label, "fs"), *extra]
        eopts += ",hash_seed=" + _image_id(label, "hash_seed")
        env = dict(os.environ, E2FSPROGS_FAKE_TIME=str(FIXED_TIME))
    subprocess.run(["mkfs.ext4", "-q", "-F", "-L", label, "-d", tree,
                    "-E", eopts, *extra, out, size], check=True,
                   stdout=subprocess.DEVNULL, env=env)
    if reproducible:
        # mkfs copies each file's times from TREE (ctime included, which
        # utime() cannot set): fix them in the image instead.
        paths = ["/"] + ["/" + os.path.relpath(os.path.join(top, name), tree)
                         for top, dirs, files in os.walk(tree)
                         for name in dirs + files]
        script = "".join(f"sif {p} {field} @{FIXED_TIME}\n" for p in paths
                         for field in ("ctime", "atime", "mtime"))
        subprocess.run(["debugfs", "-w", "-f", "-", out], input=script,
                       text=True, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env)


# An ext4 image with an external journal (see the docstring). Both use
# 4096-byte blocks: the kernel reads the journal device in the data
# filesystem's block size.
EXTJ_KINDS = ("ext4-extj", "ext4-journal")
EXTJ_DATA_SIZE = "32M"
EXTJ_JOURNAL_SIZE = "8M"                # 2048 blocks; jbd2 wants >= 1024
EXT2_SB = 1024                          # byte offset of the ext2 superblock
JBD2_MAGIC = 0xC03B3998
JBD2_SUPERBLOCK_V2 = 4
# jbd2 superblock checksums (csum v2/v3) we would have to recompute.
JBD2_INCOMPAT_CSUM = 0x8 | 0x10


# An erofs image whose file data live on an extra device (mkfs.erofs
# --blobdev), and that blob: mount -t erofs -o device=BLOB META. Both are
# padded to 1 MiB.
EROFS_KINDS = ("erofs-meta", "erofs-blob")
EROFS_SIZE = 1 << 20


def _mkerofs(tree, out, blob=None):
    """Build OUT, an erofs image of TREE; with BLOB, chunked (4096-byte
    chunks) with every file's data on the extra device BLOB."""
    for p in (out, blob):
        if p and os.path.exists(p):
            os.unlink(p)
    extra = ["--chunksize=4096", f"--blobdev={blob}"] if blob else []
    subprocess.run(["mkfs.erofs", "--all-root", "-T0", *extra, out, tree],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    for p in (out, blob):
        if p and os.path.getsize(p) < EROFS_SIZE:
            os.truncate(p, EROFS_SIZE)


def _ext2_super(path):
    """The ext2 superblock (1024 bytes) of the image at PATH."""
    with open(path, "rb") as f:
        f.seek(EXT2_SB)
        sb = f.read(1024)
    if len(sb) != 1024 or struct.unpack_from("<H", sb, 0x38)[0] != 0xEF53:
        raise ValueError(f"{path}: no ext2 superblock")
    return sb


def _jbd2_super_offset(path):
    """Byte offset of the jbd2 superblock of the journal device image at
    PATH: the block after the one holding the ext2 superblock (fs/ext4
    ext4_get_journal_blkdev(): sb_block + 1)."""
    bsize = 1024 << struct.unpack_from("<I", _ext2_super(path), 0x18)[0]
    return (EXT2_SB // bsize + 1) * bsize


def _extj_linked(data, journal):
    """DATA's superblock names JOURNAL's UUID and JOURNAL's jbd2
    superblock has DATA as its one user."""
    try:
        dsb, jsb = _ext2_super(data), _ext2_super(journal)
        with open(journal, "rb") as f:
            f.seek(_jbd2_super_offset(journal))
            jbd = f.read(1024)
    except (OSError, ValueError):
        return False
    # s_journal_uuid at 0xd0, s_uuid at 0x68; jbd2: s_nr_users at 0x40,
    # s_users[0] at 0x100 (include/linux/jbd2.h journal_superblock_t).
    return (len(jbd) == 1024 and dsb[0xd0:0xe0] == jsb[0x68:0x78]
            and struct.unpack_from(">I", jbd, 0x40)[0] == 1
            and jbd[0x100:0x110] == dsb[0x68:0x78])


def _mkext4_extj(tree, label, data, journal):
    """Build DATA (ext4 of TREE) and its external journal device JOURNAL
    on plain files, as `mke2fs -J device=JOURNAL` would link them."""
    for p in (data, journal):
        if os.path.exists(p):
            os.unlink(p)
    subprocess.run(["mke2fs", "-q", "-F", "-O", "journal_dev,^metadata_csum",
                    "-b", "4096", journal, EXTJ_JOURNAL_SIZE],
                   check=True, stdout=subprocess.DEVNULL)
    _mkfs_ext4(tree, label, data, EXTJ_DATA_SIZE,
               ["-b", "4096", "-O", "^has_journal"])
    juuid = _ext2_super(journal)[0x68:0x78]
    # debugfs rewrites the superblock with its checksum (metadata_csum).
    for req in ("feature has_journal", f"ssv journal_uuid {uuid.UUID(bytes=juuid)}",
                "ssv journal_inum 0", "ssv journal_dev 0"):
        r = subprocess.run(["debugfs", "-w", "-R", req, data],
                           capture_output=True, text=True)
        # debugfs exits 0 on most errors: its banner is the only
        # stderr line when all went well.
        err = [l for l in r.stderr.splitlines() if not l.startswith("debugfs ")]
        if r.returncode or err:
            raise RuntimeError(f"debugfs -R '{req}' {data}: {r.stderr.strip()}")
    off = _jbd2_super_offset(journal)
    with open(journal, "r+b") as f:
        f.seek(off)
        jbd = bytearray(f.read(1024))
        magic, btype = struct.unpack_from(">II", jbd, 0)
        if magic != JBD2_MAGIC or btype != JBD2_SUPERBLOCK_V2:
            raise ValueError(f"{journal}: no jbd2 v2 superblock at {off}")
        if struct.unpack_from(">I", jbd, 0x28)[0] & JBD2_INCOMPAT_CSUM:
            raise ValueError(f"{journal}: jbd2 superblock has a checksum")
        # One user, the data filesystem: ext4 refuses an external journal
        # with s_nr_users != 1 (ext4_open_dev_journal()).
        struct.pack_into(">I", jbd, 0x40, 1)
        jbd[0x100:0x110] = _ext2_super(data)[0x68:0x78]
        f.seek(off)
        f.write(jbd)
    if not _extj_linked(data, journal):
        raise RuntimeError(f"{data}, {journal}: not linked")
    r = subprocess.run(["e2fsck", "-fn", "-j", journal, data],
                       capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"e2fsck -fn -j {journal} {data}:\n{r.stdout}{r.stderr}")


def _build_verity(build, imgdir, vname, stamp):
    """Build VNAME.verity-data and .verity-hash if stale; return the paths
    of the data, hash and table files. The table file holds the dm table
    line with the placeholders DATA and HASH."""
    data = os.path.join(imgdir, vname + ".verity-data")
    hash_ = os.path.join(imgdir, vname + ".verity-hash")
    table = os.path.join(imgdir, vname + ".verity-table")
    if all(_fresh(p, [stamp]) for p in (data, hash_, table)):
        return data, hash_, table
    tree = _new_tree(imgdir, vname)
    _fill_payload(build, tree, vname)
    for p in (data, hash_, table):
        if os.path.exists(p):
            os.unlink(p)
    # dm-verity's logical block is its data block (4096): mkfs would
    # pick 1024 for a disk this small, which ext4 cannot mount on it.
    # Reproducible, salt included: the same payload gives the same root
    # digest, so its place in make bench's sorted lists (and what a lookup
    # costs) does not change from one image build to the next.
    _mkfs_ext4(tree, vname, data + ".tmp", VERITY_DATA_SIZE, ["-b", "4096"],
               reproducible=True)
    # veritysetup works on plain files and needs no privileges.
    salt = hashlib.sha256(f"loadpin-test:{vname}:salt".encode()).hexdigest()
    out = subprocess.run(["veritysetup", "format", "--salt", salt,
                          "--uuid", _image_id(vname, "verity"),
                          data + ".tmp", hash_ + ".tmp"],
                         check=True, capture_output=True, text=True).stdout
    info = {}
    for line in out.splitlines():
        key, sep, val = line.partition(":")
        if sep:
            info[key.strip()] = val.strip()
    try:
        blocks = int(info["Data blocks"])
        bsize = int(info["Data block size"])
        hsize = int(info["Hash block size"])
        alg, salt, root = info["Hash algorithm"], info["Salt"], info["Root hash"]
    except (KeyError, ValueError):
        raise ValueError(f"cannot parse veritysetup output:\n{out}")
    # Hash format 1, the hash tree after the superblock in hash block 1.
    line = (f"0 {blocks * bsize // 512} verity 1 DATA HASH {bsize} {hsize} "
            f"{blocks} 1 {alg} {root} {salt}")
    os.replace(data + ".tmp", data)
    os.replace(hash_ + ".tmp", hash_)
    with open(table + ".tmp", "w") as f:
        f.write(line + "\n")
    os.replace(table + ".tmp", table)
    return data, hash_, table


def _add_verity_files(tree, tables):
    """The trusted payload's verity/ directory (see the docstring)."""
    vdir = os.path.join(tree, "verity")
    os.makedirs(vdir)
    lines = {}
    for vname, table in tables.items():
        with open(table) as f:
            lines[vname] = f.read().strip()
        with open(os.path.join(vdir, vname + ".table"), "w") as f:
            f.write(lines[vname] + "\n")
    with open(os.path.join(vdir, "vgood-ic.table"), "w") as f:
        f.write(lines["vgood"] + " 1 ignore_corruption\n")
    header = "# LOADPIN_TRUSTED_VERITY_ROOT_DIGESTS\n"
    roots = [lines[v].split()[-2] for v in VERITY_TRUSTED]
    with open(os.path.join(vdir, "digests"), "w") as f:
        f.write(header + "".join(r + "\n" for r in roots))
    with open(os.path.join(vdir, "digests-malformed"), "w") as f:
        f.write(header + roots[0][:-1] + "\n")
    # For make bench: lists of N digests whose last is vgood's, the
    # others made up (sha256 of their index), up to 4000: about the most
    # a 256 KiB list holds.
    for n in BENCH_DIGEST_COUNTS:
        fake = [hashlib.sha256(str(i).encode()).hexdigest() for i in range(n - 1)]
        with open(os.path.join(vdir, f"digests-{n}"), "w") as f:
            f.write(header + "".join(d + "\n" for d in fake + roots[:1]))


def _build_image(build, image):
    guest = os.path.join(OUT, "guest", build)
    imgdir = os.path.join(OUT, "images", build)
    os.makedirs(imgdir, exist_ok=True)
    path = os.path.join(imgdir, image)
    stamp = os.path.join(guest, "initramfs.cpio")
    payload, _, fs = image.rpartition(".")
    if fs in ("verity-data", "verity-hash"):
        if payload not in VERITY_IMAGES:
            raise ValueError(f"unknown verity image '{image}'")
        _build_verity(build, imgdir, payload, stamp)
        return path
    deps = [stamp]
    tables = {}
    if payload == "trusted":
        # Its verity/ files name the verity disks' root hashes: it is
        # stale whenever one of them was rebuilt.
        for vname in VERITY_IMAGES:
            tables[vname] = _build_verity(build, imgdir, vname, stamp)[2]
        deps += tables.values()
    if fs in EXTJ_KINDS:
        # A pair: both are rebuilt when either is stale.
        data, journal = (os.path.join(imgdir, f"{payload}.{k}") for k in EXTJ_KINDS)
        if _fresh(data, deps) and _fresh(journal, deps) and _extj_linked(data, journal):
            return path
    elif fs in EROFS_KINDS:
        meta, blob = (os.path.join(imgdir, f"{payload}.{k}") for k in EROFS_KINDS)
        if _fresh(meta, deps) and _fresh(blob, deps):
            return path
    elif _fresh(path, deps):
        return path
    tree = _new_tree(imgdir, payload)
    if payload != "scratch":
        _fill_payload(build, tree, payload)
    if tables:
        _add_verity_files(tree, tables)
    tmp = path + ".tmp"
    if os.path.exists(tmp):
        os.unlink(tmp)
    if fs == "ext4":
        _mkfs_ext4(tree, payload, tmp, "32M")
    elif fs == "squashfs":
        subprocess.run(["mksquashfs", tree, tmp, "-all-root", "-noappend",
                        "-quiet", "-no-progress"], check=True,
                       stdout=subprocess.DEVNULL)
    elif fs == "gpt":
        _mkgpt(tree, payload, tmp)
    elif fs == "erofs":
        _mkerofs(tree, tmp)
    elif fs in EROFS_KINDS:
        # The blob last: a pair cut short between the two is stale.
        _mkerofs(tree, meta + ".tmp", blob + ".tmp")
        os.replace(meta + ".tmp", meta)
        os.replace(blob + ".tmp", blob)
        return path
    elif fs in EXTJ_KINDS:
        _mkext4_extj(tree, payload, data + ".tmp", journal + ".tmp")
        # Cut short between the two, the pair is not linked: rebuilt.
        os.replace(journal + ".tmp", journal)
        os.replace(data + ".tmp", data)
        return path
    else:
        raise ValueError(f"unknown image type '{image}'")
    os.replace(tmp, path)
    return path


# A GPT disk whose one partition holds the payload as ext4, for
# loadpin.root=PARTUUID=/PARTLABEL= (built as a user: sfdisk and dd on
# files).
GPT_PARTUUID = "6c0a7b3e-1d2f-4e5a-9b8c-7d6e5f4a3b2c"
GPT_PARTLABEL = "loadpin-root"


def _mkgpt(tree, payload, out):
    part = out + ".part"
    _mkfs_ext4(tree, payload, part, "32M")
    start = 2048                          # sectors: 1 MiB aligned
    size = os.path.getsize(part) // 512
    with open(out, "wb") as f:
        f.truncate((start + size + 2048) * 512)
    script = (f"label: gpt\nstart={start}, size={size}, "
              f"type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, "
              f"uuid={GPT_PARTUUID}, name=\"{GPT_PARTLABEL}\"\n")
    subprocess.run(["sfdisk", "--quiet", "--no-reread", "--no-tell-kernel", out],
                   input=script.encode(), check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["dd", f"if={part}", f"of={out}", "bs=512", f"seek={start}",
                    "conv=notrunc,fsync", "status=none"], check=True)
    os.unlink(part)


# ---------------------------------------------------------------- booting

EXTRA_CMDLINE = ""


def qemu_cmd(scn, build, rundir):
    kernel = os.path.join(CACHE, "build", build, "arch/x86/boot/bzImage")
    initrd = os.path.join(OUT, "guest", build, "initramfs.cpio")
    accel = os.environ.get("LOADPIN_QEMU_ACCEL", "tcg")
    cmdline = (f"console=ttyS0 panic=-1 oops=panic lptest={scn.name} "
               f"{EXTRA_CMDLINE} {scn.cmdline}")
    cmd = [os.environ.get("LOADPIN_QEMU", "qemu-system-x86_64"),
           "-accel", accel, "-m", os.environ.get("LOADPIN_QEMU_MEM", "512"),
           "-smp", str(scn.smp), "-nodefaults", "-display", "none",
           "-no-reboot", "-kernel", kernel, "-initrd", initrd,
           "-append", cmdline.strip(),
           "-serial", "file:" + os.path.join(rundir, "console.log"),
           "-serial", "file:" + os.path.join(rundir, "results.log")]
    if accel == "tcg":
        # No 5-level paging: a KASAN kernel on TCG's la57 saw a wild access
        # in an early-boot interrupt (identify_cpu), before any LoadPin code.
        cmd[1:1] = ["-cpu", "max,la57=off"]
        icount = os.environ.get("LOADPIN_QEMU_ICOUNT", "")
        if icount:
            # The guest's clock counts instructions: with shift=0 one
            # nanosecond is one instruction (make bench's counts).
            cmd[3:3] = ["-icount", f"shift={int(icount)},sleep=off"]
    for i, (image, ro, nvme) in enumerate(scn.disks):
        src = build_image(build, image)
        if ro:
            path, extra = src, ",readonly=on"
        else:
            # Writable disks are per-boot copies: scenarios never see
            # each other's writes.
            path = os.path.join(rundir, f"vd{chr(ord('a') + i)}.img")
            shutil.copy(src, path)
            extra = ""
        if nvme:
            cmd += ["-drive", f"file={path},format=raw,if=none,id=nvme{i}{extra}",
                    "-device", f"nvme,serial=lp{i},drive=nvme{i}"]
        else:
            cmd += ["-drive", f"file={path},format=raw,if=virtio{extra}"]
    return cmd


def parse_kunit(console):
    """KUnit results from the boot log: every test case, and every row of
    a parameterised case ("suite.case: row")."""
    results, names = [], {}
    for line in console.splitlines():
        m = KTAP_SUBTEST.match(line)
        if m:
            depth = len(m.group(1)) // 4
            names[depth] = m.group(2)
            continue
        m = KTAP_RESULT.match(line)
        if not m:
            continue
        depth = len(m.group(1)) // 4
        status = "SKIP" if m.group(4) else ("FAIL" if m.group(2) else "PASS")
        if depth == 1:
            name = f"{names.get(1, '?')}.{m.group(3)}"
        elif depth == 2:
            name = f"{names.get(1, '?')}.{names.get(2, '?')}: {m.group(3)}"
        else:
            continue
        results.append((status, "kunit " + name, m.group(5) or ""))
    return results


_OUR_SYMBOLS = {}


def our_symbols(build):
    """Function names defined by our code in BUILD, for attributing KCSAN
    reports (static functions included; inlined ones show as callers)."""
    if build not in _OUR_SYMBOLS:
        obj = os.path.join(CACHE, "build", build)
        names = {"kstrdup_quotable", "kstrdup_quotable_cmdline",
                 "kstrdup_quotable_file", "kstrdup_quotable_cmdline_buf"}
        for rel in ("security/loadpin/built-in.a", "drivers/md/dm-verity-loadpin.o"):
            path = os.path.join(obj, rel)
            if not os.path.exists(path):
                continue
            out = subprocess.run(["nm", "--defined-only", path], text=True,
                                 capture_output=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[1] in "tTwW":
                    names.add(parts[2].split(".")[0])
        _OUR_SYMBOLS[build] = names
    return _OUR_SYMBOLS[build]


def kcsan_enabled(build):
    try:
        with open(os.path.join(CACHE, "build", build, ".config")) as f:
            return "\nCONFIG_KCSAN=y\n" in f.read()
    except OSError:
        return False


def split_kcsan(console, build):
    """Take the KCSAN reports out of CONSOLE: (rest, ours, foreign)."""
    ours, foreign = [], []
    for m in KCSAN_BLOCK.finditer(console):
        frames = set(KCSAN_FRAME.findall(m.group(0)))
        (ours if frames & our_symbols(build) else foreign).append(m.group(0))
    return KCSAN_BLOCK.sub("", console), ours, foreign


@functools.lru_cache(maxsize=None)
def _digest(path, mtime_ns, size):
    """sha256 of PATH as it is at MTIME_NS and SIZE (so hashed once a run)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.digest()


@functools.lru_cache(maxsize=None)
def _qemu_version(qemu):
    return subprocess.run([qemu, "--version"], capture_output=True,
                          text=True).stdout


def inputs_key(scn, build):
    """What a boot of SCN on BUILD depends on, hashed: the kernel, the
    initramfs (reproducible: guest programs, selftests and modules, every
    scenario's script, the payload), the scenario file, this runner and
    payload.sh (which make the disks), QEMU and the command line."""
    h = hashlib.sha256()
    for path in (os.path.join(CACHE, "build", build, "arch/x86/boot/bzImage"),
                 os.path.join(OUT, "guest", build, "initramfs.cpio"),
                 scn.path, os.path.abspath(__file__),
                 os.path.join(TOP, "scripts", "payload.sh")):
        st = os.stat(path)
        h.update(_digest(path, st.st_mtime_ns, st.st_size))
    version = _qemu_version(os.environ.get("LOADPIN_QEMU", "qemu-system-x86_64"))
    for part in (version, EXTRA_CMDLINE, str(scn.timeout),
                 os.environ.get("LOADPIN_QEMU_ACCEL", "tcg"),
                 os.environ.get("LOADPIN_QEMU_ICOUNT", ""),
                 os.environ.get("LOADPIN_QEMU_MEM", "512")):
        h.update(part.encode() + b"\0")
    return h.hexdigest()


def passed_stamp(scn, build):
    return os.path.join(CACHE, "passed", build, scn.name)


def reused_pass(scn, build):
    """With --reuse-passes: SCN's last boot on BUILD, with these very
    inputs, passed every check. Returns the key, or None."""
    try:
        key = inputs_key(scn, build)
        with open(passed_stamp(scn, build)) as f:
            return key if f.read().strip() == key else None
    except OSError:
        return None


def record_pass(scn, build, results):
    if any(status == "FAIL" for status, _, _ in results):
        try:
            os.unlink(passed_stamp(scn, build))
        except OSError:
            pass
        return
    os.makedirs(os.path.dirname(passed_stamp(scn, build)), exist_ok=True)
    with open(passed_stamp(scn, build), "w") as f:
        f.write(inputs_key(scn, build) + "\n")


def run_scenario(scn, build):
    rundir = os.path.join(OUT, "logs", build, scn.name)
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    results = []
    try:
        cmd = qemu_cmd(scn, build, rundir)
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        return [("FAIL", "boot", f"setup failed: {e}")], 0.0
    with open(os.path.join(rundir, "qemu.cmd"), "w") as f:
        f.write(" ".join(cmd) + "\n")
    start = time.monotonic()
    timed_out = False
    try:
        subprocess.run(cmd, timeout=scn.timeout, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except subprocess.TimeoutExpired:
        timed_out = True
    elapsed = time.monotonic() - start

    def read(name):
        try:
            with open(os.path.join(rundir, name), errors="replace") as f:
                return f.read()
        except OSError:
            return ""
    console, out = read("console.log"), read("results.log")
    comment = []
    for line in out.splitlines():
        m = TAP_LINE.match(line)
        if m:
            status = "SKIP" if m.group(3) else ("FAIL" if m.group(1) else "PASS")
            results.append((status, m.group(2).strip(), m.group(4) or ""))
            comment = []
        elif line.startswith("# ") and results and results[-1][0] == "FAIL":
            results[-1] = (results[-1][0], results[-1][1],
                           (results[-1][2] + " " + line[2:]).strip())
    if scn.kunit:
        kunit = parse_kunit(console)
        if not kunit:
            results.append(("FAIL", "kunit", "no KUnit results on the console"))
        results += kunit
        for suite in scn.kunit_suites:
            ran = any(name.startswith(f"kunit {suite}.") for _, name, _ in kunit)
            results.append(("PASS" if ran else "FAIL", f"kunit suite {suite} ran",
                            "" if ran else "not on the console: is it configured?"))
    console, kcsan_ours, kcsan_foreign = split_kcsan(console, build)
    if kcsan_foreign:
        with open(os.path.join(rundir, "kcsan-foreign.txt"), "w") as f:
            f.write("\n".join(kcsan_foreign))
    if kcsan_enabled(build):
        why = f"{len(kcsan_ours)} in LoadPin, first: " + \
            kcsan_ours[0].splitlines()[0] if kcsan_ours else ""
        results.append(("FAIL" if kcsan_ours else "PASS",
                        "kcsan: no data race reported in LoadPin", why))
        if kcsan_foreign:
            print(f"# {build}:{scn.name}: {len(kcsan_foreign)} KCSAN reports "
                  "outside LoadPin, see kcsan-foreign.txt", flush=True)
    reports = [l for l in console.splitlines() if KERNEL_REPORTS.search(l)]
    why = ""
    if timed_out:
        why = f"timed out after {scn.timeout}s"
    elif f"LPTEST-END {scn.name}" not in out:
        why = "guest did not reach the end of its script"
    elif reports:
        why = "kernel report: " + reports[0].strip()
    results.append(("FAIL" if why else "PASS", "boot", why))
    record_pass(scn, build, results)
    return results, elapsed


# ---------------------------------------------------------------- main

def print_counts(counts, no_summary):
    """The last line: "N passed, N failed, N skipped", or for check.sh's
    tally "# counts: P F S". Returns the exit status."""
    if no_summary:
        print(f"# counts: {counts['PASS']} {counts['FAIL']} {counts['SKIP']}")
    else:
        print(f"{counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
    return 1 if counts["FAIL"] else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("patterns", nargs="*", help="scenario name globs")
    ap.add_argument("--build", default="main", help="kernel build name")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("LOADPIN_JOBS", "2")))
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--cmdline", default="",
                    help="extra kernel command line for every boot")
    ap.add_argument("--timeout-factor", type=float, default=1.0,
                    help="multiply every scenario's timeout (slow kernels)")
    ap.add_argument("--extract-guest", metavar="DIR",
                    help="write each scenario's guest script to DIR/NAME.sh")
    ap.add_argument("--bench", action="store_true",
                    help="run the benchmark scenarios (bench/scenarios) instead")
    ap.add_argument("--reuse-passes", action="store_true",
                    help="skip a scenario whose last boot with the same inputs "
                    "(kernel, initramfs, scenario, runner, QEMU) passed")
    ap.add_argument("--no-summary", action="store_true",
                    help="print the counts as '# counts: P F S' for a caller to add up")
    args = ap.parse_args()

    scns = load_scenarios(args.patterns, "bench" if args.bench else "test")
    if args.extract_guest:
        os.makedirs(args.extract_guest, exist_ok=True)
        for s in load_scenarios([], None):
            with open(os.path.join(args.extract_guest, s.name + ".sh"), "w") as f:
                f.write(s.script)
        return 0
    scns = [s for s in scns if s.builds is None or args.build in s.builds]
    global EXTRA_CMDLINE
    EXTRA_CMDLINE = args.cmdline
    for s in scns:
        s.timeout = int(s.timeout * args.timeout_factor)
    if args.list:
        for s in scns:
            print(f"{s.name:32} {s.desc}")
        return 0
    if not scns:
        print("no scenario matches", file=sys.stderr)
        return 1

    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    times = []
    if args.reuse_passes:
        run = []
        for s in scns:
            key = reused_pass(s, args.build)
            if key is None:
                run.append(s)
                continue
            counts["SKIP"] += 1
            print(f"SKIP {args.build}:{s.name}: boot  -- passed before with the "
                  f"same inputs ({key[:12]}); LOADPIN_RERUN=1 boots it", flush=True)
        scns = run
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = [(s, pool.submit(run_scenario, s, args.build)) for s in scns]
        for s, fut in futs:
            results, elapsed = fut.result()
            times.append(elapsed)
            for status, name, why in results:
                counts[status] += 1
                line = f"{status:4} {args.build}:{s.name}: {name}"
                if why and status != "PASS":
                    line += f"  -- {why}"
                print(line, flush=True)
    if times:
        print(f"# {len(times)} boots, {sum(times):.1f}s guest time, "
              f"{sum(times) / len(times):.1f}s per boot")
    return print_counts(counts, args.no_summary)


if __name__ == "__main__":
    sys.exit(main())
