#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs every analyze rule with a spread of option sets on every export given, with nsys-workbench and with the real
`nsys analyze` (2022.4, old rule names), and compares the CSV (or the SKIPPED message) byte for byte.

usage: compare-nsys.py NSYS_WORKBENCH TRACE.sqlite... [--nsys nsys] [--show-diff]
Prints one line per difference and a last line 'identical N/M'; exit 1 when any differs.
"""
import argparse
import sqlite3
import subprocess
import sys

RULES = [('cuda_memcpy_async', 'cuda-async-memcpy'), ('cuda_memcpy_sync', 'cuda-sync-memcpy'),
         ('cuda_memset_sync', 'cuda-sync-memset'), ('cuda_api_sync', 'cuda-sync-api'),
         ('gpu_gaps', 'gpu-starv'), ('gpu_time_util', 'gpu-low-util')]
EXTRA = {
    'gpu_gaps': ['gap=0', 'gap=1', 'gap=0:rows=7', 'gap=10'],
    'gpu_time_util': ['threshold=90', 'threshold=100:chunks=7', 'chunks=1000:threshold=80', 'chunks=1',
                      'chunks=0', 'threshold=101:chunks=999'],
}


def span(path):
    con = sqlite3.connect(f'file:{path}?mode=ro&immutable=1', uri=True)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    lo, hi = None, None
    for t in ('CUPTI_ACTIVITY_KIND_KERNEL', 'CUPTI_ACTIVITY_KIND_RUNTIME', 'CUPTI_ACTIVITY_KIND_MEMCPY'):
        if t in tables:
            a, b = con.execute(f'SELECT min(start), max(end) FROM {t}').fetchone()
            if a is not None:
                lo = a if lo is None else min(lo, a)
                hi = b if hi is None else max(hi, b)
    nvtx = None
    if 'NVTX_EVENTS' in tables:
        cols = {r[1] for r in con.execute("SELECT * FROM pragma_table_info('NVTX_EVENTS')")}
        text = "coalesce(n.text, s.value)" if 'textId' in cols else 'n.text'
        join = 'LEFT JOIN StringIds s ON s.id = n.textId' if 'textId' in cols else ''
        row = con.execute(f"SELECT {text} FROM NVTX_EVENTS n {join} WHERE n.eventType IN (59, 60, 70, 71) "
                          f"AND (n.domainId IS NULL OR n.domainId = 0) "
                          f"ORDER BY n.rowid LIMIT 1 OFFSET 3").fetchone()
        if row and row[0] and ',' not in row[0] and ':' not in row[0]:
            nvtx = row[0]
    return lo, hi, nvtx


def option_sets(rule, path):
    sets = ['', 'rows=3', 'rows=0', 'rows=-1']
    lo, hi, nvtx = span(path)
    if lo is not None:
        q = (hi - lo) // 4
        sets += [f'start={lo + q}', f'end={hi - q}', f'start={lo + q}:end={hi - q}', f'start={hi}:end={lo}']
    if nvtx:
        sets.append(f'nvtx={nvtx}')
    sets.append('nvtx=no such range')
    return sets + EXTRA.get(rule, [])


def run_nsys(nsys, trace, rules):
    """One nsys run for every rule: each block's SKIPPED line, or its non-empty lines (the CSV)."""
    out = subprocess.run([nsys, 'analyze', '-f', 'csv', '-r', ','.join(rules), trace], capture_output=True, text=True)
    blocks = []
    for line in out.stdout.splitlines():
        if line.startswith('Processing ['):
            blocks.append('')
        elif blocks and line:
            if line.startswith('SKIPPED: '):
                blocks[-1] = line + '\n'
            elif not blocks[-1].startswith('SKIPPED: '):
                blocks[-1] += line + '\n'
    return blocks


def run_ours(binary, trace, rule):
    out = subprocess.run([binary, 'analyze', '--format', 'csv', '-r', rule, trace], capture_output=True, text=True)
    skipped = [l[l.index('SKIPPED: '):] for l in out.stderr.splitlines() if 'SKIPPED: ' in l]
    if skipped:
        return skipped[0] + '\n'
    lines = out.stdout.splitlines()
    return '\n'.join(l for l in lines if l) + ('\n' if any(lines) else '')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('binary')
    ap.add_argument('traces', nargs='+')
    ap.add_argument('--nsys', default='nsys')
    ap.add_argument('--show-diff', action='store_true')
    args = ap.parse_args()
    same = total = 0
    for trace in args.traces:
        cases = [(ours, old, (':' + o) if o else '') for ours, old in RULES for o in option_sets(ours, trace)]
        expected = run_nsys(args.nsys, trace, [old + suffix for _, old, suffix in cases])
        if len(expected) != len(cases):
            print(f'nsys gave {len(expected)} blocks for {len(cases)} rules on {trace}')
            return 2
        for (ours, old, suffix), want in zip(cases, expected):
            got = run_ours(args.binary, trace, ours + suffix)
            total += 1
            if want == got:
                same += 1
                continue
            print(f'DIFF {trace} {ours}{suffix}')
            if args.show_diff:
                print('--- nsys\n' + want + '--- ours\n' + got)
    print(f'identical {same}/{total}')
    return 0 if same == total else 1


if __name__ == '__main__':
    sys.exit(main())
