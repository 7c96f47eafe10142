#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Validates the desktop entry, the MIME type and the AppStream metainfo with the platform's own validators.
# Exit 77 (CTest SKIP_RETURN_CODE: shown as skipped) when a validator or a real export to check is missing.
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
# What a file manager would call the demo export and a plain SQLite file, with our MIME type installed.
mime_type_of() {
    XDG_DATA_HOME="$tmp" gio info -a standard::content-type "$1" | sed -n 's/.*content-type: //p'
}
if command -v update-mime-database >/dev/null && command -v gio >/dev/null; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp/mime/packages"
    cp "$dir/nsys-workbench-mime.xml" "$tmp/mime/packages/"
    update-mime-database "$tmp/mime" 2>/dev/null || exit 1
    cp "$dir/../resources/demo/demo-llm-inference.sqlite" "$tmp/report.sqlite"
    detected=$(mime_type_of "$tmp/report.sqlite")
    [ "$detected" = application/vnd.nvidia.nsys-sqlite ] || { echo "report.sqlite detected as '$detected'"; exit 1; }
    traces="$dir/../../shared/traces"
    if [ -f "$traces/nsys2021_quadro6000_mordred.sqlite" ]; then
        head -c 65536 "$traces/nsys2021_quadro6000_mordred.sqlite" > "$tmp/renamed.db"
        detected=$(mime_type_of "$tmp/renamed.db")
        [ "$detected" = application/vnd.nvidia.nsys-sqlite ] || { echo "renamed.db detected as '$detected'"; exit 1; }
    else
        echo "SKIP magic check of a renamed export: $traces not present"
        [ "${NSW_REQUIRE_SHARED_TRACES:-}" = 1 ] && { echo "NSW_REQUIRE_SHARED_TRACES is set"; exit 1; }
        missing=1
    fi
else
    echo "update-mime-database or gio not installed: MIME detection not checked"; missing=1
fi
if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$dir/io.github.nsys_workbench.metainfo.xml" || exit 1
else
    echo "appstreamcli not installed: metainfo not checked"; missing=1
fi
[ "$missing" -eq 0 ] || exit 77
echo "packaging files valid"
