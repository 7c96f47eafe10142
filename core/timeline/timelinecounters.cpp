// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinecounters.h"

#include "core/nvlink/clockalignment.h"
#include "core/nvlink/nvlinkattachment.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <limits>

namespace nsw {

namespace {

/// The pixel columns as reduceForPlot() cuts [from, to) into buckets: whole ns, column c from
/// from + floor(c × width) (sub-ns off the exact pixel edge, so a step lands in the same column either way).
class ColumnGrid
{
public:
    ColumnGrid(TimeNs from, TimeNs to, int columns)
        : m_from(from)
        , m_to(to)
        , m_width(double(to - from) / columns)
        , m_columns(columns)
    { }

    TimeNs boundary(int c) const { return c >= m_columns ? m_to : m_from + TimeNs(std::floor(m_width * c)); }
    /// The column holding @p t: -1 before the first, columns after the last.
    int columnOf(TimeNs t) const
    {
        if (t < m_from)
            return -1;
        if (t >= m_to)
            return m_columns;
        int c = std::clamp(int(double(t - m_from) / m_width), 0, m_columns - 1);
        while (c + 1 < m_columns && boundary(c + 1) <= t)
            ++c;
        while (c > 0 && boundary(c) > t)
            --c;
        return c;
    }

private:
    TimeNs m_from;
    TimeNs m_to;
    double m_width;
    int m_columns;
};

TimeNs nsOf(double plotX)
{
    return TimeNs(std::llround(plotX * 1e9));
}

/// Sets the columns [first, last] (clipped to the grid) to at least @p value.
void raiseColumns(std::vector<CounterColumn>& out, int first, int last, double value)
{
    first = std::max(first, 0);
    last = std::min(last, int(out.size()) - 1);
    for (int c = first; c <= last; ++c)
        out[std::size_t(c)].max = std::max(out[std::size_t(c)].max, value);
}

/// "GPU 0 metrics · GH100": the chip the metrics name (short, as the label column is narrow), else the GPU's model.
QString gpuGroupLabel(const Profile& profile, int gpu, const GpuMetricCounters& metrics)
{
    const auto chip = metrics.chips.find(gpu);
    const QString model = chip != metrics.chips.end() ? chip->second : nvlinkGpuModel(profile, gpu, nullptr);
    return model.isEmpty() ? QStringLiteral("GPU %1 metrics").arg(gpu)
                           : QStringLiteral("GPU %1 metrics · %2").arg(gpu).arg(model);
}

/// The largest value of a whole series (the full scale of a row that is not a percentage), at least 1e-9.
double seriesMax(const SeriesMaxIndex& index, const ThroughputSeries& series)
{
    return std::max(index.maxIn(0, series.intervalCount()), 1e-9);
}

CounterTrack makeTrack(std::shared_ptr<const ThroughputSeries> series, TimeNs shift, const QString& unit)
{
    CounterTrack t;
    t.unit = unit;
    t.shift = shift;
    auto index = std::make_shared<const SeriesMaxIndex>(*series);
    // An NVLink sum of requests and responses can pass 100 %.
    t.fullScale = unit == QLatin1String("%") ? std::max(100.0, seriesMax(*index, *series)) : seriesMax(*index, *series);
    t.maxIndex = std::move(index);
    t.series = std::move(series);
    return t;
}

bool addGpuMetricTracks(TimelineCounters& out, const Profile& profile,
    const std::shared_ptr<const GpuMetricCounters>& metrics, const JobContext& job)
{
    int group = -1, groupGpu = 0;
    for (const GpuMetricCounter& c : metrics->counters) {
        if (c.series.intervalCount() == 0)
            continue; // an NVLink sum the export defines but never sampled
        if (job.isCancelled())
            return false;
        if (group < 0 || c.gpu != groupGpu) {
            group = out.addGroup(gpuGroupLabel(profile, c.gpu, *metrics));
            groupGpu = c.gpu;
        }
        // Aliasing: the series stays owned by (and keeps alive) the metrics it was read with.
        CounterTrack t = makeTrack(std::shared_ptr<const ThroughputSeries>(metrics, &c.series), 0, c.unit);
        t.label = c.name;
        t.group = group;
        t.source = c.metrics.size() == 1
            ? QStringLiteral("nsys GPU metric “%1”").arg(c.metrics.front())
            : QStringLiteral("nsys GPU metrics, sum of: %1").arg(c.metrics.join(QStringLiteral(" + ")));
        out.addTrack(std::move(t));
    }
    return true;
}

bool addRecordingTracks(TimelineCounters& out, const Profile& profile,
    const std::shared_ptr<const NvlinkAttachment>& nvlink, const JobContext& job)
{
    for (const NvlinkRecordingEntry& e : nvlink->recordings) {
        if (!e.recording)
            continue;
        const QString file = QFileInfo(e.recording->path).fileName();
        const int group = out.addGroup(QStringLiteral("NVLink GPU %1 · %2").arg(e.gpu).arg(file));
        const ClockAlignment alignment
            = alignClocks(profile.meta.sessionStartUtcNs, e.recording->firstUs, nvlink->clockOffsetNs);
        for (const ThroughputSeries& s : e.recording->totals) {
            if (job.isCancelled())
                return false;
            CounterTrack t = makeTrack(
                std::shared_ptr<const ThroughputSeries>(e.recording, &s), alignment.shiftOf(s), QStringLiteral("GB/s"));
            t.label = QStringLiteral("NVLink %1").arg(directionLabel(s.direction));
            t.group = group;
            t.source = QStringLiteral("NVML counters of %1, all links%2")
                           .arg(file, alignment.fromExport ? QString() : QStringLiteral(" (clock not aligned)"));
            out.addTrack(std::move(t));
        }
    }
    return true;
}

/// Where the counter groups go among the event rows: after the last GPU group (a top-level group whose rows are
/// GPU rows), so that they sit under the GPUs and above the processes.
std::size_t counterInsertionPoint(const std::vector<TimelineRow>& rows)
{
    std::size_t at = 0;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].kind == TrackKind::GpuBusy || rows[i].kind == TrackKind::Stream)
            at = i + 1;
    return at;
}

} // namespace

