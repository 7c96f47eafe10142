// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

struct sqlite3;

namespace nsw {

/// A read-only SQLite VFS for exports opened `immutable=1` that are larger than the page cache can hold: their main
/// database file is read around the page cache (DirectReader) instead of one read() per page through it. Read
/// through the page cache, such a file evicts itself as it goes, and each page from disk cost more CPU than SQLite's
/// decoding of it (a 23.5 GB export: 1.15 s of system time a GB, against 0.07 s read directly).
/// Locks and every other file (journals, temporary files) go to the default VFS.
namespace exportvfs {

enum class ReadMode
{
    Default, ///< the default VFS's read() per page, through the page cache
    Direct,
};

/// The mode for a file of @p bytes: NSW_SQLITE_READ=default|direct when set, else Direct past half of the physical
/// memory (the file would not stay in the page cache), else Default.
ReadMode modeFor(std::int64_t bytes);

/// The VFS's name for a URI's `vfs=` parameter, registered on the first call in the linked SQLite; nullptr when
/// registration failed. It reads immutable main database files directly, and opens every other file the default way.
const char* name();

/// The mode @p db's main file is read in: Default also when O_DIRECT was refused (tmpfs) or @p db is not ours.
ReadMode modeOf(sqlite3* db);

} // namespace exportvfs
} // namespace nsw
