#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Extract the per-version export schema data used by nsw_tracegen.

Reads the real Nsight Systems exports (read-only) and writes one JSON file per
supported nsys version into tests/tracegen/schemas/.  Run once by hand when a
new version is added; the generator never reads the real files at run time.

  tools/extract_schemas.py [--traces DIR] [--out DIR]

For every table the generator writes the JSON holds the CREATE statement
exactly as nsys wrote it (sqlite_master.sql) and the column list as
PRAGMA table_info reports it.  A table the version's real file lacks is
derived from the nearest version that has it, adding/removing the columns
whose introduction the schema notes date (COLUMN_HISTORY); GPU metrics and
graph trace tables, which no real file has, come from NVIDIA's published
schema reference ("documented").  Columns appended by third-party tools with
ALTER TABLE (DLProf, pipit) are stripped and recorded.
"""
import argparse
import json
import os
import re
import sqlite3
import sys

VERSIONS = {
    "2021": "nsys2021_quadro6000_mordred.sqlite",
    "2022.1": "nsys2022.1_rtx2070_pytorch_dlprof_nvtx.sqlite",
    "2022.2": "nsys2022.2_a100_mpi_saxpy_nvtx.sqlite",
    "2022.4": "nsys2022.4_t4_vecadd.sqlite",
    "2023.3": "nsys2023.3_t4_openmp_offload.sqlite",
    "2023.4": "nsys2023.4_h100_cudaq_vqe_nokernels.sqlite",
    "2024.6": "nsys2024.6_h200_nvfuser_nvtx.sqlite",
    "2025.1": "nsys2025.1_t4_softmax_memcpy_heavy.sqlite",
    "2025.3": "nsys2025.3_rtxa5000_nokernels_osrt.sqlite",
    "2025.5": "nsys2025.5_rtx3060_vecadd_osrt.sqlite",
    "2026.1": "nsys2026.1_rtx3080_small.sqlite",
    "2026.2": "nsys2026.2_h100x2_mfu_before_nccl.sqlite",
}

# Tables the generator writes, in the order they are created.  (since, until) bound the versions that
# have the table at all; outside that range a missing table is correct, not something to derive.
TABLES = [
    ("StringIds", None, None),
    ("ThreadNames", None, None),
    ("PROCESSES", "2022.1", None),
    ("TARGET_INFO_SESSION_START_TIME", "2022.1", None),
    ("ANALYSIS_DETAILS", "2022.1", None),
    ("TARGET_INFO_SYSTEM_ENV", "2022.1", None),
    ("TARGET_INFO_GPU", None, None),
    ("TARGET_INFO_CUDA_DEVICE", "2025.1", None),
    ("TARGET_INFO_CUDA_NULL_STREAM", None, "2023.3"),
    ("TARGET_INFO_CUDA_CONTEXT_INFO", "2023.4", None),
    ("TARGET_INFO_CUDA_STREAM", None, None),
    ("EXPORT_META_DATA", "2022.1", "2023.2"),
    ("META_DATA_EXPORT", "2023.3", None),
    ("META_DATA_CAPTURE", "2023.3", None),
    ("CUPTI_ACTIVITY_KIND_RUNTIME", None, None),
    ("CUPTI_ACTIVITY_KIND_KERNEL", None, None),
    ("CUPTI_ACTIVITY_KIND_MEMCPY", None, None),
    ("CUPTI_ACTIVITY_KIND_MEMSET", None, None),
    ("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", None, None),
    ("CUPTI_ACTIVITY_KIND_CUDA_EVENT", "2022.1", None),
    ("CUPTI_ACTIVITY_KIND_GRAPH_TRACE", None, None),
    # Unified memory, OpenMP and OpenACC tables (the nsys stats reports um_*, openmp_sum, openacc_sum read them):
    # only the 2022.2 file has them; the other versions take its columns (no column history is known for them up
    # to 2026.2; NVIDIA's 2026.4 schema reference adds sourceFile/sourceLine to the CPU page faults). Not before
    # 2022.1: the 2021 file's MEMCPY has no virtualAddress, which the unified memory reports read.
    ("CUDA_UM_CPU_PAGE_FAULT_EVENTS", "2022.1", None),
    ("CUDA_UM_GPU_PAGE_FAULT_EVENTS", "2022.1", None),
    ("NVTX_EVENTS", None, None),
    ("OPENMP_EVENT_KIND_THREAD", "2022.1", None),
    ("OPENMP_EVENT_KIND_PARALLEL", "2022.1", None),
    ("OPENMP_EVENT_KIND_SYNC_REGION_WAIT", "2022.1", None),
    ("OPENMP_EVENT_KIND_SYNC_REGION", "2022.1", None),
    ("OPENMP_EVENT_KIND_TASK", "2022.1", None),
    ("OPENMP_EVENT_KIND_MASTER", "2022.1", None),
    ("OPENMP_EVENT_KIND_REDUCTION", "2022.1", None),
    ("OPENMP_EVENT_KIND_TASK_CREATE", "2022.1", None),
    ("OPENMP_EVENT_KIND_TASK_SCHEDULE", "2022.1", None),
    ("OPENMP_EVENT_KIND_CANCEL", "2022.1", None),
    ("OPENMP_EVENT_KIND_MUTEX_WAIT", "2022.1", None),
    ("OPENMP_EVENT_KIND_CRITICAL_SECTION", "2022.1", None),
    ("OPENMP_EVENT_KIND_MUTEX_RELEASED", "2022.1", None),
    ("OPENMP_EVENT_KIND_LOCK_INIT", "2022.1", None),
    ("OPENMP_EVENT_KIND_LOCK_DESTROY", "2022.1", None),
    ("OPENMP_EVENT_KIND_WORKSHARE", "2022.1", None),
    ("OPENMP_EVENT_KIND_DISPATCH", "2022.1", None),
    ("OPENMP_EVENT_KIND_FLUSH", "2022.1", None),
    ("CUPTI_ACTIVITY_KIND_OPENACC_DATA", "2022.1", None),
    ("CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH", "2022.1", None),
    ("CUPTI_ACTIVITY_KIND_OPENACC_OTHER", "2022.1", None),
    ("TARGET_INFO_GPU_METRICS", None, None),
    ("GPU_METRICS", None, None),
    # CPU sampling (nsys profile -s cpu): the samples and their call stacks, one row per frame.
    ("COMPOSITE_EVENTS", "2022.1", None),
    ("SAMPLING_CALLCHAINS", "2022.1", None),
]

# Column -> first version that has it (nsys-sqlite-schema.md §3/§4, checked below against every real file).
COLUMN_HISTORY = {
    "CUPTI_ACTIVITY_KIND_KERNEL": {
        "mangledName": "2022.1", "greenContextId": "2024.5",
        "qmdBulkReleaseDone": "2025.5", "qmdPreexitDone": "2025.5", "qmdLastCtaDone": "2025.5", "graphId": "2025.5",
        "clusterX": "2025.5", "clusterY": "2025.5", "clusterZ": "2025.5", "clusterSchedulingPolicy": "2025.5",
        "maxPotentialClusterSize": "2025.5", "maxActiveClusters": "2025.5",
        "sharedMemoryRequestedPercentage": "2026.1", "tensorSizeMinusOneElements": "2026.2"},
    "CUPTI_ACTIVITY_KIND_MEMCPY": {"greenContextId": "2024.5", "copyCount": "2025.1"},
    "CUPTI_ACTIVITY_KIND_MEMSET": {"greenContextId": "2024.5"},
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION": {"greenContextId": "2024.5", "deprecatedSyncType": "2025.1",
                                            "eventSyncId": "2025.1"},
    "CUPTI_ACTIVITY_KIND_CUDA_EVENT": {"timestamp": "2026.2", "greenContextId": "2026.2", "eventSyncId": "2026.2"},
    "NVTX_EVENTS": {"binaryData": "2024.6"},
    "TARGET_INFO_CUDA_DEVICE": {"uuid": "2026.1", "numMultiprocessors": "2026.1"},
    "TARGET_INFO_CUDA_CONTEXT_INFO": {"numMultiprocessors": "2026.1"},
    "TARGET_INFO_SESSION_START_TIME": {"systemClockNs": "2026.1"},
    # From the NVIDIA schema references: the older (~2024) one has no rawTimestamp, the 2026.4 one has it.  The
    # version that added it is not known; 2025.1 is an assumption.
    "GPU_METRICS": {"rawTimestamp": "2025.1"},
}

DOC_REF = "NVIDIA Nsight Systems User Guide, SQLite Schema Reference"
DOCUMENTED = {
    "CUPTI_ACTIVITY_KIND_GRAPH_TRACE": """CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    graphId                     INTEGER   NOT NULL,                    -- REFERENCES CUDA_GRAPH_EVENTS(graphId)
    graphExecId                 INTEGER   NOT NULL                     -- REFERENCES CUDA_GRAPH_EVENTS(graphExecId)
)""",
    "TARGET_INFO_GPU_METRICS": """CREATE TABLE TARGET_INFO_GPU_METRICS (
    -- GPU Metrics, metric names and ids.

    typeId                      INTEGER   NOT NULL,                    -- REFERENCES GENERIC_EVENT_TYPES(typeId)
    sourceId                    INTEGER   NOT NULL,                    -- REFERENCES GENERIC_EVENT_SOURCES(sourceId)
    typeName                    TEXT      NOT NULL,                    -- Name of event type.
    metricId                    INTEGER   NOT NULL,                    -- Id of metric in event; not assumed to be stable.
    metricName                  TEXT      NOT NULL                     -- Definitive name of metric.
)""",
    "GPU_METRICS": """CREATE TABLE GPU_METRICS (
    -- GPU Metrics, events and values.

    rawTimestamp                INTEGER   NOT NULL,                    -- Raw event timestamp recorded during profiling.
    timestamp                   INTEGER   NOT NULL,                    -- Event timestamp (ns).
    typeId                      INTEGER   NOT NULL,                    -- REFERENCES TARGET_INFO_GPU_METRICS(typeId) and GENERIC_EVENT_TYPES(typeId)
    metricId                    INTEGER   NOT NULL,                    -- REFERENCES TARGET_INFO_GPU_METRICS(metricId)
    value                       INTEGER   NOT NULL                     -- Counter data value
)""",
}
# The older reference declares GPU_METRICS.timestamp nullable (no rawTimestamp column yet).
OLD_GPU_METRICS_TIMESTAMP = (
    "    timestamp                   INTEGER,                               -- Event timestamp (ns).")

# Metadata values that identify the original machine, user or files; the generator fills them in.
META_TOKENS = {
    "EXPORT_TIME": "${EXPORT_TIME}",
    "EXPORT_TIME_UTC": "${EXPORT_TIME_UTC}",
    "EXPORT_TIME_LOCAL": "${EXPORT_TIME_LOCAL}",
    "EXPORT_HOST": "${HOST}",
    "EXPORT_USER": "${USER}",
}
SYSENV_KEEP = ["CpuCores", "CpuArchitecture", "CpuDescription", "NvDriverVersion", "HardwarePlatform",
               "SoftwarePlatform", "OsDescription", "CudaDriverVersion", "Hostname", "HasNvtxEvents", "HasCudaEvents",
               "SupportsGpuMetrics", "SupportsNCCL"]


def vkey(v):
    parts = v.split(".")
    return (int(parts[0]), int(parts[1]) if len(parts) > 1 else 0)


def in_range(v, since, until):
    return (since is None or vkey(v) >= vkey(since)) and (until is None or vkey(v) <= vkey(until))


def style(sql):
    """How nsys rendered CREATE TABLE in that version: one line (2021), REFERENCES as SQL (2022.1/2),
    REFERENCES inside the comments (2022.4 on)."""
    if "\n" not in sql:
        return "oneline"
    return "inline-refs" if re.search(r"INTEGER\s+(NOT NULL\s+)?REFERENCES", sql) else "comment-refs"


# Columns a third-party tool spliced into a column's line ("stackDepth INTEGER NOT NULL, symbolName TEXT, -- ..." in
# the 2022.2 file's SAMPLING_CALLCHAINS).
SPLICED = re.compile(r", (symbolName) TEXT(?=,\s+--)")


def split_appended(sql):
    """Split off columns a third-party tool appended with ALTER TABLE ADD COLUMN (they follow the closing
    line of nsys's own column list as '\\n, name TYPE, ...)')."""
    spliced = SPLICED.findall(sql)
    if spliced:
        return SPLICED.sub("", sql), spliced
    m = re.search(r"\n(, [^\n]*)\)$", sql)
    if not m:
        return sql, []
    names = [c.strip().split()[0] for c in m.group(1)[1:].split(",") if c.strip()]
    return sql[:m.start()] + "\n)", names


