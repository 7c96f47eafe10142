#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hostile-input corpus: makes broken and hostile variants of a small export written by the project's own generator
(nsys-tracegen), runs every headless command on each with a time limit, and fails on a crash (a signal), a run past
the limit, an exit 0 that printed nothing, a refusal that does not name the file, a damaged export read without a
warning, or an input that changed. Hostile profile cache files and folders: hostile_cache.py.

    run-hostile.py NSYS_WORKBENCH NSYS_TRACEGEN WORKDIR [--only SUBSTRING] [--timeout SECONDS]
"""
import argparse
import atexit
import hashlib
import json
import os
import random
import shutil
import sqlite3
import stat
import struct
import subprocess
import sys
import tempfile
import time

from hostile_cache import run_cache_inputs

INT64_MIN1 = -(2**63) + 1
INT64_MAX = 2**63 - 1
KERNEL = "CUPTI_ACTIVITY_KIND_KERNEL"
RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME"
SAMPLES = "COMPOSITE_EVENTS"
CHAINS = "SAMPLING_CALLCHAINS"


def loosen(db, table):
    """The table without its NOT NULL constraints (CREATE TABLE AS keeps only the columns)."""
    db.executescript(f"CREATE TABLE tmp AS SELECT * FROM {table}; DROP TABLE {table}; "
                     f"ALTER TABLE tmp RENAME TO {table};")


def sql_variant(base, path, script, loose=()):
    shutil.copyfile(base, path)
    db = sqlite3.connect(path)
    for t in loose:
        loosen(db, t)
    db.executescript(script)
    db.commit()
    db.close()


def byte_variant(base, path, edit):
    data = bytearray(open(base, "rb").read())
    open(path, "wb").write(bytes(edit(data)))


def zero_page(data, page, size=4096):
    data[page * size:(page + 1) * size] = bytes(len(data[page * size:(page + 1) * size]))
    return data


def make_corpus(base, work):
    """name -> path of every hostile input (files, a directory, a FIFO)."""
    size = os.path.getsize(base)
    rng = random.Random(13)
    corpus = {}

    def add(name, maker, *args):
        path = os.path.join(work, name + ".sqlite")
        maker(base, path, *args)
        corpus[name] = path

    for cut in (0, 50, 100, 4096, size // 2, size - 1000):
        add(f"truncated-at-{cut}", byte_variant, lambda d, c=cut: d[:c])
    add("zero-byte", byte_variant, lambda d: b"")
    add("garbage-header", byte_variant, lambda d: bytes(rng.getrandbits(8) for _ in range(100)) + d[100:])
    add("zeroed-page-2", byte_variant, lambda d: zero_page(d, 1))
    add("zeroed-middle-page", byte_variant, lambda d: zero_page(d, size // 4096 // 2))
    add("zeroed-last-page", byte_variant, lambda d: zero_page(d, size // 4096 - 1))
    add("bit-flips", byte_variant, lambda d: bytes(b ^ (1 << rng.randrange(8)) if rng.random() < 0.002 else b
                                                    for b in d))
    add("text-in-time-columns", sql_variant, f"UPDATE {KERNEL} SET start = 'soon' WHERE rowid % 5 = 0;"
                                              f"UPDATE {KERNEL} SET end = 1.5 WHERE rowid % 7 = 0;")
    add("blob-names", sql_variant, f"UPDATE {KERNEL} SET demangledName = x'00ff', shortName = 'x' WHERE rowid % 3 = 0;")
    add("nulls-in-not-null", sql_variant, f"UPDATE {KERNEL} SET start = NULL WHERE rowid % 7 = 0;"
                                           f"UPDATE {KERNEL} SET deviceId = NULL, demangledName = NULL "
                                           f"WHERE rowid % 11 = 0;", (KERNEL,))
    add("extreme-times", sql_variant, f"UPDATE {KERNEL} SET start = {INT64_MIN1}, end = {INT64_MAX} WHERE rowid = 1;"
                                       f"UPDATE {KERNEL} SET end = {INT64_MAX} WHERE rowid = 2;"
                                       f"UPDATE {RUNTIME} SET start = {INT64_MIN1} WHERE rowid = 3;"
                                       "UPDATE NVTX_EVENTS SET end = start - 1000 WHERE rowid % 4 = 0;")
    add("huge-ids", sql_variant, f"UPDATE {KERNEL} SET deviceId = 1099511627776 WHERE rowid = 1;"
                                 f"UPDATE {KERNEL} SET correlationId = 8589934593 WHERE rowid = 2;"
                                 f"UPDATE {KERNEL} SET demangledName = 4294967296 WHERE rowid = 3;"
                                 f"UPDATE {KERNEL} SET shortName = -7 WHERE rowid = 4;"
                                 "UPDATE ThreadNames SET nameId = -1 WHERE rowid = 1;"
                                 "UPDATE ThreadNames SET nameId = 2147483648 WHERE rowid = 2;"
                                 "UPDATE NVTX_EVENTS SET textId = 9999999999 WHERE rowid % 3 = 0;")
    add("rowid-gap", sql_variant, f"UPDATE {KERNEL} SET rowid = 4611686018427387904 "
                                  f"WHERE rowid = (SELECT max(rowid) FROM {KERNEL});")
    add("rowid-extremes", sql_variant, f"UPDATE {KERNEL} SET rowid = {INT64_MIN1} WHERE rowid = 1;"
                                       f"UPDATE {KERNEL} SET rowid = {INT64_MAX} "
                                       f"WHERE rowid = (SELECT max(rowid) FROM {KERNEL});")
    add("strings-trimmed", sql_variant, "DELETE FROM StringIds WHERE id % 2 = 0;")
    add("no-stringids", sql_variant, "DROP TABLE StringIds;")
    add("kernel-table-without-end", sql_variant,
        f"CREATE TABLE tmp AS SELECT start, deviceId, demangledName FROM {KERNEL}; DROP TABLE {KERNEL};"
        f"ALTER TABLE tmp RENAME TO {KERNEL};")
    add("recursive-view", sql_variant, "DROP TABLE StringIds; CREATE VIEW StringIds AS WITH RECURSIVE n(id) AS "
                                       "(SELECT 1 UNION ALL SELECT id + 1 FROM n) SELECT id, 'x' AS value FROM n;")
    add("kernel-view", sql_variant, f"CREATE TABLE k AS SELECT * FROM {KERNEL}; DROP TABLE {KERNEL};"
                                    f"CREATE VIEW {KERNEL} AS SELECT * FROM k;")
    add("broken-view", sql_variant, f"DROP TABLE {KERNEL}; CREATE VIEW {KERNEL} AS SELECT * FROM nowhere;")
    # 10,000 ranges nested on one thread: recursion in a writer or a tree would overflow the stack, output may not grow
    # with the square of the depth.
    add("deep-nvtx-nesting", sql_variant,
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 9999) "
        "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) "
        "SELECT (SELECT min(start) FROM NVTX_EVENTS) + i, (SELECT min(start) FROM NVTX_EVENTS) + 30000 - i, 59, "
        "'deep', (SELECT globalTid FROM NVTX_EVENTS LIMIT 1), 0 FROM n;")
    # Five kernel names of 1 MB each: every tree output repeats a kernel's name under each range that launched it
    # (nvtx --format csv|json wrote 6.6 GB in 50 s): names are cut there, with their length.
    add("1mb-kernel-names", sql_variant,
        "INSERT INTO StringIds (id, value) SELECT 900000 + i, replace(hex(zeroblob(524288)), '0', 'k') || i "
        "FROM (SELECT 0 AS i UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4);"
        f"UPDATE {KERNEL} SET demangledName = 900000 + rowid % 5, shortName = 900000 + rowid % 5;")
    add("empty-tables", sql_variant, f"DELETE FROM {KERNEL}; DELETE FROM {RUNTIME}; DELETE FROM NVTX_EVENTS;")
    # CPU samples (issue 35): broken call chains, threads without names, symbols that are NULL or not in StringIds, a
    # million distinct symbols, a stack 10,000 frames deep.
    add("stackdepth-gaps", sql_variant, f"DELETE FROM {CHAINS} WHERE stackDepth = 1 AND id % 5 = 0;"
                                        f"UPDATE {CHAINS} SET stackDepth = stackDepth + 100 WHERE stackDepth > 2 "
                                        "AND id % 7 = 0;", (CHAINS,))
    add("samples-unnamed-threads", sql_variant, f"DELETE FROM ThreadNames; UPDATE {SAMPLES} SET globalTid = NULL "
                                                "WHERE id % 7 = 0;", (SAMPLES,))
    add("null-and-unknown-symbols", sql_variant, f"UPDATE {CHAINS} SET symbol = NULL WHERE rowid % 11 = 0;"
                                                 f"UPDATE {CHAINS} SET symbol = 2000000000, module = -5 "
                                                 "WHERE rowid % 13 = 0;", (CHAINS,))
    add("million-symbols", sql_variant,
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) "
        "INSERT INTO StringIds SELECT 100000000 + i, 'sym_' || i FROM n;"
        f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) "
        f"INSERT INTO {SAMPLES} (id, start, cpu, threadState, globalTid, cpuCycles) "
        f"SELECT 100000000 + i, i * 100, 0, 1, (SELECT globalTid FROM {SAMPLES} LIMIT 1), 1 FROM n;"
        f"INSERT INTO {CHAINS} (id, symbol, module, stackDepth) SELECT id, id, id, 0 FROM {SAMPLES} "
        "WHERE id > 100000000;")
    add("recursion-10k", sql_variant,
        f"INSERT INTO {SAMPLES} (id, start, cpu, threadState, globalTid, cpuCycles) "
        f"SELECT max(id) + 1, max(start), 0, 1, (SELECT globalTid FROM {SAMPLES} LIMIT 1), 1 FROM {SAMPLES};"
        "WITH RECURSIVE n(d) AS (SELECT 0 UNION ALL SELECT d + 1 FROM n WHERE d < 9999) "
        f"INSERT INTO {CHAINS} (id, symbol, module, stackDepth) SELECT (SELECT max(id) FROM {SAMPLES}), "
        f"(SELECT symbol FROM {CHAINS} LIMIT 1), (SELECT module FROM {CHAINS} LIMIT 1), d FROM n;")
    add("huge-domain-ids", sql_variant, "UPDATE NVTX_EVENTS SET domainId = 1099511627776 WHERE rowid % 2 = 0;"
                                        "UPDATE NVTX_EVENTS SET domainId = -3 WHERE rowid % 5 = 0;")

    # A rollback journal beside the export (a writer died mid-transaction): read-only, nothing may be rolled back or
    # removed next to the trace.
    journal_dir = os.path.join(work, "journal")
    os.makedirs(journal_dir)
    journal = os.path.join(journal_dir, "hot-journal.sqlite")
    shutil.copyfile(base, journal)
    with open(journal + "-journal", "wb") as f:
        f.write(bytes(rng.getrandbits(8) for _ in range(2048)))
    corpus["hot-journal"] = journal
    # An export another process is writing (see LockedByWriter): "in use", not a wait or a half-written read.
    locked_dir = os.path.join(work, "locked")
    os.makedirs(locked_dir)
    locked = os.path.join(locked_dir, "locked-by-writer.sqlite")
    shutil.copyfile(base, locked)
    corpus["locked-by-writer"] = locked

    wal_dir = os.path.join(work, "wal")
    os.makedirs(wal_dir)
    wal = os.path.join(wal_dir, "wal-mode.sqlite")
    shutil.copyfile(base, wal)
    writer = sqlite3.connect(wal)
    writer.executescript(f"PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"
                         f"INSERT INTO {KERNEL} SELECT * FROM {KERNEL};")
    wal_copy_dir = os.path.join(work, "wal-copy")
    os.makedirs(wal_copy_dir)
    for suffix in ("", "-wal"):
        shutil.copyfile(wal + suffix, os.path.join(wal_copy_dir, "wal-mode.sqlite" + suffix))
    writer.close()
    corpus["wal-without-shm"] = os.path.join(wal_copy_dir, "wal-mode.sqlite")

    directory = os.path.join(work, "a-directory.sqlite")
    os.makedirs(directory)
    corpus["directory"] = directory
    fifo = os.path.join(work, "fifo.sqlite")
    os.mkfifo(fifo)
    corpus["fifo"] = fifo
    link = os.path.join(work, "link-to-fifo.sqlite")
    os.symlink(fifo, link)
    corpus["symlink-to-fifo"] = link
    corpus["device"] = "/dev/zero"
    corpus["missing"] = os.path.join(work, "does-not-exist.sqlite")
    # Reports: exported with nsys when it is installed (its error must come through, naming the file), otherwise a
    # clear "no nsys" message; never a hang, and nothing written next to them.
    def add_report(name, file_name, content):
        path = os.path.join(work, file_name)
        with open(path, "wb") as f:
            f.write(content)
        corpus[name] = path
    add_report("report-garbage", "garbage.nsys-rep",
               b"NVIDIA Tegra Profiler Report 1.\n" + bytes(rng.getrandbits(8) for _ in range(4000)))
    add_report("report-not-a-report", "text.nsys-rep", b"hello, not a report\n")
    add_report("report-empty", "empty.nsys-rep", b"")
    add_report("report-qdrep-garbage", "old.qdrep", bytes(rng.getrandbits(8) for _ in range(3000)))
    add_report("stream-garbage", "capture.qdstrm", b"U3w[END]NVIDIA Nsight Systems St" + b"\0" * 2000)
    report_dir = os.path.join(work, "folder.nsys-rep")
    os.makedirs(report_dir)
    corpus["report-directory"] = report_dir
    report_fifo = os.path.join(work, "fifo.nsys-rep")
    os.mkfifo(report_fifo)
    corpus["report-fifo"] = report_fifo
    odd = os.path.join(work.encode(), b"caf\xe9-latin1.sqlite")
    shutil.copyfile(base, odd)
    corpus["non-utf8-name"] = odd
    return corpus


NVF1_FIELD = 40


def nvf1_record(host_ts, field, link, nvml_us, value, value_type=3, ret=0, field_size=NVF1_FIELD):
    body = struct.pack("<IIqqIIQ", field, link, nvml_us, 0, value_type, ret, value)
    return struct.pack("<Q", host_ts) + body + bytes(field_size - NVF1_FIELD)


def nvf1_file(records, field_size=NVF1_FIELD):
    return b"NVF1" + struct.pack("<HHi", 1, field_size, 8) + b"".join(records)


def nvf1_polls(count, links=2, jump_at=None, start_us=1_700_000_000_000_000):
    """A recorder-layout recording: TX and RX of each link every millisecond, 1 MB per link and poll."""
    records = []
    for p in range(count):
        for link in range(links):
            for field in (138, 139):
                value = p * 1024 if p != jump_at else 2**62
                records.append(nvf1_record(p + 1, field, link, start_us + p * 1000, value))
    return records


def side_inputs(base, work):
    """Hostile files handed to a command beside a valid export: rule files, phase maps, NVF1 recordings, the
    recorder options of `profile`. name -> (argument list, the hostile path or None, text stderr must hold or None)."""
    side = os.path.join(work, "side")
    os.makedirs(side)
    fifo = os.path.join(side, "fifo")
    os.mkfifo(fifo)

    def write(name, content):
        path = os.path.join(side, name)
        with open(path, "wb") as f:
            f.write(content if isinstance(content, bytes) else content.encode())
        return path

    cases = {}

    # Rule files through `categories` and `compare`, phase maps through `nvtx` and `findings` (one reader each, but
    # each command handles what it returns).
    def rules(name, path, trace=base, expect=None):
        cases["rules-" + name] = (["categories", trace, "--rules", path, "--format", "csv"], path, expect)
        cases["compare-rules-" + name] = (["compare", trace, base, "--by", "category", "--rules", path], path, expect)

    def phases(name, path, trace=base, expect=None):
        cases["phase-map-" + name] = (["nvtx", trace, "--phase-map", path, "--format", "json"], path, expect)
        cases["findings-phase-map-" + name] = (["findings", trace, "--phase-map", path, "--format", "json"], path,
                                               expect)

    def nvlink(name, path):
        cases["nvf1-" + name] = (["nvlink", path, "--metric", "all", "--json"], path, None)

    for name, path in (("dev-zero", "/dev/zero"), ("dev-urandom", "/dev/urandom"), ("fifo", fifo)):
        rules(name, path)
        phases(name, path)
        nvlink(name, path)
    rules("catastrophic-regex", write("slow.json", json.dumps(
        {"e": {"m": {"^(a+)+$": "slow", "(?i)(a|aa)+$": "slower", "!1$": "bang", "gemm": "gemm"}}})))
    # Kernel and NVTX names on which nested quantifiers backtrack exponentially: a rule or phase pattern is flagged,
    # not silently read as "no match".
    long_names = os.path.join(side, "long-a-names.sqlite")
    sql_variant(base, long_names, f"UPDATE StringIds SET value = '{'a' * 40}!' || id "
                                  f"WHERE id IN (SELECT demangledName FROM {KERNEL}) "
                                  "OR id IN (SELECT textId FROM NVTX_EVENTS);"
                                  f"UPDATE NVTX_EVENTS SET text = '{'a' * 40}!' || rowid WHERE text IS NOT NULL;")
    rules("catastrophic-regex-on-its-names", os.path.join(side, "slow.json"), long_names, "too expensive on 'aaaa")
    # Ten thousand catastrophic patterns share one budget: tens of full budgets in all, not three per pattern (40 s).
    rules("10k-catastrophic-regexes", write("slow-10k.json", json.dumps(
        {"e": {"m": {f"^(a+)+$|zz{i}": f"slow{i}" for i in range(10000)}}})), long_names, "too expensive on 'aaaa")
    # 100,000 plain rules against 2,000 distinct kernel names: 200 million searches (54 s) are refused at once.
    many_names = os.path.join(side, "2000-kernel-names.sqlite")
    sql_variant(base, many_names, f"INSERT INTO {KERNEL} SELECT * FROM {KERNEL}; INSERT INTO {KERNEL} SELECT * FROM "
                                  f"{KERNEL};"
                                  "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1999) "
                                  "INSERT INTO StringIds (id, value) SELECT 910000 + i, 'kernel_' || i FROM n;"
                                  f"UPDATE {KERNEL} SET demangledName = 910000 + rowid % 2000, "
                                  "shortName = 910000 + rowid % 2000;")
    rules("100k-rules-2000-names", write("rules-100k.json", json.dumps(
        {"e": {"m": {f"pattern_{i}_x": f"cat{i % 50}" for i in range(100000)}}})), many_names, "rules a rule file may hold")
    rules("python-rejects", write("recursive.json", json.dumps({"e": {"m": {"(?R)": "x"}}})))
    rules("not-json", write("broken.json", "{{{"))
    rules("deep-json", write("deep.json", "[" * 200000 + "]" * 200000))
    rules("oversized", write("huge.json", '{"e": {"m": {"' + "a" * (17 << 20) + '": "x"}}}'))
    rules("wrong-shape", write("shape.json", json.dumps({"e": ["gemm", "x"]})))
    phases("catastrophic-regex", write("slow-phases.json", json.dumps(
        {"slow": ["re:^(a+)+$", "re:(?i)(a|aa)+$"], "bang": ["re:!1$"]})))
    phases("catastrophic-regex-on-its-names", os.path.join(side, "slow-phases.json"), long_names,
           "too expensive on 'aaaa")
    cases["phase-map-catastrophic-regex-in-report"] = (
        ["report", long_names, "--out", os.path.join(side, "report-out"), "--phase-map",
         os.path.join(side, "slow-phases.json")], os.path.join(side, "slow-phases.json"), "too expensive on 'aaaa")
    phases("10k-catastrophic-regexes", write("slow-phases-10k.json", json.dumps(
        {f"slow{i}": [f"re:^(a+)+$|zz{i}"] for i in range(10000)})), long_names, "too expensive on 'aaaa")
    phases("10k-phases", write("many-phases.json", json.dumps(
        {f"phase{i}": [f"re:^layer_{i}(_.*)?$"] for i in range(10000)})))
    phases("python-rejects", write("recursive-phases.json", json.dumps({"p": ["re:(?R)"]})))
    phases("not-json", write("broken-phases.json", "[1, 2"))
    phases("bad-regex", write("bad-phases.json", json.dumps({"p": ["re:(unclosed"]})))
    phases("wrong-shape", write("shape-phases.json", json.dumps({"p": 42})))
    nvlink("one-record", write("one.bin", nvf1_file(nvf1_polls(1, links=1)[:1])))
    nvlink("field-size-41", write("field41.bin", nvf1_file(
        [nvf1_record(1, 138, 0, 1_700_000_000_000_000 + i * 1000, i * 1024, field_size=41) for i in range(50)], 41)))
    nvlink("field-size-4096", write("field4096.bin", nvf1_file(
        [nvf1_record(1, 138, 0, 1_700_000_000_000_000 + i * 1000, i * 1024, field_size=4096)
         for i in range(50)], 4096)))
    nvlink("flipped-counter", write("flipped.bin", nvf1_file(nvf1_polls(200, jump_at=100))))
    nvlink("truncated-header", write("short.bin", b"NVF1\x01\x00"))
    nvlink("partial-last-record", write("partial.bin", nvf1_file(nvf1_polls(100))[:-7]))
    nvlink("wrong-magic", write("magic.bin", b"NVF2" + nvf1_file(nvf1_polls(10))[4:]))
    nvlink("times-backwards", write("backwards.bin", nvf1_file(list(reversed(nvf1_polls(100))))))
    out = os.path.join(side, "profiled")
    for name, options in (("gpus-0-999", ["--nvlink-recorder", "rec --out {out} --gpu {gpu}", "--nvlink-gpus", "0-999"]),
                          ("gpu-twice", ["--nvlink-recorder", "rec --out {out} --gpu {gpu}", "--nvlink-gpus", "0,0"]),
                          ("gpus-not-a-list", ["--nvlink-recorder", "rec {out}", "--nvlink-gpus", "abc"]),
                          ("recorder-without-out", ["--nvlink-recorder", "rec --gpu 0"]),
                          ("recorder-unterminated-quote", ["--nvlink-recorder", "rec '{out}"]),
                          ("recorder-missing-program", ["--nvlink-recorder", "/nonexistent/recorder {out}"])):
        cases["profile-" + name] = (["profile", "-t", "osrt", "-o", out] + options + ["--", "/bin/true"], None, None)
    return cases


def run_side_inputs(binary, base, work, timeout, env, only):
    """Every side input: no crash or hang, a message on refusal, no hostile file changed. Returns (runs, failures)."""
    failures = []
    runs = 0
    for name, (args, path, expect) in side_inputs(base, work).items():
        if only and only not in name:
            continue
        before = fingerprint(path) if path else None
        rc, out, err, elapsed = run_one(binary, args, timeout, env)
        runs += 1
        problem = check(name, rc, out, err, elapsed, timeout)
        if problem is None and path and fingerprint(path) != before:
            problem = "the input changed"
        if problem is None and expect and expect not in err.decode(errors="replace"):
            problem = f"stderr does not say '{expect}'"
        if problem:
            failures.append(f"{name}: {problem}")
        first = err.decode(errors="replace").strip().splitlines()[:1] if err else []
        print(f"{name:36} exit {rc} {elapsed:5.2f} s  {first[0][:90] if first else ''}"
              f"{'  FAIL: ' + problem if problem else ''}", flush=True)
    return runs, failures


# Exports read with damage (rows skipped, ids unknown, strings missing, nesting folded): every command that loads the
# profile and succeeds must say so on stderr. `info` reads the metadata only and `nvlink` finds no NVLink data.
# `analyze` runs nsys's rules as nsys does, reading damaged values as SQL does: it says so for values nsys never
# writes (ANALYZE_DAMAGE), not for ids or names it only passes through.
WARNS_ON_DAMAGE = {"info-load", "stats", "stats-2022", "nvtx", "categories", "compare-self", "compare-base", "export",
                   "iterations", "findings", "report", "nvlink-recording"}
DAMAGE_WARNINGS = {
    "text-in-time-columns": "rows skipped",
    "nulls-in-not-null": "rows skipped",
    "extreme-times": "rows skipped",
    "blob-names": "ids out of range or not integers",
    "huge-ids": "ids out of range or not integers",
    "strings-trimmed": "missing from StringIds",
    "no-stringids": "missing from StringIds",
}
ANALYZE_DAMAGE = {"text-in-time-columns", "nulls-in-not-null"}
# Damage only the commands that read the CPU samples see.
SAMPLE_DAMAGE = {"stackdepth-gaps": "gaps or repeats in stackDepth", "null-and-unknown-symbols": "have no symbol"}
READS_SAMPLES = {"info-load", "samples", "samples-idle", "findings", "report"}
# Only the commands that show the NVTX tree by path fold it.
FOLDING_WARNINGS = {("deep-nvtx-nesting", "nvtx"): "levels deeper than", ("deep-nvtx-nesting", "compare-base"):
                    "ranges below depth 256"}


# Exports every command must refuse, with these words.
REFUSALS = {"locked-by-writer": "in use by another process", "hot-journal": "left by a writer that did not finish"}


def expected_warning(variant, label):
    if (variant, label) in FOLDING_WARNINGS:
        return FOLDING_WARNINGS[(variant, label)]
    if variant in SAMPLE_DAMAGE:
        return SAMPLE_DAMAGE[variant] if label in READS_SAMPLES else None
    if label == "analyze":
        return "rows hold values nsys does not write" if variant in ANALYZE_DAMAGE else None
    if variant not in DAMAGE_WARNINGS or label not in WARNS_ON_DAMAGE:
        return None
    # `nvlink RECORDING --sqlite` reads only the kernels at the peaks and their names: a damaged name elsewhere is
    # never read, but every damaged row of the GPU is counted.
    if label == "nvlink-recording" and DAMAGE_WARNINGS[variant] != "rows skipped":
        return None
    return DAMAGE_WARNINGS[variant]


def commands(trace, base, out_dir, recording):
    return {
        "info": ["info", trace],
        "info-json": ["info", "--format", "json", trace],
        "info-load": ["info", "--load", trace],
        "stats": ["stats", "-r", "cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum,"
                  "osrt_sum,nvtx_sum,nvtx_gpu_proj_sum", "--format", "csv", trace],
        "stats-2022": ["stats", "-r", "nvtx_kern_sum,nvtx_pushpop_sum,nvtx_pushpop_trace,nvtx_startend_sum,"
                       "cuda_api_gpu_sum,um_sum,um_total_sum,um_cpu_page_faults_sum,openacc_sum,openmp_sum", "--format",
                       "csv", trace],
        "nvtx": ["nvtx", trace, "--format", "json"],
        "categories": ["categories", trace, "--rule-set", "vllm", "--model", "llama", "--time-mode", "g2g",
                       "--format", "csv"],
        "nvlink": ["nvlink", trace, "--metric", "all", "--json"],
        "nvlink-recording": ["nvlink", recording, "--sqlite", trace, "--align-start", "--metric", "peak_kernels",
                             "--json"],
        "compare-self": ["compare", trace, trace],
        "compare-base": ["compare", base, trace, "--by", "nvtx", "--format", "json"],
        "analyze": ["analyze", trace, "--format", "json"],
        "export": ["export", "--format", "perfetto", trace],
        "iterations": ["iterations", trace, "--format", "json"],
        "findings": ["findings", trace, "--format", "json"],
        "report": ["report", trace, "--no-charts", "--out", out_dir],
        "samples": ["samples", trace, "--format", "csv"],
        "samples-idle": ["samples", trace, "--during", "gpu-idle", "--view", "top-down", "--format", "json"],
    }


def fingerprint(path):
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISREG(st.st_mode):
        return ("file", hashlib.sha256(open(path, "rb").read()).hexdigest())
    return (stat.S_IFMT(st.st_mode), st.st_ino)


def listing(path, work):
    """The input's folder, when it is one of ours (nothing may be created next to a trace)."""
    if not isinstance(path, str) or not path.startswith(work):
        return None
    return sorted(os.listdir(os.path.dirname(path)))


