# SPDX-License-Identifier: GPL-3.0-or-later
"""Hostile profile cache files and folders (issue 37), for run-hostile.py: a cache entry cut short, zeroed, garbage,
with flipped bytes, crafted (sizes past the end, a huge directory, an index out of range with every checksum right,
a forged timeline index), a symlink to a device, a FIFO, a directory; a cache folder that is a file or read-only; two
processes writing one entry at once. Every command must then load from SQLite as if there were no cache: the same
output, exit 0, at most a note or a warning on stderr, and nothing mixed: the entry left behind maps."""
import glob
import os
import shutil
import struct
import subprocess
import tempfile

# The cache file layout (core/profilecache/cachefile.h): a 128-byte header, its checksum in the last 8 bytes; the
# directory's offset, count and checksum at 32, 40 and 48; 96-byte entries (name[64], offset, bytes, checksum,
# elementSize, reserved). Checksums are XXH64 with seed 0.
HEADER = 128
ENTRY = 96
MASK = 2**64 - 1
P1, P2, P3, P4, P5 = (11400714785074694791, 14029467366897019727, 1609587929392839161, 9650029242287828579,
                      2870177450012600261)


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & MASK


def _round(acc, lane):
    return (_rotl((acc + lane * P2) & MASK, 31) * P1) & MASK


def xxh64(data, seed=0):
    """XXH64, as the reference implementation computes it."""
    n = len(data)
    i = 0
    if n >= 32:
        v = [(seed + P1 + P2) & MASK, (seed + P2) & MASK, seed, (seed - P1) & MASK]
        while i + 32 <= n:
            for k in range(4):
                v[k] = _round(v[k], struct.unpack_from("<Q", data, i + 8 * k)[0])
            i += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & MASK
        for lane in v:
            h = ((h ^ _round(0, lane)) * P1 + P4) & MASK
    else:
        h = (seed + P5) & MASK
    h = (h + n) & MASK
    while i + 8 <= n:
        h = (_rotl(h ^ _round(0, struct.unpack_from("<Q", data, i)[0]), 27) * P1 + P4) & MASK
        i += 8
    if i + 4 <= n:
        h = (_rotl(h ^ (struct.unpack_from("<I", data, i)[0] * P1 & MASK), 23) * P2 + P3) & MASK
        i += 4
    while i < n:
        h = (_rotl(h ^ (data[i] * P5 & MASK), 11) * P1) & MASK
        i += 1
    h ^= h >> 33
    h = (h * P2) & MASK
    h ^= h >> 29
    h = (h * P3) & MASK
    h ^= h >> 32
    return h


def sections(data):
    """name -> (entry offset in the file, section offset, bytes)."""
    directory, count = struct.unpack_from("<QQ", data, 32)
    out = {}
    for k in range(count):
        at = directory + k * ENTRY
        name = data[at:at + 64].split(b"\0")[0].decode()
        offset, size = struct.unpack_from("<QQ", data, at + 64)
        out[name] = (at, offset, size)
    return out


def reseal(data):
    """Recomputes the directory's and the header's checksums, as a forger would."""
    directory, count = struct.unpack_from("<QQ", data, 32)
    struct.pack_into("<Q", data, 48, xxh64(bytes(data[directory:directory + count * ENTRY])))
    struct.pack_into("<Q", data, HEADER - 8, xxh64(bytes(data[:HEADER - 8])))


def forge_index(data):
    """A kernel's process index past the processes, with the section's and every other checksum right."""
    found = sections(data)
    if found.get("t.kernels.process.byte", (0, 0, 0))[2] > 0:  # few processes: value + 1 in 8 bits
        at, offset, size = found["t.kernels.process.byte"]
        struct.pack_into("<B", data, offset, 0xFF)
    elif found.get("t.kernels.process.narrow", (0, 0, 0))[2] > 0:  # value + 1 in 16 bits
        at, offset, size = found["t.kernels.process.narrow"]
        struct.pack_into("<H", data, offset, 0xFFFF)
    else:
        at, offset, size = found["t.kernels.process.wide"]
        struct.pack_into("<i", data, offset, 1 << 30)
    struct.pack_into("<Q", data, at + 80, xxh64(bytes(data[offset:offset + size])))
    reseal(data)