def table_info(db, table):
    return [[r[1], r[2], bool(r[3]), r[5]] for r in db.execute(f'PRAGMA table_info("{table}")')]


def column_lines(sql):
    """(head, [(name, line)], tail) of a multi-line nsys CREATE TABLE."""
    lines = sql.split("\n")
    head, cols, tail = [], [], []
    for ln in lines:
        m = re.match(r"^\s+([A-Za-z_][A-Za-z0-9_]*)\s+(INTEGER|TEXT|REAL)\b", ln)
        if m and not tail:
            cols.append((m.group(1), ln))
        elif not cols:
            head.append(ln)
        else:
            tail.append(ln)
    return head, cols, tail


def set_comma(line, comma):
    code, sep, comment = line.partition("--")
    stripped = code.rstrip()
    has = stripped.endswith(",")
    if has == comma:
        return line
    if comma:
        if comment:
            # Take the comma's room from the padding so the comments stay aligned.
            pad = len(code) - len(stripped)
            return stripped + "," + " " * max(pad - 1, 1) + sep + comment
        return stripped + ","
    body = stripped[:-1]
    if comment:
        return body + " " * (len(code) - len(body)) + sep + comment
    return body


def rebuild(sql, want, donors):
    """Edit a multi-line CREATE TABLE to hold exactly the columns in `want` (ordered).  Lines of columns
    the source lacks are taken from `donors` (name -> line)."""
    head, cols, tail = column_lines(sql)
    have = dict(cols)
    out = []
    for name in want:
        out.append(have.get(name) or donors[name])
    # A table constraint after the columns (SAMPLING_CALLCHAINS' PRIMARY KEY) needs a comma after the last one.
    constrained = any(ln.strip().startswith(("PRIMARY KEY", "UNIQUE", "FOREIGN KEY")) for ln in tail)
    out = [set_comma(ln, i + 1 < len(out) or constrained) for i, ln in enumerate(out)]
    return "\n".join(head + out + tail)


