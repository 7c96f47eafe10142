// SPDX-License-Identifier: GPL-3.0-or-later
#include "chunkplan.h"

#include "core/sqlite/sqlitedb.h"

#include <algorithm>

namespace nsw {

namespace {

/// Beyond this many arithmetic chunks the rowids are walked instead: gaps would make most chunks empty.
constexpr quint64 kMaxArithmeticChunks = 64;
/// What a scan may reserve ahead when it cannot know its row count (a whole table of unknown density).
constexpr qint64 kMaxReservedRows = SqliteDb::kMaxReservedRows;

/// Chunks of rowids first..last; the last one holds the rest, so the estimates add up to the rows of a dense table
/// (the load's progress counts towards them: "Reading kernels 1.2M/4.0M").
std::vector<RowRange> arithmeticChunks(qint64 first, qint64 last, quint64 chunks, qint64 chunkRows)
{
    std::vector<RowRange> ranges;
    for (quint64 c = 0; c < chunks; ++c) {
        RowRange r;
        // In unsigned arithmetic: the bounds lie within [first, last] but the offsets may exceed INT64_MAX.
        if (c > 0)
            r.lower = qint64(quint64(first) + c * quint64(chunkRows));
        if (c + 1 < chunks)
            r.upper = qint64(quint64(first) + (c + 1) * quint64(chunkRows));
        const quint64 lower = quint64(first) + c * quint64(chunkRows);
        const quint64 rows = c + 1 < chunks ? quint64(chunkRows) : quint64(last) - lower + 1;
        r.estimatedRows = qint64(std::min<quint64>(rows, quint64(kMaxReservedRows)));
        ranges.push_back(r);
    }
    return ranges;
}

Result<std::vector<RowRange>> keysetChunks(
    const SqliteDb& db, const QString& table, qint64 first, qint64 chunkRows, const CancelToken& cancel)
{
    // The first rowid of the next chunk: chunkRows rows further, stepping through the rowid b-tree only.
    Statement next(db,
        QStringLiteral("SELECT rowid FROM %1 WHERE rowid >= ?1 ORDER BY rowid LIMIT 1 OFFSET ?2")
            .arg(quoteIdentifier(table)));
    std::vector<RowRange> ranges;
    std::optional<qint64> lower;
    for (qint64 from = first;;) {
        if (cancel.isCancelled())
            return Result<std::vector<RowRange>>::cancelled();
        next.reset();
        next.bindInt64(1, from);
        next.bindInt64(2, chunkRows);
        const Statement::Step step = next.step();
        if (step == Statement::Step::Error)
            return Result<std::vector<RowRange>>::failure(ErrorKind::Input,
                QStringLiteral("%1: cannot read the rowids of %2: %3").arg(db.path(), table, next.error()));
        RowRange r { lower, std::nullopt, std::min(chunkRows, kMaxReservedRows) };
        if (step == Statement::Step::Done) {
            ranges.push_back(r);
            return ranges;
        }
        from = next.int64(0);
        r.upper = from;
        lower = from;
        ranges.push_back(r);
    }
}

} // namespace

Result<std::vector<RowRange>> planChunks(
    const SqliteDb& db, const QString& table, qint64 chunkRows, const CancelToken& cancel)
{
    chunkRows = std::max<qint64>(1, chunkRows);
    const auto [first, last] = db.rowIdRange(table);
    if (last < first)
        return std::vector<RowRange> { RowRange {} };
    // Exact in 64 unsigned bits (last >= first); the row count can exceed it only by one, when span is 2^64 - 1.
    const quint64 span = quint64(last) - quint64(first);
    if (span < quint64(chunkRows))
        return std::vector<RowRange> { RowRange { {}, {}, std::min(qint64(span) + 1, kMaxReservedRows) } };
    const quint64 chunks = span / quint64(chunkRows) + 1;
    if (chunks <= kMaxArithmeticChunks)
        return arithmeticChunks(first, last, chunks, chunkRows);
    return keysetChunks(db, table, first, chunkRows, cancel);
}

} // namespace nsw
