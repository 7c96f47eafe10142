#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A benchmark's smoke run (CTest label "bench"): runs it once on a small input and fails unless it exits 0 and the
last line it prints matches the format its issue names.

    bench-smoke.py LAST_LINE_REGEX -- BENCHMARK [ARGS...]

The regex must match the whole last non-empty line of stdout. The numbers are not judged: a small input says nothing
about speed, only that the benchmark still runs to its end and prints what run-benchmarks.sh reads."""
import re
import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    pattern, command = sys.argv[1], sys.argv[3:]
    run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        print(f"FAIL: {command[0]} exited with {run.returncode}", file=sys.stderr)
        return 1
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    if not re.fullmatch(pattern, last):
        print(f"FAIL: the last line\n  {last!r}\ndoes not match the benchmark's format\n  {pattern}", file=sys.stderr)
        return 1
    print(f"smoke run ok: {last}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
