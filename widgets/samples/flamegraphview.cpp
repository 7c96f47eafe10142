// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/samples/flamegraphview.h"

#include "core/util/numberformat.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

namespace nsw {

FlameGraphView::FlameGraphView(QWidget* parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::ClickFocus);
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void FlameGraphView::setRows(ProfilePtr profile, std::shared_ptr<const std::vector<SampleTreeRow>> rows, qint64 samples)
{
    m_profile = std::move(profile);
    m_rows = std::move(rows);
    m_samples = samples;
    m_zoom = -1;
    m_ancestors.clear();
    layOut();
    setSearch(m_search);
}

void FlameGraphView::layOut()
{
    const std::size_t n = m_rows ? m_rows->size() : 0;
    m_x.assign(n, 0);
    m_end.assign(n, 0);
    m_maxDepth = 0;
    std::vector<qint64> next(n, 0);
    qint64 rootNext = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const SampleTreeRow& r = (*m_rows)[i];
        qint64& slot = r.parentRow < 0 ? rootNext : next[std::size_t(r.parentRow)];
        m_x[i] = slot;
        slot += r.total;
        next[i] = m_x[i];
        m_maxDepth = std::max(m_maxDepth, int(r.depth) + 1);
    }
    // A subtree is contiguous in the preorder: it ends where its last descendant's does.
    for (std::size_t i = n; i-- > 0;) {
        m_end[i] = std::max(m_end[i], int(i) + 1);
        if (const int p = (*m_rows)[i].parentRow; p >= 0)
            m_end[std::size_t(p)] = std::max(m_end[std::size_t(p)], m_end[i]);
    }
    setMinimumHeight(std::max(1, m_maxDepth) * kRowHeight + 1);
    updateGeometry();
    update();
}

QSize FlameGraphView::sizeHint() const
{
    return { 600, std::max(1, m_maxDepth) * kRowHeight + 1 };
}

void FlameGraphView::setSearch(const QString& text)
{
    m_search = text;
    m_matching = 0;
    const std::size_t n = m_rows ? m_rows->size() : 0;
    m_match.assign(n, 0);
    if (!text.isEmpty()) {
        std::size_t until = 0; // inside a matching frame's subtree: counted already
        for (std::size_t i = 0; i < n; ++i) {
            const SampleTreeRow& r = (*m_rows)[i];
            m_match[i] = sampleFunctionName(*m_profile, r.function).contains(text, Qt::CaseInsensitive) ? 1 : 0;
            if (m_match[i] && i >= until) {
                m_matching += r.total;
                until = std::size_t(m_end[i]);
            }
        }
    }
    update();
}

void FlameGraphView::zoomTo(int row)
{
    if (!m_rows || row < -1 || row >= int(m_rows->size()))
        return;
    m_zoom = row;
    m_ancestors.clear();
    for (int up = row >= 0 ? (*m_rows)[std::size_t(row)].parentRow : -1; up >= 0;
         up = (*m_rows)[std::size_t(up)].parentRow)
        m_ancestors.insert(m_ancestors.begin(), up);
    update();
}

void FlameGraphView::zoomOut()
{
    zoomTo(m_zoom >= 0 ? (*m_rows)[std::size_t(m_zoom)].parentRow : -1);
}

int FlameGraphView::drawDepth(int row) const
{
    if (m_zoom < 0)
        return int((*m_rows)[std::size_t(row)].depth);
    return int(m_ancestors.size() + (*m_rows)[std::size_t(row)].depth - (*m_rows)[std::size_t(m_zoom)].depth);
}

QRectF FlameGraphView::rowRect(int row) const
{
    if (!m_rows || row < 0 || row >= int(m_rows->size()))
        return {};
    const auto r = std::size_t(row);
    const int first = m_zoom < 0 ? 0 : m_zoom, last = m_zoom < 0 ? int(m_rows->size()) : m_end[std::size_t(m_zoom)];
    if (row < first || row >= last) {
        // The zoom frame's ancestors come before it in the preorder and are drawn full width on top.
        const auto it = std::find(m_ancestors.begin(), m_ancestors.end(), row);
        if (it == m_ancestors.end())
            return {};
        return QRectF(0, int(it - m_ancestors.begin()) * kRowHeight, width(), kRowHeight - 1);
    }
    const qint64 viewStart = m_zoom < 0 ? 0 : m_x[std::size_t(m_zoom)];
    const qint64 viewSamples = m_zoom < 0 ? m_samples : (*m_rows)[std::size_t(m_zoom)].total;
    if (viewSamples <= 0)
        return {};
    const double scale = double(width()) / double(viewSamples);
    const double w = double((*m_rows)[r].total) * scale;
    if (w < 1.0)
        return {};
    return QRectF(double(m_x[r] - viewStart) * scale, drawDepth(row) * kRowHeight, w, kRowHeight - 1);
}

