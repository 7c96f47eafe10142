#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CTest ci_debian_sources: .ci/debian-sources.sh adds contrib/non-free on the machine's own Debian entry (deb822 or
# one-line format), and no file of the repository names a Debian mirror host.
set -u
root=${1:?usage: check-debian-sources.sh SOURCE_DIR}
source "$root/.ci/debian-sources.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
expect() { # name, expected text, apt dir
    local got
    got=$(NSW_APT_DIR=$3 nonfree_sources 2>&1)
    if [ "$got" != "$2" ]; then
        printf 'FAIL %s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$got"
        failures=$((failures + 1))
    else
        echo "PASS $1"
    fi
}

mkdir -p "$tmp/deb822/sources.list.d"
cat >"$tmp/deb822/sources.list.d/debian.sources" <<'SOURCES'
Types: deb
URIs: http://security.example/debian-security
Suites: bookworm-security
Components: main

Types: deb
# http://snapshot.example/archive/debian/20250520T000000Z
URIs: http://mirror.example/debian http://second.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
expect "deb822, security entry first, comment inside" "$(printf 'Types: deb\nURIs: http://mirror.example/debian
Suites: bookworm bookworm-updates\nComponents: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg')" "$tmp/deb822"

mkdir -p "$tmp/key/sources.list.d"
printf 'Types: deb deb-src\nURIs: http://m.example/debian\nSuites: trixie\nComponents: main\nSigned-By:\n -----BEGIN PGP PUBLIC KEY BLOCK-----\n .\n xyz\n' \
    >"$tmp/key/sources.list.d/debian.sources"
expect "deb822 with an embedded key (not copied)" "$(printf 'Types: deb\nURIs: http://m.example/debian\nSuites: trixie
Components: contrib non-free')" "$tmp/key"

mkdir -p "$tmp/oneline/sources.list.d"
cat >"$tmp/oneline/sources.list" <<'SOURCES'
deb http://security.example/debian-security bookworm-security main
# deb http://commented.example/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/k.gpg] http://mirror.example/debian bookworm main
deb http://mirror.example/debian bookworm-updates main contrib
deb-src http://mirror.example/debian bookworm main
SOURCES
expect "one-line sources.list" "$(printf 'Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates
Components: contrib non-free\nSigned-By: /usr/share/keyrings/k.gpg')" "$tmp/oneline"

mkdir -p "$tmp/none/sources.list.d"
printf 'Types: deb\nURIs: http://x.example/y\nSuites: foo\nComponents: non-free\n' >"$tmp/none/sources.list.d/o.sources"
if NSW_APT_DIR=$tmp/none nonfree_sources >/dev/null 2>&1; then
    echo "FAIL no Debian entry: succeeded"
    failures=$((failures + 1))
else
    echo "PASS no Debian entry: refused"
fi

host="deb.debian"".org"
if hits=$(grep -rIl --exclude-dir=.git --exclude-dir=build "$host" "$root"); then
    echo "FAIL the repository names the mirror host $host:"
    echo "$hits"
    failures=$((failures + 1))
else
    echo "PASS no file names $host"
fi
[ "$failures" -eq 0 ]
