// SPDX-License-Identifier: GPL-3.0-or-later
#include "perfettoexport.h"

#include "core/timeline/timelinebuild.h"
#include "core/timeline/timelineevent.h"

#include <QHash>

namespace nsw {

namespace {

constexpr const char* kCategories[] = { "kernel", "memcpy", "memset", "cuda_graph", "cuda_api", "nvtx", "osrt" };

int categoryOf(const Profile& p, EventRef e)
{
    switch (e.table) {
    case EventTable::Kernel:
        return 0;
    case EventTable::MemOp:
        return p.memops.copyKind[e.row] == MemOpTable::kMemset ? 2 : 1;
    case EventTable::GraphLaunch:
        return 3;
    case EventTable::CudaApi:
        return 4;
    case EventTable::Nvtx:
        return 5;
    case EventTable::Osrt:
    case EventTable::None:
        break;
    }
    return 6;
}

/// A JSON string literal (quotes included).
QByteArray jsonString(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    QByteArray out;
    out.reserve(utf8.size() + 2);
    out.append('"');
    for (const char c : utf8) {
        if (c == '"' || c == '\\') {
            out.append('\\').append(c);
        } else if (static_cast<unsigned char>(c) < 0x20) {
            out.append(QByteArrayLiteral("\\u00")).append(QByteArray::number(int(c), 16).rightJustified(2, '0'));
        } else {
            out.append(c);
        }
    }
    out.append('"');
    return out;
}

/// Streams the events of an index into a buffer flushed to the device every megabyte.
class TraceWriter
{
public:
    TraceWriter(const TimelineIndex& index, QIODevice& out, const FocusRange& focus)
        : m_index(index)
        , m_out(out)
        , m_focus(focus)
    { }

    bool write(const JobContext& job, PerfettoExportSummary& summary);
    qint64 count(int category) const { return m_counts[category]; }

private:
    void metadata(const char* what, int pid, int tid, const QString& name);
    void lane(std::uint32_t lane, int pid, int tid, PerfettoExportSummary& summary);
    void event(EventRef e, int pid, int tid);
    const QByteArray& nameOf(EventRef e);
    void separator();
    bool flush(bool force = false);
    QString laneName(const TimelineRow& row, std::uint32_t lane) const;