def size_past_end(data):
    at, offset, size = sections(data)["t.kernels.start.offsets"]
    struct.pack_into("<Q", data, at + 72, len(data) * 4)
    reseal(data)


def huge_directory(data):
    struct.pack_into("<Q", data, 40, 1 << 40)
    struct.pack_into("<Q", data, HEADER - 8, xxh64(bytes(data[:HEADER - 8])))


def add_sections(data, added):
    """The cache file with the (name, bytes, element size) sections @p added put before its directory, as a forger
    with the format at hand would: every checksum right."""
    directory, count = struct.unpack_from("<QQ", data, 32)
    body = bytearray(data[:directory])
    entries = bytearray(data[directory:directory + count * ENTRY])
    for name, payload, element_size in added:
        body += bytes(-len(body) % 64)
        entries += struct.pack("<64sQQQII", name.encode(), len(body), len(payload), xxh64(bytes(payload)),
                               element_size, 0)
        body += payload
    body += bytes(-len(body) % 64)
    out = body + entries
    struct.pack_into("<QQQ", out, 24, len(out), len(body), count + len(added))
    reseal(out)
    return out


def timeline(lane_count, last_ref, layout=None):
    """A timeline index (core/timeline/timelineindex.h) of one CUDA API lane of @p lane_count events over five
    references, the last one @p last_ref; no rows. @p layout replaces its layout's bytes."""
    if layout is None:
        layout = struct.pack("<qqQI", 0, 100, 5, 1) + struct.pack("<BIIII", 2, 0, lane_count, 0, 0) + struct.pack(
            "<I", 0)
    refs = struct.pack("<5I", 0, 0, 0, 0, last_ref)
    return lambda d: add_sections(d, [("tl.layout", layout, 1), ("tl.refs", refs, 4), ("tl.busyEnds", b"", 4),
                                      ("tl.gapTrees", struct.pack("<f", 0.0), 4)])


