// SPDX-License-Identifier: GPL-3.0-or-later
#include "categorychart.h"

#include "core/util/numberformat.h"
#include "core/util/timeformat.h"
#include "widgets/common/plotexport.h"

#include <algorithm>

namespace nsw {

namespace {
QColor argb(std::uint32_t c)
{
    return QColor::fromRgba(c);
}

QString number(double v)
{
    return QString::number(v, 'f', v >= 100 ? 0 : (v >= 10 ? 1 : 2));
}
} // namespace

CategoryChart::CategoryChart(QWidget* parent)
    : QCustomPlot(parent)
    , m_title(new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() + 1, QFont::Bold)))
    , m_subtitle(new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() - 1)))
{
    setProperty("nswBackground", QBrush(Qt::white));
    // Title rows across the whole width; below them the axis rect and, in its own column packed at the top, the
    // legend, so that it never hides a bar.
    QCPAxisRect* rect = axisRect();
    plotLayout()->take(rect);
    plotLayout()->simplify();
    plotLayout()->addElement(0, 0, m_title);
    plotLayout()->addElement(1, 0, m_subtitle);
    auto* body = new QCPLayoutGrid;
    plotLayout()->addElement(2, 0, body);
    m_subtitle->setTextColor(QColor(80, 80, 80));
    m_subtitle->setMargins(QMargins(0, 0, 0, 4));
    body->addElement(0, 0, rect);
    auto* side = new QCPLayoutGrid;
    body->addElement(0, 1, side);
    body->setColumnStretchFactor(1, 0.001);
    legend->setVisible(true);
    legend->setBorderPen(Qt::NoPen);
    legend->setSelectableParts(QCPLegend::spNone);
    side->addElement(0, 0, legend);
    side->addElement(1, 0, new QCPLayoutElement(this));
    side->setRowStretchFactor(0, 0.001);
    side->setMargins(QMargins(0, 0, 8, 0));
    legend->setRowSpacing(0);
    legend->setIconSize(14, 10);
    xAxis->grid()->setVisible(false);
    xAxis->setTickLength(0, 0);
    yAxis->grid()->setSubGridVisible(false);
    setMinimumSize(320, 220);
}

void CategoryChart::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    fitTickLabels();
}

void CategoryChart::fitTickLabels()
{
    // Tilt the bar labels when they would not fit side by side.
    const qsizetype bars = m_table.bars.size();
    int widest = 0;
    const QFontMetrics metrics(xAxis->tickLabelFont());
    for (const QString& label : m_table.bars)
        widest = std::max(widest, metrics.horizontalAdvance(label));
    const double room
        = bars > 0 ? 0.85 * double(axisRect()->width() > 0 ? axisRect()->width() : width()) / double(bars) : 1;
    const double angle = widest > room ? 25 : 0;
    bool changed = false;
    if (xAxis->tickLabelRotation() != angle) {
        xAxis->setTickLabelRotation(angle);
        changed = true;
    }
    // Many categories in a short dock: the legend wraps into more columns rather than overlapping its entries.
    const int items = legend->itemCount();
    int itemHeight = std::max(QFontMetrics(legend->font()).height(), legend->iconSize().height());
    if (items > 0)
        itemHeight += legend->item(0)->margins().top() + legend->item(0)->margins().bottom() + legend->rowSpacing();
    const int rows
        = std::max(1, (axisRect()->height() > 0 ? axisRect()->height() : height() / 2) / std::max(1, itemHeight));
    const int wrap = items > rows ? rows : 0;
    if (legend->wrap() != wrap) {
        legend->setWrap(wrap);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
        changed = true;
    }
    if (changed)
        replot(QCustomPlot::rpQueuedReplot);
}