    const TimelineIndex& m_index;
    QIODevice& m_out;
    FocusRange m_focus;
    QByteArray m_buffer;
    bool m_first = true;
    bool m_failed = false;
    QHash<qint64, QByteArray> m_names;
    qint64 m_counts[std::size(kCategories)] = {};
};

void TraceWriter::separator()
{
    m_buffer.append(m_first ? "\n" : ",\n");
    m_first = false;
}

bool TraceWriter::flush(bool force)
{
    if (m_failed || (!force && m_buffer.size() < (1 << 20)))
        return !m_failed;
    m_failed = m_out.write(m_buffer) != m_buffer.size();
    m_buffer.clear();
    return !m_failed;
}

void TraceWriter::metadata(const char* what, int pid, int tid, const QString& name)
{
    separator();
    m_buffer.append(R"({"ph":"M","name":")").append(what).append(R"(","pid":)").append(QByteArray::number(pid));
    if (tid >= 0)
        m_buffer.append(R"(,"tid":)").append(QByteArray::number(tid));
    m_buffer.append(R"(,"args":{"name":)").append(jsonString(name)).append("}}");
}

const QByteArray& TraceWriter::nameOf(EventRef e)
{
    const Profile& p = m_index.profile();
    const qint64 key = eventNameKey(p, e) * 8 + qint64(e.table);
    auto it = m_names.find(key);
    if (it == m_names.end())
        it = m_names.insert(key, jsonString(eventName(p, e)));
    return *it;
}

void TraceWriter::event(EventRef e, int pid, int tid)
{
    const Profile& p = m_index.profile();
    const TimeNs start = eventStart(p, e), end = eventEnd(p, e);
    separator();
    m_buffer.append(R"({"ph":"X","cat":")")
        .append(kCategories[categoryOf(p, e)])
        .append(R"(","name":)")
        .append(nameOf(e));
    m_buffer.append(R"(,"pid":)").append(QByteArray::number(pid)).append(R"(,"tid":)").append(QByteArray::number(tid));
    m_buffer.append(R"(,"ts":)").append(microsecondsText(start - m_index.origin()));
    m_buffer.append(R"(,"dur":)").append(microsecondsText(end - start));
    if (e.table == EventTable::Kernel || e.table == EventTable::CudaApi) {
        const std::uint32_t correlation
            = e.table == EventTable::Kernel ? p.kernels.correlation[e.row] : p.cudaApi.correlation[e.row];
        m_buffer.append(R"(,"args":{"correlationId":)").append(QByteArray::number(correlation)).append('}');
    }
    m_buffer.append('}');
}

void TraceWriter::lane(std::uint32_t lane, int pid, int tid, PerfettoExportSummary& summary)
{
    const std::uint32_t n = m_index.lanes()[lane].count;
    const Profile& p = m_index.profile();
    const bool focused = m_focus.isActive();
    // Every event that overlaps the range starts before its end and ends at or after its start.
    for (std::uint32_t k = focused ? m_index.firstEndingAtOrAfter(lane, m_focus.start) : 0;
         k < n && (!focused || m_index.startAt(lane, k) < m_focus.end); ++k) {
        const EventRef e = m_index.eventAt(lane, k);
        if (focused && !m_focus.overlaps(eventStart(p, e), eventEnd(p, e)))
            continue;
        event(e, pid, tid);
        ++m_counts[categoryOf(p, e)];
        ++summary.events;
        if (!flush())
            return;
    }
}

QString TraceWriter::laneName(const TimelineRow& row, std::uint32_t lane) const
{
    QString name = row.label;
    if (row.level == 2)
        name = m_index.rows()[std::size_t(row.parent)].label + QStringLiteral(" · ") + name;
    if (row.laneCount > 1)
        name += QStringLiteral(" [%1]").arg(lane - row.firstLane);
    return name;
}

bool TraceWriter::write(const JobContext& job, PerfettoExportSummary& summary)
{
    m_buffer.append(R"({"displayTimeUnit":"ns","traceEvents":[)");
    int pid = 0, tid = 0;
    const std::vector<TimelineRow>& rows = m_index.rows();
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const TimelineRow& row = rows[r];
        if (job.isCancelled())
            return false;
        job.report(QStringLiteral("writing trace"), double(r) / double(rows.size()));
        if (row.parent < 0) {
            metadata("process_name", ++pid, -1, row.label);
            continue;
        }
        if (row.isGroup() || row.kind == TrackKind::GpuBusy)
            continue;
        for (std::uint32_t l = row.firstLane; l < row.firstLane + row.laneCount && !m_failed; ++l) {
            metadata("thread_name", pid, ++tid, laneName(row, l));
            lane(l, pid, tid, summary);
        }
    }
    m_buffer.append("\n]}\n");
    return flush(true);
}

} // namespace

QByteArray microsecondsText(TimeNs ns)
{
    const bool negative = ns < 0;
    const quint64 magnitude = negative ? quint64(0) - quint64(ns) : quint64(ns);
    QByteArray text = negative ? QByteArrayLiteral("-") : QByteArray();
    text += QByteArray::number(magnitude / 1000);
    text += '.';
    text += QByteArray::number(magnitude % 1000).rightJustified(3, '0');
    return text;
}

Result<PerfettoExportSummary> writePerfettoTrace(
    const PerfettoExportRequest& request, QIODevice& out, const JobContext& job)
{
    Result<TimelineIndexPtr> index = buildTimelineIndex(request.profile, job.slice(0, 0.4));
    if (!index)
        return index.failureAs<PerfettoExportSummary>();
    PerfettoExportSummary summary;
    TraceWriter writer(**index, out, request.focus);
    const bool written = writer.write(job.slice(0.4, 1), summary);
    for (int c = 0; c < int(std::size(kCategories)); ++c)
        if (writer.count(c) > 0)
            summary.eventsByCategory[QString::fromLatin1(kCategories[c])] = writer.count(c);
    if (!written) {
        if (job.isCancelled())
            return Result<PerfettoExportSummary>::cancelled();
        return Result<PerfettoExportSummary>::failure(
            ErrorKind::Input, QStringLiteral("cannot write the trace: %1").arg(out.errorString()));
    }
    return summary;
}

} // namespace nsw
