// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpumetricsreader.h"

#include "core/jobs/cancel.h"
#include "core/sqlite/sqlitedb.h"

#include <QRegularExpression>
#include <algorithm>
#include <chrono>
#include <mutex>
#include <numeric>
#include <set>
#include <unordered_map>

namespace nsw {

namespace {

struct Accumulator
{
    std::vector<TimeNs> time;
    std::vector<double> value;
    bool sorted = true;

    /// One GPU_METRICS row: samples of one timestamp (several user-data metrics of a direction) are summed.
    void add(TimeNs t, double v)
    {
        if (!time.empty() && time.back() == t) {
            value.back() += v;
            return;
        }
        if (!time.empty() && t < time.back())
            sorted = false;
        time.push_back(t);
        value.push_back(v);
    }
};

/// The GPU of a TARGET_INFO_GPU_METRICS type: the "[N]" of its name, else typeId & 0xFF.
int gpuOfType(qint64 typeId, const QString& typeName)
{
    static const QRegularExpression gpuInName(QStringLiteral("\\[(\\d+)\\]"));
    const QRegularExpressionMatch g = gpuInName.match(typeName);
    return g.hasMatch() ? g.captured(1).toInt() : int(typeId & 0xFF);
}

QString chipOfType(const QString& typeName)
{
    static const QRegularExpression chipInName(QStringLiteral("\\(([^)]+)\\)"));
    const QRegularExpressionMatch chip = chipInName.match(typeName);
    return chip.hasMatch() ? chip.captured(1).trimmed() : QString();
}

QString missingGpuMetricsColumn(const SqliteDb& db)
{
    const QString info = QStringLiteral("TARGET_INFO_GPU_METRICS"), metrics = QStringLiteral("GPU_METRICS");
    for (const char* c : { "typeId", "typeName", "metricId", "metricName" })
        if (!db.hasColumn(info, QLatin1String(c)))
            return QStringLiteral("%1: %2 has no column %3").arg(db.path(), info, QLatin1String(c));
    for (const char* c : { "timestamp", "typeId", "metricId", "value" })
        if (!db.hasColumn(metrics, QLatin1String(c)))
            return QStringLiteral("%1: %2 has no column %3").arg(db.path(), metrics, QLatin1String(c));
    return {};
}

/// The accumulated samples as a series of interval values (sorted by time, samples of one time summed).
ThroughputSeries percentSeries(Accumulator& a)
{
    if (!a.sorted) {
        std::vector<std::uint32_t> order(a.time.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(
            order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) { return a.time[x] < a.time[y]; });
        std::vector<TimeNs> time;
        std::vector<double> value;
        for (const std::uint32_t i : order) {
            if (!time.empty() && time.back() == a.time[i]) {
                value.back() += a.value[i];
                continue;
            }
            time.push_back(a.time[i]);
            value.push_back(a.value[i]);
        }
        a.time = std::move(time);
        a.value = std::move(value);
    }
    ThroughputSeries s;
    s.link = kAllLinks;
    s.unit = ThroughputUnit::PercentOfPeak;
    if (a.time.size() >= 2)
        for (std::size_t i = 0; i + 1 < a.time.size(); ++i)
            s.percent.push_back(float(a.value[i]));
    s.time = std::move(a.time);
    return s;
}

} // namespace

int nvlinkMetricDirection(const QString& name)
{
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*NVLink\\b(.*)\\[([^\\]]*)\\]\\s*$"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression tx(QStringLiteral("\\bTX\\b"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression rx(QStringLiteral("\\bRX\\b"), QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = pattern.match(name);
    if (!m.hasMatch())
        return -1;
    const QString body = m.captured(1);
    if (!m.captured(2).contains(QLatin1Char('%')) || body.contains(QLatin1String("protocol"), Qt::CaseInsensitive))
        return -1;
    const bool isTx = tx.match(body).hasMatch(), isRx = rx.match(body).hasMatch();
    if (isTx == isRx)
        return -1;
    return isTx ? int(LinkDirection::Tx) : int(LinkDirection::Rx);
}

namespace {

/// A counter being read: its samples and where it is listed (NVLink TX, RX, then the metrics in table order).
struct CounterSlot
{
    GpuMetricCounter counter;
    Accumulator samples;
    int rank = 0;
};

struct PairHash
{
    std::size_t operator()(const std::pair<qint64, qint64>& p) const
    {
        return std::hash<qint64>()(p.first * 1000003 ^ p.second);
    }
};

} // namespace