def oneline(table, columns):
    defs = []
    for name, typ, notnull, pk in columns:
        d = f"{name} {typ}"
        if notnull:
            d += " NOT NULL"
        if pk:
            d += " PRIMARY KEY"
        defs.append(d)
    return f"CREATE TABLE {table} ({', '.join(defs)})"


def load_real(traces):
    real = {}
    for ver, fname in VERSIONS.items():
        path = os.path.join(traces, fname)
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        tabs = {}
        for name, sql in db.execute("SELECT name, sql FROM sqlite_master WHERE type='table'"):
            clean, appended = split_appended(sql)
            cols = [c for c in table_info(db, name) if c[0] not in appended]
            tabs[name] = {"sql": clean, "columns": cols, "appended": appended}
            if name.startswith("ENUM_"):
                tabs[name]["rows"] = [list(r) for r in db.execute(f'SELECT * FROM "{name}" ORDER BY rowid')]
        meta = None
        for mt in ("META_DATA_EXPORT", "EXPORT_META_DATA"):
            if mt in tabs:
                meta = (mt, [list(r) for r in db.execute(f"SELECT name, value FROM {mt} ORDER BY rowid")])
                break
        capture = None
        if "META_DATA_CAPTURE" in tabs:
            capture = [list(r) for r in db.execute("SELECT name, value FROM META_DATA_CAPTURE ORDER BY rowid")]
        sysenv = None
        if "TARGET_INFO_SYSTEM_ENV" in tabs:
            sysenv = [list(r) for r in db.execute("SELECT name, nameEnum FROM TARGET_INFO_SYSTEM_ENV ORDER BY rowid")]
        real[ver] = {"tables": tabs, "meta": meta, "capture": capture, "sysenv": sysenv}
        db.close()
    return real


