#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by run.sh and test.sh: install what is missing (Debian 12 packages only), configure and build.

NSW_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Build tools (lld: faster links), Qt 6.4 (Core/Sql/Gui/Widgets/Test, QSQLITE driver), QCustomPlot (Qt 6 build), JSON, SQLite, PCRE2.
NSW_PACKAGES=(cmake ninja-build g++ pkg-config qt6-base-dev qt6-base-dev-tools libqt6sql6-sqlite
              libqcustomplot-dev nlohmann-json3-dev libsqlite3-dev libpcre2-dev sqlite3 python3
              desktop-file-utils libxml2-utils appstream dpkg-dev lld)

nsw_missing_packages() {
    local missing=()
    for p in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$p")
        fi
    done
    echo "${missing[@]:-}"
}

nsw_install_packages() {
    local missing
    missing=$(nsw_missing_packages "$@")
    [ -z "$missing" ] && return 0
    echo "Installing missing packages: $missing"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "Need root (or sudo) to install: $missing" >&2; return 1; }
        sudo="sudo"
    fi
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
}

nsw_jobs() {
    nproc 2>/dev/null || echo 2
}

# ctest with its arguments. CTest shows a skipped test as "Skipped" (tests/CMakeLists.txt) but exits 0; under CI=true,
# where every dependency of the tests is installed, a skip fails the run: the skipped tests and their SKIP lines are
# printed.
nsw_ctest() {
    local log status=0
    log=$(mktemp)
    ctest "$@" 2>&1 | tee "$log" || status=$?
    if [ "${CI:-}" = true ] && grep -q '(Skipped)$' "$log"; then
        echo "CI: skipped tests fail the run (their dependencies are installed here):" >&2
        grep '(Skipped)$' "$log" >&2
        status=1
    fi
    rm -f "$log"
    return "$status"
}