int TimelineCounters::addGroup(const QString& label)
{
    m_groups.push_back({ label });
    return int(m_groups.size()) - 1;
}

void TimelineCounters::addTrack(CounterTrack track)
{
    if (track.series && track.maxIndex && track.series->intervalCount() > 0)
        m_tracks.push_back(std::move(track));
}

void TimelineCounters::removeEmptyGroups()
{
    std::vector<int> renumber(m_groups.size(), -1);
    std::vector<Group> kept;
    for (const CounterTrack& t : m_tracks)
        if (renumber[std::size_t(t.group)] < 0) {
            renumber[std::size_t(t.group)] = int(kept.size());
            kept.push_back(m_groups[std::size_t(t.group)]);
        }
    for (CounterTrack& t : m_tracks)
        t.group = renumber[std::size_t(t.group)];
    m_groups = std::move(kept);
}

std::vector<CounterColumn> TimelineCounters::columns(
    std::size_t track, double start, double nsPerPixel, int width) const
{
    std::vector<CounterColumn> out(std::size_t(std::max(width, 0)));
    if (width <= 0 || nsPerPixel <= 0 || track >= m_tracks.size())
        return out;
    const CounterTrack& c = m_tracks[track];
    const ThroughputSeries& s = *c.series;
    const TimeNs from = TimeNs(std::floor(start));
    const TimeNs to = std::max(from + 1, TimeNs(std::ceil(start + nsPerPixel * width)));
    const ColumnGrid grid(from, to, width);
    // Step k of the reduction holds y[k] over [x[k], x[k+1]): one bucket (a column) or one interval of the series.
    const PlotPoints steps = reduceForPlot(s, *c.maxIndex, c.shift, from, to, width);
    for (std::size_t k = 0; k + 1 < steps.x.size(); ++k) {
        const TimeNs t0 = nsOf(steps.x[k]), t1 = nsOf(steps.x[k + 1]);
        raiseColumns(out, grid.columnOf(t0), grid.columnOf(std::max(t0, t1 - 1)), steps.y[k]);
    }
    const int first = std::max(grid.columnOf(s.time.front() + c.shift), 0);
    const int last = std::min(grid.columnOf(s.time.back() + c.shift - 1), width - 1);
    for (int col = first; col <= last; ++col)
        out[std::size_t(col)].hasData = true;
    return out;
}

