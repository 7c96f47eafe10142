// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/loadtypes.h"
#include "core/util/flatindex.h"

#include <QString>
#include <QStringList>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nsw {

class SqliteDb;

/// Maps 64-bit keys (globalTid, globalPid...) to dense local indices, in order of first appearance; rows of one
/// thread tend to come in runs, which FlatIndex's last-key check serves.
using LocalKeyMap = FlatIndex<std::int64_t, IntegerHash>;

/// Inline (non-StringIds) texts met during one scan, as raw UTF-8. A name column holds StringIds ids as
/// values >= 0 and inline texts as encode(index) < -1 until the loader resolves both into the StringPool.
class InlineTexts
{
public:
    static constexpr std::int32_t encode(std::int32_t index) { return -(index + 2); }
    static constexpr std::int32_t decode(std::int32_t value) { return -value - 2; }
    std::int32_t add(std::string_view utf8);
    const std::vector<std::string>& texts() const { return m_texts; }

private:
    void grow();
    // Open addressing on a power-of-two table, the hash of each text kept: 19M NVTX rows of big traces look up a
    // few thousand texts, and std::unordered_map's modulo and chain walk took 15 % of a whole load.
    std::vector<std::int32_t> m_slots; ///< index into m_texts, -1 = empty
    std::vector<std::size_t> m_hashes; ///< by text index
    std::vector<std::string> m_texts;
};

/// State of one table scan on a worker thread: its own connection, local maps, progress and error.
struct ScanContext
{
    QString table;
    QString stage; ///< "Reading kernels"
    CancelToken cancel;
    std::atomic<qint64> rowsRead { 0 };
    qint64 estimatedRows = 0;
    QString error;
    QStringList warnings;
    LocalKeyMap threads; ///< globalTid -> local thread index
    LocalKeyMap processes; ///< globalPid -> local process index
    InlineTexts inlineTexts;
    /// Raw name value (StringIds id, or an encoded inline text) -> local name index. The CUDA API, OS runtime and
    /// NVTX name columns hold these small indices rather than raw ids (millions in big exports), so that they stay
    /// 2 bytes a row (IndexColumn) from the scan on.
    LocalKeyMap names;
    std::int64_t maxStringId = -1;
    qint64 badTimeRows = 0; ///< rows skipped: start/end NULL, not integers, implausible, or end < start
    qint64 badIds = 0; ///< ids out of range or of the wrong type, read as unknown
    /// Written by the worker when the scan ends (0 while it runs); read by the progress loop meanwhile.
    std::atomic<qint64> milliseconds { 0 };
    /// A chunk reads the rows with rowid >= lowerRowId (when set) and < upperRowId (when set); a whole table has
    /// neither.
    std::optional<qint64> lowerRowId;
    std::optional<qint64> upperRowId;

    /// "rowid >= a AND rowid < b" for a chunk, empty for a whole table.
    QString rowRangeCondition() const;
    bool cancelled() const { return cancel.isCancelled(); }
    /// Records a StringIds id read from a row; returns it as stored in a name column (kNoString when out of range).
    std::int32_t stringId(std::int64_t id);
    /// The local name index of a raw name value; kNoString stays kNoString.
    std::int32_t localName(std::int32_t raw) { return raw == kNoString ? kNoString : names.index(raw); }
};

/// Builds "SELECT a, b, NULL, ... FROM T" with columns found by name; missing optional columns read as NULL so
/// result positions stay fixed whatever the schema version.
class ColumnSelect
{
public:
    ColumnSelect(const SqliteDb& db, const QString& table);
    int add(const QString& column);
    bool has(const QString& column) const;
    QString sql(const QString& where = {}) const;

private:
    QString m_table;
    QStringList m_available;
    QStringList m_expressions;
};

/// Rows the scan expects (the table's row count, or the chunk's), for reserving columns.
std::size_t expectedRows(const ScanContext& ctx);

/// A table the loader reads must have its key columns: without them it is not an nsys table (or a damaged one), and
/// reading it as empty would print "no data" for a file that has some. False with ctx.error set when one is missing.
bool requireColumns(
    const ColumnSelect& s, ScanContext& ctx, const QString& path, std::initializer_list<const char*> names);

} // namespace nsw
