// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/cancel.h"
#include "core/jobs/result.h"
#include "core/profile/focusrange.h"
#include "core/sqlite/sqlitedb.h"

#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace nsw {

/// The time (and thread) window a rule looks at, as nsys's filtered views select rows: a row is kept when it
/// starts inside [start, end), ends inside it, or spans it; with an NVTX range, also only the range's thread
/// (push/pop range) or process (start/end range).
struct TimeWindow
{
    bool active = false;
    qint64 start = 0;
    qint64 end = 0x7FFFFFFFFFFFFFFF;
    std::optional<qint64> globalTid; ///< set when the window comes from an NVTX range

    bool overlaps(qint64 rowStart, qint64 rowEnd) const
    {
        return FocusRange { start, end, {} }.overlaps(rowStart, rowEnd);
    }
    bool pushPopRange() const { return globalTid && ((*globalTid >> 24) & 0xFFFFFF) != (*globalTid & 0xFFFFFF); }

    /// Which id a table carries for the NVTX thread/process filter.
    enum class IdColumn
    {
        None, ///< neither globalTid nor globalPid: nsys leaves the table unfiltered under an NVTX window
        Tid,
        Pid,
    };
    /// Whether nsys's filtered view of a table keeps a row read unfiltered (@p id from the table's @p column).
    bool keeps(const std::optional<qint64>& rowStart, const std::optional<qint64>& rowEnd,
        const std::optional<qint64>& id, IdColumn column) const
    {
        if (!active)
            return true;
        if (globalTid && column == IdColumn::None)
            return true;
        if (!rowStart || !rowEnd || !overlaps(*rowStart, *rowEnd))
            return false;
        if (!globalTid)
            return true;
        if (!id)
            return false;
        if (column == IdColumn::Tid && pushPopRange())
            return *id == *globalTid;
        return (*id >> 24) == (*globalTid >> 24);
    }
};

/// A nullable integer column value, for SQL's three-valued comparisons.
using NullableInt = std::optional<qint64>;

/// The rule-input layer: one read-only connection to an export, the table and column checks rules make, the
/// strings that match a LIKE pattern, and row scans in rowid order through the time window (or unfiltered, as a
/// `main.` table in nsys's queries).
class RuleInput
{
public:
    static Result<std::unique_ptr<RuleInput>> open(const QString& path);
    /// A second connection to the same export, for a read on another thread: the checks, tables and StringIds of
    /// this one are taken over, not read again.
    Result<std::unique_ptr<RuleInput>> openAlongside() const;

    const QString& path() const { return m_db->path(); }
    bool hasTable(const QString& table) const { return m_tables.contains(table); }
    bool hasColumn(const QString& table, const QString& column) const { return m_db->hasColumn(table, column); }
    /// The id column the NVTX window filters @p table on.
    TimeWindow::IdColumn idColumn(const QString& table) const
    {
        return hasColumn(table, QStringLiteral("globalTid")) ? TimeWindow::IdColumn::Tid
            : hasColumn(table, QStringLiteral("globalPid"))  ? TimeWindow::IdColumn::Pid
                                                             : TimeWindow::IdColumn::None;
    }

    /// Calls @p fn for every StringIds row.
    void forEachString(const std::function<void(qint64, const QString&)>& fn) const;
    /// Ids of the StringIds rows whose value satisfies @p accept.
    std::unordered_set<qint64> stringIds(const std::function<bool(const QString&)>& accept) const;
    QString string(qint64 id) const;

    /// Calls @p row for every row of @p table in rowid order, with @p columns (a missing column reads as NULL).
    /// When @p window is active (and the table has start and end), rows outside it are not passed.
    using RowFn = std::function<void(const std::vector<NullableInt>&)>;
    Status scan(const QString& table, const QStringList& columns, const TimeWindow* window, const RowFn& row) const;
    const SqliteDb& db() const { return *m_db; }
    /// One line per table in which scan() met rows nsys would not write (a NULL start or end, a value that is not an
    /// integer): such rows are read as SQL reads them, so a rule's numbers may hold them.
    QStringList damageWarnings() const;
    /// Adds what scans of @p other met (another connection to the same export) to damageWarnings().
    void mergeDamage(const RuleInput& other) const;
    /// Scans stop (with ErrorKind::Cancelled) once @p token is cancelled.
    void setCancelToken(CancelToken token) { m_cancel = std::move(token); }

private:
    /// Keeps the most damaged rows one scan of @p table met.
    void noteDamage(const QString& table, qint64 rows) const;
    /// Reads StringIds once (rules look names up many times); an error when the table cannot be read.
    QString readStrings();

    std::unique_ptr<SqliteDb> m_db;
    QStringList m_tables;
    std::vector<std::pair<qint64, QString>> m_strings; ///< StringIds in rowid order, NULL values left out
    std::unordered_map<qint64, std::size_t> m_stringIndex; ///< id -> its entry in m_strings
    CancelToken m_cancel;
    mutable std::map<QString, qint64> m_damagedRows; ///< table -> most damaged rows one scan of it met
};

struct RuleOptions;

/// The window of a rule's options as nsys's filter_time_range() makes it: none without start/end/nvtx; the first
/// NVTX range (by start) named "range[@domain]", with explicit start/end overriding its times. ErrorKind::NoData
/// with nsys's message when the range is not found or start > end.
Result<TimeWindow> resolveWindow(const RuleInput& input, const RuleOptions& options);

/// SQLite's LIKE (ASCII case-insensitive, '%' any run, '_' one character, no escape).
bool sqlLike(const QString& pattern, const QString& text);

} // namespace nsw
