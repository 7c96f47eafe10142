// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/result.h"

#include <QString>
#include <cstdint>

namespace nsw {

/// What says that an export is still the file a cache entry was made from: its canonical path, size, modification
/// time (ns), inode and device, SQLite's file change counter (header bytes 24-27, bumped by every write transaction)
/// and a checksum of its first pages (the header and the schema).
struct ExportIdentity
{
    static constexpr std::size_t kHeaderBytes = 64 * 1024;

    QString canonicalPath;
    std::int64_t size = 0;
    std::int64_t modifiedNs = 0;
    std::uint64_t inode = 0;
    std::uint64_t device = 0;
    std::uint32_t changeCounter = 0;
    std::uint64_t headerChecksum = 0;

    bool operator==(const ExportIdentity&) const = default;

    /// The identity of the SQLite file @p path. Fails (Input) for a file that cannot be cached: not a regular file,
    /// unreadable, or with a -wal or -journal beside it (a writer may change it without touching the main file).
    static Result<ExportIdentity> of(const QString& path);
};

} // namespace nsw