QColor FlameGraphView::colorOf(int row) const
{
    const std::int32_t f = (*m_rows)[std::size_t(row)].function;
    QColor c;
    if (f < 0)
        c = QColor(200, 200, 200);
    else if (sampleIsKernel(*m_profile, f))
        c = QColor(215, 80, 60);
    else if (sampleIsUnresolved(*m_profile, f))
        c = QColor(170, 170, 170);
    else {
        const uint h = qHash(sampleFunctionName(*m_profile, f));
        c = QColor::fromHsv(int(10 + h % 45), int(150 + (h >> 8) % 80), int(215 + (h >> 16) % 40));
    }
    if (!m_search.isEmpty())
        c = m_match[std::size_t(row)] ? QColor(220, 60, 200) : c.lighter(135);
    return c;
}

void FlameGraphView::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    p.fillRect(event->rect(), palette().base());
    if (!m_rows || m_rows->empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No samples"));
        return;
    }
    const QFontMetrics fm(font());
    const auto drawRow = [&](int row, const QRectF& r) {
        p.fillRect(r, colorOf(row));
        if (r.width() > 30) {
            const QString name = sampleFrameLabel(*m_profile, (*m_rows)[std::size_t(row)].function);
            p.setPen(Qt::black);
            p.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                fm.elidedText(name, Qt::ElideRight, int(r.width()) - 5));
        }
    };
    for (const int a : m_ancestors)
        drawRow(a, rowRect(a));
    const int first = m_zoom < 0 ? 0 : m_zoom, last = m_zoom < 0 ? int(m_rows->size()) : m_end[std::size_t(m_zoom)];
    for (int i = first; i < last;) {
        const QRectF r = rowRect(i);
        if (r.isEmpty() || r.top() > event->rect().bottom()) {
            i = m_end[std::size_t(i)]; // narrower than a pixel, or below what is painted: so are its descendants
            continue;
        }
        if (r.bottom() >= event->rect().top())
            drawRow(i, r);
        ++i;
    }
}

int FlameGraphView::rowAt(const QPoint& pos) const
{
    if (!m_rows)
        return -1;
    for (const int a : m_ancestors)
        if (rowRect(a).contains(pos))
            return a;
    const int first = m_zoom < 0 ? 0 : m_zoom, last = m_zoom < 0 ? int(m_rows->size()) : m_end[std::size_t(m_zoom)];
    for (int i = first; i < last;) {
        const QRectF r = rowRect(i);
        if (r.isEmpty() || r.left() > pos.x() || r.right() < pos.x()) {
            i = m_end[std::size_t(i)];
            continue;
        }
        if (r.contains(pos))
            return i;
        ++i;
    }
    return -1;
}

void FlameGraphView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::RightButton) {
        zoomOut();
        return;
    }
    const int row = rowAt(event->position().toPoint());
    if (row < 0)
        return;
    zoomTo(row);
    Q_EMIT functionClicked((*m_rows)[std::size_t(row)].function);
}

void FlameGraphView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape || event->key() == Qt::Key_Backspace)
        zoomOut();
    else
        QWidget::keyPressEvent(event);
}

bool FlameGraphView::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const int row = rowAt(help->pos());
    if (row < 0) {
        QToolTip::hideText();
        return true;
    }
    const SampleTreeRow& r = (*m_rows)[std::size_t(row)];
    const auto pct = [&](qint64 n) { return QString::number(samplePercent(n, m_samples), 'f', 1); };
    QToolTip::showText(help->globalPos(),
        tr("%1\n%2\n%3 samples on the stack (%4 %), %5 running in it (%6 %)")
            .arg(sampleFrameLabel(*m_profile, r.function), sampleModuleName(*m_profile, r.function),
                withThousandsSeparators(r.total), pct(r.total), withThousandsSeparators(r.self), pct(r.self)),
        this);
    return true;
}

} // namespace nsw
