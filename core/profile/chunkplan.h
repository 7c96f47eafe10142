// SPDX-License-Identifier: GPL-3.0-or-later
// Private to the loader: how a big table is split for the parallel scan.
#pragma once

#include "core/jobs/result.h"
#include "core/profile/loadtypes.h"

#include <QString>
#include <optional>
#include <vector>

namespace nsw {

class SqliteDb;

/// Rows with rowid >= lower (when set) and < upper (when set).
struct RowRange
{
    std::optional<qint64> lower;
    std::optional<qint64> upper;
    qint64 estimatedRows = 0; ///< at most the chunk size: what a scan may reserve
};

/// Ranges of about @p chunkRows rows each, in rowid order, covering the whole table. nsys writes rowids 1..n, which
/// are split by arithmetic once a b-tree seek at each range's edges finds a row there; a table with gaps at the edges
/// (one row at 2^62...) is split by walking its rowids (keyset), so the number of ranges follows the number of rows,
/// never the span of the rowids.
[[nodiscard]] Result<std::vector<RowRange>> planChunks(
    const SqliteDb& db, const QString& table, qint64 chunkRows, const CancelToken& cancel = CancelToken::never());

} // namespace nsw