void CategoryChart::setTable(const CategoryTable& table, const QString& subtitle)
{
    m_table = table;
    clearPlottables();
    clearItems();
    m_highlight = nullptr;
    const std::size_t bars = std::size_t(table.bars.size());
    const TimeNs maxTotal = bars ? *std::max_element(table.barTotal.begin(), table.barTotal.end()) : 0;
    if (maxTotal >= 1'000'000'000) {
        m_unitNs = 1e9;
        m_unit = QStringLiteral("s");
    } else if (maxTotal >= 1'000'000) {
        m_unitNs = 1e6;
        m_unit = QStringLiteral("ms");
    } else if (maxTotal >= 1'000) {
        m_unitNs = 1e3;
        m_unit = QStringLiteral("µs");
    } else {
        m_unitNs = 1;
        m_unit = QStringLiteral("ns");
    }
    m_title->setText(tr("Kernel categories · %1 · time mode %2").arg(subtitle, timeModeName(table.mode)));
    m_subtitle->setText(timeModeDescription(table.mode));

    QVector<double> keys;
    for (std::size_t b = 0; b < bars; ++b)
        keys.append(double(b + 1));
    // Created from the top of the stack down, so that the legend lists them in the order they are stacked.
    std::vector<QCPBars*> stack(table.rowCount(), nullptr);
    for (std::size_t r = table.rowCount(); r-- > 0;) {
        auto* b = new QCPBars(xAxis, yAxis);
        b->setName(table.categories[qsizetype(r)]);
        const QColor c = argb(table.colors[r]);
        b->setBrush(c);
        b->setPen(QPen(c.darker(130), 0.8));
        b->setWidth(0.6);
        b->setStackingGap(0);
        b->setSelectable(QCP::stNone);
        QVector<double> values;
        for (std::size_t bar = 0; bar < bars; ++bar)
            values.append(scaled(table.time[r][bar]));
        b->setData(keys, values, true);
        stack[r] = b;
    }
    for (std::size_t r = 1; r < stack.size(); ++r)
        stack[r]->moveAbove(stack[r - 1]);

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t b = 0; b < bars; ++b)
        ticker->addTick(double(b + 1), table.bars[qsizetype(b)]);
    xAxis->setTicker(ticker);
    fitTickLabels();
    xAxis->setRange(0.4, double(bars) + 0.6);
    yAxis->setLabel(tr("time [%1] (%2)").arg(timeModeName(table.mode), m_unit));
    const double top = scaled(maxTotal);
    yAxis->setRange(0, top > 0 ? top * 1.12 : 1);

    // Value labels where a segment is at least 4 % of the tallest bar; the total (and any warning) on top.
    for (std::size_t bar = 0; bar < bars; ++bar) {
        TimeNs base = 0;
        for (std::size_t r = 0; r < table.rowCount(); ++r) {
            const TimeNs t = table.time[r][bar];
            if (t > 0 && double(t) >= 0.04 * double(maxTotal)) {
                auto* label = new QCPItemText(this);
                label->position->setCoords(double(bar + 1), scaled(base) + scaled(t) / 2);
                label->setText(number(scaled(t)));
                const QColor c = argb(table.colors[r]);
                label->setColor(c.lightness() < 140 ? Qt::white : Qt::black);
                label->setClipToAxisRect(true);
            }
            base += t;
        }
        auto* total = new QCPItemText(this);
        total->position->setCoords(double(bar + 1), scaled(base));
        total->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        QString text = number(scaled(base)) + QLatin1Char(' ') + m_unit;
        if (!table.barWarnings.value(qsizetype(bar)).isEmpty()) {
            text = QStringLiteral("⚠ ") + text;
            total->setColor(QColor(170, 80, 0));
        }
        total->setText(text);
        total->setPadding(QMargins(0, 0, 0, 3));
    }
    replot();
}

CategoryChart::Hit CategoryChart::hitTest(const QPointF& pos) const
{
    Hit hit;
    if (m_table.bars.isEmpty() || !axisRect()->rect().contains(pos.toPoint()))
        return hit;
    const double key = xAxis->pixelToCoord(pos.x());
    const int bar = int(std::lround(key)) - 1;
    if (bar < 0 || bar >= m_table.bars.size() || std::abs(key - double(bar + 1)) > 0.3)
        return hit;
    const double value = yAxis->pixelToCoord(pos.y());
    double base = 0;
    for (std::size_t r = 0; r < m_table.rowCount(); ++r) {
        const double h = scaled(m_table.time[r][std::size_t(bar)]);
        if (h > 0 && value >= base && value < base + h)
            return Hit { bar, int(r) };
        base += h;
    }
    return hit;
}

void CategoryChart::highlight(Hit hit)
{
    if (m_highlight) {
        removeItem(m_highlight);
        m_highlight = nullptr;
    }
    if (hit.bar >= 0 && hit.row >= 0) {
        TimeNs base = 0;
        for (int r = 0; r < hit.row; ++r)
            base += m_table.time[std::size_t(r)][std::size_t(hit.bar)];
        const TimeNs t = m_table.time[std::size_t(hit.row)][std::size_t(hit.bar)];
        m_highlight = new QCPItemRect(this);
        m_highlight->topLeft->setCoords(hit.bar + 1 - 0.32, scaled(base + t));
        m_highlight->bottomRight->setCoords(hit.bar + 1 + 0.32, scaled(base));
        m_highlight->setPen(QPen(Qt::black, 2));
        m_highlight->setBrush(Qt::NoBrush);
        markScreenOnly(m_highlight);
    }
    replot();
}

QString CategoryChart::describe(Hit hit) const
{
    if (hit.bar < 0 || hit.row < 0)
        return {};
    const std::size_t r = std::size_t(hit.row);
    const std::size_t b = std::size_t(hit.bar);
    QString text = tr("%1: %2 (%3 % of %4, %5)")
                       .arg(m_table.categories[hit.row], formatDuration(m_table.time[r][b]))
                       .arg(m_table.share(r, b), 0, 'f', 1)
                       .arg(m_table.bars[hit.bar], formatDuration(m_table.barTotal[b]));
    if (hit.row != m_table.cpuRow)
        text += tr("\n%1 instances · time mode %2")
                    .arg(withThousandsSeparators(m_table.instances[r][b]), timeModeName(m_table.mode));
    if (!m_table.barWarnings.value(hit.bar).isEmpty())
        text += QStringLiteral("\n⚠ ") + m_table.barWarnings[hit.bar];
    return text;
}

} // namespace nsw
