#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# packaging/run.sh [TRACE...]: installs what is missing, builds, and opens the workbench on the given exports or
# trace folders, or on the bundled demo profile when none is given.
set -euo pipefail
source "$(dirname "$0")/common.sh"

nsw_install_packages "${NSW_PACKAGES[@]}"
cd "$NSW_ROOT"
cmake --preset release >/dev/null
cmake --build --preset release --target nsys-workbench -j "$(nsw_jobs)"

app="$NSW_ROOT/build/release/app/nsys-workbench"
if [ $# -eq 0 ]; then
    demo=$(ls "$NSW_ROOT"/resources/demo/*.sqlite 2>/dev/null | head -n 1 || true)
    if [ -n "$demo" ]; then
        exec "$app" "$(dirname "$demo")"
    fi
    exec "$app"
fi
exec "$app" "$@"