def flip_bytes(data):
    for k in range(1, 8):
        data[len(data) * k // 8] ^= 0x5A


# name -> how the entry is replaced: a function editing its bytes, or a special file.
VARIANTS = {
    "cache-cut-short": lambda d: d[:len(d) // 2],
    "cache-zeroed": lambda d: bytearray(len(d)),
    "cache-garbage": lambda d: bytearray(os.urandom(len(d))),
    "cache-flipped-bytes": flip_bytes,
    "cache-crafted-size-past-the-end": size_past_end,
    "cache-crafted-huge-directory": huge_directory,
    "cache-crafted-index-with-right-checksums": forge_index,
    # A timeline index (written by the window) forged onto the entry: an API call past the calls, a lane past its
    # references, a layout of garbage.
    "cache-crafted-timeline-reference-past-the-table": timeline(5, 0x7FFFFFFF),
    "cache-crafted-timeline-lane-past-the-references": timeline(1000, 0),
    "cache-crafted-timeline-garbage-layout": timeline(5, 0, layout=os.urandom(200)),
    "cache-symlink-to-a-device": "/dev/zero",
    "cache-symlink-to-urandom": "/dev/urandom",
    "cache-fifo": "fifo",
    "cache-directory": "directory",
}


def _place(entry, how, original):
    if os.path.isdir(entry) and not os.path.islink(entry):
        shutil.rmtree(entry)
    elif os.path.lexists(entry):
        os.remove(entry)
    if how == "fifo":
        os.mkfifo(entry)
    elif how == "directory":
        os.makedirs(entry)
    elif isinstance(how, str):
        os.symlink(how, entry)
    else:
        data = bytearray(original)
        edited = how(data)
        with open(entry, "wb") as f:
            f.write(edited if edited is not None else data)


def run_cache_inputs(run_one, check, binary, base, timeout, env, only):
    """Returns (runs, failures)."""
    failures = []
    runs = 0
    commands = {"stats": ["stats", "-r", "cuda_gpu_kern_sum,cuda_api_sum,nvtx_sum", "--format", "csv", base],
                "nvtx": ["nvtx", base, "--format", "json"]}
    expected = {label: run_one(binary, args[:1] + ["--no-cache"] + args[1:], timeout, env)[1]
                for label, args in commands.items()}
    root = tempfile.mkdtemp(prefix="nsw-hostile-cache-")
    cache_env = dict(env, NSYS_WORKBENCH_CACHE_DIR=root)

    def same_as_sqlite(name, label, args, environment):
        rc, out, err, elapsed = run_one(binary, args, timeout, environment)
        problem = check(name, rc, out, err, elapsed, timeout)
        if problem is None and rc != 0:
            problem = f"exit {rc}: {err.decode(errors='replace')[-300:]}"
        if problem is None and out != expected[label]:
            problem = "the output differs from a load from SQLite"
        first = err.decode(errors="replace").strip().splitlines()[:1] if err else []
        print(f"{name:40} {label:6} exit {rc} {elapsed:5.2f} s  {first[0][:80] if first else ''}"
              f"{'  FAIL: ' + problem if problem else ''}", flush=True)
        return problem

    def entries():
        return glob.glob(os.path.join(root, "profiles", "*.nswprof"))

    for label, args in commands.items():  # each command's load options make an entry of its own
        same_as_sqlite("cache-warm-up", label, args, cache_env)
    originals = {}
    for entry in entries():
        with open(entry, "rb") as f:
            originals[entry] = f.read()
    if len(originals) != len(commands):
        return 0, [f"the warm-up wrote {len(originals)} profile cache entries, not {len(commands)}"]
    for name, how in VARIANTS.items():
        if only and only not in name:
            continue
        for label, args in commands.items():
            for entry, original in originals.items():
                _place(entry, how, original)
            runs += 1
            problem = same_as_sqlite(name, label, args, cache_env)
            if problem:
                failures.append(f"{name} / {label}: {problem}")
    # Cache folders that cannot be written: a file where the folder should be, a folder under /proc.
    for name, folder in (("cache-root-is-a-file", base), ("cache-root-unwritable", "/proc/self/nsw-cache")):
        if only and only not in name:
            continue
        for label, args in commands.items():
            runs += 1
            problem = same_as_sqlite(name, label, args, dict(env, NSYS_WORKBENCH_CACHE_DIR=folder))
            if problem:
                failures.append(f"{name} / {label}: {problem}")
    if not only or only in "cache-two-writers":
        runs += 1
        failures += _two_writers(binary, base, commands["stats"], expected["stats"], timeout, env)
    shutil.rmtree(root, ignore_errors=True)
    return runs, failures


def _two_writers(binary, base, args, expected, timeout, env):
    """Two processes loading one export into an empty cache at once: both work, the entry left is whole."""
    root = tempfile.mkdtemp(prefix="nsw-hostile-cache2-")
    cache_env = dict(env, NSYS_WORKBENCH_CACHE_DIR=root)
    writers = [subprocess.Popen([binary] + args, env=cache_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
               for _ in range(2)]
    failures = []
    for w in writers:
        out, err = w.communicate(timeout=timeout * 2)
        if w.returncode != 0 or out != expected:
            failures.append(f"cache-two-writers: a writer exited {w.returncode} or printed other output")
    entries = glob.glob(os.path.join(root, "profiles", "*"))
    if len(entries) != 1 or not entries[0].endswith(".nswprof"):
        failures.append(f"cache-two-writers: left {entries}, not one entry")
    p = subprocess.run([binary] + args, env=cache_env, capture_output=True, timeout=timeout)
    if p.returncode != 0 or p.stdout != expected or p.stderr:
        failures.append("cache-two-writers: the entry they left does not read back cleanly")
    print(f"{'cache-two-writers':40} {'stats':6} {'FAIL' if failures else 'ok'}", flush=True)
    shutil.rmtree(root, ignore_errors=True)
    return failures