std::pair<TimeNs, TimeNs> TimelineCounters::extent() const
{
    if (m_tracks.empty())
        return { 0, 0 };
    TimeNs first = std::numeric_limits<TimeNs>::max(), last = std::numeric_limits<TimeNs>::min();
    for (const CounterTrack& t : m_tracks) {
        first = std::min(first, t.series->time.front() + t.shift);
        last = std::max(last, t.series->time.back() + t.shift);
    }
    return { first, last };
}

QString formatCounterValue(double value, const QString& unit)
{
    const double size = std::abs(value);
    const int decimals = size >= 100 || value == std::round(value) ? 0 : size >= 10 ? 1 : 2;
    const QString number = QString::number(value, 'f', decimals);
    return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

CounterSample TimelineCounters::sampleAt(std::size_t track, TimeNs t) const
{
    CounterSample sample;
    if (track >= m_tracks.size())
        return sample;
    const CounterTrack& c = m_tracks[track];
    const ThroughputSeries& s = *c.series;
    const TimeNs local = t - c.shift;
    if (s.intervalCount() == 0 || local < s.time.front() || local >= s.time.back())
        return sample;
    const std::size_t i = std::size_t(std::upper_bound(s.time.begin(), s.time.end(), local) - s.time.begin()) - 1;
    return { true, s.time[i] + c.shift, s.time[i + 1] + c.shift, s.value(i) };
}

TimelineCountersPtr buildTimelineCounters(const Profile& profile, std::shared_ptr<const GpuMetricCounters> metrics,
    std::shared_ptr<const NvlinkAttachment> nvlink, const JobContext& job)
{
    auto out = std::make_shared<TimelineCounters>();
    if (metrics && !addGpuMetricTracks(*out, profile, metrics, job))
        return nullptr;
    if (nvlink && !addRecordingTracks(*out, profile, nvlink, job))
        return nullptr;
    out->removeEmptyGroups();
    if (out->empty())
        return nullptr;
    return out;
}

TimelineRowTable withCounterRows(const std::vector<TimelineRow>& eventRows, const TimelineCounters* counters)
{
    TimelineRowTable table;
    table.rows = eventRows;
    const std::size_t insertAt = counterInsertionPoint(eventRows);
    for (std::size_t i = 0; i < insertAt; ++i)
        table.order.push_back(int(i));
    if (counters) {
        std::vector<int> groupRow(counters->groups().size(), -1);
        for (std::size_t g = 0; g < counters->groups().size(); ++g) {
            TimelineRow group;
            group.label = counters->groups()[g].label;
            group.kind = TrackKind::Group;
            groupRow[g] = int(table.rows.size());
            table.order.push_back(groupRow[g]);
            table.rows.push_back(group);
            for (std::size_t k = 0; k < counters->tracks().size(); ++k) {
                const CounterTrack& t = counters->tracks()[k];
                if (std::size_t(t.group) != g)
                    continue;
                TimelineRow row;
                row.label = t.unit.isEmpty() ? t.label : QStringLiteral("%1 [%2]").arg(t.label, t.unit);
                row.kind = TrackKind::Counter;
                row.parent = groupRow[g];
                row.level = 1;
                row.counter = std::uint32_t(k);
                row.events = t.series->intervalCount();
                table.rows[std::size_t(groupRow[g])].events += row.events;
                table.order.push_back(int(table.rows.size()));
                table.rows.push_back(row);
            }
        }
    }
    for (std::size_t i = insertAt; i < eventRows.size(); ++i)
        table.order.push_back(int(i));
    return table;
}

} // namespace nsw
