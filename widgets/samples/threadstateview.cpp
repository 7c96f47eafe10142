// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/samples/threadstateview.h"

#include "core/profile/sessionclock.h"
#include "core/util/timeformat.h"

#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

namespace nsw {

ThreadStateView::ThreadStateView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void ThreadStateView::setBins(ProfilePtr profile, ThreadStateBins bins)
{
    m_profile = std::move(profile);
    m_bins = std::move(bins);
    m_clockOrigin = m_profile ? sessionClockOrigin(*m_profile) : 0;
    setMinimumHeight(kLegendHeight + int(std::max<std::size_t>(1, m_bins.rows.size())) * kRowHeight + 2);
    updateGeometry();
    update();
}

int ThreadStateView::wantedBins() const
{
    return std::max(10, (width() - kLabelWidth) / 4);
}

QSize ThreadStateView::sizeHint() const
{
    return { 700, minimumHeight() };
}

QColor ThreadStateView::colorOf(SampleActivity activity)
{
    switch (activity) {
    case SampleActivity::Running:
        return QColor(76, 175, 80);
    case SampleActivity::OsRuntime:
        return QColor(66, 133, 244);
    case SampleActivity::Waiting:
        return QColor(244, 180, 0);
    case SampleActivity::Unknown:
        return QColor(189, 189, 189);
    }
    return {};
}

QRect ThreadStateView::binRect(int row, int bin) const
{
    const std::size_t bins = row < int(m_bins.rows.size()) ? m_bins.rows[std::size_t(row)].bins.size() : 0;
    if (bins == 0)
        return {};
    const double w = double(width() - kLabelWidth) / double(bins);
    const int x0 = kLabelWidth + int(w * bin), x1 = kLabelWidth + int(w * (bin + 1));
    return QRect(x0, kLegendHeight + row * kRowHeight + 2, std::max(1, x1 - x0), kRowHeight - 4);
}

QString ThreadStateView::clockText(TimeNs timestamp) const
{
    return formatDuration(timestamp - m_clockOrigin);
}

void ThreadStateView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QFontMetrics fm(font());
    int x = kLabelWidth;
    for (int a = 0; a < kSampleActivityCount; ++a) {
        const QString name = sampleActivityName(SampleActivity(a));
        p.fillRect(QRect(x, 6, 12, 10), colorOf(SampleActivity(a)));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(x + 16, 0, fm.horizontalAdvance(name) + 4, kLegendHeight), Qt::AlignVCenter, name);
        x += fm.horizontalAdvance(name) + 34;
    }
    if (!m_bins.rows.empty()) {
        // The span the bins cover, on the session clock, at the right of the legend.
        const std::size_t bins = m_bins.rows.front().bins.size();
        const QString span = tr("%1 – %2, %3 per bin")
                                 .arg(clockText(m_bins.start), clockText(m_bins.start + m_bins.binNs * TimeNs(bins)),
                                     formatDuration(m_bins.binNs));
        p.setPen(palette().color(QPalette::PlaceholderText));
        const int room = width() - x - 4; // a narrow pane shows the span's start and cuts its end
        p.drawText(QRect(x, 0, room, kLegendHeight), Qt::AlignVCenter | Qt::AlignRight,
            fm.elidedText(span, Qt::ElideRight, room));
    }
    if (m_bins.rows.empty() || !m_profile) {
        p.drawText(rect().adjusted(0, kLegendHeight, 0, 0), Qt::AlignCenter, tr("No samples"));
        return;
    }
    for (std::size_t r = 0; r < m_bins.rows.size(); ++r) {
        const ThreadStateBins::Row& row = m_bins.rows[r];
        const QRect label(4, kLegendHeight + int(r) * kRowHeight, kLabelWidth - 8, kRowHeight);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(label, Qt::AlignVCenter | Qt::AlignLeft,
            fm.elidedText(QStringLiteral("%1 · %2").arg(m_profile->threadLabel(row.thread)).arg(row.samples),
                Qt::ElideMiddle, label.width()));
        for (std::size_t b = 0; b < row.bins.size(); ++b) {
            const QRect cell = binRect(int(r), int(b));
            std::uint32_t total = 0;
            for (const std::uint32_t n : row.bins[b])
                total += n;
            if (total == 0)
                continue;
            // Stacked from the bottom: running, OS runtime, waiting, unknown.
            double bottom = cell.bottom() + 1;
            for (int a = 0; a < kSampleActivityCount; ++a) {
                const double h = double(cell.height()) * row.bins[b][std::size_t(a)] / total;
                p.fillRect(QRectF(cell.left(), bottom - h, cell.width(), h), colorOf(SampleActivity(a)));
                bottom -= h;
            }
        }
    }
}

bool ThreadStateView::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    for (std::size_t r = 0; r < m_bins.rows.size(); ++r)
        for (std::size_t b = 0; b < m_bins.rows[r].bins.size(); ++b) {
            if (!binRect(int(r), int(b)).contains(help->pos()))
                continue;
            const auto& counts = m_bins.rows[r].bins[b];
            QStringList lines { m_profile->threadLabel(m_bins.rows[r].thread),
                tr("%1 – %2").arg(clockText(m_bins.start + m_bins.binNs * TimeNs(b)),
                    clockText(m_bins.start + m_bins.binNs * TimeNs(b + 1))) };
            for (int a = 0; a < kSampleActivityCount; ++a)
                lines << tr("%1: %2 samples").arg(sampleActivityName(SampleActivity(a))).arg(counts[std::size_t(a)]);
            QToolTip::showText(help->globalPos(), lines.join(QLatin1Char('\n')), this);
            return true;
        }
    QToolTip::hideText();
    return true;
}

} // namespace nsw