std::pair<QString, QString> splitMetricUnit(const QString& metricName)
{
    static const QRegularExpression withUnit(QStringLiteral("^(.*?)\\s*\\[([^\\]]*)\\]\\s*$"));
    const QRegularExpressionMatch m = withUnit.match(metricName);
    if (!m.hasMatch())
        return { metricName.trimmed(), QString() };
    const QString unit = m.captured(2).trimmed();
    // nsys writes "[Throughput %]" for every percentage.
    return { m.captured(1).trimmed(), unit.endsWith(QLatin1Char('%')) ? QStringLiteral("%") : unit };
}

GpuMetricCountersResult readGpuMetricCounters(const QString& path, const JobContext& job)
{
    QString error;
    const auto db = SqliteDb::open(path, &error);
    if (!db)
        return { nullptr, error };
    return readGpuMetricCounters(*db, job);
}

GpuMetricCountersResult readGpuMetricCounters(const SqliteDb& db, const JobContext& job, GpuMetricSelection selection)
{
    if (!db.hasTable(QStringLiteral("TARGET_INFO_GPU_METRICS")) || !db.hasTable(QStringLiteral("GPU_METRICS")))
        return {};
    if (const QString missing = missingGpuMetricsColumn(db); !missing.isEmpty())
        return { nullptr, missing };
    job.report(QStringLiteral("GPU metrics"), 0);
    auto data = std::make_shared<GpuMetricCounters>();
    data->path = db.path();
    std::vector<CounterSlot> counterSlots;
    std::map<std::pair<int, QString>, int> slotOf; // (gpu, counter name)
    std::unordered_map<std::pair<qint64, qint64>, int, PairHash> targets; // (typeId, metricId) -> slot
    std::set<qint64> metricIds;
    {
        Statement st(db,
            QStringLiteral(
                "SELECT typeId, typeName, metricId, metricName FROM TARGET_INFO_GPU_METRICS ORDER BY rowid"));
        if (!st.isValid())
            return { nullptr, QStringLiteral("%1: %2").arg(db.path(), st.error()) };
        while (st.step() == Statement::Step::Row) {
            const QString metric = st.text(3), typeName = st.text(1);
            const int direction = nvlinkMetricDirection(metric);
            if (selection == GpuMetricSelection::NvlinkOnly && direction < 0)
                continue;
            const int gpu = gpuOfType(st.int64(0), typeName);
            if (const QString chip = chipOfType(typeName); !chip.isEmpty())
                data->chips[gpu] = chip;
            if (!data->metricNames.contains(metric))
                data->metricNames.append(metric);
            auto [name, unit] = splitMetricUnit(metric);
            if (direction >= 0) {
                name = QStringLiteral("NVLink ") + directionLabel(LinkDirection(direction));
                unit = QStringLiteral("%");
            }
            auto it = slotOf.find({ gpu, name });
            if (it == slotOf.end()) {
                CounterSlot slot;
                slot.counter.gpu = gpu;
                slot.counter.name = name;
                slot.counter.unit = unit;
                slot.counter.nvlinkDirection = direction;
                slot.rank = direction >= 0 ? direction : 2 + int(data->metricNames.indexOf(metric));
                counterSlots.push_back(std::move(slot));
                it = slotOf.emplace(std::make_pair(gpu, name), int(counterSlots.size()) - 1).first;
            }
            QStringList& parts = counterSlots[std::size_t(it->second)].counter.metrics;
            if (!parts.contains(metric))
                parts.append(metric);
            targets[{ st.int64(0), st.int64(2) }] = it->second;
            metricIds.insert(st.int64(2));
        }
    }
    if (targets.empty())
        return {};
    QString sql = QStringLiteral("SELECT timestamp, typeId, metricId, value FROM GPU_METRICS");
    if (selection == GpuMetricSelection::NvlinkOnly) {
        QStringList ids;
        for (const qint64 id : metricIds)
            ids.append(QString::number(id));
        sql += QStringLiteral(" WHERE metricId IN (%1)").arg(ids.join(QLatin1Char(',')));
    }
    Statement st(db, sql);
    if (!st.isValid())
        return { nullptr, QStringLiteral("%1: %2").arg(db.path(), st.error()) };
    CancelPoll<> cancelled(job.cancelToken());
    Statement::Step step;
    while ((step = st.step()) == Statement::Step::Row) {
        if (cancelled())
            return { nullptr, QString(), true };
        const auto it = targets.find({ st.int64(1), st.int64(2) });
        if (it == targets.end())
            continue;
        GpuMetricCounter& counter = counterSlots[std::size_t(it->second)].counter;
        ++data->rows;
        ++counter.rows;
        if (st.isNull(0) || st.int64(0) < 0) {
            ++data->droppedRows;
            ++counter.droppedRows;
            continue;
        }
        counterSlots[std::size_t(it->second)].samples.add(st.int64(0), st.real(3));
    }
    if (step == Statement::Step::Error)
        return { nullptr, QStringLiteral("%1: reading GPU_METRICS failed: %2").arg(db.path(), db.lastError()) };
    std::stable_sort(counterSlots.begin(), counterSlots.end(), [](const CounterSlot& a, const CounterSlot& b) {
        return std::tie(a.counter.gpu, a.rank) < std::tie(b.counter.gpu, b.rank);
    });
    for (CounterSlot& slot : counterSlots) {
        slot.counter.series = percentSeries(slot.samples);
        slot.counter.series.gpu = slot.counter.gpu;
        if (slot.counter.nvlinkDirection >= 0)
            slot.counter.series.direction = LinkDirection(slot.counter.nvlinkDirection);
        if (slot.counter.series.intervalCount() > 0 || slot.counter.nvlinkDirection >= 0)
            data->counters.push_back(std::move(slot.counter));
    }
    job.report(QStringLiteral("GPU metrics"), 1);
    return { std::move(data), QString() };
}

