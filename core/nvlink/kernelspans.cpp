// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernelspans.h"

#include "core/profile/loadwarnings.h"
#include "core/profile/timelimits.h"
#include "core/sqlite/sqlitedb.h"

#include <map>
#include <numeric>

namespace nsw {

namespace {

bool isNcclName(const QString& name)
{
    return name.contains(QLatin1String("nccl"), Qt::CaseInsensitive);
}

void sortByStart(KernelSpans& s)
{
    const std::size_t n = s.start.size();
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return s.start[a] != s.start[b] ? s.start[a] < s.start[b] : s.row[a] < s.row[b];
    });
    auto permute = [&](auto& v) {
        std::remove_reference_t<decltype(v)> out(n);
        for (std::size_t i = 0; i < n; ++i)
            out[i] = v[order[i]];
        v = std::move(out);
    };
    permute(s.start);
    permute(s.end);
    permute(s.stream);
    permute(s.row);
    permute(s.name);
}

void flagNccl(KernelSpans& s)
{
    std::map<StringRef, char> cache;
    s.nccl.resize(s.name.size());
    for (std::size_t i = 0; i < s.name.size(); ++i) {
        auto it = cache.find(s.name[i]);
        if (it == cache.end())
            it = cache.emplace(s.name[i], char(isNcclName(s.strings().at(s.name[i])))).first;
        s.nccl[i] = it->second;
    }
}

/// What a read from the export found damaged, said in the loader's words.
struct ExportDamage
{
    qint64 skippedRows = 0; ///< times missing, not integers or implausible
    qint64 badNames = 0; ///< name ids that are not integers or negative
    qint64 missingNames = 0; ///< name ids missing from StringIds

    QStringList warnings(const QString& table) const
    {
        QStringList out;
        if (skippedRows > 0)
            out << skippedRowsWarning(table, skippedRows);
        if (badNames > 0)
            out << unknownIdsWarning(table, badNames);
        if (missingNames > 0)
            out << missingStringsWarning(missingNames) + QStringLiteral(": shown as kernel_ID");
        return out;
    }
};

/// One kept row (rowid, start, end, streamId, name) of the window query; its name now when it is text, else its
/// StringIds id in @p pendingId.
void appendRow(const Statement& st, KernelSpans& s, std::vector<qint64>& pendingId, ExportDamage& damage)
{
    s.row.push_back(std::uint32_t(st.int64(0)));
    s.start.push_back(st.int64(1));
    s.end.push_back(st.int64(2));
    s.stream.push_back(std::uint32_t(st.int64(3)));
    // Through the Statement, not the native handle: that is null when Qt SQL does the reading.
    const SqlType type = st.type(4);
    if (type == SqlType::Text) {
        s.name.push_back(s.ownStrings->intern(st.text(4)));
        pendingId.push_back(-1);
    } else if (type == SqlType::Integer && st.int64(4) >= 0) {
        s.name.push_back(kNoString);
        pendingId.push_back(st.int64(4));
    } else {
        damage.badNames += type != SqlType::Null;
        s.name.push_back(kNoString);
        pendingId.push_back(-1);
    }
}

std::vector<KernelWindow> mergedWindows(std::vector<KernelWindow> windows)
{
    std::sort(
        windows.begin(), windows.end(), [](const KernelWindow& a, const KernelWindow& b) { return a.from < b.from; });
    std::vector<KernelWindow> merged;
    for (const KernelWindow& w : windows) {
        if (!merged.empty() && w.from <= merged.back().to)
            merged.back().to = std::max(merged.back().to, w.to);
        else
            merged.push_back(w);
    }
    return merged;
}

/// Names the rows whose name is a StringIds id (@p pendingId, -1 for rows named already): the string, else
/// "kernel_ID" as correlate_nsys_nvlink.py shows it (counted in @p missing). False on a StringIds read error.
bool resolveNames(
    const SqliteDb& db, KernelSpans& s, const std::vector<qint64>& pendingId, qint64* missing, QString* error)
{
    std::map<qint64, StringRef> resolved;
    for (const qint64 id : pendingId)
        if (id >= 0)
            resolved.emplace(id, kNoString);
    if (resolved.empty())
        return true;
    const bool haveStrings = db.hasTable(QStringLiteral("StringIds"));
    Statement lookup(db, QStringLiteral("SELECT value FROM StringIds WHERE id = ?1"));
    for (auto& [id, ref] : resolved) {
        Statement::Step found = Statement::Step::Done;
        if (haveStrings && lookup.isValid()) {
            lookup.reset();
            lookup.bindInt64(1, id);
            found = lookup.step();
        }
        if (found == Statement::Step::Error) {
            if (error)
                *error = QStringLiteral("%1: cannot read StringIds: %2").arg(db.path(), lookup.error());
            return false;
        }
        if (found != Statement::Step::Row)
            ++*missing;
        ref = s.ownStrings->intern(
            found == Statement::Step::Row ? lookup.text(0) : QStringLiteral("kernel_%1").arg(id));
    }
    for (std::size_t i = 0; i < pendingId.size(); ++i)
        if (pendingId[i] >= 0)
            s.name[i] = resolved[pendingId[i]];
    return true;
}

} // namespace

