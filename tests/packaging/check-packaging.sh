#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Validates the desktop entry, the MIME type and the AppStream metainfo with the platform's own validators.
# Exit 77 (CTest SKIP_RETURN_CODE) when a validator is not installed.
set -u
dir=$(cd "$(dirname "$0")/../../packaging" && pwd)
missing=0
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$dir/nsys-workbench.desktop" || exit 1
else
    echo "desktop-file-validate not installed: desktop entry not checked"; missing=1
fi
if command -v xmllint >/dev/null; then
    xmllint --noout "$dir/nsys-workbench-mime.xml" || exit 1
else
    echo "xmllint not installed: MIME type not checked"; missing=1
fi
if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$dir/io.github.nsys_workbench.metainfo.xml" || exit 1
else
    echo "appstreamcli not installed: metainfo not checked"; missing=1
fi
[ "$missing" -eq 0 ] || exit 77
echo "packaging files valid"