GpuMetricsResult readGpuMetricsNvlink(const SqliteDb& db)
{
    const GpuMetricCountersResult read = readGpuMetricCounters(db, {}, GpuMetricSelection::NvlinkOnly);
    if (!read.data)
        return { nullptr, read.error };
    return nvlinkFromCounters(*read.data);
}

GpuMetricsResult readGpuMetricsNvlink(const QString& path)
{
    QString error;
    const auto db = SqliteDb::open(path, &error);
    if (!db)
        return { nullptr, error };
    return readGpuMetricsNvlink(*db);
}

GpuMetricsResult nvlinkFromCounters(const GpuMetricCounters& counters)
{
    auto data = std::make_shared<GpuMetricsNvlink>();
    data->path = counters.path;
    for (const GpuMetricCounter& c : counters.counters) {
        if (c.nvlinkDirection < 0)
            continue;
        data->series.push_back(c.series);
        data->rows += c.rows;
        data->droppedRows += c.droppedRows;
        if (const auto chip = counters.chips.find(c.gpu); chip != counters.chips.end())
            data->chips.insert(*chip);
    }
    if (data->series.empty())
        return {};
    for (const QString& metric : counters.metricNames)
        if (nvlinkMetricDirection(metric) >= 0)
            data->metrics.append(metric);
    if (data->droppedRows > 0)
        data->warnings << QStringLiteral(
            "%1 GPU metric samples before the capture start (negative timestamps): dropped")
                              .arg(data->droppedRows);
    return { std::move(data), QString() };
}

namespace {

/// The reads of GPU metrics that someone still holds, one per profile.
struct SharedReads
{
    struct Entry
    {
        std::weak_ptr<const Profile> profile;
        std::shared_ptr<std::timed_mutex> reading = std::make_shared<std::timed_mutex>();
        std::weak_ptr<const GpuMetricCounters> data;
    };
    std::mutex mutex;
    std::vector<Entry> entries;

    Entry& entryOf(const ProfilePtr& profile)
    {
        std::erase_if(entries, [](const Entry& e) { return e.profile.expired(); });
        for (Entry& e : entries)
            if (e.profile.lock() == profile)
                return e;
        entries.push_back({ profile, std::make_shared<std::timed_mutex>(), {} });
        return entries.back();
    }
};

SharedReads& sharedReads()
{
    static SharedReads reads;
    return reads;
}

} // namespace

GpuMetricCountersResult sharedGpuMetricCounters(const ProfilePtr& profile, const JobContext& job)
{
    SharedReads& shared = sharedReads();
    std::shared_ptr<std::timed_mutex> reading;
    {
        const std::lock_guard lock(shared.mutex);
        SharedReads::Entry& e = shared.entryOf(profile);
        if (auto data = e.data.lock())
            return { std::move(data), QString() };
        reading = e.reading;
    }
    // One reader at a time per profile; the others wait for its result instead of scanning the table again.
    while (!reading->try_lock_for(std::chrono::milliseconds(20)))
        if (job.isCancelled())
            return { nullptr, QString(), true };
    const std::lock_guard readLock(*reading, std::adopt_lock);
    {
        const std::lock_guard lock(shared.mutex);
        if (auto data = shared.entryOf(profile).data.lock())
            return { std::move(data), QString() };
    }
    GpuMetricCountersResult read = readGpuMetricCounters(profile->meta.filePath, job);
    if (read.data) {
        const std::lock_guard lock(shared.mutex);
        shared.entryOf(profile).data = read.data;
    }
    return read;
}

} // namespace nsw