class LockedByWriter:
    """Holds an exclusive write transaction on the "locked-by-writer" export while its commands run. The writer is a
    process of its own: POSIX locks are per process, and this script's own open/close of the file (fingerprint())
    would release a lock held here."""

    WRITER = ("import sqlite3, sys\n"
              "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
              "c.execute('BEGIN EXCLUSIVE')\n"
              f"c.execute('DELETE FROM {KERNEL} WHERE rowid % 2 = 0')\n"
              "print('locked', flush=True)\n"
              "sys.stdin.read()\n"
              "c.execute('ROLLBACK')\n")

    def __init__(self, name, path):
        self.writer = None
        if name == "locked-by-writer":
            self.writer = subprocess.Popen([sys.executable, "-c", self.WRITER, path], stdin=subprocess.PIPE,
                                           stdout=subprocess.PIPE, text=True)
            if self.writer.stdout.readline().strip() != "locked":
                raise RuntimeError("the writer could not lock " + path)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.writer:
            self.writer.stdin.close()
            self.writer.wait(timeout=30)


# What run_one() keeps of a command's standard output: the checks read whether it printed anything and compare small
# outputs whole.
MAX_KEPT_OUTPUT = 16 << 20


def run_one(binary, args, timeout, env):
    """(exit code or None after the time limit, stdout's first MAX_KEPT_OUTPUT bytes, stderr, seconds). Standard output
    goes to a file: the time limit is the command's, not this script's collecting ~1 GB through a pipe (a table that
    repeats a 1 MB kernel name per row, as nsys stats writes it, took Python 11 s to gather)."""
    with tempfile.TemporaryFile() as stdout:
        started = time.monotonic()
        try:
            p = subprocess.run([binary] + args, stdout=stdout, stderr=subprocess.PIPE, timeout=timeout, env=env,
                               stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return None, b"", b"", time.monotonic() - started
        elapsed = time.monotonic() - started
        stdout.seek(0)
        return p.returncode, stdout.read(MAX_KEPT_OUTPUT), p.stderr, elapsed


def check(name, rc, out, err, elapsed, timeout):
    if rc is None:
        return f"still running after {timeout:.0f} s"
    if rc < 0:
        return f"killed by signal {-rc}: {err.decode(errors='replace')[-400:]}"
    if rc >= 128:
        return f"exit {rc} (a crash?): {err.decode(errors='replace')[-400:]}"
    if rc == 0 and not out.strip():
        return "exit 0 with no output"
    if rc != 0 and not err.strip():
        return f"exit {rc} without a message"
    return None


def output_refusals(binary, base, work, timeout, env):
    """Outputs that must be refused, each with a message naming the path: an input, a FIFO, a directory, a device.
    Returns failures."""
    failures = []
    fifo = os.path.join(work, "output-fifo")
    os.mkfifo(fifo)
    before = fingerprint(base)
    categories = ["categories", base, "--rule-set", "vllm", "--model", "llama"]
    cases = (("-o onto the input", ["info", base, "-o", base], base),
             ("--output= onto the input", ["stats", "-r", "cuda_gpu_kern_sum", base, f"--output={base}"], base),
             ("-o onto a FIFO", ["nvtx", base, "-o", fifo], fifo),
             ("--mapping onto the input", categories + ["--mapping", base], base),
             ("--mapping onto a FIFO", categories + ["--mapping", fifo], fifo),
             ("--png onto the input", categories + ["--png", base], base),
             ("-o onto a directory", ["info", base, "-o", work], work),
             ("-o onto a device", ["stats", "-r", "cuda_gpu_kern_sum", base, "-o", "/dev/full"], "/dev/full"),
             ("nvtx -o onto /dev/null", ["nvtx", base, "-o", "/dev/null"], "/dev/null"),
             ("analyze -o onto the input", ["analyze", base, "-o", base], base),
             ("compare -o onto an input", ["compare", base, base, "-o", base], base),
             ("export -o onto the input", ["export", "--format", "perfetto", base, "-o", base], base),
             ("iterations -o onto the input", ["iterations", base, "-o", base], base),
             ("findings -o onto the input", ["findings", base, "-o", base], base),
             ("samples -o onto the input", ["samples", base, "-o", base], base),
             ("report --out onto the input", ["report", base, "--no-charts", "--out", base], base))
    for label, args, refused in cases:
        rc, out, err, elapsed = run_one(binary, args, timeout, env)
        problem = check(label, rc, out, err, elapsed, timeout)
        if problem is None and rc == 0:
            problem = "accepted"
        if problem is None and os.path.basename(refused) not in err.decode(errors="replace"):
            problem = f"the refusal does not name {refused}: {err.decode(errors='replace')[-200:]}"
        if problem is None and not stat.S_ISFIFO(os.lstat(fifo).st_mode):
            problem = "the FIFO was replaced"
        if problem is None and fingerprint(base) != before:
            problem = "the input changed"
        print(f"{label:36} exit {rc} {elapsed:5.2f} s{'  FAIL: ' + problem if problem else ''}", flush=True)
        if problem:
            failures.append(f"output check '{label}': {problem}")
    return failures


def run_commands(a, name, trace, base, report_dir, recording, env):
    """Every command on one export; returns (runs, failures)."""
    runs = 0
    failures = []
    for label, args in commands(trace, base, report_dir, recording).items():
        before = (fingerprint(trace), listing(trace, a.work))
        shutil.rmtree(report_dir, ignore_errors=True)
        rc, out, err, elapsed = run_one(a.binary, args, a.timeout, env)
        runs += 1
        if label == "report" and rc == 0 and not out.strip():
            out = b"written" if os.path.exists(os.path.join(report_dir, "report.json")) else b""
        problem = check(name, rc, out, err, elapsed, a.timeout)
        text = err.decode(errors="replace")
        if problem is None and name == "valid" and rc not in (0, 4):
            problem = f"exit {rc} on the valid export: {text[-300:]}"
        # A refusal names the file it refuses (its name, as the user typed it or as a path).
        if problem is None and rc != 0 and isinstance(trace, str) and os.path.basename(trace) not in text:
            problem = f"exit {rc} without naming {os.path.basename(trace)}: {text[-200:]}"
        if problem is None and name in REFUSALS and (rc == 0 or REFUSALS[name] not in text):
            problem = f"exit {rc}, not refused as '{REFUSALS[name]}'"
        warning = expected_warning(name, label)
        if problem is None and rc == 0 and warning and warning not in text:
            problem = f"read with damage but stderr does not say '{warning}'"
        if problem is None and (fingerprint(trace), listing(trace, a.work)) != before:
            problem = "the input or its folder changed"
        if problem:
            failures.append(f"{name} / {label}: {problem}")
        print(f"{name:28} {label:14} exit {rc} {elapsed:5.2f} s{'  FAIL: ' + problem if problem else ''}",
              flush=True)
    return runs, failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("tracegen")
    ap.add_argument("work")
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=float, default=20.0)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    base = os.path.join(a.work, "base.sqlite")
    subprocess.run([a.tracegen, "--out", base, "--schema", "2026.2", "--gpus", "2", "--kernels", "600", "--layers",
                    "2", "--seed", "13", "--hpc-activity",
                    "--cpu-samples", "2000"], check=True, stdout=subprocess.DEVNULL)
    # Exports of reports go to a cache of the run's own, outside the inputs' folder; it and the run's other temporary
    # folders go when the run ends (each run left some 320 MB of profile cache in /tmp).
    scratch = []

    def mkdtemp(prefix):
        scratch.append(tempfile.mkdtemp(prefix=prefix))
        return scratch[-1]

    atexit.register(lambda: [shutil.rmtree(d, ignore_errors=True) for d in scratch])
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", NSYS_WORKBENCH_CACHE_DIR=mkdtemp("nsw-cache-"),
               ASAN_OPTIONS="abort_on_error=1:detect_leaks=0:" + os.environ.get("ASAN_OPTIONS", ""),
               UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1")
    report_dir = os.path.join(mkdtemp("nsw-hostile-report-"), "report")
    # A sound NVLink recording, for `nvlink RECORDING --sqlite EXPORT` on every export.
    recording = os.path.join(mkdtemp("nsw-hostile-nvf1-"), "gpu0.bin")
    with sqlite3.connect(base) as db:  # the recording starts at the export's session start, as a real one does
        start_us = db.execute("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME").fetchone()[0] // 1000
    with open(recording, "wb") as f:
        f.write(nvf1_file(nvf1_polls(200, start_us=start_us)))
    corpus = {"valid": base}
    corpus.update(make_corpus(base, a.work))
    failures = []
    runs = 0
    for name, trace in corpus.items():
        if a.only and a.only not in name:
            continue
        with LockedByWriter(name, trace):
            runs_of_one, failures_of_one = run_commands(a, name, trace, base, report_dir, recording, env)
        runs += runs_of_one
        failures += failures_of_one
    side_runs, side_failures = run_side_inputs(a.binary, base, a.work, a.timeout, env, a.only)
    runs += side_runs
    failures += side_failures
    cache_runs, cache_failures = run_cache_inputs(run_one, check, a.binary, base, a.timeout, env, a.only)
    runs += cache_runs
    failures += cache_failures
    if not a.only:
        failures += output_refusals(a.binary, base, a.work, a.timeout, env)
    print(f"\n{runs} runs on {len(corpus)} exports and the side inputs, {len(failures)} failures")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
