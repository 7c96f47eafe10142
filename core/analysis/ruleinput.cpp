// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/ruleinput.h"

#include "core/nsys/reportexport.h"
#include "core/profile/exportcheck.h"
#include "core/profile/loadwarnings.h"

#include <QFileInfo>
#include <unordered_map>

namespace nsw {

namespace {

enum class WindowMode
{
    None,
    Time,
    TimeAndThread,
    TimeAndProcessByTid,
    TimeAndProcessByPid,
};

WindowMode windowMode(const RuleInput& input, const QString& table, const TimeWindow* window)
{
    if (!window || !window->active || !input.hasColumn(table, QStringLiteral("start"))
        || !input.hasColumn(table, QStringLiteral("end")))
        return WindowMode::None;
    if (!window->globalTid)
        return WindowMode::Time;
    if (input.hasColumn(table, QStringLiteral("globalTid")))
        return window->pushPopRange() ? WindowMode::TimeAndThread : WindowMode::TimeAndProcessByTid;
    if (input.hasColumn(table, QStringLiteral("globalPid")))
        return WindowMode::TimeAndProcessByPid;
    return WindowMode::None; // nsys leaves such a table unfiltered
}

bool keepRow(WindowMode mode, const TimeWindow& w, const std::vector<NullableInt>& extra)
{
    if (!extra[0] || !extra[1] || !w.overlaps(*extra[0], *extra[1]))
        return false;
    if (mode == WindowMode::Time)
        return true;
    if (!extra[2])
        return false;
    if (mode == WindowMode::TimeAndThread)
        return *extra[2] == *w.globalTid;
    return (*extra[2] >> 24) == (*w.globalTid >> 24);
}

bool likeAt(const QString& p, qsizetype pi, const QString& t, qsizetype ti)
{
    while (pi < p.size()) {
        const QChar c = p.at(pi);
        if (c == QLatin1Char('%')) {
            while (pi < p.size() && p.at(pi) == QLatin1Char('%'))
                ++pi;
            if (pi == p.size())
                return true;
            for (qsizetype k = ti; k <= t.size(); ++k)
                if (likeAt(p, pi, t, k))
                    return true;
            return false;
        }
        if (ti >= t.size())
            return false;
        const QChar tc = t.at(ti);
        const bool same = c == QLatin1Char('_') || c == tc
            || (c.unicode() < 128 && tc.unicode() < 128 && c.toLower() == tc.toLower());
        if (!same)
            return false;
        ++pi;
        ++ti;
    }
    return ti == t.size();
}

} // namespace

bool sqlLike(const QString& pattern, const QString& text)
{
    return likeAt(pattern, 0, text, 0);
}

Result<std::unique_ptr<RuleInput>> RuleInput::open(const QString& givenPath)
{
    // A report is read through its SQLite export (nsys analyze exports it too).
    const Result<QString> file = sqliteFileFor(givenPath);
    if (!file)
        return file.failureAs<std::unique_ptr<RuleInput>>();
    const QString& path = *file;
    if (!QFileInfo::exists(path))
        return Result<std::unique_ptr<RuleInput>>::failure(
            ErrorKind::Input, QStringLiteral("Database file %1 does not exist.").arg(path));
    if (const QString e = checkFileBeforeOpen(path); !e.isEmpty())
        return Result<std::unique_ptr<RuleInput>>::failure(ErrorKind::Input, e);
    QString error;
    auto db = SqliteDb::open(path, &error);
    if (!db)
        return Result<std::unique_ptr<RuleInput>>::failure(ErrorKind::Input, error);
    auto input = std::unique_ptr<RuleInput>(new RuleInput);
    input->m_tables = db->tables();
    if (input->m_tables.isEmpty() && !db->lastError().isEmpty())
        return Result<std::unique_ptr<RuleInput>>::failure(ErrorKind::Input,
            QStringLiteral("Database file %1 could not be opened and appears to be invalid.").arg(path));
    // What the loader refuses, the rules refuse too: a view in place of an nsys table, or a StringIds that cannot be
    // read, would otherwise make rules report "no problems detected" on data they never saw.
    if (const QString e = checkIsNsysExport(*db); !e.isEmpty())
        return Result<std::unique_ptr<RuleInput>>::failure(ErrorKind::Input, e);
    input->m_db = std::move(db);
    if (const QString e = input->readStrings(); !e.isEmpty())
        return Result<std::unique_ptr<RuleInput>>::failure(ErrorKind::Input, e);
    return Result<std::unique_ptr<RuleInput>>(std::move(input));
}

Result<std::unique_ptr<RuleInput>> RuleInput::openAlongside() const
{
    QString error;
    auto db = SqliteDb::open(path(), &error);
    if (!db)
        return Result<std::unique_ptr<RuleInput>>::failure(ErrorKind::Input, error);
    auto input = std::unique_ptr<RuleInput>(new RuleInput);
    input->m_db = std::move(db);
    input->m_tables = m_tables;
    input->m_strings = m_strings;
    input->m_stringIndex = m_stringIndex;
    return Result<std::unique_ptr<RuleInput>>(std::move(input));
}

QString RuleInput::readStrings()
{
    if (!hasTable(QStringLiteral("StringIds")))
        return {};
    Statement st(*m_db, QStringLiteral("SELECT id, value FROM StringIds"));
    if (!st.isValid())
        return QStringLiteral("%1: cannot read StringIds: %2").arg(path(), st.error());
    Statement::Step step;
    while ((step = st.step()) == Statement::Step::Row)
        if (!st.isNull(1))
            m_strings.emplace_back(st.int64(0), st.text(1));
    if (step == Statement::Step::Error)
        return QStringLiteral("%1: cannot read StringIds: %2").arg(path(), st.error());
    for (std::size_t i = 0; i < m_strings.size(); ++i)
        m_stringIndex.emplace(m_strings[i].first, i);
    return {};
}

std::unordered_set<qint64> RuleInput::stringIds(const std::function<bool(const QString&)>& accept) const
{
    std::unordered_set<qint64> ids;
    for (const auto& [id, value] : m_strings)
        if (accept(value))
            ids.insert(id);
    return ids;
}

void RuleInput::forEachString(const std::function<void(qint64, const QString&)>& fn) const
{
    for (const auto& [id, value] : m_strings)
        fn(id, value);
}

QString RuleInput::string(qint64 id) const
{
    const auto it = m_stringIndex.find(id);
    return it != m_stringIndex.end() ? m_strings[it->second].second : QString();
}

Status RuleInput::scan(
    const QString& table, const QStringList& columns, const TimeWindow* window, const RowFn& row) const
{
    for (const QString& c : { QStringLiteral("start"), QStringLiteral("end") })
        if (columns.contains(c) && !hasColumn(table, c))
            return Status(Error { ErrorKind::Input,
                QStringLiteral("%1: %2 has no column %3; not the table nsys writes").arg(path(), table, c) });
    const WindowMode mode = windowMode(*this, table, window);
    QStringList select;
    std::vector<bool> neverNull; // per selected column: nsys always fills it (start, end), so NULL there is damage
    const auto add = [&](const QString& column) {
        select << quoteIdentifier(column);
        neverNull.push_back(column == QLatin1String("start") || column == QLatin1String("end"));
    };
    std::vector<int> index; // result column of each requested column, -1 when the table lacks it
    for (const QString& c : columns) {
        index.push_back(hasColumn(table, c) ? int(select.size()) : -1);
        if (index.back() >= 0)
            add(c);
    }
    const int extraAt = int(select.size());
    if (mode != WindowMode::None) {
        add(QStringLiteral("start"));
        add(QStringLiteral("end"));
        if (mode == WindowMode::TimeAndThread || mode == WindowMode::TimeAndProcessByTid)
            add(QStringLiteral("globalTid"));
        else if (mode == WindowMode::TimeAndProcessByPid)
            add(QStringLiteral("globalPid"));
    }
    const int selected = int(select.size());
    Statement st(*m_db,
        QStringLiteral("SELECT %1 FROM %2")
            .arg(selected > 0 ? select.join(QLatin1Char(',')) : QStringLiteral("1"), quoteIdentifier(table)));
    if (!st.isValid())
        return Status(Error { ErrorKind::Input, QStringLiteral("%1: %2").arg(path(), st.error()) });
    std::vector<NullableInt> cells(static_cast<std::size_t>(selected));
    std::vector<NullableInt> values(columns.size());
    std::vector<NullableInt> extra(3);
    qint64 damaged = 0;
    Statement::Step step;
    CancelPoll<65536> poll(m_cancel);
    const ConnectionLock hold(*m_db);
    while ((step = st.step()) == Statement::Step::Row) {
        if (poll())
            return Status(Error { ErrorKind::Cancelled, QStringLiteral("cancelled") });
        bool damage = false;
        for (int k = 0; k < selected; ++k) {
            // As SQL reads it (sqlite3_column_int64): text by its leading digits, a real truncated.
            const Statement::IntCell cell = st.intCell(k);
            cells[std::size_t(k)] = cell.type == SqlType::Null ? NullableInt() : NullableInt(cell.value);
            damage = damage || (cell.type == SqlType::Null ? neverNull[std::size_t(k)] : cell.type != SqlType::Integer);
        }
        damaged += damage;
        if (mode != WindowMode::None) {
            for (int k = 0; k < select.size() - extraAt; ++k)
                extra[std::size_t(k)] = cells[std::size_t(extraAt + k)];
            if (!keepRow(mode, *window, extra))
                continue;
        }
        for (size_t k = 0; k < index.size(); ++k)
            values[k] = index[k] < 0 ? NullableInt() : cells[std::size_t(index[k])];
        row(values);
    }
    if (step == Statement::Step::Error)
        return Status(Error { ErrorKind::Input, QStringLiteral("%1: %2").arg(path(), st.error()) });
    noteDamage(table, damaged);
    return success();
}

void RuleInput::noteDamage(const QString& table, qint64 rows) const
{
    qint64& counted = m_damagedRows[table];
    counted = std::max(counted, rows); // scans of one table with other columns may see other rows damaged
}

void RuleInput::mergeDamage(const RuleInput& other) const
{
    for (const auto& [table, rows] : other.m_damagedRows)
        noteDamage(table, rows);
}

QStringList RuleInput::damageWarnings() const
{
    QStringList warnings;
    for (const auto& [table, rows] : m_damagedRows)
        if (rows > 0)
            warnings << readAsSqlWarning(table, rows);
    return warnings;
}

} // namespace nsw