def check_history(real):
    for table, hist in COLUMN_HISTORY.items():
        for ver, r in real.items():
            t = r["tables"].get(table)
            if not t:
                continue
            names = {c[0] for c in t["columns"]}
            for col, since in hist.items():
                expect = vkey(ver) >= vkey(since)
                if (col in names) != expect:
                    sys.exit(f"column history wrong: {table}.{col} since {since}, but {ver} "
                             f"{'has' if col in names else 'lacks'} it")


def derive(real, ver, table):
    """Columns and CREATE text of `table` for version `ver`, which has no real file with it."""
    target_style = style(real[ver]["tables"]["CUPTI_ACTIVITY_KIND_RUNTIME"]["sql"])
    hist = COLUMN_HISTORY.get(table, {})
    candidates = [v for v in VERSIONS if table in real[v]["tables"]]
    if not candidates:
        return None
    order = list(VERSIONS)

    def rank(v):
        s = style(real[v]["tables"][table]["sql"])
        same = s == target_style or (target_style == "oneline")
        return (0 if same else 1, abs(order.index(v) - order.index(ver)), -vkey(v)[0], -vkey(v)[1])

    src = min(candidates, key=rank)
    s = real[src]["tables"][table]
    present = lambda col: col not in hist or vkey(ver) >= vkey(hist[col])
    # Column order: the union over all versions, in the order the newest version that has them uses.
    want, donors = [], {}
    for v in sorted(candidates, key=vkey, reverse=True):
        t = real[v]["tables"][table]
        _, lines, _ = column_lines(t["sql"]) if "\n" in t["sql"] else (None, [], None)
        for name, line in lines:
            donors.setdefault(name, line)
    ref_cols = []
    for v in sorted(candidates, key=vkey, reverse=True):
        for c in real[v]["tables"][table]["columns"]:
            if c[0] not in [x[0] for x in ref_cols]:
                # Insert after its predecessor in that version.
                cols_v = [x[0] for x in real[v]["tables"][table]["columns"]]
                i = cols_v.index(c[0])
                prev = cols_v[i - 1] if i else None
                pos = [x[0] for x in ref_cols].index(prev) + 1 if prev in [x[0] for x in ref_cols] else len(ref_cols)
                ref_cols.insert(pos, c)
    columns = [c for c in ref_cols if present(c[0])]
    want = [c[0] for c in columns]
    removed = [c[0] for c in s["columns"] if c[0] not in want]
    added = [c for c in want if c not in [x[0] for x in s["columns"]]]
    if target_style == "oneline":
        sql = oneline(table, columns)
    else:
        sql = rebuild(s["sql"], want, donors)
    note = f"derived from {src}"
    if removed:
        note += "; removed " + ", ".join(removed)
    if added:
        note += "; added " + ", ".join(added)
    if target_style == "oneline":
        note += "; rendered in the one-line 2021 style"
    return {"origin": "derived", "note": note, "sql": sql, "columns": columns}


