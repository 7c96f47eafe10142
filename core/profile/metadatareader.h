// SPDX-License-Identifier: GPL-3.0-or-later
// The small tables (metadata, GPUs, processes, thread names, enums); used by the loader and by `info`.
#pragma once

#include "core/jobs/result.h"
#include "core/profile/profile.h"

#include <vector>

namespace nsw {

class SqliteDb;

struct RawThreadName
{
    qint64 globalTid = 0;
    std::int32_t nameId = kNoString; ///< StringIds id
    qint64 priority = 0;
};

/// Fills meta, gpus, cudaDevices, processes (from PROCESSES) and memcpyKindLabels of @p profile. An SQLite error
/// in any of these tables is an error naming the file and the table (never a shorter table).
[[nodiscard]] Status readMetadata(const SqliteDb& db, Profile& profile);
/// ThreadNames rows (ids out of range are left out, with a warning); ids are resolved with the other strings.
[[nodiscard]] Result<std::vector<RawThreadName>> readThreadNames(const SqliteDb& db);

} // namespace nsw