#include "core/analysis/rulespecs.h"

#include <limits>
#include <map>

namespace nsw {

namespace {

struct NvtxMatch
{
    qint64 start = std::numeric_limits<qint64>::max();
    qint64 end = std::numeric_limits<qint64>::max();
    qint64 globalTid = 0;
    bool found = false;
};

/// Domain-create events (eventType 75): (domainId, pid) -> their names, in rowid order.
std::map<std::pair<qint64, qint64>, std::vector<std::optional<QString>>> nvtxDomains(const SqliteDb& db)
{
    std::map<std::pair<qint64, qint64>, std::vector<std::optional<QString>>> domains;
    if (!db.hasColumn(QStringLiteral("NVTX_EVENTS"), QStringLiteral("text")))
        return domains;
    Statement st(db, QStringLiteral("SELECT domainId, globalTid, text FROM NVTX_EVENTS WHERE eventType == 75"));
    while (st.isValid() && st.step() == Statement::Step::Row) {
        if (st.isNull(0) || st.isNull(1))
            continue;
        domains[{ st.int64(0), st.int64(1) >> 24 }].push_back(
            st.isNull(2) ? std::nullopt : std::optional<QString>(st.text(2)));
    }
    return domains;
}

/// Whether "name" joined with any of its domain rows (or none: LEFT JOIN) reads @p wanted.
bool nvtxNameMatches(const QString& name, const std::vector<std::optional<QString>>* domains, const QString& wanted)
{
    if (!domains)
        return name == wanted;
    for (const std::optional<QString>& d : *domains)
        if ((d ? name + QLatin1Char('@') + *d : name) == wanted)
            return true;
    return false;
}

NvtxMatch findNvtxRange(const RuleInput& input, const QString& wanted)
{
    NvtxMatch match;
    const QString table = QStringLiteral("NVTX_EVENTS");
    if (!input.hasTable(table))
        return match;
    const SqliteDb& db = input.db();
    const auto domains = nvtxDomains(db);
    std::unordered_map<qint64, QString> names; // StringIds that can start the wanted text
    if (db.hasColumn(table, QStringLiteral("textId")))
        for (const qint64 id : input.stringIds([&](const QString& v) { return wanted.startsWith(v); }))
            names.emplace(id, input.string(id));
    const QString text = db.hasColumn(table, QStringLiteral("text")) ? QStringLiteral("text") : QStringLiteral("NULL");
    const QString textId
        = db.hasColumn(table, QStringLiteral("textId")) ? QStringLiteral("textId") : QStringLiteral("NULL");
    Statement st(db,
        QStringLiteral("SELECT start, end, globalTid, domainId, %1, %2 FROM NVTX_EVENTS "
                       "WHERE eventType IN (59, 60, 70, 71)")
            .arg(text, textId));
    while (st.isValid() && st.step() == Statement::Step::Row) {
        QString name;
        if (!st.isNull(4))
            name = st.text(4);
        else if (const auto it = st.isNull(5) ? names.end() : names.find(st.int64(5)); it != names.end())
            name = it->second;
        else
            continue;
        const qint64 start = st.int64(0);
        if (match.found && start >= match.start)
            continue;
        const qint64 gtid = st.isNull(2) ? 0 : st.int64(2);
        const auto d = st.isNull(3) ? domains.end() : domains.find({ st.int64(3), gtid >> 24 });
        if (!nvtxNameMatches(name, d == domains.end() ? nullptr : &d->second, wanted))
            continue;
        match = { start, st.isNull(1) ? std::numeric_limits<qint64>::max() : st.int64(1), gtid, true };
    }
    return match;
}

} // namespace

Result<TimeWindow> resolveWindow(const RuleInput& input, const RuleOptions& options)
{
    TimeWindow w;
    if (!options.start && !options.end && !options.nvtx)
        return w;
    w.active = true;
    if (options.nvtx) {
        const NvtxMatch m = findNvtxRange(input, *options.nvtx);
        if (!m.found)
            return Result<TimeWindow>::failure(
                ErrorKind::NoData, QStringLiteral("NVTX range '%1' could not be found.").arg(*options.nvtx));
        w.start = options.start.value_or(m.start);
        w.end = options.end.value_or(m.end);
        w.globalTid = m.globalTid;
    } else {
        w.start = options.start.value_or(0);
        w.end = options.end.value_or(std::numeric_limits<qint64>::max());
    }
    if (w.start > w.end)
        return Result<TimeWindow>::failure(
            ErrorKind::NoData, QStringLiteral("The start time cannot be greater than the end time."));
    return w;
}

} // namespace nsw