def documented(ver, table, target_style):
    sql = DOCUMENTED[table]
    hist = COLUMN_HISTORY.get(table, {})
    note = DOC_REF
    if table == "GPU_METRICS" and vkey(ver) < vkey(hist["rawTimestamp"]):
        head, cols, tail = column_lines(sql)
        cols = [(n, OLD_GPU_METRICS_TIMESTAMP if n == "timestamp" else ln) for n, ln in cols if n != "rawTimestamp"]
        sql = "\n".join(head + [ln for _, ln in cols] + tail)
        note += " (pre-rawTimestamp layout; the version boundary 2025.1 is assumed)"
    columns = []
    for name, line in column_lines(sql)[1]:
        code = line.split("--")[0]
        typ = re.match(r"^\s+\w+\s+(\w+)", code).group(1)
        columns.append([name, typ, "NOT NULL" in code, 1 if "PRIMARY KEY" in code else 0])
    if target_style == "oneline":
        sql = oneline(table, columns)
        note += "; rendered in the one-line 2021 style"
    return {"origin": "documented", "note": note, "sql": sql, "columns": columns}


def tokenise_meta(rows):
    out = []
    for k, v in rows:
        if k.startswith("DERIVED_"):
            continue  # added by nsys-ai when it cut its fixture
        if k in META_TOKENS:
            v = META_TOKENS[k]
        elif re.search(r"_(INPUT|OUTPUT|OUTUPT)_(FILE|PATH|PATH_ABS)$", k):
            kind = "REP" if "_INPUT_" in k else "OUT"
            v = "${" + kind + ("_FILE" if k.endswith("_FILE") else "_PATH") + "}"
        out.append([k, v])
    return out


