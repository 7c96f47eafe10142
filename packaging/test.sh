#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# packaging/test.sh: installs what is missing, builds everything (tests included) and runs every test headless.
set -euo pipefail
source "$(dirname "$0")/common.sh"

# slurmctld slurmd slurm-client munge: the single-node Slurm cluster of the slurm_summarize test.
nsw_install_packages "${NSW_PACKAGES[@]}" xvfb xauth shared-mime-info libglib2.0-bin clang libclang-rt-14-dev \
    slurmctld slurmd slurm-client munge
cd "$NSW_ROOT"
cmake --preset dev
cmake --build --preset dev -j "$(nsw_jobs)"
export QT_QPA_PLATFORM=offscreen
nsw_ctest --preset dev -j "$(nsw_jobs)"
if [ -f "$NSW_ROOT/tests/fuzz/run-fuzzers.sh" ]; then
    "$NSW_ROOT/tests/fuzz/run-fuzzers.sh"
fi