KernelOverlapIndex::KernelOverlapIndex(std::shared_ptr<const KernelSpans> spans)
    : m_spans(std::move(spans))
{
    const KernelSpans& s = *m_spans;
    std::vector<Bucket> buckets(65);
    for (std::size_t i = 0; i < s.size(); ++i) {
        const TimeNs d = std::max<TimeNs>(0, s.end[i] - s.start[i]);
        const int b = d == 0 ? 0 : 64 - __builtin_clzll(quint64(d));
        Bucket& bucket = buckets[std::size_t(b)];
        bucket.maxDuration = std::max(bucket.maxDuration, d);
        bucket.start.push_back(s.start[i]); // spans are sorted by start, so every bucket is too
        bucket.span.push_back(std::uint32_t(i));
    }
    for (Bucket& b : buckets)
        if (!b.start.empty())
            m_buckets.push_back(std::move(b));
}

std::vector<std::pair<TimeNs, TimeNs>> KernelSpans::ncclBusy() const
{
    std::vector<std::pair<TimeNs, TimeNs>> busy;
    for (std::size_t i = 0; i < size(); ++i) {
        if (!nccl[i] || end[i] <= start[i])
            continue;
        if (!busy.empty() && start[i] <= busy.back().second)
            busy.back().second = std::max(busy.back().second, end[i]);
        else
            busy.emplace_back(start[i], end[i]);
    }
    return busy;
}

std::shared_ptr<const KernelSpans> kernelSpansFromProfile(const ProfilePtr& profile, int device)
{
    auto s = std::make_shared<KernelSpans>();
    s->device = device;
    s->profile = profile;
    const KernelTable& k = profile->kernels;
    for (std::size_t i = 0; i < k.size(); ++i) {
        if (k.device[i] != device)
            continue;
        s->start.push_back(k.start[i]);
        s->end.push_back(k.end[i]);
        s->stream.push_back(k.stream[i]);
        s->row.push_back(std::uint32_t(i));
        s->name.push_back(k.shortName[i] != kNoString ? k.shortName[i] : k.demangledName[i]);
    }
    s->deviceHasKernels = !s->start.empty();
    sortByStart(*s);
    flagNccl(*s);
    return s;
}

std::shared_ptr<const KernelSpans> kernelSpansFromExport(
    const SqliteDb& db, int device, std::vector<KernelWindow> windows, QString* error)
{
    auto s = std::make_shared<KernelSpans>();
    s->device = device;
    s->ownStrings = std::make_shared<StringPool>();
    const QString table = QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL");
    if (!db.hasTable(table))
        return s;
    QString nameColumn;
    // correlate_nsys_nvlink.py's precedence.
    for (const char* c : { "shortName", "demangledName", "name", "mangledName" })
        if (db.hasColumn(table, QLatin1String(c))) {
            nameColumn = QLatin1String(c);
            break;
        }
    for (const char* c : { "start", "end", "deviceId", "streamId" })
        if (!db.hasColumn(table, QLatin1String(c))) {
            if (error)
                *error = QStringLiteral("%1: %2 has no column %3").arg(db.path(), table, QLatin1String(c));
            return nullptr;
        }
    {
        Statement any(db, QStringLiteral("SELECT 1 FROM %1 WHERE deviceId = ?1 LIMIT 1").arg(table));
        any.bindInt64(1, device);
        s->deviceHasKernels = any.step() == Statement::Step::Row;
    }
    if (!s->deviceHasKernels || windows.empty())
        return s;

    const std::vector<KernelWindow> merged = mergedWindows(std::move(windows));
    TimeNs lo = merged.front().from, hi = merged.front().to;
    for (const KernelWindow& w : merged)
        hi = std::max(hi, w.to);
    const QString nameExpr = nameColumn.isEmpty() ? QStringLiteral("NULL") : quoteIdentifier(nameColumn);
    // Rows whose times are not integers are selected too, to be counted: the loader says how many it skipped.
    Statement st(db,
        QStringLiteral("SELECT rowid, start, end, streamId, %1 FROM %2 WHERE deviceId = ?1 AND ((start < ?2 AND end > "
                       "?3) OR typeof(start) != 'integer' OR typeof(end) != 'integer')")
            .arg(nameExpr, table));
    if (!st.isValid()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(db.path(), st.error());
        return nullptr;
    }
    st.bindInt64(1, device);
    st.bindInt64(2, hi);
    st.bindInt64(3, lo);
    std::vector<qint64> pendingId; // per kept row: StringIds id still to resolve, or -1
    ExportDamage damage;
    Statement::Step step;
    while ((step = st.step()) == Statement::Step::Row) {
        if (st.type(1) != SqlType::Integer || st.type(2) != SqlType::Integer
            || !plausibleInterval(st.int64(1), st.int64(2))) {
            ++damage.skippedRows;
            continue;
        }
        const TimeNs a = st.int64(1), b = st.int64(2);
        const auto w = std::upper_bound(
            merged.begin(), merged.end(), a, [](TimeNs t, const KernelWindow& win) { return t < win.to; });
        if (w != merged.end() && w->from < b)
            appendRow(st, *s, pendingId, damage);
    }
    if (step == Statement::Step::Error) {
        if (error)
            *error = QStringLiteral("%1: reading kernels failed: %2").arg(db.path(), db.lastError());
        return nullptr;
    }
    if (!resolveNames(db, *s, pendingId, &damage.missingNames, error))
        return nullptr;
    s->warnings = damage.warnings(table);
    sortByStart(*s);
    flagNccl(*s);
    return s;
}

} // namespace nsw
