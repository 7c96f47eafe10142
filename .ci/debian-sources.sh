# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by .ci/run. nonfree_sources prints a deb822 entry that adds the contrib and non-free components on the
# mirror and suites of the machine's own Debian entry (no host name is written here: CI machines use their own
# mirrors or snapshots). The entry is the first one of type deb with component main whose suites are not -security,
# read from the deb822 files (/etc/apt/sources.list.d/*.sources) or else the one-line format (sources.list, *.list).
# NSW_APT_DIR (default /etc/apt) is for testing.

# Prints "URI|SUITE SUITE...|SIGNED-BY" of that entry from deb822 files; nothing when there is none.
debian_entry_deb822() {
    local dir=${NSW_APT_DIR:-/etc/apt} f
    for f in "$dir"/sources.list.d/*.sources; do
        [ -f "$f" ] && { cat "$f"; echo; } # a blank line ends the file's last entry
    done | awk '
        function flush() {
            if (types ~ /(^| )deb( |$)/ && components ~ /(^| )main( |$)/ && uri != "" && suites !~ /-security/ && !done) {
                print uri "|" suites "|" signed
                done = 1
            }
            types = ""; uri = ""; suites = ""; components = ""; signed = ""
        }
        /^[ \t]*#/ { next }
        /^[ \t]*$/ { flush(); next }
        /^[ \t]/ { if (key == "Signed-By") signed = ""; next } # a continued field: an embedded key is not copied
        {
            key = $1; sub(/:$/, "", key); $1 = ""; sub(/^ +/, "")
            if (key == "Types") types = $0
            else if (key == "URIs") { split($0, u, " "); uri = u[1] }
            else if (key == "Suites") suites = $0
            else if (key == "Components") components = $0
            else if (key == "Signed-By") signed = $0
        }
        END { flush() }
    '
}

# The same from one-line entries ("deb [options] URI SUITE COMPONENT..."): the suites of every such line on that URI.
debian_entry_oneline() {
    local dir=${NSW_APT_DIR:-/etc/apt}
    local files=()
    [ -f "$dir/sources.list" ] && files+=("$dir/sources.list")
    for f in "$dir"/sources.list.d/*.list; do [ -f "$f" ] && files+=("$f"); done
    [ ${#files[@]} -gt 0 ] || return 0
    awk '
        /^[ \t]*deb[ \t]/ {
            i = 2
            signed = ""
            if ($i ~ /^\[/) {
                while (i <= NF) {
                    if ($i ~ /^\[?signed-by=/) { signed = $i; sub(/^\[?signed-by=/, "", signed); sub(/\]$/, "", signed) }
                    if ($i ~ /\]$/) { i++; break }
                    i++
                }
            }
            uri = $i; suite = $(i + 1); main = 0
            for (j = i + 2; j <= NF; j++) if ($j == "main") main = 1
            if (!main || suite ~ /-security/) next
            if (first == "") { first = uri; sig = signed }
            if (uri == first) suites = suites (suites == "" ? "" : " ") suite
        }
        END { if (first != "") print first "|" suites "|" sig }
    ' "${files[@]}"
}

nonfree_sources() {
    local entry
    entry=$(debian_entry_deb822)
    [ -n "$entry" ] || entry=$(debian_entry_oneline)
    if [ -z "$entry" ]; then
        echo "no Debian source entry (type deb, component main) in ${NSW_APT_DIR:-/etc/apt}: cannot add non-free" >&2
        return 1
    fi
    local uri suites signed
    IFS='|' read -r uri suites signed <<<"$entry"
    printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: contrib non-free\n' "$uri" "$suites"
    [ -z "$signed" ] || printf 'Signed-By: %s\n' "$signed"
}
