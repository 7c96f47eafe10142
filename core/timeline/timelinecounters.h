// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/nvlink/gpumetricsreader.h"
#include "core/nvlink/plotreduction.h"
#include "core/timeline/timelineindex.h"

#include <QString>
#include <memory>
#include <vector>

namespace nsw {

struct NvlinkAttachment;

/// One counter row of the timeline: a sampled value (a GPU metric, NVLink throughput) drawn as an area chart.
struct CounterTrack
{
    QString label; ///< "SMs Active", "NVLink TX"
    QString unit; ///< "%", "GB/s", "MHz"
    QString source; ///< a tooltip line saying where the values come from
    int group = 0; ///< into TimelineCounters::groups()
    std::shared_ptr<const ThroughputSeries> series; ///< interval i holds value(i) over [time[i], time[i+1])
    TimeNs shift = 0; ///< series time + shift = the profile's time
    double fullScale = 1; ///< the value drawn at the full row height: 100 for percentages, else the series' maximum
    std::shared_ptr<const SeriesMaxIndex> maxIndex;
};

/// What one pixel column of a counter row shows.
struct CounterColumn
{
    double max = 0; ///< largest value of the intervals overlapping the column
    bool hasData = false; ///< false where no sample covers the column (before the first, after the last)
};

/// The counter's value at one time: the interval that holds it.
struct CounterSample
{
    bool valid = false;
    TimeNs start = 0; ///< profile time
    TimeNs end = 0;
    double value = 0;
};

/// The counter rows of one profile (GPU metrics of the export, throughput of attached NVLink recordings), in groups.
/// Immutable once built; shared by the timeline views that show it.
class TimelineCounters
{
public:
    struct Group
    {
        QString label;
    };

    const std::vector<Group>& groups() const { return m_groups; }
    const std::vector<CounterTrack>& tracks() const { return m_tracks; }
    bool empty() const { return m_tracks.empty(); }
    /// First and last sample time over every track (profile ns); both 0 when empty.
    std::pair<TimeNs, TimeNs> extent() const;

    /// Adds a group (returns its number) and tracks to it; a series without intervals adds no track.
    int addGroup(const QString& label);
    void addTrack(CounterTrack track);
    /// Drops groups left without tracks.
    void removeEmptyGroups();

    /// The @p width pixel columns of track @p track for a view starting at @p start (profile ns) at @p nsPerPixel:
    /// per column the maximum of every interval overlapping it (from reduceForPlot(), so no peak is skipped).
    std::vector<CounterColumn> columns(std::size_t track, double start, double nsPerPixel, int width) const;
    /// The interval of @p track holding profile time @p t (invalid before the first sample and after the last).
    CounterSample sampleAt(std::size_t track, TimeNs t) const;

private:
    std::vector<Group> m_groups;
    std::vector<CounterTrack> m_tracks;
};

/// "42.5 %", "12.3 GB/s", "1410 MHz": a counter value with its unit, to a precision that suits its size.
QString formatCounterValue(double value, const QString& unit);

using TimelineCountersPtr = std::shared_ptr<const TimelineCounters>;

/// The counter rows of @p profile: per GPU, the GPU metrics of the export (@p metrics, may be null) and per NVLink
/// recording of @p nvlink (may be null) its TX and RX totals placed by the recording's clock alignment. Null when
/// there is nothing to show or when cancelled. Builds a max index per series: run it off the GUI thread.
TimelineCountersPtr buildTimelineCounters(const Profile& profile, std::shared_ptr<const GpuMetricCounters> metrics,
    std::shared_ptr<const NvlinkAttachment> nvlink, const JobContext& job = {});

/// The timeline's rows with the counter rows: @p eventRows keep their numbers and the counter groups and rows are
/// numbered after them (TrackKind::Group and TrackKind::Counter, TimelineRow::counter naming the track).
/// @p order is the display order: the GPU groups, the counter groups, then the processes.
struct TimelineRowTable
{
    std::vector<TimelineRow> rows;
    std::vector<int> order;
};
TimelineRowTable withCounterRows(const std::vector<TimelineRow>& eventRows, const TimelineCounters* counters);

} // namespace nsw
