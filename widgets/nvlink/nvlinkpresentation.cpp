// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkpresentation.h"

#include "core/nvlink/nvf1reader.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

#include <QFileInfo>
#include <QObject>
#include <algorithm>
#include <cmath>

namespace nsw {

namespace {
const QColor kLinkColors[] = { QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
    QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2),
    QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22), QColor(0x17, 0xbe, 0xcf), QColor(0x39, 0x3b, 0x79),
    QColor(0x63, 0x79, 0x39), QColor(0x8c, 0x6d, 0x31), QColor(0x84, 0x3c, 0x39), QColor(0x7b, 0x41, 0x73),
    QColor(0x52, 0x54, 0xa3), QColor(0x6b, 0x6e, 0xcf), QColor(0x9c, 0x9e, 0xde) };
} // namespace

NvlinkPlotContent plotContentOf(const NvlinkPeaksRequest& request, const NvlinkPeaksResult& result, bool wantPercent)
{
    NvlinkPlotContent content;
    const LinkPeakEntry* model = request.gpuModel ? &*request.gpuModel : nullptr;
    for (std::size_t i = 0; i < request.series.size(); ++i) {
        const ThroughputSeries& s = *request.series[i];
        NvlinkPlotSeries p;
        p.keepAlive = request.keepAlive;
        p.series = &s;
        p.index = result.plotIndexes[i];
        p.shift = request.alignment.shiftOf(s);
        const double capacity = !model ? 0.0 : s.link == kAllLinks ? model->gpuGbps() : model->gbpsPerLink;
        const bool native = (s.unit == ThroughputUnit::PercentOfPeak) == wantPercent;
        if (!native && capacity > 0)
            p.scale = s.unit == ThroughputUnit::GBps ? 100.0 / capacity : capacity / 100.0;
        else
            content.unitFallback = content.unitFallback || !native;
        p.name = s.label();
        p.color = s.link == kAllLinks ? (s.direction == LinkDirection::Tx ? kLinkColors[0] : kLinkColors[1])
                                      : kLinkColors[std::size_t(std::max(0, s.link)) % std::size(kLinkColors)];
        p.style = s.direction == LinkDirection::Tx ? Qt::SolidLine : Qt::DashLine;
        content.series.push_back(std::move(p));
    }
    const bool sourcePercent = !request.series.empty() && request.series.front()->unit == ThroughputUnit::PercentOfPeak;
    content.showPercent = content.unitFallback ? sourcePercent : wantPercent;
    for (const NvlinkPeak& p : result.peaks) {
        const double shown = content.showPercent ? p.percentOfPeak : p.gbps;
        content.peaks.push_back({ p.rank, p.start, p.end, std::isnan(shown) ? p.value : shown });
    }
    return content;
}

QString focusNote(const NvlinkPeaksRequest& request, const NvlinkPeaksResult& result)
{
    if (!request.focus.isActive())
        return {};
    const bool anyInterval = std::any_of(result.focusWindows.begin(), result.focusWindows.end(),
        [](const IntervalWindow& w) { return w.last > w.first; });
    return anyInterval ? QObject::tr("Focus %1: peaks among the intervals that overlap it, with the kernels that "
                                     "overlap it; the plot shows the focus range.")
                             .arg(request.focus.label)
                       : QObject::tr("Focus %1: no interval of this recording overlaps it.").arg(request.focus.label);
}

QStringList recordingNotes(const Nvf1Recording& r)
{
    QStringList notes;
    notes << QObject::tr("%1: %2 records, %3 polls of %4 links over %5.")
                 .arg(QFileInfo(r.path).fileName(), withThousandsSeparators(r.stats.records),
                     withThousandsSeparators(r.stats.polls))
                 .arg(r.linkCount())
                 .arg(formatDuration((r.lastUs - r.firstUs) * 1000));
    for (const QString& w : r.warnings)
        notes << QObject::tr("Warning: %1.").arg(w);
    return notes;
}

QString peakCaption(const NvlinkPeak& p)
{
    const QString where = p.link == kAllLinks ? QObject::tr("all links") : QObject::tr("link %1").arg(p.link);
    const QString value = std::isnan(p.gbps) ? QStringLiteral("%1 %").arg(p.percentOfPeak, 0, 'f', 1)
                                             : QStringLiteral("%1 GB/s").arg(p.gbps, 0, 'f', 3);
    return QObject::tr("Peak #%1 (%2 %3, %4, %5 at %6): %7 kernels, %8 NCCL")
        .arg(p.rank)
        .arg(where, p.directionText(), value, formatDuration(p.end - p.start), formatSeconds(p.start, 6),
            withThousandsSeparators(qint64(p.kernels.size())), withThousandsSeparators(qint64(p.ncclKernels)));
}

} // namespace nsw
