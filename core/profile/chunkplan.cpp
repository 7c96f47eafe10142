// SPDX-License-Identifier: GPL-3.0-or-later
#include "chunkplan.h"

#include "core/sqlite/sqlitedb.h"

#include <algorithm>

namespace nsw {

namespace {

/// Beyond this many arithmetic chunks (2G rows at the default 2M a chunk) the rowids are walked without probing.
constexpr quint64 kMaxProbedChunks = 1024;
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

/// Whether each of @p ranges starts and ends on a row: two b-tree seeks a chunk. Every table nsys writes passes
/// (rowids 1..n), and its chunks are kept without walking its rowids: that walk reads every page of the table (28 s
/// for the 191M NVTX rows of the 40M-kernel export, not in the page cache). A table with gaps at a chunk's edge is
/// walked; gaps inside a chunk only make its estimate high.
Result<bool> edgesAreRows(const SqliteDb& db, const QString& table, const std::vector<RowRange>& ranges, qint64 first,
    const CancelToken& cancel)
{
    const QString quoted = quoteIdentifier(table);
    Statement firstFrom(
        db, QStringLiteral("SELECT rowid FROM %1 WHERE rowid >= ?1 ORDER BY rowid LIMIT 1").arg(quoted));
    Statement lastBefore(
        db, QStringLiteral("SELECT rowid FROM %1 WHERE rowid < ?1 ORDER BY rowid DESC LIMIT 1").arg(quoted));
    const auto rowidAt = [&](Statement& st, qint64 bound, qint64 expected) -> Result<bool> {
        st.reset();
        st.bindInt64(1, bound);
        const Statement::Step step = st.step();
        if (step == Statement::Step::Error)
            return Result<bool>::failure(ErrorKind::Input,
                QStringLiteral("%1: cannot read the rowids of %2: %3").arg(db.path(), table, st.error()));
        return step == Statement::Step::Row && st.int64(0) == expected;
    };
    for (const RowRange& r : ranges) {
        if (cancel.isCancelled())
            return Result<bool>::cancelled();
        const qint64 lower = r.lower.value_or(first);
        Result<bool> startsOnARow = rowidAt(firstFrom, lower, lower);
        if (!startsOnARow || !*startsOnARow)
            return startsOnARow;
        if (!r.upper)
            continue; // the last chunk ends on the last rowid
        Result<bool> endsOnARow = rowidAt(lastBefore, *r.upper, *r.upper - 1);
        if (!endsOnARow || !*endsOnARow)
            return endsOnARow;
    }
    return true;
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
    if (chunks <= kMaxProbedChunks) {
        std::vector<RowRange> ranges = arithmeticChunks(first, last, chunks, chunkRows);
        const Result<bool> dense = edgesAreRows(db, table, ranges, first, cancel);
        if (!dense)
            return dense.failureAs<std::vector<RowRange>>();
        if (*dense)
            return ranges;
    }
    return keysetChunks(db, table, first, chunkRows, cancel);
}

} // namespace nsw