def tokenise_capture(rows):
    out = []
    for k, v in rows:
        if k.endswith(":ENVIRONMENT_VARIABLE") or re.search(r":ARGUMENT_\d+$", k):
            continue
        if k == "CAPTURE_EVENT_TYPE":
            continue  # the generator writes its own event types
        if k.endswith(":COMMAND"):
            v = "${COMMAND}"
        elif k.endswith(":WORKING_DIR"):
            v = "${WORKING_DIR}"
        elif k == "DEVICE_DISPLAY_NAME":
            v = "${HOST}"
        elif k == "PROFILING_SESSION_UUID":
            v = "${UUID}"
        elif k == "RUN_DURATION_MS":
            v = "${DURATION_MS}"
        out.append([k, v])
    return out


def build(real, ver):
    r = real[ver]
    target_style = style(r["tables"]["CUPTI_ACTIVITY_KIND_RUNTIME"]["sql"])
    tables = []
    for name, since, until in TABLES:
        if not in_range(ver, since, until):
            continue
        if name in r["tables"]:
            t = r["tables"][name]
            entry = {"origin": "real", "note": "", "sql": t["sql"], "columns": t["columns"]}
            if t["appended"]:
                entry["note"] = "stripped third-party columns " + ", ".join(t["appended"])
        elif name in DOCUMENTED:
            entry = documented(ver, name, target_style)
        else:
            entry = derive(real, ver, name)
        tables.append({"name": name, **entry})
    for name in sorted(n for n in r["tables"] if n.startswith("ENUM_")):
        t = r["tables"][name]
        tables.append({"name": name, "origin": "real", "note": "", "sql": t["sql"], "columns": t["columns"],
                       "rows": t["rows"]})
    doc = {"SPDX-License-Identifier": "GPL-3.0-or-later", "version": ver, "sourceFile": VERSIONS[ver],
           "tables": tables}
    if r["meta"]:
        mt, rows = r["meta"]
        vals = dict(rows)
        doc["productVersion"] = vals.get("EXPORT_PRODUCT_VERSION", "")
        doc["schemaVersion"] = vals.get("EXPORT_SCHEMA_VERSION", "")
        doc["exportMeta"] = {"table": mt, "rows": tokenise_meta(rows)}
    if r["capture"]:
        doc["captureMeta"] = tokenise_capture(r["capture"])
    if r["sysenv"]:
        seen, keep = set(), []
        for name, enum in r["sysenv"]:
            if name in SYSENV_KEEP and name not in seen:
                seen.add(name)
                keep.append([name, enum])
        doc["systemEnv"] = keep
    return doc


def dump(doc):
    """Compact JSON with one line per top-level key and per table, so diffs stay readable."""
    c = lambda v: json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    lines = []
    for k, v in doc.items():
        if k == "tables":
            lines.append(c(k) + ":[\n" + ",\n".join(c(t) for t in v) + "\n]")
        else:
            lines.append(c(k) + ":" + c(v))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--traces", default=os.path.normpath(os.path.join(here, "../../../../shared/traces")))
    ap.add_argument("--out", default=os.path.normpath(os.path.join(here, "../schemas")))
    a = ap.parse_args()
    real = load_real(a.traces)
    check_history(real)
    os.makedirs(a.out, exist_ok=True)
    for ver in VERSIONS:
        doc = build(real, ver)
        with open(os.path.join(a.out, f"{ver}.json"), "w", encoding="utf-8") as f:
            f.write(dump(doc))
        summary = ", ".join(f"{t['name']}={t['origin']}" for t in doc["tables"] if not t["name"].startswith("ENUM_")
                            and t["origin"] != "real")
        print(f"{ver}: {len(doc['tables'])} tables; not real: {summary or '-'}")


if __name__ == "__main__":
    main()
